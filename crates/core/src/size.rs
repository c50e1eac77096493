//! Board sizes: the even sizes from 4x4 to 16x16.

use std::fmt;
use std::str::FromStr;

/// The side length of a square board: 4, 6, 8, 10, 12, 14 or 16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardSize(u8);

/// A board size that is odd, too small or too large.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidBoardSize(pub String);

impl fmt::Display for InvalidBoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid board size {:?}: expected one of 4, 6, 8, 10, 12, 14, 16",
            self.0
        )
    }
}

impl std::error::Error for InvalidBoardSize {}

impl BoardSize {
    /// The smallest side length, 4.
    pub const MIN: u8 = 4;
    /// The largest side length, 16; square names then run from `a1` to `p16`.
    pub const MAX: u8 = 16;
    /// 4x4, small enough to solve by hand.
    pub const FOUR: BoardSize = BoardSize(4);
    /// 6x6, a small board for quick games and hand-checked tests.
    pub const SIX: BoardSize = BoardSize(6);
    /// 8x8, the board of Othello tournaments and of the engine; the default.
    pub const EIGHT: BoardSize = BoardSize(8);
    /// Every supported size, smallest first.
    pub const ALL: [BoardSize; 7] = [
        BoardSize(4),
        BoardSize(6),
        BoardSize(8),
        BoardSize(10),
        BoardSize(12),
        BoardSize(14),
        BoardSize(16),
    ];

    /// The size with side `n`.
    ///
    /// # Errors
    /// [`InvalidBoardSize`] when `n` is odd or outside 4..=16.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::BoardSize;
    ///
    /// let ten = BoardSize::new(10)?;
    /// assert_eq!(ten.cells(), 100);
    /// assert_eq!(ten.to_string(), "10x10");
    /// assert_eq!("10x10".parse::<BoardSize>()?, ten);
    /// assert!(BoardSize::new(9).is_err());
    /// assert!(BoardSize::new(18).is_err());
    /// # Ok::<(), reversi_core::InvalidBoardSize>(())
    /// ```
    pub fn new(n: u8) -> Result<BoardSize, InvalidBoardSize> {
        if (Self::MIN..=Self::MAX).contains(&n) && n.is_multiple_of(2) {
            Ok(BoardSize(n))
        } else {
            Err(InvalidBoardSize(n.to_string()))
        }
    }

    /// The side length.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The number of squares, `n * n`.
    #[must_use]
    pub const fn cells(self) -> usize {
        self.0 as usize * self.0 as usize
    }
}

impl Default for BoardSize {
    fn default() -> Self {
        BoardSize::EIGHT
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.0, self.0)
    }
}

impl FromStr for BoardSize {
    type Err = InvalidBoardSize;

    /// Accepts `8` or `8x8`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let side = match t.split_once(['x', 'X']) {
            Some((a, b)) if a == b => a,
            Some(_) => return Err(InvalidBoardSize(s.to_string())),
            None => t,
        };
        side.parse::<u8>()
            .ok()
            .and_then(|n| BoardSize::new(n).ok())
            .ok_or_else(|| InvalidBoardSize(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert!(BoardSize::new(3).is_err());
        assert!(BoardSize::new(5).is_err());
        assert!(BoardSize::new(18).is_err());
        assert_eq!("6".parse::<BoardSize>(), Ok(BoardSize::SIX));
        assert_eq!("10x10".parse::<BoardSize>().map(BoardSize::get), Ok(10));
        assert!("8x6".parse::<BoardSize>().is_err());
        assert!("".parse::<BoardSize>().is_err());
        assert_eq!(BoardSize::EIGHT.cells(), 64);
    }
}
