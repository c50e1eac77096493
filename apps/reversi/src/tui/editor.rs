//! The position editor: a cursor on the board places Black, White or nothing, the side to
//! move, the rule, a clear board, the start position, or a pasted board string, OBF line, GGF
//! or transcript; the position is checked as it changes and a possible one is played from.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};
use reversi_core::{BoardSize, Color, Position, Rules, Score, Square};
use reversi_formats::position::{board_string, parse_position};
use reversi_game::result_line;

use super::board::{board_frame, Board};
use super::theme::Theme;

/// The position being set up, the cursor, and the line being pasted or typed.
#[derive(Debug, Clone)]
pub struct Editor {
    position: Position,
    cursor: Square,
    /// The text being pasted, while the paste line is open.
    paste: Option<String>,
    /// Why the last paste or Enter was refused.
    error: Option<String>,
}

/// What a key on the editor leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditorAction {
    Stay,
    /// Play from this position (checked: it can arise in a game).
    Play(Box<Position>),
    Back,
}

impl Editor {
    /// The editor on the start position of `size` and `rules`.
    #[must_use]
    pub fn new(size: BoardSize, rules: Rules) -> Editor {
        let c = size.get() / 2 - 1;
        Editor {
            position: Position::start(size, rules),
            cursor: Square::new(c, c),
            paste: None,
            error: None,
        }
    }

