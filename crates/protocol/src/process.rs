//! An engine program on pipes, as the GUI sides of NBoard and GTP drive it: started with its
//! standard error discarded, its output read line by line on a thread of its own so that every
//! wait has a deadline, and ended when dropped.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long a dropped engine gets to leave after `quit` before it is killed.
const GRACE: Duration = Duration::from_millis(500);

/// Why talking to the engine failed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// It closed its output: it exited (with this status, when known) or crashed.
    Exited(Option<ExitStatus>),
    /// No line before the deadline.
    Timeout,
    /// Writing to it failed other than by its having gone.
    Write(io::Error),
}

/// A running engine program.
pub(crate) struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl EngineProcess {
    /// Starts `argv` (program and arguments).
    ///
    /// # Errors
    /// Why it could not be started: no such program, not executable, an empty command.
    pub(crate) fn spawn(argv: &[String]) -> io::Result<EngineProcess> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::other("empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("no pipes to the engine"));
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
        Ok(EngineProcess {
            child,
            stdin,
            lines,
        })
    }

    /// Writes `line` and a newline, and flushes.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), Failure> {
        let result = self
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush());
        match result {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(self.exited()),
            Err(e) => Err(Failure::Write(e)),
        }
    }

    /// The engine's next line, trimmed, if it comes before `deadline`.
    pub(crate) fn recv(&mut self, deadline: Instant) -> Result<String, Failure> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Failure::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited()),
        }
    }

    /// The engine's output has closed: its exit status, once it has one (waiting briefly).
    fn exited(&mut self) -> Failure {
        let until = Instant::now() + GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Failure::Exited(Some(status)),
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => return Failure::Exited(None),
            }
        }
    }
}

impl Drop for EngineProcess {
    /// Says `quit` (both protocols' word for it), gives the engine a moment to leave, then
    /// ends it.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + GRACE;
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
