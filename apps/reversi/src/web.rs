//! `reversi serve`'s web server: the page (embedded in the binary) and the JSON API over the
//! game sessions and the history. [`app`] builds the router, so that tests drive it with
//! `oneshot` and no network.

mod assets;
pub mod error;
mod games;
mod history;
mod live;
mod log;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::extract::DefaultBodyLimit;
use axum::Router;
use reversi_store::{GameId, Store};
use tokio::sync::Semaphore;

use self::error::AppError;
use self::live::LiveGame;

/// The largest request body accepted (an imported file of games included).
pub const MAX_BODY: usize = 1 << 20;

/// What every request shares: the history, the games being played, and the pool that bounds
/// how many engine searches run at once.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

struct Shared {
    /// Shared with the games' logs, which save their moves into it.
    store: Arc<Mutex<Store>>,
    games: Mutex<HashMap<GameId, Arc<LiveGame>>>,
    pool: Arc<Semaphore>,
}

impl AppState {
    /// State over `store`, with at most `searches` engine searches at a time.
    #[must_use]
    pub fn new(store: Store, searches: usize) -> AppState {
        AppState(Arc::new(Shared {
            store: Arc::new(Mutex::new(store)),
            games: Mutex::new(HashMap::new()),
            pool: Arc::new(Semaphore::new(searches.max(1))),
        }))
    }

    /// The history (every call on it is one short transaction).
    fn store(&self) -> MutexGuard<'_, Store> {
        self.0.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn shared_store(&self) -> Arc<Mutex<Store>> {
        Arc::clone(&self.0.store)
    }

    fn games(&self) -> MutexGuard<'_, HashMap<GameId, Arc<LiveGame>>> {
        self.0.games.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn pool(&self) -> Arc<Semaphore> {
        Arc::clone(&self.0.pool)
    }

    /// A game being played, if it is.
    fn live(&self, id: GameId) -> Option<Arc<LiveGame>> {
        self.games().get(&id).cloned()
    }

    fn require_live(&self, id: GameId) -> Result<Arc<LiveGame>, AppError> {
        self.live(id)
            .ok_or_else(|| AppError::not_found(format!("no game {id} is being played")))
    }

    /// Runs `work` on the blocking threads once the search pool has room.
    async fn search<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let permit = self
            .pool()
            .acquire_owned()
            .await
            .map_err(|_| AppError::internal("the search pool is closed"))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| AppError::internal(format!("search failed: {e}")))
    }
}

/// The whole site: the page, the games API and the history API.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(assets::router())
        .nest("/api/games", games::router())
        .nest("/api/history", history::router())
        .fallback(|| async { AppError::not_found("no such page or API route") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// Serves `app` on `listener` until the process ends.
///
/// # Errors
/// When the listener fails.
pub async fn serve(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    axum::serve(listener, app(state)).await
}

#[cfg(test)]
mod tests;
