//! One module per command, each with its options (`reversi COMMAND --help`).

pub mod analyze;
pub mod bench;
pub mod book;
pub mod gtp;
pub mod history;
pub mod levels;
pub mod match_cmd;
pub mod nboard;
pub mod perft;
pub mod play;
pub mod serve;
pub mod solve;
pub mod train;
