//! The replay screen: a stored game stepped through forwards and backwards, with the board,
//! the last move and its flips, the opening's name, the counts, the move number and the move
//! list.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use reversi_core::{Color, Move};

use super::board::{board_frame, Board};
use super::explorer::ExplorerPanel;
use super::theme::Theme;
use reversi_game::{outcome_text, player_name, record_note, Replay};

/// What the app does after a key on the replay screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayAction {
    Stay,
    Leave,
}

/// The replay screen: the game and a move number being typed.
pub struct ReplayScreen {
    pub replay: Replay,
    /// Digits typed for a jump, applied by Enter.
    pub typed: String,
}

impl ReplayScreen {
    #[must_use]
    pub fn new(replay: Replay) -> ReplayScreen {
        ReplayScreen {
            replay,
            typed: String::new(),
        }
    }

    pub fn on_key(&mut self, key: KeyEvent) -> ReplayAction {
        let r = &mut self.replay;
        match key.code {
            KeyCode::Left | KeyCode::Up | KeyCode::Char('h' | 'k') => r.back(),
            KeyCode::Right | KeyCode::Down | KeyCode::Char('l' | 'j' | ' ') => r.forward(),
            KeyCode::Home | KeyCode::Char('g') => r.jump(0),
            KeyCode::End | KeyCode::Char('G') => r.jump(usize::MAX),
            KeyCode::Char(d) if d.is_ascii_digit() && self.typed.len() < 4 => self.typed.push(d),
            KeyCode::Backspace => {
                self.typed.pop();
            }
            KeyCode::Enter => {
                if let Ok(n) = std::mem::take(&mut self.typed).parse::<usize>() {
                    r.jump(n);
                }
            }
            KeyCode::Esc if !self.typed.is_empty() => self.typed.clear(),
            KeyCode::Esc | KeyCode::Char('q') => return ReplayAction::Leave,
            _ => {}
        }
        ReplayAction::Stay
    }

    pub fn render(&self, explorer: &ExplorerPanel, theme: Theme, area: Rect, buf: &mut Buffer) {
        let r = &self.replay;
        let info = &r.info;
        let [title, middle, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(0),
            Constraint::Length(1),
        ])
        .areas(area);
        Line::styled(
            format!(
                " Replay of game {} · {} {} · {} vs {}",
                info.id,
                info.size,
                info.rules,
                player_name(&info.black),
                player_name(&info.white)
            ),
            theme.title(),
        )
        .render(title, buf);

        let pos = r.position();
        let (inner, panel_area) = board_frame(middle, pos.size().get(), buf);
        let last = r.last_move();
        Board {
            position: pos,
            cursor: None,
            last: last.as_ref(),
            hints: &[],
            assist: false,
            theme,
        }
        .render(inner, buf);

        let (panel_area, explorer_area) = explorer.split(panel_area);
        Paragraph::new(self.panel(theme))
            .wrap(Wrap { trim: false })
            .render(panel_area.inner(Margin::new(1, 0)), buf);
        if let Some(area) = explorer_area {
            explorer.render(theme, area, buf);
        }
        Line::styled(
            " ←→/hl step · Home/End · number+Enter: go to move · x: explorer · q: back",
            theme.dim(),
        )
        .render(keys, buf);
    }

    fn panel(&self, theme: Theme) -> Vec<Line<'static>> {
        let r = &self.replay;
        let pos = r.position();
        let mut lines = Vec::new();
        for (color, player) in [(Color::Black, &r.info.black), (Color::White, &r.info.white)] {
            lines.push(Line::raw(format!(
                "{} {:<22} {:>3}",
                theme.disc(color),
                player_name(player),
                pos.disc_count(color)
            )));
        }
        lines.push(Line::raw(format!("Move {} of {}", r.ply(), r.len())));
        let last = match r.last_move() {
            None => "Start position".to_string(),
            Some(last) => {
                let note = r.last_record().map_or(String::new(), record_note);
                match last.mv {
                    Move::Pass => format!("{} passed{note}", last.color),
                    Move::Play(sq) => {
                        let flipped: Vec<String> =
                            last.flipped.iter().map(ToString::to_string).collect();
                        format!("{} {sq}, flipped {}{note}", last.color, flipped.join(" "))
                    }
                }
            }
        };
        lines.push(Line::raw(last));
        if let Some(name) = r.opening() {
            lines.push(Line::raw(format!("Opening: {name}")));
        }
        lines.push(Line::raw(format!(
            "Result: {}",
            outcome_text(&r.info, &r.game)
        )));
        if !self.typed.is_empty() {
            lines.push(Line::raw(format!("Go to move: {}_", self.typed)));
        }
        lines.push(Line::raw(""));
        lines.push(self.move_list(theme));
        lines
    }

    /// The moves as one wrapping line, numbered, the one shown highlighted.
    fn move_list(&self, theme: Theme) -> Line<'static> {
        let r = &self.replay;
        let mut spans = Vec::new();
        for (i, mv) in r.game.moves().iter().enumerate() {
            let text = format!("{}.{mv}", i + 1);
            if i + 1 == r.ply() {
                spans.push(Span::styled(text, theme.selected()));
            } else {
                spans.push(Span::raw(text));
            }
            spans.push(Span::raw(" "));
        }
        Line::from(spans)
    }
}
