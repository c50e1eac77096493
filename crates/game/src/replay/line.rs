//! A replay's lines (the game's own moves, or a variation leaving another line after some of
//! its moves) and why a move could not be played in one.

use std::fmt;

use reversi_core::{Game, IllegalMove, Move};
use reversi_record::{StoreError, VariationId};

/// One line of a replay: the game's own moves, or a variation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The variation's id in the store; `None` for the game's own moves.
    pub id: Option<VariationId>,
    /// The index (in [`Replay::lines`](crate::Replay::lines)) of the line it leaves; `None` for the game's own
    /// moves.
    pub parent: Option<usize>,
    /// How many moves of the parent line come before the line's own (0 for the game's own
    /// moves).
    pub from_ply: usize,
    /// The whole line from the game's start, passes included.
    pub game: Game,
}

impl Line {
    pub(super) fn main(game: Game) -> Line {
        Line {
            id: None,
            parent: None,
            from_ply: 0,
            game,
        }
    }

    /// Whether this is the game's own moves.
    #[must_use]
    pub fn is_main(&self) -> bool {
        self.id.is_none()
    }

    /// The line's own moves, after those it shares with its parent.
    #[must_use]
    pub fn own_moves(&self) -> &[Move] {
        &self.game.moves()[self.from_ply..]
    }
}

/// Why a move could not be played in a replay.
#[derive(Debug)]
pub enum VariationError {
    /// The rules refuse the move in the position shown.
    Illegal(IllegalMove),
    /// The store could not keep the variation; the replay is as it was.
    Store(StoreError),
    /// The replay has no line with this variation id.
    NoSuchLine(VariationId),
    /// A position past the end of the line.
    NoSuchPly {
        /// Moves asked for.
        ply: usize,
        /// Moves in the line.
        len: usize,
    },
}

impl fmt::Display for VariationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariationError::Illegal(e) => e.fmt(f),
            VariationError::Store(e) => write!(f, "the variation was not saved: {e}"),
            VariationError::NoSuchLine(id) => write!(f, "the game has no variation {id}"),
            VariationError::NoSuchPly { ply, len } => {
                write!(f, "move {ply} is past the end of the line ({len} moves)")
            }
        }
    }
}

impl std::error::Error for VariationError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            VariationError::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl From<StoreError> for VariationError {
    fn from(e: StoreError) -> Self {
        VariationError::Store(e)
    }
}
