//! Where a [`crate::Session`] keeps its game as it is played: the [`GameLog`] trait it
//! reports to, and the records it reports. The session knows nothing of databases; the SQLite
//! history implements the trait in `history.rs`, and a session without a log keeps nothing.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use reversi_core::{Color, Move, Position, Score};

use crate::settings::Settings;

/// A game's record in a log (the history's game id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LogId(pub i64);

impl fmt::Display for LogId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// One move as kept: the move, how long the mover took, and the computer's evaluation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoggedMove {
    /// The square played, or a pass.
    pub mv: Move,
    /// Milliseconds from the moment the move could be made until it was made.
    pub time_ms: Option<u64>,
    /// The computer's evaluation in discs for the side that moved, where it has one.
    pub eval: Option<f64>,
}

/// Why the log could not keep something (the game goes on regardless).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogError(pub String);

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the game is not being saved: {}", self.0)
    }
}

impl std::error::Error for LogError {}

/// Keeps games move by move. Each call should be durable when it returns: a program killed
/// afterwards loses nothing the log accepted.
pub trait GameLog: Send {
    /// Opens a record for a new game played with `settings` from `start`, with no moves yet.
    ///
    /// # Errors
    /// When the record cannot be made.
    fn create(&mut self, settings: &Settings, start: &Position) -> Result<LogId, LogError>;

    /// Adds the next move of the game.
    ///
    /// # Errors
    /// When the move cannot be kept.
    fn append(&mut self, id: LogId, mv: &LoggedMove) -> Result<(), LogError>;

    /// Takes back the last move kept.
    ///
    /// # Errors
    /// When it cannot be taken back.
    fn undo(&mut self, id: LogId) -> Result<(), LogError>;

    /// Marks the game over with its final score.
    ///
    /// # Errors
    /// When the end cannot be kept.
    fn finish(&mut self, id: LogId, score: Score) -> Result<(), LogError>;

    /// Marks the game lost by `loser` on time (the winner given every square).
    ///
    /// # Errors
    /// When the end cannot be kept.
    fn lose_on_time(&mut self, id: LogId, loser: Color) -> Result<(), LogError>;
}

/// A log shared by the sessions of one program (a game and its rematches, a resumed game).
#[derive(Clone)]
pub struct LogHandle(Arc<Mutex<dyn GameLog>>);

impl LogHandle {
    /// A handle on `log`; the caller may keep its own `Arc` to look into the log later.
    #[must_use]
    pub fn new<L: GameLog + 'static>(log: Arc<Mutex<L>>) -> LogHandle {
        LogHandle(log)
    }

    /// The log, even if a thread panicked while holding it (every call is one transaction).
    pub(crate) fn lock(&self) -> MutexGuard<'_, dyn GameLog + 'static> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl fmt::Debug for LogHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LogHandle")
    }
}
