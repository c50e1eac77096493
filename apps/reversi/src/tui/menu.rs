//! The main menu screen: new game, set up a position, history, help, quit.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::Widget;

use super::theme::Theme;

/// A choice of the main menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuItem {
    NewGame,
    Editor,
    History,
    Help,
    Quit,
}

impl MenuItem {
    pub const ALL: [MenuItem; 5] = [
        MenuItem::NewGame,
        MenuItem::Editor,
        MenuItem::History,
        MenuItem::Help,
        MenuItem::Quit,
    ];

    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            MenuItem::NewGame => "New game",
            MenuItem::Editor => "Set up a position",
            MenuItem::History => "History",
            MenuItem::Help => "Help",
            MenuItem::Quit => "Quit",
        }
    }

    fn shortcut(self) -> char {
        match self {
            MenuItem::NewGame => 'n',
            MenuItem::Editor => 'e',
            MenuItem::History => 'h',
            MenuItem::Help => '?',
            MenuItem::Quit => 'q',
        }
    }
}

/// The main menu with its selected line.
#[derive(Debug, Clone, Default)]
pub struct Menu {
    pub selected: usize,
}

impl Menu {
    /// Moves the selection, or returns the item chosen.
    pub fn on_key(&mut self, key: KeyEvent) -> Option<MenuItem> {
        let last = MenuItem::ALL.len() - 1;
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.selected = (self.selected + 1).min(last),
            KeyCode::Enter | KeyCode::Char(' ') => return Some(MenuItem::ALL[self.selected]),
            KeyCode::Esc => return Some(MenuItem::Quit),
            KeyCode::Char(c) => return MenuItem::ALL.into_iter().find(|i| i.shortcut() == c),
            _ => {}
        }
        None
    }

    pub fn render(&self, theme: Theme, area: Rect, buf: &mut Buffer) {
        let [_, body] =
            Layout::vertical([Constraint::Length(area.height / 4), Constraint::Min(0)]).areas(area);
        let [_, col] = Layout::horizontal([Constraint::Length(area.width / 3), Constraint::Min(0)])
            .areas(body);
        let mut lines = vec![
            Line::styled(
                format!(
                    "{} REVERSI {}",
                    theme.disc(reversi_core::Color::Black),
                    theme.disc(reversi_core::Color::White)
                ),
                theme.title(),
            ),
            Line::raw("Othello and Reversi, 4x4 to 16x16"),
            Line::raw(""),
        ];
        for (i, item) in MenuItem::ALL.iter().enumerate() {
            let text = format!(" {} ({}) ", item.label(), item.shortcut());
            if i == self.selected {
                lines.push(Line::styled(format!("▶{text}"), theme.selected()));
            } else {
                lines.push(Line::raw(format!(" {text}")));
            }
        }
        lines.push(Line::raw(""));
        lines.push(Line::styled("↑↓ choose · Enter select", theme.dim()));
        for (i, line) in lines.into_iter().enumerate() {
            let y = col.y + i as u16;
            if y >= col.bottom() {
                break;
            }
            line.render(
                Rect {
                    y,
                    height: 1,
                    ..col
                },
                buf,
            );
        }
    }
}
