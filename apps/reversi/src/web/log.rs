//! The history as a web game's [`GameLog`]: the session saves each move through it into the
//! server's one shared database. The record is made when the game is created, so that the
//! game's link and its history entry share one id.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use reversi_core::{Position, Score};
use reversi_store::{GameId, MoveRecord, NewGame, Store, StoreError};

use crate::game_log::{GameLog, LogError, LogId, LoggedMove};
use crate::session::Settings;

/// A web game's log over the shared store.
pub struct WebLog {
    store: Arc<Mutex<Store>>,
    /// The record made with the game, handed out at the first move.
    premade: Option<GameId>,
    /// How a later record (a game continued after its end) is described.
    template: NewGame,
}

impl WebLog {
    pub fn new(store: Arc<Mutex<Store>>, premade: GameId, template: NewGame) -> WebLog {
        WebLog {
            store,
            premade: Some(premade),
            template,
        }
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn log_error(e: StoreError) -> LogError {
    LogError(e.to_string())
}

impl GameLog for WebLog {
    fn create(&mut self, _settings: &Settings, start: &Position) -> Result<LogId, LogError> {
        if let Some(id) = self.premade.take() {
            return Ok(LogId(id.0));
        }
        let standard = Position::start(self.template.size, self.template.rules);
        let new = NewGame {
            start: (*start != standard).then(|| start.clone()),
            ..self.template.clone()
        };
        let id = self.store().create_game(&new).map_err(log_error)?;
        Ok(LogId(id.0))
    }

    fn append(&mut self, id: LogId, mv: &LoggedMove) -> Result<(), LogError> {
        let record = MoveRecord {
            mv: mv.mv,
            time_ms: mv.time_ms,
            eval: mv.eval,
        };
        self.store()
            .append_move(GameId(id.0), &record)
            .map(drop)
            .map_err(log_error)
    }

    fn undo(&mut self, id: LogId) -> Result<(), LogError> {
        self.store()
            .undo_move(GameId(id.0))
            .map(drop)
            .map_err(log_error)
    }

    fn finish(&mut self, id: LogId, score: Score) -> Result<(), LogError> {
        self.store()
            .finish_game(GameId(id.0), score)
            .map_err(log_error)
    }
}
