//! Reading and writing the file formats of the Othello world.
//!
//! Every parser takes bytes or text and returns a concrete error naming the record or line and
//! the reason; none panics on bad input. Two helpers read the disk: [`xot::read_openings`] and
//! [`wthor::list_files`].
//!
//! - [`transcript`]: one game a line as run-together moves (`f5d6c3`), with an optional result.
//! - [`ggf`]: GGS/NBoard games with players, results, evaluations, times and clocks.
//! - [`obf`]: Edax's one-line positions with scored moves, for test suites and analysis.
//! - [`position`]: one position in any of these notations, or as a board string.
//! - [`svg`]: a position as a picture, with coordinates, the last move and scores.
//! - [`wthor`]: the French federation's binary database of tournament games (8x8 only), and
//!   the listing of a folder's `.wtb` files.
//! - [`xot`]: a file of XOT openings, one transcript a line, read by range.

#![warn(missing_docs)]

pub mod ggf;
pub mod obf;
pub mod position;
pub mod svg;
pub mod transcript;
pub mod wthor;
pub mod xot;
