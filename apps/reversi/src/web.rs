//! `reversi serve`'s web server: the page (embedded in the binary) and the JSON API over the
//! game sessions and the history. [`app`] builds the router, so that tests drive it with
//! `oneshot` and no network.

mod assets;
mod backend;
pub mod error;
mod explore;
mod games;
mod history;
mod levels;
mod live;
pub mod site;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use axum::extract::DefaultBodyLimit;
use axum::Router;
use reversi_store::{GameId, Store};

use self::backend::Backend;
use self::error::AppError;
use self::live::LiveGame;

/// The largest request body accepted (an imported file of games included).
pub const MAX_BODY: usize = 1 << 20;

/// What every request shares: the history and the search pool ([`Backend`]), and the games
/// being played.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

struct Shared {
    backend: Backend,
    games: Mutex<HashMap<GameId, Arc<LiveGame>>>,
    site: site::Site,
}

impl AppState {
    /// State over `store`, with at most `searches` engine searches at a time (the tests'; the
    /// server knows its address and uses [`AppState::with_site`]).
    #[cfg(test)]
    #[must_use]
    pub fn new(store: Store, searches: usize) -> AppState {
        AppState::with_site(store, searches, site::Site::default())
    }

    /// State over `store`, with at most `searches` engine searches at a time, for a server
    /// reached as `site` says (the page's links).
    #[must_use]
    pub fn with_site(store: Store, searches: usize, site: site::Site) -> AppState {
        AppState(Arc::new(Shared {
            backend: Backend::new(store, searches),
            games: Mutex::new(HashMap::new()),
            site,
        }))
    }

    /// How people reach the server.
    fn site(&self) -> &site::Site {
        &self.0.site
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
        .nest("/api/explore", explore::router())
        .nest("/api/levels", levels::router())
        .nest("/api/site", site::router())
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
