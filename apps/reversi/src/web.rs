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
use reversi_game::{clock_seed, LogHandle, LogId, Session, StoreLog};
use reversi_store::{GameId, Status, Store, StoreError, WebSeats, Writer};

use self::backend::Backend;
use self::error::AppError;
use self::live::{LiveGame, Seats};
use self::pool::{PoolLimits, SearchPool};

/// The largest request body accepted (an imported file of games included).
pub const MAX_BODY: usize = 1 << 20;

/// How the server names itself to another process that wants one of its games.
pub const WRITER: &str = "reversi serve";

/// How the server bounds its work; `reversi serve`'s options set it.
#[derive(Debug, Clone)]
pub struct Config {
    /// The search slots and the hint and analysis queue.
    pub pool: PoolLimits,
    /// The longest any one search runs (a level's own budget is usually shorter).
    pub search_cap: Duration,
    /// The longest one analysis of a game runs, all its positions together.
    pub analysis_time: Duration,
    /// How long an ended game stays in memory (for its players' last look) before it is
    /// served from the history.
    pub ended_grace: Duration,
    /// How long a game in progress that nobody watches stays in memory.
    pub idle: Duration,
    /// How long this server's claim on a game it plays lasts unless renewed (every sweep).
    pub lease: Duration,
    /// How often the server sweeps (unloads games, renews leases).
    pub sweep_every: Duration,
}

impl Config {
    /// The defaults for a machine with `cores` cores.
    #[must_use]
    pub fn for_cores(cores: usize) -> Config {
        Config {
            pool: PoolLimits::for_cores(cores),
            search_cap: Duration::from_secs(30),
            analysis_time: Duration::from_secs(60),
            ended_grace: Duration::from_secs(60),
            idle: Duration::from_secs(600),
            lease: Duration::from_secs(120),
            sweep_every: Duration::from_secs(15),
        }
    }
}

/// What every request shares: the history and the search pool ([`Backend`]), and the games
/// being played.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

struct Shared {
    config: Config,
    /// This server as the writer of its games.
    writer: Writer,
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
            writer: Writer::this_process(WRITER),
            games: Mutex::new(HashMap::new()),
        }))
    }

    fn config(&self) -> &Config {
        &self.0.config
    }

    fn writer(&self) -> &Writer {
        &self.0.writer
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

    /// A game being played and in memory, if it is.
    fn live(&self, id: GameId) -> Option<Arc<LiveGame>> {
        self.games().get(&id).cloned()
    }

    /// Game `id` for a request: from memory, else reopened from the history — a web game
    /// in progress with its seats (after a restart, or unloaded while idle), or an ended game
    /// for viewing only (not kept in memory).
    fn open(&self, id: GameId) -> Result<Arc<LiveGame>, AppError> {
        if let Some(game) = self.live(id) {
            game.lock().last_active = std::time::Instant::now();
            return Ok(game);
        }
        let (stored, seats) = {
            let store = self.store();
            let stored = store.load_game(id).map_err(|e| match e {
                StoreError::NoSuchGame(_) => AppError::not_found(format!("no game {id}")),
                e => AppError::from(e),
            })?;
            (stored, store.web_seats(id)?)
        };
        let in_progress = stored.info.status == Status::InProgress;
        let Some(seats) = seats.filter(|_| in_progress).or_else(|| {
            // An ended game is shown to anyone; nobody moves in it.
            (!in_progress).then(|| WebSeats {
                owner_token: String::new(),
                remote: None,
                guest_token: None,
                join_code: None,
            })
        }) else {
            return Err(AppError::not_found(format!(
                "game {id} was not started in the browser: `reversi history resume {id}` \
                 continues it in the terminal"
            )));
        };
        let settings = reversi_game::stored_settings(id, &stored.info, clock_seed())
            .map_err(|e| AppError::conflict(e.to_string()))?;
        let records = reversi_game::stored_records(&stored.moves);
        if !in_progress {
            let session = Session::resume(settings, stored.game, records, None, LogId(id.0));
            return Ok(LiveGame::closed(id, session, Seats::from_stored(seats)));
        }
        let mut games = self.games();
        // Another request may have reopened it meanwhile.
        if let Some(game) = games.get(&id) {
            return Ok(Arc::clone(game));
        }
        self.store()
            .take_lease(id, &self.0.writer, self.config().lease)?;
        let log = StoreLog::shared(self.backend().shared_store());
        let log = LogHandle::new(Arc::new(Mutex::new(log)));
        let session = Session::resume(settings, stored.game, records, Some(log), LogId(id.0));
        let game = LiveGame::new(id, session, Seats::from_stored(seats));
        games.insert(id, Arc::clone(&game));
        drop(games);
        game.begin(self.backend())?;
        Ok(game)
    }

    /// Lets go of the games that ended a while ago or sat idle (they are reopened from the
    /// history on demand), and renews this server's lease on the others.
    pub fn sweep(&self) {
        let config = self.config();
        let gone: Vec<Arc<LiveGame>> = {
            let mut games = self.games();
            let ids: Vec<GameId> = games
                .iter()
                .filter(|(_, g)| g.unloadable(config.ended_grace, config.idle))
                .map(|(id, _)| *id)
                .collect();
            ids.iter().filter_map(|id| games.remove(id)).collect()
        };
        let kept: Vec<GameId> = self.games().keys().copied().collect();
        let store = self.store();
        for game in gone {
            // A lease left behind expires on its own.
            let _ = store.release_lease(game.id, &self.0.writer);
        }
        for id in kept {
            if let Err(e) = store.take_lease(id, &self.0.writer, config.lease) {
                eprintln!("reversi serve: game {id}: {e}");
            }
        }
    }

    /// Games in memory, for tests and the status route.
    fn loaded(&self) -> usize {
        self.games().len()
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
    let sweeper = {
        let state = state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(state.config().sweep_every);
            loop {
                every.tick().await;
                state.sweep();
            }
        })
    };
    let served = axum::serve(
        listener,
        app(state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .await;
    sweeper.abort();
    served
}

#[cfg(test)]
mod service_tests;
#[cfg(test)]
mod tests;
