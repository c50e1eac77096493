//! The full-screen terminal UI: terminal set-up and the event loop around [`App`].

mod app;
mod board;
mod editor;
mod explorer;
mod game;
mod help;
mod history;
mod menu;
mod replay;
mod setup;
#[cfg(test)]
mod testing;
mod theme;
mod worker;

use std::time::Duration;

use crossterm::event::{self, Event, KeyEventKind};

pub use app::{App, History, Start};
pub use theme::Theme;

/// How often the screen is redrawn while waiting for keys (the computer's reports show up).
const TICK: Duration = Duration::from_millis(50);

/// Runs the UI until the player quits.
///
/// # Errors
/// The terminal could not be set up, read or drawn.
pub fn run(start: Start, history: History) -> std::io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let mut app = App::with_history(start, Theme::from_env(), history);
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
