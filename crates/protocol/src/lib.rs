//! Engine protocols as thin adapters over the engine's API: the NBoard protocol, both the
//! engine's side (a state machine that reads command lines and writes replies) and the GUI's
//! side (driving an external engine process, with timeouts).
//!
//! Nothing here prints or exits: the engine side writes to any [`std::io::Write`], so whole
//! sessions are tested in-process, and every malformed line is ignored as the protocol asks.

#![warn(missing_docs)]

pub mod nboard;
