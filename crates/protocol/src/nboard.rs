//! The NBoard protocol, version 2 (Chris Welty's, as NTest and Edax speak it): one command a
//! line, replies flushed line by line, unknown lines ignored.
//!
//! - [`command`]: the GUI's command lines, parsed.
//! - [`notation`]: how moves, evaluations, depths and lines of play are written and read.
//! - [`session`]: the engine's side, a state machine over an [`reversi_engine::engine::Engine`].
//! - [`serve`](mod@serve): the loop that reads lines on their own thread so `ping` stops a search.
//! - [`client`]: the GUI's side, driving an external engine process with timeouts.

pub mod client;
pub mod command;
pub mod notation;
pub mod serve;
pub mod session;

pub use client::{Client, ClientError};
pub use command::{Command, ParseCommandError};
pub use notation::AnnotatedMove;
pub use serve::{serve, Interrupt};
pub use session::{Flow, Session};
