//! What can go wrong with a store of games, naming the file or game concerned.

use std::fmt;
use std::path::PathBuf;

use crate::GameId;

/// Why a store operation failed.
#[derive(Debug)]
pub enum StoreError {
    /// The file or its folder could not be read or created.
    Io {
        /// The file or folder concerned.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file exists but is not an SQLite database. It is left untouched.
    NotADatabase {
        /// The file refused.
        path: PathBuf,
    },
    /// An SQLite database of some other program: tables but not ours. It is left untouched.
    Foreign {
        /// The file refused.
        path: PathBuf,
        /// The names of the tables it holds.
        tables: Vec<String>,
    },
    /// Our database, written by a newer version of this program. It is left untouched.
    TooNew {
        /// The file refused.
        path: PathBuf,
        /// The schema version the file records.
        version: i64,
        /// The newest schema version this program knows, `SCHEMA_VERSION` of the SQLite store.
        known: i64,
    },
    /// The database reported an error (a damaged file, a full disk, a locked database, …).
    Database {
        /// The database file, or `:memory:`.
        path: PathBuf,
        /// The database's error (SQLite's, or the browser's storage's).
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// No game has this id.
    NoSuchGame(GameId),
    /// Moves were added to, or an end recorded for, a game that has already ended.
    NotInProgress(GameId),
    /// A move that is not legal where it would be played; nothing is written.
    IllegalMove {
        /// The game the move was for.
        game: GameId,
        /// 0-based ply the move would have.
        ply: usize,
        /// Why the rules refuse it.
        reason: reversi_core::IllegalMove,
    },
    /// No variation has this id (or not one of the game concerned).
    NoSuchVariation(crate::VariationId),
    /// A variation that cannot be stored: no moves, a branch point past the end of the line it
    /// leaves, or a move that is not legal there; nothing is written.
    InvalidVariation {
        /// The game the variation was for.
        game: GameId,
        /// What is wrong with it.
        reason: String,
    },
    /// A new game whose set-up start is for another board size or start rule.
    StartMismatch(String),
    /// A game of an import that cannot be stored; the import is rolled back.
    Rejected {
        /// 0-based index of the game in the import.
        index: usize,
        /// Why it cannot be stored: the move that does not replay, or the start that does
        /// not fit.
        reason: String,
    },
    /// A stored game does not read back (a value out of range, an illegal move).
    Corrupt {
        /// The damaged game.
        game: GameId,
        /// The value or move that does not read back.
        reason: String,
    },
    /// Another process is writing the game (it holds the game's lease).
    Held {
        /// The game asked for.
        game: GameId,
        /// Who holds it, as it named itself (`reversi serve`, pid and host).
        holder: String,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            StoreError::NotADatabase { path } => write!(
                f,
                "{}: not an SQLite database (left untouched; pass another --db path)",
                path.display()
            ),
            StoreError::Foreign { path, tables } => write!(
                f,
                "{}: an SQLite database of another program (tables: {}); left untouched",
                path.display(),
                tables.join(", ")
            ),
            StoreError::TooNew {
                path,
                version,
                known,
            } => write!(
                f,
                "{}: schema version {version} is newer than this program knows ({known}); \
                 left untouched, upgrade reversi to open it",
                path.display()
            ),
            StoreError::Database { path, source } => write!(f, "{}: {source}", path.display()),
            StoreError::NoSuchGame(id) => write!(f, "no game with id {id}"),
            StoreError::NotInProgress(id) => write!(f, "game {id} has already ended"),
            StoreError::IllegalMove { game, ply, reason } => {
                write!(f, "game {game} move {}: {reason}", ply + 1)
            }
            StoreError::NoSuchVariation(id) => write!(f, "no variation with id {id}"),
            StoreError::InvalidVariation { game, reason } => {
                write!(f, "game {game}: variation refused: {reason}")
            }
            StoreError::StartMismatch(reason) => f.write_str(reason),
            StoreError::Rejected { index, reason } => {
                write!(f, "game {} of the import: {reason}", index + 1)
            }
            StoreError::Corrupt { game, reason } => write!(f, "game {game} is damaged: {reason}"),
            StoreError::Held { game, holder } => write!(
                f,
                "game {game} is being played by {holder}: one process writes a game at a time \
                 (stop it there first)"
            ),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Io { source, .. } => Some(source),
            StoreError::Database { source, .. } => Some(source.as_ref()),
            _ => None,
        }
    }
}
