//! Engine protocols as thin adapters over the engine's API: the NBoard protocol, both the
//! engine's side (a state machine that reads command lines and writes replies) and the GUI's
//! side (driving an external engine process, with timeouts), and GTP, both sides likewise.
//!
//! Nothing here prints or exits: the engine side writes to any [`std::io::Write`], so whole
//! sessions are tested in-process, and every malformed line is ignored (NBoard) or answered
//! with an error (GTP), as each protocol asks.

#![warn(missing_docs)]

pub mod gtp;
pub mod nboard;
mod process;
