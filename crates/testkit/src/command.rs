//! Running a program of the workspace from its integration tests: arguments, environment and
//! standard input in, exit status and text output back.

use std::ffi::OsStr;
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};

/// A command to run once, built like [`Command`]: `TestCommand::new(env!("CARGO_BIN_EXE_reversi"))`
/// in the tests of the crate that builds the binary (Cargo sets that variable there only, which
/// is why the path is an argument).
///
/// Standard input is empty unless [`stdin`](Self::stdin) gives a text: never the terminal of
/// whoever runs the tests, so a program that asks when it has a terminal behaves as in a
/// pipe.
///
/// # Examples
/// ```
/// use reversi_testkit::TestCommand;
///
/// let out = TestCommand::new("cat").stdin("f5d6\n").run().assert_success();
/// assert_eq!(out.stdout, "f5d6\n");
/// let out = TestCommand::new("sh").args(["-c", "echo no >&2; exit 3"]).run();
/// assert_eq!(out.assert_failure().stderr, "no\n");
/// ```
#[derive(Debug)]
pub struct TestCommand {
    command: Command,
    stdin: Vec<u8>,
}

impl TestCommand {
    /// A command that runs `program` with no arguments.
    #[must_use]
    pub fn new(program: impl AsRef<OsStr>) -> TestCommand {
        TestCommand {
            command: Command::new(program),
            stdin: Vec::new(),
        }
    }

    /// Adds an argument.
    #[must_use]
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> TestCommand {
        self.command.arg(arg);
        self
    }

    /// Adds arguments.
    #[must_use]
    pub fn args<I, S>(mut self, args: I) -> TestCommand
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.command.args(args);
        self
    }

    /// Sets an environment variable of the program.
    #[must_use]
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> TestCommand {
        self.command.env(key, value);
        self
    }

    /// Removes an environment variable the tests inherited (such as the user's `REVERSI_DB`).
    #[must_use]
    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> TestCommand {
        self.command.env_remove(key);
        self
    }

    /// Runs the program in `dir`.
    #[must_use]
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> TestCommand {
        self.command.current_dir(dir);
        self
    }

    /// What the program reads on standard input (by [`run`](Self::run); nothing by default).
    #[must_use]
    pub fn stdin(mut self, text: impl Into<Vec<u8>>) -> TestCommand {
        self.stdin = text.into();
        self
    }

    /// Runs the program to its end: writes the standard input, then collects the output.
    ///
    /// # Panics
    ///
    /// If the program cannot be started.
    #[must_use = "the exit status is in the output: check it, e.g. with `assert_success`"]
    #[track_caller]
    pub fn run(mut self) -> Output {
        let line = format!("{:?}", self.command);
        let mut child = self
            .command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {line}: {e}"));
        // Written by a thread of its own, so that a program which writes much before it reads
        // cannot block on a full pipe while the input waits for it.
        let writer = child.stdin.take().map(|mut stdin| {
            let text = std::mem::take(&mut self.stdin);
            // A program that exits without reading all of it closes the pipe: not an error.
            std::thread::spawn(move || drop(stdin.write_all(&text)))
        });
        let out = child
            .wait_with_output()
            .unwrap_or_else(|e| panic!("cannot wait for {line}: {e}"));
        if let Some(writer) = writer {
            let _ = writer.join();
        }
        Output {
            command: line,
            status: out.status,
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// Starts the program and returns at once, for tests that talk to it or kill it: standard
    /// input and output are pipes held by the returned [`Child`], standard error goes to the
    /// test's own (so a crash shows). [`stdin`](Self::stdin) is not used.
    ///
    /// # Panics
    ///
    /// If the program cannot be started.
    #[track_caller]
    pub fn spawn(mut self) -> Child {
        let line = format!("{:?}", self.command);
        self.command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {line}: {e}"))
    }
}

/// What a finished [`TestCommand`] left: its exit status and output, read as UTF-8 (with
/// replacement characters for any invalid bytes).
///
/// It displays as the command line, the status and both outputs: a test's failure message.
#[derive(Debug)]
pub struct Output {
    /// The program and its arguments, quoted.
    pub command: String,
    /// How the program ended.
    pub status: ExitStatus,
    /// Everything it wrote on standard output.
    pub stdout: String,
    /// Everything it wrote on standard error.
    pub stderr: String,
}

impl Output {
    /// Whether the program exited with status 0.
    #[must_use]
    pub fn success(&self) -> bool {
        self.status.success()
    }

    /// The output of a successful run.
    ///
    /// # Panics
    ///
    /// If the program failed, showing everything it wrote.
    #[track_caller]
    pub fn assert_success(self) -> Output {
        assert!(self.success(), "the command failed: {self}");
        self
    }

    /// The output of a failed run.
    ///
    /// # Panics
    ///
    /// If the program succeeded, showing everything it wrote.
    #[track_caller]
    pub fn assert_failure(self) -> Output {
        assert!(!self.success(), "the command should have failed: {self}");
        self
    }
}

impl fmt::Display for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}\n({})\n--- stdout\n{}\n--- stderr\n{}",
            self.command, self.status, self.stdout, self.stderr
        )
    }
}
