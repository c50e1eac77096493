//! The stored games as the game layer reads and adds to them: the interface every store of
//! games implements (SQLite's `reversi-store`, the browser's storage).

use std::time::Duration;

use reversi_core::{Move, Position};

use crate::{ExplorerMove, GameId, StoreError, StoredGame, VariationId, Writer};

/// A store of games, as the game layer uses one: load a game, claim it to play on, grow its
/// variations, and count the moves its games played from a position.
pub trait Archive {
    /// Game `id` with its moves, replayed.
    ///
    /// # Errors
    /// [`StoreError::NoSuchGame`], a damaged game, or the store's own failure.
    fn load_game(&self, id: GameId) -> Result<StoredGame, StoreError>;

    /// Claims game `id` for `writer` for `ttl` (renewed by asking again): no other writer
    /// may add to it meanwhile. A store that only one process writes grants every claim.
    ///
    /// # Errors
    /// [`StoreError::Held`] when another writer holds it, or the store's own failure.
    fn take_lease(&self, id: GameId, writer: &Writer, ttl: Duration) -> Result<(), StoreError>;

    /// Adds a variation of game `game` leaving line `parent` (`None`: the game's moves)
    /// after `ply` of its moves, with its first `moves`; its id.
    ///
    /// # Errors
    /// [`StoreError::InvalidVariation`] for moves that do not replay there, or the store's
    /// own failure.
    fn add_variation(
        &mut self,
        game: GameId,
        parent: Option<VariationId>,
        ply: usize,
        moves: &[Move],
    ) -> Result<VariationId, StoreError>;

    /// Adds `mv` at the end of variation `id`.
    ///
    /// # Errors
    /// [`StoreError::NoSuchVariation`], an illegal move, or the store's own failure.
    fn append_variation_move(&mut self, id: VariationId, mv: Move) -> Result<(), StoreError>;

    /// The moves the stored finished 8x8 games played from `pos` (in any of its eight
    /// orientations, shown in the one asked), most played first.
    ///
    /// # Errors
    /// The store's own failure.
    fn explore(&self, pos: &Position) -> Result<Vec<ExplorerMove>, StoreError>;
}
