//! The computer players, on every board size and under both start rules: random, greedy, the
//! classic algorithms at a fixed depth, and the engine's levels ([`Ai`]), each a [`Computer`]
//! that reports what it considers as the engine does ([`Thinking`](reversi_engine::Thinking)).
//!
//! A level searches with the 8x8 engine (`reversi-engine`) on boards up to 8x8, answers from
//! the opening book and the solved 6x6 openings where they know the position, and searches
//! the generic rules of `reversi-core` on larger boards. The [`classic`] algorithms (minimax,
//! alpha-beta, negascout, negascout with a transposition table) search the generic rules with
//! a hand-made evaluation. An [`Advisor`], an engine and a book the program makes once, makes
//! the players that share them and gives hints ([`HintLine`]: a move and the line expected
//! after it).
//!
//! # Examples
//! ```
//! use std::sync::atomic::AtomicBool;
//! use reversi_core::{BoardSize, Position, Rules};
//! use reversi_players::{Advisor, Ai};
//!
//! let start = Position::start(BoardSize::SIX, Rules::Othello);
//! let stop = AtomicBool::new(false);
//! // One engine (made at the first search) and no book, for every player and hint.
//! let advisor = Advisor::standard().with_book(None);
//! let mut level = advisor.computer("2".parse::<Ai>()?, 1);
//! let decision = level.choose(&start, &stop, &mut |_| {}).expect("the game is on");
//! assert!(start.moves().contains(&decision.mv));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod advisor;
mod ai;
pub mod classic;
mod computer;
mod heuristic;
mod level;

pub use advisor::{Advisor, HintLine};
pub use ai::{Ai, ParseAiError};
pub use computer::{Computer, Decision};
