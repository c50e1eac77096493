//! A stored game's variations: lines that leave its moves, or each other, at some move.

use reversi_core::Move;

use crate::VariationId;

/// A line of play that leaves another: the game's own moves (`parent` `None`) or an earlier
/// variation of the same game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variation {
    /// The variation's id.
    pub id: VariationId,
    /// The line it leaves; `None` for the game's own moves.
    pub parent: Option<VariationId>,
    /// How many moves of the parent line come before the variation's own.
    pub from_ply: usize,
    /// The variation's own moves, passes included.
    pub moves: Vec<Move>,
    /// When it was made (ISO 8601 UTC text).
    pub created_at: String,
}
