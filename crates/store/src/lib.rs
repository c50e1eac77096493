//! Game history: a SQLite database of played and imported games, their moves with times and
//! evaluations, and the numbered migrations of its schema.
//!
//! A play loop creates a game, appends each move as it is made (one transaction each, so a
//! crash loses at most the move under way), then finishes or abandons it; `load_game` replays
//! a stored game into a [`reversi_core::Game`] to show or resume it. A game's variations (lines
//! played in a replay that leave its moves, or each other, at some move) are kept beside it.
//! Imports add many games in one transaction and skip the ones already stored.
//!
//! The program chooses where the database lives (`$XDG_DATA_HOME/reversi/games.sqlite3` by
//! default); a file that is not ours is refused, never overwritten.

#![warn(missing_docs)]

mod codec;
mod explorer;
mod history;
mod holders;
mod import;
mod schema;
mod store;
mod store_log;
mod timestamp;
mod variations;

pub use explorer::{ExplorerSize, EXPLORER_MAX_DISCS};
pub use history::History;
pub use reversi_record::{
    format_utc, Archive, ExplorerMove, GameFilter, GameId, GameInfo, ImportGame, ImportReport,
    MoveRecord, NewGame, ParseGameIdError, ParseStatusError, Player, PlayerKind, Status,
    StoreError, StoredGame, Termination, Variation, VariationId, WebSeats, Writer, MAX_TEXT_CHARS,
};
pub use schema::SCHEMA_VERSION;
pub use store::Store;
pub use store_log::StoreLog;
pub use timestamp::now_utc;
