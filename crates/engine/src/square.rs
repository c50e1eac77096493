//! [`Sq`], a square of the 8x8 bitboard by its bit index, and its conversions to the rules
//! crate's [`Square`] and [`Move`].

use std::fmt;

use reversi_core::{Move, Square};

/// A square of the 8x8 bitboard, by its bit index `8 * row + col`: `a1` is 0, `h1` 7, `h8` 63.
///
/// Every value names a square of the board, so a `Sq` never needs checking against a
/// sentinel; where there may be no square (a pass, no move at all) the API says so with
/// `Option<Sq>` or with [`Move`]. The hot search keeps working on plain bit indices and
/// bitboards ([`Board::play`](crate::Board::play) takes [`Sq::index`]); `Sq` is how squares
/// cross the engine's public API.
///
/// Displayed, like [`Square`], by its lower-case name (`f5`).
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Move, Square};
/// use reversi_engine::{Board, Sq};
///
/// let f5 = Sq::new(37).unwrap();
/// assert_eq!((f5.col(), f5.row()), (5, 4));
/// assert_eq!(f5.to_string(), "f5");
/// assert_eq!(f5.bit(), 1 << 37);
///
/// // To and from the rules crate's squares and moves.
/// let square = Square::parse("f5", BoardSize::EIGHT)?;
/// assert_eq!(Sq::from_square(square), Some(f5));
/// assert_eq!(Square::from(f5), square);
/// assert_eq!(Sq::from_move(Move::Play(square)), Some(f5));
/// assert_eq!(Sq::from_move(Move::Pass), None);
///
/// // Only 64 squares: no bit index 64, no column i.
/// assert_eq!(Sq::new(64), None);
/// assert_eq!(Sq::from_square(Square::new(8, 0)), None);
///
/// // Bitboards take the bit index.
/// assert!(Board::START.moves() & f5.bit() != 0);
/// let after = Board::START.play(f5.index());
/// assert_eq!(after.opponent.count_ones(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Sq(u8);

impl Sq {
    /// The square of bit `index`, `None` from 64 up.
    #[must_use]
    pub const fn new(index: u32) -> Option<Sq> {
        if index < 64 {
            Some(Sq(index as u8))
        } else {
            None
        }
    }

    /// The square of the engine's internal move code: a bit index below 64, anything else
    /// (the search's `NO_MOVE`, a pass) is no square.
    pub(crate) const fn from_code(code: u8) -> Option<Sq> {
        Sq::new(code as u32)
    }

    /// The square of a board of at most 8x8, `None` for a square beyond the eighth column or
    /// row.
    #[must_use]
    pub const fn from_square(square: Square) -> Option<Sq> {
        if square.col() < 8 && square.row() < 8 {
            Some(Sq(square.row() * 8 + square.col()))
        } else {
            None
        }
    }

    /// The square `mv` plays on, `None` for a pass or a square off the 8x8 board.
    #[must_use]
    pub const fn from_move(mv: Move) -> Option<Sq> {
        match mv {
            Move::Play(square) => Sq::from_square(square),
            Move::Pass => None,
        }
    }

    /// The bit index, 0..64: the square [`Board::play`](crate::Board::play) takes.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }

    /// The bitboard holding this square alone.
    #[must_use]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    /// 0-based column, from the left (`a` is 0).
    #[must_use]
    pub const fn col(self) -> u8 {
        self.0 % 8
    }

    /// 0-based row, from the top (`1` is 0).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The rules crate's square at the same column and row.
    #[must_use]
    pub(crate) const fn square(self) -> Square {
        Square::new(self.col(), self.row())
    }
}

impl From<Sq> for Square {
    fn from(sq: Sq) -> Square {
        sq.square()
    }
}

impl From<Sq> for Move {
    /// A disc played on the square.
    fn from(sq: Sq) -> Move {
        Move::Play(sq.square())
    }
}

impl fmt::Display for Sq {
    /// Lower-case name, such as `f5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.square().fmt(f)
    }
}

impl fmt::Debug for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::BoardSize;

    #[test]
    fn every_bit_round_trips_through_its_square_and_name() {
        for index in 0..64 {
            let sq = Sq::new(index).unwrap();
            assert_eq!(sq.index(), index);
            assert_eq!(sq.bit(), 1 << index);
            assert_eq!(Sq::from_square(sq.square()), Some(sq));
            assert_eq!(Sq::from_move(Move::from(sq)), Some(sq));
            let parsed = Square::parse(&sq.to_string(), BoardSize::EIGHT).unwrap();
            assert_eq!(parsed, sq.square());
            assert_eq!(parsed.index(BoardSize::EIGHT), index as usize);
        }
    }

    #[test]
    fn nothing_beyond_the_bitboard_is_a_square() {
        assert_eq!(Sq::new(64), None);
        assert_eq!(Sq::new(u32::MAX), None);
        assert_eq!(Sq::from_code(64), None);
        assert_eq!(Sq::from_square(Square::new(0, 8)), None);
        assert_eq!(Sq::from_square(Square::new(9, 0)), None);
        assert_eq!(Sq::from_move(Move::Pass), None);
    }
}
