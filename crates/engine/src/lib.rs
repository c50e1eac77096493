//! The 8x8 Othello engine: bitboards, move generation and perft, the evaluation, the search
//! ([`engine::Engine`]), the levels, the opening book and the solved openings of the small
//! boards. The computer players built on it, for every board size, live in `reversi-players`.
//!
//! Boards are side-relative: [`Board`] holds the discs of the side to move (`player`) and of
//! its opponent as two `u64`, bit `8 * row + col` for a square (`a1` = bit 0, `h8` = bit 63).
//! Boards smaller than 8x8 (4x4, 6x6) live in the top-left corner under a mask of playable
//! squares; the squares outside the mask stay empty, so rays stop there by themselves.
//! A square crosses the public API as an [`Sq`] (its bit index, never a sentinel).
//!
//! Searches report in one vocabulary, which the computer players of `reversi-players` speak
//! too on any position: a [`Thinking`] with the best [`Candidate`], the line expected from it
//! and every root move scored, each score saying what it is worth ([`ScoreKind`]).
//!
//! Move generation, flips and the pattern indices come in two kernel sets: portable scalar
//! code that runs everywhere, and AVX2/BMI2 code compiled into every x86-64 build. The hot
//! search, the pattern evaluation and perft are compiled once per tier (portable, x86-64-v3,
//! x86-64-v4 with AVX-512). [`kernel`] checks the CPU once at run time and everything uses the
//! best tier it runs; [`kernel::cap`] holds a process lower (the program's `REVERSI_KERNEL`). The
//! build needs no `target-cpu` flag, and the tests run every kernel set this CPU has against
//! each other and against `reversi-core` ([`kernel::available`]).
//!
//! # Examples
//! ```
//! use reversi_engine::{perft::perft, Board};
//!
//! // Four legal first moves, and 12 positions two plies in.
//! assert_eq!(Board::START.moves().count_ones(), 4);
//! assert_eq!(perft(Board::START, 2, u64::MAX), 12);
//! ```

#![warn(missing_docs)]

pub mod bench;
mod board;
pub mod book;
pub mod clock;
pub mod engine;
pub mod eval;
mod flip;
pub mod kernel;
mod lanes;
pub mod levels;
mod mobility;
pub mod pattern;
pub mod perft;
pub mod search;
pub mod shard;
pub mod solved;
mod square;
mod stability;
mod ternary;
mod thinking;
pub mod time;
mod tt;

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod cross_check;

pub use board::{playable, Board, FromPositionError};
pub use square::Sq;
pub use thinking::{Candidate, ScoreKind, Thinking};
