//! The history screen: the stored games newest first, scrollable, with keys to replay one,
//! resume one in progress, or delete one after a y/n confirmation.

use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Widget;
use reversi_store::{GameFilter, GameId, GameInfo, Status};

use super::game::Note;
use super::theme::Theme;
use reversi_game::{printable, result_line, Replay};
use reversi_store::History;

/// What the app does after a key on the history screen.
pub enum HistoryAction {
    Stay,
    Back,
    Replay(Box<Replay>),
    /// Continue this game in progress.
    Resume(GameId),
}

/// The history screen.
pub struct HistoryScreen {
    history: Option<History>,
    pub games: Vec<GameInfo>,
    pub selected: usize,
    /// The game to delete once `y` confirms.
    pub confirm: Option<GameId>,
    pub note: Option<Note>,
}

impl HistoryScreen {
    /// The games of the database at `db` (none when there is no database yet).
    #[must_use]
    pub fn open(db: Option<&Path>) -> HistoryScreen {
        let mut screen = HistoryScreen {
            history: db.map(History::at),
            games: Vec::new(),
            selected: 0,
            confirm: None,
            note: None,
        };
        screen.reload();
        screen
    }

    /// The saved games, when there is a database.
    pub fn history(&mut self) -> Option<&mut History> {
        self.history.as_mut()
    }

    /// Reads the list again (after a game was played or deleted).
    pub fn reload(&mut self) {
        if let Some(history) = &mut self.history {
            match history.list(&GameFilter::default()) {
                Ok(games) => self.games = games,
                Err(e) => self.error(e.to_string()),
            }
        }
        self.selected = self.selected.min(self.games.len().saturating_sub(1));
    }

    fn error(&mut self, text: String) {
        self.note = Some(Note { text, error: true });
    }

    fn chosen(&self) -> Option<&GameInfo> {
        self.games.get(self.selected)
    }

    pub fn on_key(&mut self, key: KeyEvent) -> HistoryAction {
        if let Some(id) = self.confirm.take() {
            if matches!(key.code, KeyCode::Char('y' | 'Y')) {
                self.delete(id);
            } else {
                self.note = Some(Note {
                    text: format!("Game {id} kept"),
                    error: false,
                });
            }
            return HistoryAction::Stay;
        }
        self.note = None;
        let last = self.games.len().saturating_sub(1);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.selected = (self.selected + 1).min(last),
            KeyCode::PageUp => self.selected = self.selected.saturating_sub(10),
            KeyCode::PageDown => self.selected = (self.selected + 10).min(last),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = last,
            KeyCode::Enter | KeyCode::Char('r') => return self.replay(),
            KeyCode::Char('c') => match self.chosen() {
                Some(g) if g.status == Status::InProgress => return HistoryAction::Resume(g.id),
                Some(g) => self.error(format!("Game {} has ended: only replay", g.id)),
                None => {}
            },
            KeyCode::Char('d') | KeyCode::Delete => {
                self.confirm = self.chosen().map(|g| g.id);
            }
            KeyCode::Esc | KeyCode::Char('q') => return HistoryAction::Back,
            _ => {}
        }
        HistoryAction::Stay
    }

    fn replay(&mut self) -> HistoryAction {
        let Some(id) = self.chosen().map(|g| g.id) else {
            return HistoryAction::Stay;
        };
        let Some(history) = &mut self.history else {
            return HistoryAction::Stay;
        };
        match history.replay(id) {
            Ok(replay) => HistoryAction::Replay(Box::new(replay)),
            Err(e) => {
                self.error(e.to_string());
                HistoryAction::Stay
            }
        }
    }

    fn delete(&mut self, id: GameId) {
        let Some(history) = &mut self.history else {
            return;
        };
        match history.delete(id) {
            Ok(_) => {
                self.note = Some(Note {
                    text: format!("Game {id} deleted"),
                    error: false,
                });
                self.reload();
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    pub fn render(&self, theme: Theme, area: Rect, buf: &mut Buffer) {
        let [title, header, list, note, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Length(1),
            Constraint::Min(0),
            Constraint::Length(1),
            Constraint::Length(1),
        ])
        .areas(area);
        Line::styled(
            format!(" History · {} games", self.games.len()),
            theme.title(),
        )
        .render(title, buf);
        Line::styled(
            format!(
                "  {:>5}  {:<10}  {:<20}  {:<13}  {}",
                "id", "date", "players", "board", "result"
            ),
            theme.dim(),
        )
        .render(header, buf);
        if self.games.is_empty() {
            let text = match &self.history {
                Some(history) => format!("  No games yet in {}", history.path().display()),
                None => "  No game database (pass --db PATH or set REVERSI_DB)".into(),
            };
            Line::raw(text).render(list, buf);
        }
        // Scroll so that the selected game is on screen.
        let height = usize::from(list.height);
        let first = (self.selected + 1).saturating_sub(height);
        for (row, (i, g)) in self
            .games
            .iter()
            .enumerate()
            .skip(first)
            .take(height)
            .enumerate()
        {
            let line = row_text(g);
            let y = list.y + row as u16;
            let rect = Rect {
                y,
                height: 1,
                ..list
            };
            if i == self.selected {
                Line::styled(format!("▶{line}"), theme.selected()).render(rect, buf);
            } else {
                Line::raw(format!(" {line}")).render(rect, buf);
            }
        }
        if let Some(id) = self.confirm {
            Line::styled(format!(" Delete game {id}? y/n"), theme.banner()).render(note, buf);
        } else if let Some(n) = &self.note {
            let style = if n.error { theme.error() } else { theme.dim() };
            Line::styled(format!(" {}", n.text), style).render(note, buf);
        }
        Line::styled(
            " ↑↓ choose · Enter/r replay · c continue (in progress) · d delete · q back",
            theme.dim(),
        )
        .render(keys, buf);
    }
}

/// One game of the list: id, date, players, board and rule, status or result.
fn row_text(g: &GameInfo) -> String {
    let date = g
        .started_at
        .as_deref()
        .map_or("-", |d| d.get(..10).unwrap_or(d));
    // Names and dates may come from an imported file: shown escaped.
    let date = printable(date);
    let players = format!(
        "{} vs {}",
        printable(&g.black.name),
        printable(&g.white.name)
    );
    let result = match (g.status, g.score) {
        (Status::InProgress, _) => format!("in progress ({} moves)", g.move_count),
        (Status::Finished, Some(s)) => result_line(s),
        (Status::Finished, None) => "finished".into(),
        (Status::Abandoned, _) => "abandoned".into(),
    };
    format!(
        " {:>5}  {date:<10}  {:<20}  {:<13}  {result}",
        g.id,
        cut(&players, 20),
        format!("{} {}", g.size, g.rules)
    )
}

/// `text` cut to `width` characters, with `…` when cut.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(width - 1).collect();
        s.push('…');
        s
    }
}

#[cfg(test)]
mod tests;
