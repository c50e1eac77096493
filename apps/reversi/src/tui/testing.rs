//! The screen tests' shared helpers: an app rendered into an 80x24 buffer, read back as
//! lines, and driven by key presses.

#![allow(clippy::unwrap_used)]

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::tui::App;

/// The whole screen of `app` at 80x24.
pub fn buffer(app: &App) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
    app.render(buf.area, &mut buf);
    buf
}

/// The screen's rows as text, trailing spaces removed.
pub fn lines(app: &App) -> Vec<String> {
    let buf = buffer(app);
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

/// The screen as one text, a line a row.
pub fn text(app: &App) -> String {
    lines(app).join("\n")
}

/// One key press with no modifier.
pub fn key(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

/// A key press for every character of `text`.
pub fn keys(app: &mut App, text: &str) {
    for ch in text.chars() {
        key(app, KeyCode::Char(ch));
    }
}
