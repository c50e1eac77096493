//! The game being played and the games kept, for every front end: a [`Session`] (settings,
//! players, undo/redo, the computer's turns, saving move by move through a [`GameLog`]), the
//! stored games read through an [`Archive`](reversi_record::Archive) (resuming one, the
//! opening explorer; SQLite's `reversi-store` is one archive), a stored game's [`Replay`] with its
//! variations, game [`analysis`], a game people share from several places ([`Table`]: seats,
//! join codes, take-backs), and the conversion between stored games and the file formats
//! ([`convert`]).
//!
//! The terminal UI, plain mode and the web server are adapters over this crate: a new front
//! end needs only it and its own screens.

#![warn(missing_docs)]

pub mod analysis;
mod clock;
pub mod convert;
mod explorer;
mod history;
pub mod human_scale;
pub mod ladder;
mod log;
mod player;
mod printable;
mod replay;
mod session;
mod settings;
mod table;

pub use clock::{clock_text, time_left, ClockView};
pub use explorer::{explore, search_values, Explored, ExplorerLine, Valuation, EXPLORER_LEVEL};
pub use history::{
    resume, resume_as, stored_player, stored_records, stored_settings, ResumeError, COMPUTER_NAME,
    PERSON_NAME, RESUME_WRITER,
};
pub use log::{GameLog, LogError, LogHandle, LogId, LoggedMove};
pub use player::{levels_help, ParsePlayerError, Player};
pub use printable::{printable, Printable};
pub use replay::{outcome_text, player_name, record_note, Line, Replay, VariationError};
pub use session::{
    evaluation, move_at, result_line, side_label, ComputerTurn, Context, LastMove, PlayError,
    Session, TIME_LOSS,
};
pub use settings::{clock_seed, Settings};
pub use table::{new_token, Seats, Table, TableError};
