//! The explorer panel of the game and replay screens (`x` shows and hides it): the moves the
//! history's games played from the position on the board, with their games, Black's wins and
//! draws, Black's mean margin and the opening book's value.
//!
//! The panel asks the database when the position changes, not when it draws; the book's
//! values come at once, so the panel never waits for a search.

use std::path::PathBuf;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};
use reversi_core::{BoardSize, Position};
use reversi_game::{explore, Explored, Valuation};
use reversi_store::{Store, EXPLORER_MAX_DISCS};

use super::theme::Theme;

/// The most moves listed; the rest are counted in a last line.
const MAX_ROWS: usize = 10;

/// The panel's state: shown or not, the database, and the answer for the position shown.
pub struct ExplorerPanel {
    pub open: bool,
    db: Option<PathBuf>,
    store: Option<Store>,
    /// The position of `answer`.
    asked: Option<Position>,
    answer: Result<Explored, String>,
}

impl ExplorerPanel {
    #[must_use]
    pub fn new(db: Option<PathBuf>) -> ExplorerPanel {
        ExplorerPanel {
            open: false,
            db,
            store: None,
            asked: None,
            answer: Err(String::new()),
        }
    }

    /// Shows or hides the panel, asking about `pos` when shown.
    pub fn toggle(&mut self, pos: &Position) {
        self.open = !self.open;
        self.update(pos);
    }

    /// Asks about `pos` if the panel is shown and was showing another position.
    pub fn update(&mut self, pos: &Position) {
        if !self.open || self.asked.as_ref() == Some(pos) {
            return;
        }
        self.asked = Some(pos.clone());
        self.answer = self.ask(pos);
    }

    fn ask(&mut self, pos: &Position) -> Result<Explored, String> {
        if pos.size() != BoardSize::EIGHT {
            return Err("The explorer covers 8x8 games.".into());
        }
        if self.store.is_none() {
            // An existing database only: showing the panel must not create one.
            let path = self
                .db
                .as_ref()
                .filter(|p| p.exists())
                .ok_or("No game database.")?;
            self.store = Some(Store::open(path).map_err(|e| e.to_string())?);
        }
        let store = self.store.as_ref().ok_or("No game database.")?;
        explore(store, crate::advisor::get(), pos, Valuation::Book).map_err(|e| e.to_string())
    }

    /// Splits a screen's side panel: the screen's own part above, the explorer's below when
    /// shown.
    #[must_use]
    pub fn split(&self, area: Rect) -> (Rect, Option<Rect>) {
        if !self.open {
            return (area, None);
        }
        let want = u16::try_from(self.lines_wanted()).unwrap_or(u16::MAX);
        let [top, bottom] = Layout::vertical([
            Constraint::Min(0),
            Constraint::Length(want.min(area.height)),
        ])
        .areas(area);
        (top, Some(bottom))
    }

    fn lines_wanted(&self) -> usize {
        match &self.answer {
            Ok(e) if !e.lines.is_empty() => 3 + e.lines.len().min(MAX_ROWS + 1),
            _ => 3,
        }
    }

    pub fn render(&self, theme: Theme, area: Rect, buf: &mut Buffer) {
        Paragraph::new(self.lines(theme)).render(area.inner(Margin::new(1, 0)), buf);
    }

    fn lines(&self, theme: Theme) -> Vec<Line<'static>> {
        let mut lines = vec![Line::raw("")];
        let e = match &self.answer {
            Ok(e) => e,
            Err(text) => {
                lines.push(Line::styled("Explorer (x: hide)", theme.title()));
                lines.push(Line::raw(text.clone()));
                return lines;
            }
        };
        let games = e.games();
        lines.push(Line::styled(
            format!(
                "Explorer: {games} game{} (x: hide)",
                if games == 1 { "" } else { "s" }
            ),
            theme.title(),
        ));
        if games == 0 {
            let discs = 64 - e.position.empty_count();
            lines.push(Line::raw(if discs > EXPLORER_MAX_DISCS as usize {
                format!("Kept to {EXPLORER_MAX_DISCS} discs.")
            } else {
                "No stored game reached this.".to_string()
            }));
            return lines;
        }
        lines.push(Line::styled(
            format!(
                "{:<4} {:>6} {:>6} {:>5} {:>6} {:>4}",
                "move", "games", "Black", "draw", "margin", "book"
            ),
            theme.dim(),
        ));
        for l in e.lines.iter().take(MAX_ROWS) {
            let m = &l.played;
            let book = l
                .value
                .as_ref()
                .map_or("·".to_string(), |c| c.short_score());
            lines.push(Line::raw(format!(
                "{:<4} {:>6} {:>5.1}% {:>4.1}% {:>+6.1} {:>4}",
                m.square.to_string(),
                m.games,
                100.0 * m.black_win_rate(),
                100.0 * m.draws as f64 / m.games.max(1) as f64,
                m.mean_disc_margin(),
                book
            )));
        }
        if e.lines.len() > MAX_ROWS {
            lines.push(Line::styled(
                format!("and {} more moves", e.lines.len() - MAX_ROWS),
                theme.dim(),
            ));
        }
        lines
    }
}

#[cfg(test)]
mod tests;
