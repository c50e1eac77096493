//! The GUI's side of NBoard: start an engine process, tell it the game and the moves, ask it
//! for moves, and notice when it crashes or stops answering.

use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use reversi_core::{Game, Move};
use reversi_formats::ggf::{write_ggf, GgfGame, GgfMove};

use super::notation::{move_text, parse_annotated, AnnotatedMove, ParseMoveError};

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
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    name: Option<String>,
    next_ping: i64,
}

impl Client {
    /// Starts `argv` (program and arguments), opens the session (`nboard 2`, `set depth`) and
    /// waits up to `timeout` for the engine to answer a `ping`. The engine's standard error
    /// is discarded.
    ///
    /// # Errors
    /// [`ClientError`] when it does not start, exits, or does not answer in time.
    pub fn spawn(argv: &[String], depth: u32, timeout: Duration) -> Result<Client, ClientError> {
        let spawn_error = |source| ClientError::Spawn {
            command: argv.join(" "),
            source,
        };
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| spawn_error(io::Error::other("empty command")))?;
        let mut child = Process::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(spawn_error)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(io::Error::other("no pipes to the engine")));
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&buf).trim().to_string();
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            lines,
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
        let ggf = GgfGame {
            start: game.start().clone(),
            moves: game
                .moves()
                .iter()
                .map(|&mv| GgfMove {
                    mv,
                    eval: None,
                    seconds: None,
                })
                .collect(),
            tags: Vec::new(),
        };
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
        let result = self
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush());
        match result {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(self.exited()),
            Err(e) => Err(ClientError::Write(e)),
        }
    }

    /// Reads lines until one satisfies `wanted`, noting the engine's name on the way.
    fn wait_for(
        &mut self,
        deadline: Instant,
        timeout: Duration,
        mut wanted: impl FnMut(&str) -> bool,
    ) -> Result<String, ClientError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(name) = line.strip_prefix("set myname ") {
                        self.name = Some(name.trim().to_string());
                    }
                    if wanted(&line) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(ClientError::Timeout(timeout)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            }
        }
    }

    /// The engine's output has closed: its exit status, once it has one (waiting briefly).
    fn exited(&mut self) -> ClientError {
        let until = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return ClientError::Exited(Some(status)),
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => return ClientError::Exited(None),
            }
        }
    }
}

impl Drop for Client {
    /// Says `quit`, gives the engine a moment to leave, then ends it.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
