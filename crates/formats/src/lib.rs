//! Reading and writing the file formats of the Othello world.
//!
//! Every parser takes bytes or text and returns a concrete error naming the record or line and
//! the reason; none panics on bad input.

pub mod ggf;
pub mod obf;
pub mod transcript;
pub mod wthor;