    /// The position as it stands.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn on_key(&mut self, key: KeyEvent) -> EditorAction {
        if self.paste.is_some() {
            self.on_paste_key(key);
            return EditorAction::Stay;
        }
        let p = &self.position;
        let n = p.size().get();
        let (c, r) = (self.cursor.col(), self.cursor.row());
        self.error = None;
        match key.code {
            KeyCode::Left | KeyCode::Char('h') => self.cursor = Square::new(c.saturating_sub(1), r),
            KeyCode::Right | KeyCode::Char('l') => self.cursor = Square::new((c + 1).min(n - 1), r),
            KeyCode::Up | KeyCode::Char('k') => self.cursor = Square::new(c, r.saturating_sub(1)),
            KeyCode::Down | KeyCode::Char('j') => self.cursor = Square::new(c, (r + 1).min(n - 1)),
            KeyCode::Char('x' | 'b') => self.put(Some(Color::Black)),
            KeyCode::Char('o' | 'w') => self.put(Some(Color::White)),
            KeyCode::Char('-' | '.') | KeyCode::Delete | KeyCode::Backspace => self.put(None),
            KeyCode::Char(' ') => {
                // Empty, Black, White, empty: one key walks a square through all three.
                let next = match p.get(self.cursor) {
                    None => Some(Color::Black),
                    Some(Color::Black) => Some(Color::White),
                    Some(Color::White) => None,
                };
                self.put(next);
            }
            KeyCode::Tab | KeyCode::Char('t') => {
                self.position = p.with_turn(p.turn().opposite());
            }
            KeyCode::Char('r') => {
                let rules = match p.rules() {
                    Rules::Othello => Rules::Reversi,
                    Rules::Reversi => Rules::Othello,
                };
                self.position = Position::setup(p.size(), rules, p.cells(), p.turn())
                    .unwrap_or_else(|| Position::start(p.size(), rules));
            }
            KeyCode::Char('c') => {
                let empty = vec![None; p.size().cells()];
                self.position = Position::setup(p.size(), p.rules(), &empty, Color::Black)
                    .unwrap_or_else(|| p.clone());
            }
            KeyCode::Char('s') => self.position = Position::start(p.size(), p.rules()),
            KeyCode::Char('p') => self.paste = Some(String::new()),
            KeyCode::Enter => match self.position.check() {
                Ok(()) => return EditorAction::Play(Box::new(self.position.clone())),
                Err(e) => self.error = Some(format!("Cannot play from here: {e}")),
            },
            KeyCode::Esc | KeyCode::Char('q') => return EditorAction::Back,
            _ => {}
        }
        EditorAction::Stay
    }

    fn put(&mut self, disc: Option<Color>) {
        let p = &self.position;
        let mut cells = p.cells().to_vec();
        cells[self.cursor.index(p.size())] = disc;
        if let Some(next) = Position::setup(p.size(), p.rules(), &cells, p.turn()) {
            self.position = next;
        }
    }

    fn on_paste_key(&mut self, key: KeyEvent) {
        let Some(text) = &mut self.paste else { return };
        match key.code {
            KeyCode::Char(ch) => text.push(ch),
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Esc => self.paste = None,
            KeyCode::Enter => {
                let p = &self.position;
                match parse_position(text, p.size(), p.rules()) {
                    Ok(input) => {
                        self.position = input.position().clone();
                        let n = self.position.size().get();
                        let c = self.cursor;
                        self.cursor = Square::new(c.col().min(n - 1), c.row().min(n - 1));
                        self.paste = None;
                        self.error = None;
                    }
                    Err(e) => self.error = Some(e.to_string()),
                }
            }
            _ => {}
        }
    }

    /// What the position is: ready to play, finished, or impossible and why.
    fn status(&self) -> (String, bool) {
        let p = &self.position;
        if let Err(e) = p.check() {
            return (format!("Impossible: {e}"), true);
        }
        if p.is_game_over() {
            return (format!("Finished: {}", result_line(Score::of(p))), false);
        }
        let moves = p.legal_moves().len();
        if moves == 0 {
            return (format!("{} has no move and passes", p.turn()), false);
        }
        let s = if moves == 1 { "" } else { "s" };
        (
            format!("{} to move, {moves} legal move{s}", p.turn()),
            false,
        )
    }

    pub fn render(&self, theme: Theme, area: Rect, buf: &mut Buffer) {
        let p = &self.position;
        let [title, middle, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(0),
            Constraint::Length(2),
        ])
        .areas(area);
        Line::styled(
            format!(" Set up a position · {} {}", p.size(), p.rules()),
            theme.title(),
        )
        .render(title, buf);
        let (inner, panel_area) = board_frame(middle, p.size().get(), buf);
        Board {
            position: p,
            cursor: Some(self.cursor),
            last: None,
            hints: &[],
            assist: true,
            theme,
        }
        .render(inner, buf);

        let mut lines = Vec::new();
        for color in [Color::Black, Color::White] {
            let mark = if p.turn() == color {
                "  ◀ to move"
            } else {
                ""
            };
            lines.push(Line::raw(format!(
                "{} {:<6} {:>3}{mark}",
                theme.disc(color),
                color.name(),
                p.disc_count(color)
            )));
        }
        lines.push(Line::raw(""));
        let (status, bad) = self.status();
        lines.push(if bad {
            Line::styled(status, theme.error())
        } else {
            Line::raw(status)
        });
        if let Some(e) = &self.error {
            lines.push(Line::styled(e.clone(), theme.error()));
        }
        lines.push(Line::raw(""));
        match &self.paste {
            Some(text) => {
                lines.push(Line::raw("Paste a board and side, OBF, GGF or transcript:"));
                lines.push(Line::styled(format!("{text}_"), theme.selected()));
            }
            None => lines.push(Line::styled(board_string(p), theme.dim())),
        }
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .render(panel_area.inner(Margin::new(1, 0)), buf);
        let help = if self.paste.is_some() {
            vec![Line::styled(" Enter: read it · Esc: cancel", theme.dim())]
        } else {
            vec![
                Line::styled(
                    " arrows move · x/o/- place · space cycle · t side · r rule",
                    theme.dim(),
                ),
                Line::styled(
                    " c clear · s start · p paste · Enter play from here · q back",
                    theme.dim(),
                ),
            ]
        };
        Paragraph::new(help).render(keys, buf);
    }
}

#[cfg(test)]
mod tests;
