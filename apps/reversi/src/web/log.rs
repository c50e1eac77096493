//! The history as a web game's [`GameLog`]: the session saves each move through it into the
//! server's one shared database. The record is made when the game is created, so that the
//! game's link and its history entry share one id.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use reversi_core::{Position, Score};
use reversi_store::{GameId, NewGame, Store};

use crate::game_log::{GameLog, LogError, LogId, LoggedMove};
use crate::session::Settings;
use crate::store_log;

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

impl GameLog for WebLog {
    fn create(&mut self, _settings: &Settings, start: &Position) -> Result<LogId, LogError> {
        if let Some(id) = self.premade.take() {
            return Ok(LogId(id.0));
        }
        store_log::create_game(&mut self.store(), self.template.clone(), start)
    }

    fn append(&mut self, id: LogId, mv: &LoggedMove) -> Result<(), LogError> {
        store_log::append_move(&mut self.store(), id, mv)
    }

    fn undo(&mut self, id: LogId) -> Result<(), LogError> {
        store_log::undo_move(&mut self.store(), id)
    }

    fn finish(&mut self, id: LogId, score: Score) -> Result<(), LogError> {
        store_log::finish_game(&mut self.store(), id, score)
    }
}
