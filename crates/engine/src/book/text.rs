//! The book as plain text, one position a line, for reading, diffing and sharing:
//! `BOARD SIDE; games=N depth=D [exact] [leaf=SQ:VALUE] [value=V]`.
//!
//! The board is 64 characters a1..h8 (`X` black, `O` white, `-` empty) and the side to move
//! `X` or `O`, as OBF writes positions. Book positions are side-relative; the colour is the
//! one a game without passes would have (Black to move with an even disc count). The value is
//! written for reading and recomputed on import.

use std::fmt;

use super::{image_square, Book, BookEntry, Key};
use crate::Board;

/// A line of a text book that does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseBookTextError {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for ParseBookTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "book text line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ParseBookTextError {}

/// The square name of bit `sq`: `a1` … `h8`.
fn square_name(sq: u32) -> String {
    format!("{}{}", char::from(b'a' + (sq % 8) as u8), sq / 8 + 1)
}

fn parse_square(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let c = b[0].to_ascii_lowercase().checked_sub(b'a')?;
    let r = b[1].checked_sub(b'1')?;
    (c < 8 && r < 8).then_some(u32::from(r) * 8 + u32::from(c))
}

/// The 64-character board and side of `board` (side to move as the colour of its parity).
#[must_use]
pub fn board_text(board: Board) -> String {
    let black_to_move = (board.player | board.opponent)
        .count_ones()
        .is_multiple_of(2);
    let (black, white) = if black_to_move {
        (board.player, board.opponent)
    } else {
        (board.opponent, board.player)
    };
    let mut s: String = (0..64)
        .map(|i| {
            let bit = 1u64 << i;
            if black & bit != 0 {
                'X'
            } else if white & bit != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    s.push(' ');
    s.push(if black_to_move { 'X' } else { 'O' });
    s
}

/// Reads a 64-character board and a side (`X`/`*`/`B` or `O`/`W`) into a side-relative board.
///
/// # Errors
/// A message naming what is wrong.
pub(crate) fn parse_board_text(board: &str, side: &str) -> Result<Board, String> {
    let cells: Vec<char> = board.chars().collect();
    if cells.len() != 64 {
        return Err(format!("a board has 64 squares, not {}", cells.len()));
    }
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in cells.iter().enumerate() {
        match c {
            'X' | 'x' | '*' | 'B' | 'b' => black |= 1 << i,
            'O' | 'o' | 'W' | 'w' => white |= 1 << i,
            '-' | '.' | '_' => {}
            other => return Err(format!("square {} is {other:?}", square_name(i as u32))),
        }
    }
    match side {
        "X" | "x" | "*" | "B" | "b" => Ok(Board::new(black, white)),
        "O" | "o" | "W" | "w" => Ok(Board::new(white, black)),
        other => Err(format!("the side to move is {other:?}, not X or O")),
    }
}

impl Book {
    /// The book as text, positions sorted by key, after a header comment.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "# reversi opening book: depth={} positions={}\n",
            self.depth,
            self.len()
        );
        for (key, r) in self.sorted() {
            out.push_str(&board_text(key.board()));
            out.push_str(&format!("; games={} depth={}", r.games, r.depth));
            if r.exact {
                out.push_str(" exact");
            }
            if let Some((sq, v)) = r.leaf {
                out.push_str(&format!(" leaf={}:{v:+}", square_name(u32::from(sq))));
            }
            if let Some(v) = r.value {
                out.push_str(&format!(" value={v:+}"));
            }
            out.push('\n');
        }
        out
    }

    /// Reads a book written by [`Book::to_text`] (positions in any orientation; blank lines
    /// and `#` comments skipped). Values are backed up anew.
    ///
    /// # Errors
    /// The first line that does not read.
    pub fn from_text(text: &str) -> Result<Book, ParseBookTextError> {
        let mut book = Book::new();
        let mut header_depth = None;
        for (n, line) in text.lines().enumerate() {
            let err = |reason: String| ParseBookTextError {
                line: n + 1,
                reason,
            };
            let line = line.trim();
            if let Some(header) = line.strip_prefix("# reversi opening book:") {
                header_depth = header
                    .split_whitespace()
                    .find_map(|f| f.strip_prefix("depth=")?.parse::<u8>().ok());
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (pos, fields) = line.split_once(';').unwrap_or((line, ""));
            let mut parts = pos.split_whitespace();
            let (Some(board), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(err("expected `BOARD SIDE;` before the fields".into()));
            };
            let board = parse_board_text(board, side).map_err(err)?;
            if board.moves() == 0 {
                return Err(err("the side to move has no legal move".into()));
            }
            let (key, s) = Key::of(board);
            let mut r = BookEntry::default();
            for field in fields.split_whitespace() {
                let (name, value) = field.split_once('=').unwrap_or((field, ""));
                let bad = || err(format!("bad field {field:?}"));
                match name {
                    "games" => r.games = value.parse().map_err(|_| bad())?,
                    "depth" => r.depth = value.parse().map_err(|_| bad())?,
                    "exact" => r.exact = true,
                    "value" => {}
                    "leaf" => {
                        let (sq, v) = value.split_once(':').ok_or_else(bad)?;
                        let sq = parse_square(sq).ok_or_else(bad)?;
                        let v: i8 = v.parse().map_err(|_| bad())?;
                        if board.moves() & (1 << sq) == 0 || !(-64..=64).contains(&v) {
                            return Err(err(format!("leaf {field:?} is not a legal move")));
                        }
                        r.leaf = Some((image_square(sq, s) as u8, v));
                    }
                    _ => return Err(err(format!("unknown field {name:?}"))),
                }
            }
            book.depth = book.depth.max(r.depth);
            book.insert_record(key, r);
        }
        if let Some(d) = header_depth {
            book.depth = d;
        }
        book.back_up();
        Ok(book)
    }
}
