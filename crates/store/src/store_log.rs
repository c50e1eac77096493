//! The one [`GameLog`] over the SQLite history ([`Store`](crate::Store)): the terminal keeps
//! its games in the database at a path, opened at the first game; the web server shares one
//! open database between all its games and makes each game's record when the game is created.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use reversi_core::{Color, Position, Score};
use reversi_game::{
    stored_player, GameLog, LogError, LogHandle, LogId, LoggedMove, Settings, PERSON_NAME,
};

use crate::{GameId, MoveRecord, NewGame, Store, StoreError};

/// Where the log's database is.
enum Db {
    /// The database at a path, opened at the first game (so that a program that never plays
    /// a move creates no file).
    Path { path: PathBuf, store: Option<Store> },
    /// A database shared with others (the web server's games).
    Shared(Arc<Mutex<Store>>),
}

/// Keeps games in the history database, one record per game.
///
/// # Examples
/// A session saving its moves into an in-memory history: the record is made at the first
/// move, and a move taken back leaves the record too.
/// ```
/// use std::sync::{Arc, Mutex};
///
/// use reversi_game::{LogHandle, Player, Session, Settings};
/// use reversi_store::{GameId, PlayerKind, Status, Store, StoreLog};
///
/// let log = Arc::new(Mutex::new(StoreLog::open(Store::open_in_memory()?)));
/// let settings = Settings { white: Player::Human, ..Settings::default() };
/// let mut session = Session::with_log(settings, Some(LogHandle::new(Arc::clone(&log))));
/// assert!(session.is_saving() && session.log_id().is_none());
///
/// for name in ["f5", "d6", "c3"] {
///     let square = session.position().parse_square(name)?;
///     session.play(square)?;
/// }
/// assert_eq!(session.undo(), 1);
/// assert!(session.save_error().is_none());
///
/// let id = GameId(session.log_id().expect("kept from the first move").0);
/// let log = log.lock().expect("no thread panicked while saving");
/// let stored = log.store().expect("opened at the first move").load_game(id)?;
/// assert_eq!(stored.game.moves(), session.game().moves());
/// assert_eq!(stored.info.status, Status::InProgress);
/// assert_eq!(stored.info.black.kind, PlayerKind::Human);
/// assert!(stored.moves.iter().all(|m| m.time_ms.is_some()), "each move's time is kept");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct StoreLog {
    db: Db,
    /// A record made before the first move (the web game's id), handed out at that move.
    premade: Option<GameId>,
    /// How new records describe the game and its players; by default from the session's
    /// settings ([`stored_player`]).
    template: Option<NewGame>,
    /// The name people playing get in new records.
    person: String,
}

impl StoreLog {
    /// The log of the database at `path`, opened when the first game starts.
    #[must_use]
    pub fn at(path: &Path) -> StoreLog {
        StoreLog::with_db(Db::Path {
            path: path.to_path_buf(),
            store: None,
        })
    }

    /// The log of an open database.
    #[must_use]
    pub fn open(store: Store) -> StoreLog {
        StoreLog::with_db(Db::Path {
            path: store.path().to_path_buf(),
            store: Some(store),
        })
    }

    /// The log of a database shared with other logs (each call takes the lock for one
    /// transaction).
    #[must_use]
    pub fn shared(store: Arc<Mutex<Store>>) -> StoreLog {
        StoreLog::with_db(Db::Shared(store))
    }

    fn with_db(db: Db) -> StoreLog {
        StoreLog {
            db,
            premade: None,
            template: None,
            person: PERSON_NAME.to_string(),
        }
    }

    /// This log with game `id`, made beforehand as `template` describes, as the record of the
    /// first game; a later game (one continued after its end) gets a new record described by
    /// `template`.
    #[must_use]
    pub fn with_record(self, id: GameId, template: NewGame) -> StoreLog {
        StoreLog {
            premade: Some(id),
            template: Some(template),
            ..self
        }
    }

    /// This log naming the people who play `person` in the games it records (the login
    /// name, say; `human` otherwise).
    #[must_use]
    pub fn with_person(self, person: &str) -> StoreLog {
        StoreLog {
            person: person.to_string(),
            ..self
        }
    }

    /// A shared handle on the log of the database at `path`.
    #[must_use]
    pub fn handle(path: &Path) -> LogHandle {
        StoreLog::at(path).into_handle()
    }

    /// A shared handle on this log.
    #[must_use]
    pub fn into_handle(self) -> LogHandle {
        LogHandle::new(Arc::new(Mutex::new(self)))
    }

    /// The database, when this log owns it and has opened it.
    #[must_use]
    pub fn store(&self) -> Option<&Store> {
        match &self.db {
            Db::Path { store, .. } => store.as_ref(),
            Db::Shared(_) => None,
        }
    }

    /// Runs `f` on the database, opening it first if need be.
    fn with_store<T>(
        &mut self,
        f: impl FnOnce(&mut Store) -> Result<T, StoreError>,
    ) -> Result<T, LogError> {
        match &mut self.db {
            Db::Path { path, store } => {
                let open = match store.take() {
                    Some(open) => open,
                    None => Store::open(path).map_err(log_error)?,
                };
                f(store.insert(open)).map_err(log_error)
            }
            Db::Shared(shared) => {
                f(&mut shared.lock().unwrap_or_else(PoisonError::into_inner)).map_err(log_error)
            }
        }
    }
}

fn log_error(e: StoreError) -> LogError {
    LogError(e.to_string())
}

impl GameLog for StoreLog {
    fn create(&mut self, settings: &Settings, start: &Position) -> Result<LogId, LogError> {
        if let Some(id) = self.premade.take() {
            return Ok(LogId(id.0));
        }
        let template = self.template.clone().unwrap_or_else(|| {
            NewGame::standard(
                settings.size,
                settings.rules,
                stored_player(settings.black, &self.person),
                stored_player(settings.white, &self.person),
            )
        });
        // The start is kept only when it is not the standard one.
        let standard = Position::start(template.size, template.rules);
        let new = NewGame {
            start: (*start != standard).then(|| start.clone()),
            clock: settings.clock,
            ..template
        };
        self.with_store(|store| store.create_game(&new))
            .map(|id| LogId(id.0))
    }

    fn append(&mut self, id: LogId, mv: &LoggedMove) -> Result<(), LogError> {
        let record = MoveRecord {
            mv: mv.mv,
            time_ms: mv.time_ms,
            eval: mv.eval,
        };
        self.with_store(|store| store.append_move(GameId(id.0), &record).map(drop))
    }

    fn undo(&mut self, id: LogId) -> Result<(), LogError> {
        self.with_store(|store| store.undo_move(GameId(id.0)).map(drop))
    }

    fn finish(&mut self, id: LogId, score: Score) -> Result<(), LogError> {
        self.with_store(|store| store.finish_game(GameId(id.0), score))
    }

    fn lose_on_time(&mut self, id: LogId, loser: Color) -> Result<(), LogError> {
        self.with_store(|store| store.finish_on_time(GameId(id.0), loser))
    }
}
