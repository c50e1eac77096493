//! `reversi serve`'s web server: the page (embedded in the binary) and the JSON API over the
//! game sessions and the history. [`app`] builds the router, so that tests drive it with
//! `oneshot` and no network.

mod assets;
mod backend;
mod client;
pub mod error;
mod games;
mod history;
mod levels;
mod live;
pub mod pool;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::Router;
use reversi_store::{GameId, Store};

use self::backend::Backend;
use self::error::AppError;
use self::live::LiveGame;
use self::pool::{PoolLimits, SearchPool};

/// The largest request body accepted (an imported file of games included).
pub const MAX_BODY: usize = 1 << 20;

/// How the server bounds its work; `reversi serve`'s options set it.
#[derive(Debug, Clone)]
pub struct Config {
    /// The search slots and the hint and analysis queue.
    pub pool: PoolLimits,
    /// The longest any one search runs (a level's own budget is usually shorter).
    pub search_cap: Duration,
    /// The longest one analysis of a game runs, all its positions together.
    pub analysis_time: Duration,
}

impl Config {
    /// The defaults for a machine with `cores` cores.
    #[must_use]
    pub fn for_cores(cores: usize) -> Config {
        Config {
            pool: PoolLimits::for_cores(cores),
            search_cap: Duration::from_secs(30),
            analysis_time: Duration::from_secs(60),
        }
    }
}

/// What every request shares: the history and the search pool ([`Backend`]), and the games
/// being played.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

struct Shared {
    config: Config,
    backend: Backend,
    games: Mutex<HashMap<GameId, Arc<LiveGame>>>,
}

impl AppState {
    /// State over `store`, bounded by `config`.
    #[must_use]
    pub fn new(store: Store, config: Config) -> AppState {
        let pool = SearchPool::new(config.pool);
        AppState(Arc::new(Shared {
            backend: Backend::new(store, pool, config.search_cap),
            config,
            games: Mutex::new(HashMap::new()),
        }))
    }

    fn config(&self) -> &Config {
        &self.0.config
    }

    /// The history and the search pool.
    fn backend(&self) -> &Backend {
        &self.0.backend
    }

    /// The history (every call on it is one short transaction).
    fn store(&self) -> MutexGuard<'_, Store> {
        self.backend().store()
    }

    fn games(&self) -> MutexGuard<'_, HashMap<GameId, Arc<LiveGame>>> {
        self.0.games.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A game being played, if it is.
    fn live(&self, id: GameId) -> Option<Arc<LiveGame>> {
        self.games().get(&id).cloned()
    }

    fn require_live(&self, id: GameId) -> Result<Arc<LiveGame>, AppError> {
        self.live(id)
            .ok_or_else(|| AppError::not_found(format!("no game {id} is being played")))
    }
}

/// The whole site: the page, the games API and the history API.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(assets::router())
        .nest("/api/games", games::router())
        .nest("/api/history", history::router())
        .nest("/api/levels", levels::router())
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
mod service_tests;
#[cfg(test)]
mod tests;
