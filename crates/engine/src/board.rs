//! The side-relative 8x8 bitboard and its conversion to and from `reversi-core` positions.

use std::fmt;

use reversi_core::{BoardSize, Color, Position, Rules};

use crate::{flip, mobility, Sq};

/// A position from the side to move's point of view: `player` holds its discs, `opponent` the
/// other side's. Which colour is to move is kept by whoever owns the board.
///
/// ```text
///   a b c d e f g h
/// 1 0 1 2 3 4 5 6 7      bit numbers
/// 2 8 . . . . . . 15
/// ...
/// 8 56  . . . . . 63
/// ```
///
/// A move is a bit index (see [`Sq::index`]); [`Board::play`] turns over the discs it flips
/// (two XORs once the flips are known) and leaves the board seen from the other side. The board does not know whether the game is over:
/// when [`Board::moves`] is empty for both sides, it is.
///
/// # Examples
/// ```
/// use reversi_engine::{Board, Sq};
///
/// // Black to move has four moves: d3, c4, f5 and e6.
/// let start = Board::START;
/// let names: Vec<String> = (0..64)
///     .filter(|&i| start.moves() & (1 << i) != 0)
///     .map(|i| Sq::new(i).unwrap().to_string())
///     .collect();
/// assert_eq!(names, ["d3", "c4", "f5", "e6"]);
///
/// // f5 flips e5; White, now to move, has one disc left and three moves.
/// let f5 = Sq::new(37).unwrap();
/// let after = start.play(f5.index());
/// assert_ne!(after.opponent & Sq::new(36).unwrap().bit(), 0);
/// assert_eq!((after.player.count_ones(), after.opponent.count_ones()), (1, 4));
/// assert_eq!(after.moves().count_ones(), 3);
///
/// // Passing hands the same discs to the other side; passing twice changes nothing.
/// assert_eq!(after.pass().player, after.opponent);
/// assert_eq!(after.pass().pass(), after);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// The discs of the side to move.
    pub player: u64,
    /// The discs of the side that moves next.
    pub opponent: u64,
}

/// Why a position cannot become a [`Board`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FromPositionError {
    /// Bitboards carry boards up to 8x8.
    TooLarge(BoardSize),
    /// The Reversi rule's centre placement is not a bitboard move; play it with the rules crate.
    PlacementPhase,
}

impl fmt::Display for FromPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromPositionError::TooLarge(size) => {
                write!(f, "{size} is larger than the 8x8 bitboard")
            }
            FromPositionError::PlacementPhase => {
                f.write_str("the Reversi rule's centre placement is still under way")
            }
        }
    }
}

impl std::error::Error for FromPositionError {}

/// The playable squares of a board of `size` at most 8 in the top-left corner.
#[must_use]
pub const fn playable(size: u8) -> u64 {
    if size >= 8 {
        return u64::MAX;
    }
    let row = (1u64 << size) - 1;
    let mut m = 0;
    let mut r = 0;
    while r < size {
        m |= row << (8 * r);
        r += 1;
    }
    m
}

impl Board {
    /// The 8x8 Othello start, Black (the player) to move: White d4, e5; Black e4, d5.
    pub const START: Board = Board {
        player: (1 << 28) | (1 << 35),
        opponent: (1 << 27) | (1 << 36),
    };

    /// The board with `player`'s discs for the side to move and `opponent`'s for the other;
    /// nothing checks that the two do not overlap.
    #[must_use]
    pub const fn new(player: u64, opponent: u64) -> Board {
        Board { player, opponent }
    }

    /// The squares the player may play.
    #[inline(always)]
    #[must_use]
    pub fn moves(self) -> u64 {
        mobility::moves(self.player, self.opponent)
    }

    /// The discs a player disc on `sq` flips (0 when the move is not legal).
    ///
    /// # Panics
    /// When `sq` is 64 or more (off the board).
    #[inline(always)]
    #[must_use]
    pub(crate) fn flips(self, sq: u32) -> u64 {
        flip::flips(self.player, self.opponent, sq)
    }

    /// The board after the player puts a disc on `sq` flipping `flips`, seen from the
    /// opponent's side. Playing the same `sq` and `flips` on the result's swap undoes it.
    #[inline(always)]
    #[must_use]
    pub(crate) fn make(self, sq: u32, flips: u64) -> Board {
        Board {
            player: self.opponent ^ flips,
            opponent: self.player ^ flips ^ (1 << sq),
        }
    }

    /// The board after a legal move on `sq`, seen from the opponent's side. An illegal `sq`
    /// is not refused, and the result is then no position of the game: check
    /// [`Board::moves`] first.
    ///
    /// # Panics
    /// When `sq` is 64 or more (off the board).
    #[inline(always)]
    #[must_use]
    pub fn play(self, sq: u32) -> Board {
        self.make(sq, self.flips(sq))
    }

    /// The same discs, the other side to move.
    #[inline(always)]
    #[must_use]
    pub fn pass(self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// Empty squares of the 8x8 board (mask them for smaller boards).
    #[inline(always)]
    #[must_use]
    pub fn empties(self) -> u64 {
        !(self.player | self.opponent)
    }

    /// The board of `position` (at most 8x8, in the top-left corner) and its playable mask.
    ///
    /// # Errors
    /// When the board is larger than 8x8 or in the Reversi placement phase.
    pub fn from_position(position: &Position) -> Result<(Board, u64), FromPositionError> {
        let size = position.size();
        if size.get() > 8 {
            return Err(FromPositionError::TooLarge(size));
        }
        if position.in_placement_phase() {
            return Err(FromPositionError::PlacementPhase);
        }
        let mut board = Board::default();
        for sq in position.squares() {
            let bit = Sq::from_square(sq).map_or(0, Sq::bit);
            match position.get(sq) {
                Some(c) if c == position.turn() => board.player |= bit,
                Some(_) => board.opponent |= bit,
                None => {}
            }
        }
        Ok((board, playable(size.get())))
    }

    /// The position of this board on `size`, with `turn` the player's colour; `None` when
    /// `size` is larger than 8x8.
    #[must_use]
    pub fn to_position(self, size: BoardSize, rules: Rules, turn: Color) -> Option<Position> {
        let n = size.get();
        if n > 8 {
            return None;
        }
        let cells: Vec<Option<Color>> = (0..n * n)
            .map(|i| {
                let bit = 1u64 << ((i / n) as u32 * 8 + (i % n) as u32);
                if self.player & bit != 0 {
                    Some(turn)
                } else if self.opponent & bit != 0 {
                    Some(turn.opposite())
                } else {
                    None
                }
            })
            .collect();
        Position::setup(size, rules, &cells, turn)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  a b c d e f g h")?;
        for r in 0..8 {
            write!(f, "{}", r + 1)?;
            for c in 0..8 {
                let bit = 1u64 << (r * 8 + c);
                let ch = if self.player & bit != 0 {
                    'P'
                } else if self.opponent & bit != 0 {
                    'o'
                } else {
                    '.'
                };
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
