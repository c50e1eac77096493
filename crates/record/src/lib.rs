//! Game records as every store of games keeps them: games with their players, moves, times and
//! evaluations, variations, the web server's seats, the explorer's counts, and what can go
//! wrong ([`StoreError`]); and the [`Archive`] interface through which the game layer reads
//! and adds to a store. SQLite (`reversi-store`) is one store, the browser's storage another;
//! this crate holds no storage of its own.

#![warn(missing_docs)]

mod archive;
mod error;
mod explorer;
pub mod explorer_keys;
mod model;
mod seats;
mod time;
mod variation;

pub use archive::Archive;
pub use error::StoreError;
pub use explorer::{ExplorerMove, EXPLORER_MAX_DISCS};
pub use model::{
    kept, GameFilter, GameId, GameInfo, ImportGame, ImportReport, MoveRecord, NewGame,
    ParseGameIdError, ParseStatusError, Player, PlayerKind, Status, StoredGame, Termination,
    VariationId, MAX_TEXT_CHARS,
};
pub use seats::{WebSeats, Writer};
pub use time::format_utc;
pub use variation::Variation;
