//! The keys screen, shown by `?` during a game and by Help in the menu.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::theme::Theme;

/// Every key of the game screen with what it does.
pub const KEYS: [(&str, &str); 16] = [
    ("arrows, h j k l", "move the cursor"),
    (
        "Enter, Space",
        "play the cursor's square; acknowledge a pass",
    ),
    ("a1 … p16", "type a square, then Enter to play it"),
    ("Backspace, Esc", "correct or forget a typed square"),
    (
        "u",
        "undo (against the computer: back to your previous turn)",
    ),
    ("r", "redo what undo took back"),
    ("t", "hint: the computer's score on every legal move"),
    ("w", "show what the computer considers (thinking)"),
    ("v", "move assist: mark the legal moves on or off"),
    ("s", "stop the computer: it plays its best move so far"),
    ("x", "explorer: the moves the history's games played here"),
    ("n, Enter", "after the game: play again, colours swapped"),
    ("m", "after the game: back to the menu"),
    ("q, Esc", "leave the game for the menu"),
    ("?", "this list"),
    ("Ctrl-C", "quit at once"),
];

/// Draws the keys and the marks on the board.
pub fn render(theme: Theme, area: Rect, buf: &mut Buffer) {
    let mut lines = vec![Line::styled("Keys", theme.title())];
    for (key, what) in &KEYS {
        lines.push(Line::raw(format!("  {key:<16} {what}")));
    }
    lines.push(Line::raw(format!(
        "Board: {} Black, {} White, {} legal move, (…) last move, {} / {} flipped by it,",
        theme.disc(reversi_core::Color::Black),
        theme.disc(reversi_core::Color::White),
        theme.legal(),
        theme.flipped_disc(reversi_core::Color::Black),
        theme.flipped_disc(reversi_core::Color::White),
    )));
    lines.push(Line::raw(
        "[…] the cursor, +6 / -2 / W D L hint scores (labelled with their depth or exact).",
    ));
    lines.push(Line::raw(
        "Rules: a disc must flank a line of the opponent's discs, which turn over; with no such \
         square you pass; when neither side can move, the most discs wins (empties to the winner).",
    ));
    lines.push(Line::styled("Press any key to go back.", theme.dim()));
    Paragraph::new(lines).wrap(Wrap { trim: false }).render(
        Rect {
            x: area.x + 1,
            width: area.width.saturating_sub(1),
            ..area
        },
        buf,
    );
}
