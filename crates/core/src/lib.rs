//! Reversi/Othello rules for every even board size from 4x4 to 16x16, with the standard
//! (Othello) four-disc start and the international Reversi start; square names and transcripts;
//! the names of the 8x8 Othello openings; the workspace's seeded generator ([`XorShift64`]).
//!
//! This crate does no I/O. The fast 8x8 code lives in `reversi-engine` and is tested against
//! this one.
//!
//! # Examples
//! ```
//! use reversi_core::{Position, Rules, BoardSize, Move};
//!
//! let start = Position::start(BoardSize::EIGHT, Rules::Othello);
//! assert_eq!(start.legal_moves().len(), 4);
//! let f5 = start.parse_square("f5").unwrap();
//! let next = start.play(Move::Play(f5)).unwrap();
//! assert_eq!(next.disc_count(reversi_core::Color::Black), 4);
//! ```

#![warn(missing_docs)]

pub mod bit_symmetry;
mod color;
mod game;
mod openings;
mod position;
mod rng;
mod rules;
mod setup;
mod size;
mod square;
mod symmetry;
mod time_control;
mod transcript;

pub use color::Color;
pub use game::{Game, Outcome, Score};
pub use openings::{opening_name, opening_name_at, openings, Opening};
pub use position::{IllegalMove, Move, Position, MAX_CELLS};
pub use rng::XorShift64;
pub use rules::{ParseRulesError, Rules};
pub use setup::ImpossiblePosition;
pub use size::{BoardSize, InvalidBoardSize};
pub use square::{ParseSquareError, Square};
pub use time_control::{ParseTimeControlError, TimeControl};
pub use transcript::{format_transcript, parse_transcript, TranscriptError, TranscriptErrorKind};
