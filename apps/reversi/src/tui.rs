//! The full-screen terminal UI: terminal set-up and the event loop around [`App`].

mod app;
mod board;
mod game;
mod help;
mod menu;
mod setup;
mod theme;
mod worker;

use std::time::Duration;

use crossterm::event::{self, Event, KeyEventKind};

pub use app::App;
pub use theme::Theme;

use crate::session::Settings;

/// Where the UI opens.
#[derive(Debug, Clone, Copy)]
pub enum Start {
    /// The main menu; New game proposes these settings.
    Menu(Settings),
    /// Straight into a game.
    Game(Settings),
}

/// How often the screen is redrawn while waiting for keys (the computer's reports show up).
const TICK: Duration = Duration::from_millis(50);

/// Runs the UI until the player quits.
///
/// # Errors
/// The terminal could not be set up, read or drawn.
pub fn run(start: Start) -> std::io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let mut app = App::new(start, Theme::from_env());
    let result = (|| {
        while !app.quit {
            terminal.draw(|frame| frame.render_widget(&app, frame.area()))?;
            if event::poll(TICK)? {
                if let Event::Key(key) = event::read()? {
                    if key.kind == KeyEventKind::Press {
                        app.on_key(key);
                    }
                }
            }
            app.pump();
        }
        Ok(())
    })();
    ratatui::try_restore()?;
    result
}
