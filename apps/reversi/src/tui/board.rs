//! The board widget: coordinates, discs, the cursor, legal-move marks, the last move with the
//! discs it flipped, and hint scores on their squares.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::widgets::{Block, Borders, Widget};
use reversi_core::{Move, Position, Square};
use reversi_engine::Candidate;

use super::theme::Theme;
use reversi_game::LastMove;

/// Boards up to 8x8 get four columns a square (room for hint scores such as `-21` side by
/// side), up to 12x12 three, larger ones two: 16x16 fits 80x24.
const ROOMY_UP_TO: u8 = 8;
const WIDE_UP_TO: u8 = 12;
/// The row numbers' column: two digits and a space.
const LABEL_WIDTH: u16 = 3;

/// Columns a square takes on a board of `n` squares a side.
#[must_use]
pub fn cell_width(n: u8) -> u16 {
    if n <= ROOMY_UP_TO {
        4
    } else if n <= WIDE_UP_TO {
        3
    } else {
        2
    }
}

/// Width and height of the board widget, coordinates included.
#[must_use]
pub fn board_extent(n: u8) -> (u16, u16) {
    (LABEL_WIDTH + u16::from(n) * cell_width(n), 1 + u16::from(n))
}

/// Splits `area` into a bordered box just large enough for an `n`x`n` board (the border
/// drawn) and the panel to its right; returns the box's inside and the panel.
pub fn board_frame(area: Rect, n: u8, buf: &mut Buffer) -> (Rect, Rect) {
    let (bw, bh) = board_extent(n);
    let [board_area, panel_area] =
        Layout::horizontal([Constraint::Length(bw + 2), Constraint::Min(0)]).areas(area);
    let board_area = Rect {
        height: board_area.height.min(bh + 2),
        ..board_area
    };
    let block = Block::default().borders(Borders::ALL);
    let inner = block.inner(board_area);
    block.render(board_area, buf);
    (inner, panel_area)
}

/// One frame of the board.
pub struct Board<'a> {
    pub position: &'a Position,
    pub cursor: Option<Square>,
    pub last: Option<&'a LastMove>,
    /// Scores to write on their squares, best first.
    pub hints: &'a [Candidate],
    pub assist: bool,
    pub theme: Theme,
}

impl Board<'_> {
    fn hint(&self, sq: Square) -> Option<(usize, &Candidate)> {
        self.hints
            .iter()
            .enumerate()
            .find(|(_, c)| c.mv == Move::Play(sq))
    }

    /// The text and style of one square, `width` columns wide.
    fn cell(&self, sq: Square, legal: &[Square], width: u16) -> (String, Style) {
        let theme = self.theme;
        let disc = self.position.get(sq);
        let last_sq = self.last.and_then(|l| match l.mv {
            Move::Play(s) => Some(s),
            Move::Pass => None,
        });
        let is_last = last_sq == Some(sq);
        let is_flipped = self.last.is_some_and(|l| l.flipped.contains(&sq));
        let is_cursor = self.cursor == Some(sq);
        let w = width as usize;
        if disc.is_none() {
            if let Some((rank, c)) = self.hint(sq) {
                let text = fit(&c.short_score(), w);
                let style = theme.hint(rank == 0);
                return (text, cursor_style(style, is_cursor, theme));
            }
        }
        let (glyph, style) = match disc {
            Some(color) if is_flipped => (theme.flipped_disc(color), theme.flipped(disc)),
            Some(color) if is_last => (theme.disc(color), theme.last_move(disc)),
            Some(color) => (theme.disc(color), theme.square(disc)),
            None if self.assist && legal.contains(&sq) => (theme.legal(), theme.legal_style()),
            None => (theme.empty(), theme.square(None)),
        };
        let (left, right) = if is_cursor {
            ('[', ']')
        } else if is_last {
            ('(', ')')
        } else {
            (' ', ' ')
        };
        let text = if w >= 3 {
            format!("{left}{glyph}{right}{:>1$}", "", w - 3)
        } else {
            let left = if is_cursor { '>' } else { left };
            format!("{left}{glyph}")
        };
        (text, cursor_style(style, is_cursor, theme))
    }
}

fn cursor_style(style: Style, is_cursor: bool, theme: Theme) -> Style {
    if is_cursor {
        style.patch(theme.selected())
    } else {
        style
    }
}

/// `text` right-aligned in `width` columns, cut with `…` when longer.
fn fit(text: &str, width: usize) -> String {
    let n = text.chars().count();
    if n <= width {
        format!("{text:>width$}")
    } else {
        let mut cut: String = text.chars().take(width - 1).collect();
        cut.push('…');
        cut
    }
}

impl Widget for Board<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let n = self.position.size().get();
        let cw = cell_width(n);
        let (w, h) = board_extent(n);
        if area.width < w || area.height < h {
            buf.set_string(area.x, area.y, "(window too small)", self.theme.error());
            return;
        }
        let legal = self.position.legal_moves();
        let label = self.theme.dim();
        for c in 0..n {
            let x = area.x + LABEL_WIDTH + u16::from(c) * cw + 1;
            buf.set_string(x, area.y, ((b'a' + c) as char).to_string(), label);
        }
        for r in 0..n {
            let y = area.y + 1 + u16::from(r);
            buf.set_string(area.x, y, format!("{:>2}", r + 1), label);
            for c in 0..n {
                let sq = Square::new(c, r);
                let (text, style) = self.cell(sq, &legal, cw);
                let x = area.x + LABEL_WIDTH + u16::from(c) * cw;
                buf.set_stringn(x, y, text, cw as usize, style);
            }
        }
    }
}
