//! Played games in the history database: the [`GameLog`] over [`reversi_store::Store`], the
//! players as the history names them and back, and loading an unfinished game to resume it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use reversi_core::{Position, Score};
use reversi_engine::ai::Ai;
use reversi_store::{GameId, MoveRecord, NewGame, PlayerKind, Status, Store, StoreError};

use crate::game_log::{GameLog, LogError, LogHandle, LogId, LoggedMove};
use crate::player::Player;
use crate::session::{Session, Settings};

/// The name the history gives the program's computer players.
pub const COMPUTER_NAME: &str = "reversi";

/// Keeps games in the database at a path, opened at the first game (so that playing without
/// ever moving creates no file).
pub struct StoreLog {
    path: PathBuf,
    store: Option<Store>,
}

impl StoreLog {
    /// The log of the database at `path`.
    #[must_use]
    pub fn at(path: &Path) -> StoreLog {
        StoreLog {
            path: path.to_path_buf(),
            store: None,
        }
    }

    /// The log of an open database.
    #[cfg(test)]
    #[must_use]
    pub fn open(store: Store) -> StoreLog {
        StoreLog {
            path: store.path().to_path_buf(),
            store: Some(store),
        }
    }

    /// A shared handle on the log of the database at `path`.
    #[must_use]
    pub fn handle(path: &Path) -> LogHandle {
        LogHandle::new(Arc::new(Mutex::new(StoreLog::at(path))))
    }

    /// The database, once opened.
    #[cfg(test)]
    #[must_use]
    pub fn store(&self) -> Option<&Store> {
        self.store.as_ref()
    }

    fn store_mut(&mut self) -> Result<&mut Store, LogError> {
        if self.store.is_none() {
            self.store = Some(Store::open(&self.path).map_err(log_error)?);
        }
        self.store
            .as_mut()
            .ok_or_else(|| LogError(format!("{}: not open", self.path.display())))
    }
}

fn log_error(e: StoreError) -> LogError {
    LogError(e.to_string())
}

/// Records a new game described by `template` starting from `start` (kept only when it is
/// not the standard start).
pub(crate) fn create_game(
    store: &mut Store,
    template: NewGame,
    start: &Position,
) -> Result<LogId, LogError> {
    let standard = Position::start(template.size, template.rules);
    let new = NewGame {
        start: (*start != standard).then(|| start.clone()),
        ..template
    };
    let id = store.create_game(&new).map_err(log_error)?;
    Ok(LogId(id.0))
}

/// Adds a move to game `id`.
pub(crate) fn append_move(store: &mut Store, id: LogId, mv: &LoggedMove) -> Result<(), LogError> {
    let record = MoveRecord {
        mv: mv.mv,
        time_ms: mv.time_ms,
        eval: mv.eval,
    };
    store
        .append_move(GameId(id.0), &record)
        .map(drop)
        .map_err(log_error)
}

/// Takes back the last move of game `id`.
pub(crate) fn undo_move(store: &mut Store, id: LogId) -> Result<(), LogError> {
    store.undo_move(GameId(id.0)).map(drop).map_err(log_error)
}

/// Marks game `id` finished with `score`.
pub(crate) fn finish_game(store: &mut Store, id: LogId, score: Score) -> Result<(), LogError> {
    store.finish_game(GameId(id.0), score).map_err(log_error)
}

impl GameLog for StoreLog {
    fn create(&mut self, settings: &Settings, start: &Position) -> Result<LogId, LogError> {
        let template = NewGame::standard(
            settings.size,
            settings.rules,
            stored_player(settings.black),
            stored_player(settings.white),
        );
        create_game(self.store_mut()?, template, start)
    }

    fn append(&mut self, id: LogId, mv: &LoggedMove) -> Result<(), LogError> {
        append_move(self.store_mut()?, id, mv)
    }

    fn undo(&mut self, id: LogId) -> Result<(), LogError> {
        undo_move(self.store_mut()?, id)
    }

    fn finish(&mut self, id: LogId, score: Score) -> Result<(), LogError> {
        finish_game(self.store_mut()?, id, score)
    }
}

/// The person's name in the history: the login name, or `human`.
fn human_name() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .ok()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "human".to_string())
}

/// A side's player as the history records it: a person by login name, or the computer
/// `reversi` with its level as `--black`/`--white` name it after `ai:` (`hard`, `greedy`).
#[must_use]
pub fn stored_player(player: Player) -> reversi_store::Player {
    match player {
        Player::Human => reversi_store::Player::human(&human_name()),
        Player::Computer(ai) => reversi_store::Player::computer(COMPUTER_NAME, &ai.to_string()),
    }
}

/// Why a stored game cannot be resumed.
#[derive(Debug)]
pub enum ResumeError {
    Store(StoreError),
    /// The game has ended (finished or abandoned).
    Ended {
        id: GameId,
        status: Status,
    },
    /// A computer player whose level this program does not know.
    UnknownLevel {
        id: GameId,
        player: String,
    },
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Store(e) => e.fmt(f),
            ResumeError::Ended { id, status } => write!(
                f,
                "game {id} is {}: only games in progress can be resumed (`reversi history \
                 replay {id}` replays it)",
                match status {
                    Status::Finished => "finished",
                    Status::Abandoned => "abandoned",
                    Status::InProgress => "in progress",
                }
            ),
            ResumeError::UnknownLevel { id, player } => write!(
                f,
                "game {id}: cannot tell which computer player {player:?} was, so it cannot be \
                 resumed"
            ),
        }
    }
}

impl std::error::Error for ResumeError {}

impl From<StoreError> for ResumeError {
    fn from(e: StoreError) -> Self {
        ResumeError::Store(e)
    }
}

/// The player of a stored side: a person, or a computer whose level parses back.
fn player_of(id: GameId, p: &reversi_store::Player) -> Result<Player, ResumeError> {
    match p.kind {
        PlayerKind::Human => Ok(Player::Human),
        PlayerKind::Computer => p
            .level
            .as_deref()
            .and_then(|l| l.parse::<Ai>().ok())
            .map(Player::Computer)
            .ok_or_else(|| ResumeError::UnknownLevel {
                id,
                player: match &p.level {
                    Some(l) => format!("{} level {l}", p.name),
                    None => p.name.clone(),
                },
            }),
    }
}

/// The game `id` of `store`, in progress, as a session with the same players that adds its
/// moves to the same record through `log`.
///
/// # Errors
/// No such game, a game that has ended, a computer player that is not known, or a database
/// error.
pub fn resume(
    store: &Store,
    id: GameId,
    seed: u64,
    log: Option<LogHandle>,
) -> Result<Session, ResumeError> {
    let stored = store.load_game(id)?;
    let info = &stored.info;
    if info.status != Status::InProgress {
        return Err(ResumeError::Ended {
            id,
            status: info.status,
        });
    }
    let settings = Settings {
        size: info.size,
        rules: info.rules,
        black: player_of(id, &info.black)?,
        white: player_of(id, &info.white)?,
        seed,
    };
    let records = stored
        .moves
        .iter()
        .map(|m| LoggedMove {
            mv: m.mv,
            time_ms: m.time_ms,
            eval: m.eval,
        })
        .collect();
    Ok(Session::resume(
        settings,
        stored.game,
        records,
        log,
        LogId(id.0),
    ))
}

#[cfg(test)]
mod tests;
