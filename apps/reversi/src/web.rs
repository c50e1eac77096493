//! `reversi serve`'s web server: the page (embedded in the binary) and the JSON API over the
//! game sessions and the history. [`app`] builds the router, so that tests drive it with
//! `oneshot` and no network.

mod assets;
mod backend;
mod client;
pub mod error;
mod explore;
mod games;
mod history;
mod levels;
mod listen;
mod live;
pub mod pool;
mod position;
pub mod site;
mod status;
mod variations;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::Router;
use reversi_core::Outcome;
use reversi_game::{clock_seed, LogHandle, LogId, Seats, Session, StoreLog};
use reversi_store::{GameId, Status, Store, StoreError, Termination, WebSeats, Writer};

use self::backend::Backend;
use self::error::AppError;
use self::listen::ConnLimits;
use self::live::LiveGame;
use self::pool::{PoolLimits, SearchPool};

/// The largest request body accepted (an imported file of games included).
pub const MAX_BODY: usize = 1 << 20;

/// The header that carries the admin token.
pub const ADMIN_HEADER: &str = "x-admin-token";

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
    /// Open connections at once, and how long a client may take over a request's headers
    /// (also how long an idle connection stays open).
    pub conn: ConnLimits,
    /// The longest a request may take, from its headers to its answer (a hint or analysis
    /// included; event streams only until they start).
    pub request_timeout: Duration,
    /// Live event streams at once.
    pub streams: usize,
    /// The token that deleting and importing history games need (`x-admin-token`); `None`
    /// lets anyone who reaches the server do both (a local-only server).
    pub admin_token: Option<String>,
    /// The host names (without port) requests may be addressed to, against DNS rebinding;
    /// `None` accepts any.
    pub allowed_hosts: Option<Vec<String>>,
    /// How people reach the server (the page's share links).
    pub site: site::Site,
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
            // A page holds an event stream and makes its requests on one or two more
            // connections: 1,000 people playing at once need about 2,000 connections and
            // 1,000 streams, and these leave room for as many again.
            conn: ConnLimits {
                connections: 4096,
                header_timeout: Duration::from_secs(15),
                drain: Duration::from_secs(10),
            },
            request_timeout: Duration::from_secs(120),
            streams: 2048,
            admin_token: None,
            allowed_hosts: None,
            site: site::Site::default(),
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
    /// Event streams open now.
    streams: Arc<std::sync::atomic::AtomicUsize>,
    /// Raised when the server shuts down (event streams end).
    closing: tokio::sync::watch::Sender<bool>,
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
            streams: Arc::default(),
            closing: tokio::sync::watch::Sender::new(false),
            games: Mutex::new(HashMap::new()),
        }))
    }

    fn config(&self) -> &Config {
        &self.0.config
    }

    fn writer(&self) -> &Writer {
        &self.0.writer
    }

    /// How people reach the server.
    fn site(&self) -> &site::Site {
        &self.0.config.site
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
        let resigned = seats.as_ref().and_then(|s| s.resigned);
        let Some(seats) = seats.filter(|_| in_progress).or_else(|| {
            // An ended game is shown to anyone; nobody moves in it.
            (!in_progress).then(|| WebSeats {
                owner_token: String::new(),
                remote: None,
                guest_token: None,
                join_code: None,
                resigned: None,
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
            let mut session = Session::resume(settings, stored.game, records, None, LogId(id.0));
            // The board of a game lost on time is not over: the history says who lost.
            if let (Some(Termination::Time), Some(Outcome::Win(winner))) =
                (stored.info.termination, stored.info.result)
            {
                session.restore_time_loss(winner.opposite());
            }
            let seats = Seats::from_stored(seats);
            return Ok(LiveGame::closed(id, session, seats, resigned));
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

    /// Refuses a request without the server's admin token (when it has one). A wrong token is
    /// a 401 like a missing one: either way the client must ask for the right one (the page
    /// prompts on 401).
    fn require_admin(&self, headers: &axum::http::HeaderMap) -> Result<(), AppError> {
        let Some(expected) = &self.config().admin_token else {
            return Ok(());
        };
        let unauthorized = |text| Err(AppError::new(axum::http::StatusCode::UNAUTHORIZED, text));
        match headers.get(ADMIN_HEADER).and_then(|v| v.to_str().ok()) {
            Some(given) if given == expected => Ok(()),
            Some(_) => unauthorized("wrong admin token"),
            None => unauthorized(
                "deleting and importing games need the server's admin token (printed when it \
                 started): send it in the x-admin-token header",
            ),
        }
    }

    /// At shutdown: stops every search and lets go of every game (a computer move not made
    /// yet is made when the game is next opened).
    fn close(&self) {
        let games: Vec<Arc<LiveGame>> = self.games().drain().map(|(_, g)| g).collect();
        let store = self.store();
        for game in games {
            game.stop_search();
            self.backend().cancel_game(game.id);
            let _ = store.release_lease(game.id, &self.0.writer);
        }
    }

    /// Counts an event stream while it lives, or refuses it past the cap.
    fn stream_slot(&self) -> Result<StreamSlot, AppError> {
        let n = self
            .0
            .streams
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let slot = StreamSlot(Arc::clone(&self.0.streams));
        if n >= self.config().streams {
            return Err(AppError::new(
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the server has its {} event streams open: try again shortly",
                    self.config().streams
                ),
            ));
        }
        Ok(slot)
    }

    /// Completes when the server shuts down.
    fn closing(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut rx = self.0.closing.subscribe();
        async move {
            let _ = rx.wait_for(|closing| *closing).await;
        }
    }

    fn open_streams(&self) -> usize {
        self.0.streams.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Games in memory, for tests and the status route.
    fn loaded(&self) -> usize {
        self.games().len()
    }
}

/// An open event stream, counted until dropped.
struct StreamSlot(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
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
        .nest("/api/position", position::router())
        .nest("/api/server", status::router())
        .nest("/api/site", site::router())
        .fallback(|| async { AppError::not_found("no such page or API route") })
        .method_not_allowed_fallback(|| async {
            AppError::new(
                axum::http::StatusCode::METHOD_NOT_ALLOWED,
                "this route does not take that method",
            )
        })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            request_timeout,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            check_origin,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// The host name of a `Host` header or an origin's authority, without its port.
fn host_name(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    authority.rsplit_once(':').map_or(authority, |(h, _)| h)
}

/// Refuses requests addressed to a host the server does not answer to (DNS rebinding), and
/// changes sent from another site's page (an `Origin` that is not the server's own).
async fn check_origin(
    axum::extract::State(state): axum::extract::State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{header, Method};
    use axum::response::IntoResponse;
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    if let (Some(host), Some(allowed)) = (&host, &state.config().allowed_hosts) {
        let name = host_name(host);
        if !allowed.iter().any(|a| a.eq_ignore_ascii_case(name)) {
            return AppError::forbidden(format!(
                "this server does not answer to host {name:?} (`--allow-host` adds one)"
            ))
            .into_response();
        }
    }
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe {
        if let Some(origin) = req.headers().get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let authority = origin.split_once("://").map_or("", |(_, a)| a);
            if host.as_deref() != Some(authority) {
                return AppError::forbidden(format!(
                    "a change sent from another site ({}) is refused",
                    &origin[..origin.len().min(80)]
                ))
                .into_response();
            }
        }
    }
    next.run(req).await
}

/// Answers 408 when a request (its body included) takes longer than the server allows.
async fn request_timeout(
    axum::extract::State(state): axum::extract::State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let limit = state.config().request_timeout;
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(response) => response,
        Err(_) => axum::response::IntoResponse::into_response(AppError::new(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            format!("the request took longer than {} s", limit.as_secs()),
        )),
    }
}

/// Serves `app` on `listener` until `shutdown` completes; then lets the requests under way
/// finish, stops the searches and lets go of the games.
///
/// # Errors
/// When the listener fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
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
    let closing = state.0.closing.clone();
    let shutdown = async move {
        shutdown.await;
        // Event streams never end by themselves.
        closing.send_replace(true);
    };
    let served = listen::serve(listener, app(state.clone()), state.config().conn, shutdown).await;
    sweeper.abort();
    state.close();
    served
}

#[cfg(test)]
mod service_tests;
#[cfg(test)]
mod study_tests;
#[cfg(test)]
mod tests;
