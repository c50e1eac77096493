//! What every request of the web server shares ([`AppState`]): its [`Config`], the history
//! and the search pool ([`Backend`]), the games being played, the count of event streams, and
//! the shutdown signal; the route modules take it, and none of them is imported here.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use reversi_core::Outcome;
use reversi_game::{clock_seed, Context, LogHandle, LogId, Seats, Session};
use reversi_players::Advisor;
use reversi_store::StoreLog;
use reversi_store::{GameId, Status, Store, StoreError, Termination, WebSeats, Writer};

use super::address::Site;
use super::backend::Backend;
use super::error::AppError;
use super::listen::ConnLimits;
use super::live::LiveGame;
use super::pool::{PoolLimits, SearchPool};

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
    pub site: Site,
    /// Serve the page's files from this folder instead of the copies built into the binary
    /// (for working on the page without a rebuild).
    pub web_dir: Option<std::path::PathBuf>,
    /// The opening book the computer players and hints consult (`None`: none).
    pub book: Option<Arc<reversi_engine::book::Book>>,
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
            site: Site::default(),
            web_dir: None,
            book: reversi_engine::book::shipped(),
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
    /// The engine every game and hint searches with, and the book.
    advisor: Advisor,
}

impl AppState {
    /// State over `store`, bounded by `config`.
    #[must_use]
    pub fn new(store: Store, config: Config) -> AppState {
        let pool = SearchPool::new(config.pool);
        AppState(Arc::new(Shared {
            advisor: Advisor::standard().with_book(config.book.clone()),
            backend: Backend::new(store, pool, config.search_cap),
            config,
            writer: Writer::this_process(WRITER),
            streams: Arc::default(),
            closing: tokio::sync::watch::Sender::new(false),
            games: Mutex::new(HashMap::new()),
        }))
    }

    /// The engine and book the games and hints consult.
    pub(super) fn advisor(&self) -> &Advisor {
        &self.0.advisor
    }

    /// A session's context: the system's clock and [`AppState::advisor`].
    pub(super) fn context(&self) -> Context {
        Context::with(self.0.advisor.clone())
    }

    pub(super) fn config(&self) -> &Config {
        &self.0.config
    }

    pub(super) fn writer(&self) -> &Writer {
        &self.0.writer
    }

    /// How people reach the server.
    pub(super) fn site(&self) -> &Site {
        &self.0.config.site
    }

    /// The history and the search pool.
    pub(super) fn backend(&self) -> &Backend {
        &self.0.backend
    }

    /// The history (every call on it is one short transaction).
    pub(super) fn store(&self) -> MutexGuard<'_, Store> {
        self.backend().store()
    }

    pub(super) fn games(&self) -> MutexGuard<'_, HashMap<GameId, Arc<LiveGame>>> {
        self.0.games.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A game being played and in memory, if it is.
    pub(super) fn live(&self, id: GameId) -> Option<Arc<LiveGame>> {
        self.games().get(&id).cloned()
    }

    /// Game `id` for a request: from memory, else reopened from the history — a web game
    /// in progress with its seats (after a restart, or unloaded while idle), or an ended game
    /// for viewing only (not kept in memory).
    pub(super) fn open(&self, id: GameId) -> Result<Arc<LiveGame>, AppError> {
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
            let mut session = Session::resume_in_context(
                settings,
                stored.game,
                records,
                None,
                LogId(id.0),
                self.context(),
            );
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
        let session = Session::resume_in_context(
            settings,
            stored.game,
            records,
            Some(log),
            LogId(id.0),
            self.context(),
        );
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
    pub(super) fn require_admin(&self, headers: &axum::http::HeaderMap) -> Result<(), AppError> {
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
    pub(super) fn close(&self) {
        let games: Vec<Arc<LiveGame>> = self.games().drain().map(|(_, g)| g).collect();
        let store = self.store();
        for game in games {
            game.stop_search();
            self.backend().cancel_game(game.id);
            let _ = store.release_lease(game.id, &self.0.writer);
        }
    }

    /// Counts an event stream while it lives, or refuses it past the cap.
    pub(super) fn stream_slot(&self) -> Result<StreamSlot, AppError> {
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

    /// The sender that tells the event streams the server shuts down.
    pub(super) fn closing_sender(&self) -> tokio::sync::watch::Sender<bool> {
        self.0.closing.clone()
    }

    /// Completes when the server shuts down.
    pub(super) fn closing(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut rx = self.0.closing.subscribe();
        async move {
            let _ = rx.wait_for(|closing| *closing).await;
        }
    }

    pub(super) fn open_streams(&self) -> usize {
        self.0.streams.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Games in memory, for tests and the status route.
    pub(super) fn loaded(&self) -> usize {
        self.games().len()
    }
}

/// An open event stream, counted until dropped.
pub(super) struct StreamSlot(Arc<std::sync::atomic::AtomicUsize>);

impl Drop for StreamSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}
