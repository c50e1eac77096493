//! Training the pattern evaluation: the training data and its files, self-play, labelling,
//! the fits and their measures, as a library that `reversi train` drives.
//!
//! The pieces, bottom up: [`LabelledPosition`] and the plain data file `RVTRAIN1`
//! (records.rs), the shard file `RVSHARD1` holding one part of a split job (a
//! [`Shard`](reversi_engine::shard::Shard)) and the merge of shards into the file of one run
//! ([`ShardFile`], [`merge`]: shard.rs), the
//! self-play games file `RVGAMES1` ([`GamesFile`]: games.rs); then the jobs that write them:
//! WTHOR labelling ([`data`]), self-play ([`selfplay`]), relabelling ([`label`]); and the
//! jobs that read them: the fits and their driver ([`fit`]: the tables' least squares in
//! [`fit::linear`], the networks' in [`fit::net`]), the static evaluations' errors and the
//! best-move rate ([`measure`]), evaluation duels ([`duel`]), probcut's deviations
//! ([`probcut`]).
//!
//! Nothing here prints or exits: a long job tells a [`Progress`] how it goes, returns a
//! report whose `Display` is what the command prints, and fails with an [`Error`] naming
//! the file or option at fault. Every job's records depend only on its options, never on
//! the threads or the sharding.
//!
//! # Examples
//!
//! Label the first positions of a WTHOR game exactly near the end, write them as a data
//! file and read them back:
//! ```
//! use reversi_engine::engine::Engine;
//! use reversi_formats::wthor::parse_wtb;
//! use reversi_train::data::{label_game, Labelling};
//! use reversi_train::{decode_file, encode, Kind};
//!
//! # let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/reference/wthor/WTH_1990.wtb");
//! # let bytes = std::fs::read(&path).unwrap();
//! let db = parse_wtb(&bytes).unwrap();
//! let how = Labelling { exact_empties: 10, also_exact: vec![], also_every: 1, hash_mb: 1, deep_labels: None };
//! let records = label_game(&db.games[0], 0, &how, &Engine::new(1, 1)).unwrap();
//! assert!(records.iter().any(|r| r.kind == Kind::Solved));
//! let file = encode(&records);
//! assert_eq!(decode_file(&file, "wthor-1990.bin").unwrap(), records);
//! ```

#![warn(missing_docs)]

pub mod data;
pub mod deep;
pub mod duel;
mod error;
mod evals;
pub mod fit;
mod games;
pub mod human_scale;
pub mod label;
pub mod label_file;
pub mod measure;
mod parallel;
pub mod probcut;
mod records;
pub mod selfplay;
mod shard;

pub use error::{Error, FileError, FormatError, JoinError, Problem};
pub use evals::{eval_of, load_eval, shipped_eval};
pub use games::{join as join_games, write as write_games, GameRecord, GamesFile, IllegalMove};
pub use records::{
    average_theoretical, decode_file, decode_records, encode, encode_records, files, Kind,
    LabelledPosition, RECORD,
};
pub use shard::{join, merge, write as write_shard, ShardFile};

/// Where a long job reports how it goes, a line of text at a time (the command line prints
/// them to standard error). Any `Fn(&str) + Sync` closure is one.
pub trait Progress: Sync {
    /// One line of progress, without its line break.
    fn line(&self, text: &str);
}

impl<F: Fn(&str) + Sync> Progress for F {
    fn line(&self, text: &str) {
        self(text);
    }
}
