//! The new-game screen: board size, start rule, who plays each side (a person or a computer
//! at some level) and the game clock; for a position set up in the editor, the players and
//! clock only.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};
use reversi_core::{BoardSize, Position, Rules, TimeControl};
use reversi_engine::levels::Level;
use reversi_players::Ai;

use super::theme::Theme;
use reversi_game::{Player, Settings};

/// The players offered: a person, each named level, then greedy and random.
#[must_use]
pub fn player_choices() -> Vec<Player> {
    let mut out = vec![Player::Human];
    out.extend(
        Level::NAMED
            .iter()
            .map(|&(_, level)| Player::Computer(Ai::Level(level))),
    );
    out.push(Player::Computer(Ai::Greedy));
    out.push(Player::Computer(Ai::Random));
    out
}

/// The clocks offered: none, then the common settings from blitz to slow.
pub const CLOCK_CHOICES: [&str; 8] = ["", "1m", "3m+2s", "5m", "5m+3s", "10m+5s", "15m", "30m"];

const ROWS: usize = 6;
const START_ROW: usize = 5;

/// What the new-game screen asks for.
#[derive(Debug, Clone)]
pub struct Setup {
    pub settings: Settings,
    pub row: usize,
    /// The position set up in the editor, whose size and rule the game keeps; `None` for
    /// the standard start.
    pub start: Option<Position>,
}

/// What a key on the new-game screen leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetupAction {
    Stay,
    Start(Settings),
    Back,
}

impl Setup {
    #[must_use]
    pub fn new(settings: Settings) -> Setup {
        Setup {
            settings,
            row: START_ROW,
            start: None,
        }
    }

    /// The screen for a game from `start`: its size and rule are fixed.
    #[must_use]
    pub fn from_position(settings: Settings, start: Position) -> Setup {
        Setup {
            settings: Settings {
                size: start.size(),
                rules: start.rules(),
                ..settings
            },
            start: Some(start),
            ..Setup::new(settings)
        }
    }

    pub fn on_key(&mut self, key: KeyEvent) -> SetupAction {
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.row = self.row.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                self.row = (self.row + 1).min(ROWS - 1);
            }
            KeyCode::Left | KeyCode::Char('h') => self.change(-1),
            KeyCode::Right | KeyCode::Char('l') => self.change(1),
            KeyCode::Enter | KeyCode::Char(' ') => return SetupAction::Start(self.settings),
            KeyCode::Esc | KeyCode::Char('q') => return SetupAction::Back,
            _ => {}
        }
        SetupAction::Stay
    }

    fn change(&mut self, step: i32) {
        let s = &mut self.settings;
        match self.row {
            0 | 1 if self.start.is_some() => {}
            0 => {
                let sizes = BoardSize::ALL;
                let i = sizes.iter().position(|&b| b == s.size).unwrap_or(2);
                s.size = sizes[cycle(i, step, sizes.len())];
            }
            1 => {
                s.rules = match s.rules {
                    Rules::Othello => Rules::Reversi,
                    Rules::Reversi => Rules::Othello,
                };
            }
            2 | 3 => {
                let choices = player_choices();
                let current = if self.row == 2 { s.black } else { s.white };
                let i = choices.iter().position(|&p| p == current).unwrap_or(0);
                let next = choices[cycle(i, step, choices.len())];
                if self.row == 2 {
                    s.black = next;
                } else {
                    s.white = next;
                }
            }
            4 => {
                let choices: Vec<Option<TimeControl>> =
                    CLOCK_CHOICES.iter().map(|c| c.parse().ok()).collect();
                let i = choices.iter().position(|&c| c == s.clock).unwrap_or(0);
                s.clock = choices[cycle(i, step, choices.len())];
            }
            _ => {}
        }
    }

    pub fn render(&self, theme: Theme, area: Rect, buf: &mut Buffer) {
        let s = &self.settings;
        let rows = [
            format!("Board size   ◀ {} ▶", s.size),
            format!("Rules        ◀ {} ▶", s.rules),
            format!("Black        ◀ {} ▶", describe(s.black)),
            format!("White        ◀ {} ▶", describe(s.white)),
            format!(
                "Clock        ◀ {} ▶",
                s.clock.map_or_else(
                    || "none".to_string(),
                    |c| format!("{c} each (time out loses)")
                )
            ),
            "Start the game".to_string(),
        ];
        let title = if self.start.is_some() {
            "New game from the position set up"
        } else {
            "New game"
        };
        let mut lines = vec![Line::styled(title, theme.title()), Line::raw("")];
        for (i, text) in rows.into_iter().enumerate() {
            if i == self.row {
                lines.push(Line::styled(format!("▶ {text}"), theme.selected()));
            } else {
                lines.push(Line::raw(format!("  {text}")));
            }
        }
        lines.push(Line::raw(""));
        lines.push(Line::raw(match (&self.start, s.rules) {
            (Some(p), _) => format!(
                "From the position set up, {} to move (size and rule fixed).",
                p.turn()
            ),
            (None, Rules::Othello) => "Othello: four discs in the centre to start.".into(),
            (None, Rules::Reversi) => {
                "Reversi: an empty board; the first four discs go in the centre.".into()
            }
        }));
        lines.push(Line::raw(""));
        lines.push(Line::styled(
            "↑↓ choose a line · ←→ change it · Enter start · Esc back",
            theme.dim(),
        ));
        let inner = Rect {
            x: area.x + 2,
            y: area.y + 1,
            width: area.width.saturating_sub(4),
            height: area.height.saturating_sub(1),
        };
        Paragraph::new(lines).render(inner, buf);
    }
}

fn cycle(i: usize, step: i32, len: usize) -> usize {
    (i as i64 + i64::from(step)).rem_euclid(len as i64) as usize
}

/// A player with what its level searches and the rating it plays like, e.g. `computer, hard,
/// like a 2150 player (depth 10, exact from 20 empties, up to 2 s a move)`.
fn describe(p: Player) -> String {
    match p {
        Player::Human => "human".into(),
        Player::Computer(Ai::Level(level)) => {
            let spec = level.spec();
            let like = reversi_game::human_scale::level_rating(level)
                .map_or_else(String::new, |r| format!(", like a {r} player"));
            format!(
                "computer, {}{like} (depth {}, exact from {} empties, up to {} s a move)",
                level
                    .name()
                    .map_or_else(|| level.get().to_string(), str::to_string),
                spec.depth,
                spec.exact_empties,
                spec.time.as_secs()
            )
        }
        Player::Computer(ai) => format!("computer, {ai}"),
    }
}
