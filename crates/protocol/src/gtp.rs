//! The Go Text Protocol as Othello engines speak it (Edax's GTP mode, for match runners and
//! GUIs such as Quarry): one command a line, optionally numbered, each answered `= result` or
//! `? error` and an empty line. Moves are written `f5` (lowercase, as Edax writes them) or
//! `pass`, and read in any case.
//!
//! - [`command`]: the controller's lines, parsed.
//! - [`session`]: the engine's side, a state machine over an [`reversi_engine::engine::Engine`].
//! - [`serve`](mod@serve): the loop over an input and an output.
//! - [`response`]: the engine's responses, as the controller reads them.
//! - [`client`]: the controller's side, driving an external engine process with timeouts.

pub mod client;
pub mod command;
pub mod response;
pub mod serve;
pub mod session;

pub use client::{Client, ClientError};
pub use command::{Command, ParseCommandError, Request, COMMANDS};
pub use response::{Response, ResponseReader};
pub use serve::serve;
pub use session::{score_text, Flow, Session, TimeSettings, NAME, VERSION};
