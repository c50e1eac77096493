//! The GUI's side of NBoard: start an engine process, tell it the game and the moves, ask it
//! for moves, and notice when it crashes or stops answering. Dropping the client ends the
//! engine.

use std::fmt;
use std::io;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use reversi_core::{Game, Move, TimeControl};
use reversi_formats::ggf::{write_ggf, GgfGame, GgfMove};

use super::notation::{move_text, parse_annotated, AnnotatedMove, ParseMoveError};
use crate::process::{EngineProcess, Failure};

/// Why an engine process failed us.
#[derive(Debug)]
pub enum ClientError {
    /// The program could not be started.
    Spawn {
        /// The command line, program and arguments joined by spaces.
        command: String,
        /// Why it could not be started (no such program, not executable, an empty command).
        source: io::Error,
    },
    /// The engine closed its output: it exited (with this status, when known) or crashed.
    Exited(Option<ExitStatus>),
    /// No expected answer within this time.
    Timeout(Duration),
    /// Writing a command to the engine failed.
    Write(io::Error),
    /// The `===` answer does not hold a move.
    BadAnswer {
        /// The engine's whole answer line.
        line: String,
        /// Why the move in it was not read.
        reason: ParseMoveError,
    },
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Spawn { command, source } => {
                write!(f, "cannot start the engine {command:?}: {source}")
            }
            ClientError::Exited(Some(status)) => write!(f, "the engine exited ({status})"),
            ClientError::Exited(None) => f.write_str("the engine closed its output"),
            ClientError::Timeout(t) => {
                write!(
                    f,
                    "the engine gave no answer within {:.1} s",
                    t.as_secs_f64()
                )
            }
            ClientError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            ClientError::BadAnswer { line, reason } => {
                write!(f, "the engine answered {line:?}: {reason}")
            }
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::Spawn { source, .. } | ClientError::Write(source) => Some(source),
            ClientError::BadAnswer { reason, .. } => Some(reason),
            _ => None,
        }
    }
}

/// An engine process spoken to in NBoard.
pub struct Client {
    process: EngineProcess,
    name: Option<String>,
    next_ping: i64,
}

impl From<Failure> for ClientError {
    fn from(failure: Failure) -> ClientError {
        match failure {
            Failure::Exited(status) => ClientError::Exited(status),
            // Only reads time out, and `wait_for` maps those itself with the time it waited.
            Failure::Timeout => ClientError::Timeout(Duration::ZERO),
            Failure::Write(e) => ClientError::Write(e),
        }
    }
}

impl Client {
    /// Starts `argv` (program and arguments), opens the session (`nboard 2`, `set depth`) and
    /// waits up to `timeout` for the engine to answer a `ping`. The engine's standard error
    /// is discarded.
    ///
    /// # Errors
    /// [`ClientError`] when it does not start, exits, or does not answer in time.
    pub fn spawn(argv: &[String], depth: u32, timeout: Duration) -> Result<Client, ClientError> {
        let process = EngineProcess::spawn(argv).map_err(|source| ClientError::Spawn {
            command: argv.join(" "),
            source,
        })?;
        let mut client = Client {
            process,
            name: None,
            next_ping: 1,
        };
        client.send("nboard 2")?;
        client.send(&format!("set depth {depth}"))?;
        client.sync(Instant::now() + timeout, timeout)?;
        Ok(client)
    }

    /// The name the engine gave itself with `set myname`, if it did.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Makes the position at the end of `game` the engine's current one (`set game`).
    ///
    /// # Errors
    /// [`ClientError::Write`] when the engine cannot be written to.
    pub fn set_game(&mut self, game: &Game) -> Result<(), ClientError> {
        self.set_timed_game(game, None, &[])
    }

    /// As [`Client::set_game`], with the game's clock (`TI`) and the seconds each move took,
    /// from which the engine works out the time it has left (as the NBoard GUI tells it).
    ///
    /// # Errors
    /// [`ClientError::Write`] when the engine cannot be written to.
    pub fn set_timed_game(
        &mut self,
        game: &Game,
        clock: Option<TimeControl>,
        seconds: &[Option<f64>],
    ) -> Result<(), ClientError> {
        let mut ggf = GgfGame {
            start: game.start().clone(),
            moves: game
                .moves()
                .iter()
                .enumerate()
                .map(|(i, &mv)| GgfMove {
                    mv,
                    eval: None,
                    seconds: seconds.get(i).copied().flatten(),
                })
                .collect(),
            tags: Vec::new(),
        };
        ggf.set_time_control(clock);
        self.send(&format!("set game {}", write_ggf(&ggf)))
    }

    /// Tells the engine a move was played (`move F5`, `move PA`).
    ///
    /// # Errors
    /// [`ClientError::Write`] when the engine cannot be written to.
    pub fn play(&mut self, mv: Move) -> Result<(), ClientError> {
        self.send(&format!("move {}", move_text(mv)))
    }

    /// Asks for the engine's move in the current position (`go`) and waits up to `timeout`
    /// for its `===` answer. The engine's board does not change until [`Client::play`].
    ///
    /// # Errors
    /// [`ClientError`] when the engine exits, does not answer in time, or answers something
    /// that is not a move of this board (a move that is illegal is the caller's to judge).
    pub fn go(&mut self, game: &Game, timeout: Duration) -> Result<AnnotatedMove, ClientError> {
        let deadline = Instant::now() + timeout;
        self.sync(deadline, timeout)?;
        self.send("go")?;
        let line = self.wait_for(deadline, timeout, |l| l.starts_with("==="))?;
        let answer = line.trim_start_matches('=').trim();
        parse_annotated(answer, game.current().size())
            .map_err(|reason| ClientError::BadAnswer { line, reason })
    }

    /// `ping N`, then waits for `pong N`: every earlier answer has then been read.
    fn sync(&mut self, deadline: Instant, timeout: Duration) -> Result<(), ClientError> {
        let n = self.next_ping;
        self.next_ping += 1;
        self.send(&format!("ping {n}"))?;
        let pong = format!("pong {n}");
        self.wait_for(deadline, timeout, |l| l == pong).map(|_| ())
    }

    fn send(&mut self, line: &str) -> Result<(), ClientError> {
        self.process.send(line).map_err(ClientError::from)
    }

    /// Reads lines until one satisfies `wanted`, noting the engine's name on the way.
    fn wait_for(
        &mut self,
        deadline: Instant,
        timeout: Duration,
        mut wanted: impl FnMut(&str) -> bool,
    ) -> Result<String, ClientError> {
        loop {
            let line = self.process.recv(deadline).map_err(|f| match f {
                Failure::Timeout => ClientError::Timeout(timeout),
                f => ClientError::from(f),
            })?;
            if let Some(name) = line.strip_prefix("set myname ") {
                self.name = Some(name.trim().to_string());
            }
            if wanted(&line) {
                return Ok(line);
            }
        }
    }
}
