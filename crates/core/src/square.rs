//! Squares and their names: columns `a`, `b`, … left to right, rows `1`, `2`, … top to bottom.

use std::fmt;

use crate::BoardSize;

/// A square, by 0-based column and row from the top-left corner.
///
/// `a1` is the top-left square, `h8` the bottom-right one on 8x8, `p16` on 16x16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    row: u8,
    col: u8,
}

/// Why a square name could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseSquareError {
    /// Nothing was given.
    Empty,
    /// The text is not a column letter followed by a row number.
    Malformed(String),
    /// The square is well formed but lies outside a board of this size.
    OffBoard {
        /// The square's name, lower-cased.
        name: String,
        /// The board it is not on.
        size: BoardSize,
    },
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::Empty => f.write_str("empty square name"),
            ParseSquareError::Malformed(s) => write!(
                f,
                "{s:?} is not a square name: expected a column letter and a row number, like f5"
            ),
            ParseSquareError::OffBoard { name, size } => {
                let last = Square::new(size.get() - 1, size.get() - 1);
                write!(f, "{name} is off the {size} board (a1 to {last})")
            }
        }
    }
}

impl std::error::Error for ParseSquareError {}

impl Square {
    /// The square at 0-based `col` and `row`. Both must be below 16.
    ///
    /// # Panics
    /// When `col` or `row` is 16 or more (a programming error, never user input).
    #[must_use]
    pub const fn new(col: u8, row: u8) -> Square {
        assert!(col < BoardSize::MAX && row < BoardSize::MAX);
        Square { row, col }
    }

    /// 0-based column, from the left.
    #[must_use]
    pub const fn col(self) -> u8 {
        self.col
    }

    /// 0-based row, from the top.
    #[must_use]
    pub const fn row(self) -> u8 {
        self.row
    }

    /// Whether the square lies on a board of `size`.
    #[must_use]
    pub const fn is_on(self, size: BoardSize) -> bool {
        self.col < size.get() && self.row < size.get()
    }

    /// Row-major index on a board of `size` (`row * n + col`).
    #[must_use]
    pub const fn index(self, size: BoardSize) -> usize {
        self.row as usize * size.get() as usize + self.col as usize
    }

    /// The square with row-major `index` on a board of `size`, if on the board.
    #[must_use]
    pub fn from_index(index: usize, size: BoardSize) -> Option<Square> {
        let n = size.get() as usize;
        (index < n * n).then(|| Square::new((index % n) as u8, (index / n) as u8))
    }

    /// Reads a square name such as `f5` or `P16` (case-insensitive) for a board of `size`.
    ///
    /// # Errors
    /// [`ParseSquareError`] naming the text and why it is not a square of this board.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, ParseSquareError, Square};
    ///
    /// let f5 = Square::parse("F5", BoardSize::EIGHT)?;
    /// assert_eq!((f5.col(), f5.row()), (5, 4));
    /// assert_eq!(f5.to_string(), "f5");
    /// assert_eq!(f5.index(BoardSize::EIGHT), 37);
    ///
    /// // Two-digit rows exist from 10x10 up.
    /// let p16 = Square::parse("p16", BoardSize::new(16)?)?;
    /// assert_eq!(p16, Square::new(15, 15));
    ///
    /// // i1 is a well-formed name, but not a square of 8x8.
    /// let err = Square::parse("i1", BoardSize::EIGHT).unwrap_err();
    /// assert!(matches!(err, ParseSquareError::OffBoard { .. }));
    /// assert_eq!(err.to_string(), "i1 is off the 8x8 board (a1 to h8)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse(text: &str, size: BoardSize) -> Result<Square, ParseSquareError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(ParseSquareError::Empty);
        }
        let malformed = || ParseSquareError::Malformed(t.to_string());
        let mut chars = t.chars();
        let letter = chars.next().ok_or_else(malformed)?.to_ascii_lowercase();
        let digits = chars.as_str();
        if !letter.is_ascii_lowercase()
            || digits.is_empty()
            || digits.len() > 2
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || (digits.len() > 1 && digits.starts_with('0'))
        {
            return Err(malformed());
        }
        let col = letter as u32 - 'a' as u32;
        let row: u32 = digits.parse().map_err(|_| malformed())?;
        let off_board = || ParseSquareError::OffBoard {
            name: t.to_ascii_lowercase(),
            size,
        };
        if col >= u32::from(size.get()) || row == 0 || row > u32::from(size.get()) {
            return Err(off_board());
        }
        Ok(Square::new(col as u8, (row - 1) as u8))
    }
}

impl fmt::Display for Square {
    /// Lower-case name, such as `f5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_every_size() {
        for size in BoardSize::ALL {
            for i in 0..size.cells() {
                let sq = Square::from_index(i, size).unwrap();
                assert_eq!(Square::parse(&sq.to_string(), size), Ok(sq));
                assert_eq!(sq.index(size), i);
            }
        }
    }

    #[test]
    fn corners() {
        let s8 = BoardSize::EIGHT;
        assert_eq!(Square::parse("a1", s8), Ok(Square::new(0, 0)));
        assert_eq!(Square::parse("H8", s8), Ok(Square::new(7, 7)));
        let s16 = BoardSize::new(16).unwrap();
        assert_eq!(Square::parse("p16", s16), Ok(Square::new(15, 15)));
        assert_eq!(Square::new(15, 15).to_string(), "p16");
    }

    #[test]
    fn bad_names_are_errors() {
        let s8 = BoardSize::EIGHT;
        assert_eq!(Square::parse("", s8), Err(ParseSquareError::Empty));
        for bad in ["5f", "f", "ff", "f05", "f5x", "é5", "f123", "-1"] {
            assert!(
                matches!(Square::parse(bad, s8), Err(ParseSquareError::Malformed(_))),
                "{bad}"
            );
        }
        for off in ["i1", "a9", "a0", "z26"] {
            let err = Square::parse(off, s8).unwrap_err();
            assert!(matches!(err, ParseSquareError::OffBoard { .. }), "{off}");
        }
        assert_eq!(
            Square::parse("i1", s8).unwrap_err().to_string(),
            "i1 is off the 8x8 board (a1 to h8)"
        );
    }
}
