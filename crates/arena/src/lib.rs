//! Engine matches: two contenders (internal levels and players, or NBoard and GTP programs
//! driven through [`reversi_protocol`]'s clients) play each opening twice with colours
//! swapped; an engine that crashes, hangs, plays an illegal move or runs out of time loses
//! the game 0-64 and is restarted; the games are saved to the history or a GGF file and the
//! result is summed up as a score and an Elo difference with its 95% interval.
//!
//! The pieces, bottom up: [`EngineSpec`] (what names an engine), [`Contender`] (one side,
//! running), [`play_game`] (one game with its clock and forfeit rules), [`Match`] (the
//! series, its seeds and tallies), [`Tally`] (the statistics) and [`Sink`] (where games go).
//! Nothing here prints: `reversi match` is the command-line adapter.
//!
//! # Examples
//!
//! Greedy against random on two openings from the start, each played twice:
//! ```
//! use std::time::Duration;
//!
//! use reversi_arena::{BookChoice, Contender, EngineSpec, Match, MatchRules, Setup};
//! use reversi_core::{BoardSize, Game, Position, Rules};
//!
//! let setup = Setup { threads: 1, hash_mb: 1, time_per_move: None, clock: None, depth: 1 };
//! let side = |name: &str| {
//!     let spec: EngineSpec = name.parse().unwrap();
//!     Contender::new(name, &spec, &setup, &BookChoice::Own(None))
//! };
//! let start = Game::new(Position::start(BoardSize::EIGHT, Rules::Othello));
//! let rules = MatchRules { timeout: Duration::from_secs(10), clock: None };
//! let mut m = Match::new(side("greedy"), side("random"), vec![start; 2], 4, rules);
//! while let Some(game) = m.play_next() {
//!     assert!(game.played.game.current().is_game_over());
//! }
//! assert_eq!(m.tally().games(), 4);
//! assert_eq!(m.forfeits(), [0, 0]);
//! ```

#![warn(missing_docs)]

mod contender;
pub mod duel;
mod elo;
mod play;
mod ratings;
mod record;
mod series;
mod spec;

pub use contender::{BookChoice, Choice, Contender, EngineError, MoveClock, Setup};
pub use elo::{elo, Elo, GameResult, Tally, WinDrawLoss};
pub use play::{play_game, Forfeit, Played};
pub use ratings::{fit_ratings, Encounter, RatingFit, Ratings, RatingsError};
pub use record::{Sink, SinkError};
pub use series::{Earlier, Match, MatchGame, MatchRules, MoveTimes, ResumeError};
pub use spec::{split_command, EngineSpec, ParseEngineError, Protocol};
