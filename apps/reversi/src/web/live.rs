//! Games being played through the web: a [`Table`] each (the game crate's session, which
//! saves every move to the history through its log, with the seats and their rules), the
//! computer's searches on the bounded pool, and the events that browsers watching the game
//! receive.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Instant;

use reversi_core::Color;
use reversi_engine::Thinking;
use reversi_players::{Ai, Decision};
use reversi_store::{GameId, Store};
use tokio::sync::broadcast;

use super::backend::Backend;
use super::error::AppError;
use super::pool::Work;
use reversi_api::view::{GameExtras, GameView, ThinkingView};
use reversi_game::{PlayError, Player, Seats, Session, Table, TableError};

/// What a browser watching a game hears: the whole state after each change, and the
/// computer's search as it deepens.
#[derive(Debug, Clone)]
pub enum Event {
    State(Arc<GameView>),
    Thinking(Arc<ThinkingView>),
}

/// A search under way for the computer's turn.
#[derive(Debug)]
struct Search {
    id: u64,
    stop: Arc<AtomicBool>,
}

/// The version after `last`: the time now in microseconds since 1970 (a JavaScript number
/// holds it exactly until the year 2255), or `last + 1` if the clock is not past `last`.
fn next_version(last: u64) -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX));
    now.max(last.saturating_add(1))
}

/// How long past its budget a computer move may run before the server stops it (a level
/// finishes its iteration first).
const CAP_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// The longest the computer to move of `session` should think: its level's budget (within its
/// clock's), nothing for the random and greedy players.
fn computer_budget(session: &Session) -> std::time::Duration {
    let level = match session.player(session.position().turn()) {
        Player::Computer(Ai::Level(level)) => level.spec().time,
        Player::Computer(Ai::Random | Ai::Greedy) => std::time::Duration::ZERO,
        // A classic algorithm has no budget of its own: the server's cap stops it.
        Player::Computer(Ai::Classic { .. }) | Player::Human => std::time::Duration::MAX,
    };
    session
        .clock_budget()
        .map_or(level, |clock| clock.min(level))
}

/// A live game's state, behind its lock.
#[derive(Debug)]
pub struct GameState {
    /// The session, its seats and how it ended if not on the board.
    pub table: Table,
    search: Option<Search>,
    searches: u64,
    /// The latest report of the search under way.
    pub thinking: Option<Arc<ThinkingView>>,
    /// Rises with every change, so that a browser can drop a state older than one it has
    /// shown: the change's time in microseconds since 1970, or one more than the last version
    /// when that is higher. Taken from the clock, it keeps rising when the game is reopened
    /// from the history (after a restart, or unloaded while idle), which a count from zero
    /// would not.
    pub version: u64,
    /// When a request last touched the game (idle games leave memory).
    pub last_active: Instant,
    /// When the game ended, if it has (ended games leave memory soon after).
    pub ended_at: Option<Instant>,
}

impl GameState {
    /// Whether the game takes no more moves (over, resigned or closed).
    pub fn ended(&self) -> bool {
        self.table.ended()
    }

    pub fn searching(&self) -> bool {
        self.search.is_some()
    }

    fn cancel_search(&mut self) {
        if let Some(s) = self.search.take() {
            s.stop.store(true, Ordering::Relaxed);
        }
        self.thinking = None;
    }
}

/// A game being played, shared by the requests and searches that touch it.
#[derive(Debug)]
pub struct LiveGame {
    pub id: GameId,
    /// The game itself, for the searches it starts to come back to (gone once the server
    /// has dropped the game).
    me: Weak<LiveGame>,
    state: Mutex<GameState>,
    events: broadcast::Sender<Event>,
}

impl LiveGame {
    pub fn new(id: GameId, session: Session, seats: Seats) -> Arc<LiveGame> {
        let (events, _) = broadcast::channel(64);
        Arc::new_cyclic(|me| LiveGame {
            id,
            me: me.clone(),
            state: Mutex::new(GameState {
                table: Table::new(session, seats),
                search: None,
                searches: 0,
                thinking: None,
                // An ended game shown from the history is never broadcast: it too is newer
                // than anything a page showed before.
                version: next_version(0),
                last_active: Instant::now(),
                ended_at: None,
            }),
            events,
        })
    }

    /// An ended game reopened from the history for viewing: nobody moves in it. `resigned`:
    /// the side that resigned it, if one did.
    pub fn closed(
        id: GameId,
        session: Session,
        seats: Seats,
        resigned: Option<Color>,
    ) -> Arc<LiveGame> {
        let game = LiveGame::new(id, session, seats);
        {
            let mut gs = game.lock();
            gs.table.closed = true;
            gs.table.resigned = resigned;
            gs.ended_at = Some(Instant::now());
        }
        game
    }

    /// The state, even if a request panicked while holding it.
    pub fn lock(&self) -> MutexGuard<'_, GameState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Stops the computer's search (at shutdown).
    pub fn stop_search(&self) {
        self.lock().cancel_search();
    }

    /// Whether the game may leave memory: ended more than `grace` ago, or idle (nobody
    /// watching, no search) for more than `idle`.
    pub fn unloadable(&self, grace: std::time::Duration, idle: std::time::Duration) -> bool {
        let gs = self.lock();
        if gs.searching() {
            return false;
        }
        match gs.ended_at {
            Some(at) => at.elapsed() >= grace,
            None => self.events.receiver_count() == 0 && gs.last_active.elapsed() >= idle,
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    /// The game as its players see it.
    pub fn view(&self, gs: &GameState) -> GameView {
        GameView::of(
            self.id.0,
            &gs.table.session,
            GameExtras {
                version: gs.version,
                ended: gs.ended(),
                takebacks: gs.table.takebacks(),
                resigned: gs.table.resigned,
                thinking: gs.searching(),
                remote: gs.table.seats.remote,
                joined: gs.table.seats.joined(),
            },
        )
    }

    /// Starts the game: forced passes, the first save, the computer's first search.
    pub fn begin(&self, app: &Backend) -> Result<(), AppError> {
        let mut gs = self.lock();
        self.changed(app, &mut gs);
        Ok(())
    }

    /// A second person takes the open seat.
    pub fn join(&self, app: &Backend, code: &str) -> Result<(Color, String), AppError> {
        let mut gs = self.lock();
        let joined = gs.table.seats.join(code)?;
        app.store()
            .save_web_seats(self.id, &gs.table.stored_seats())?;
        self.broadcast(&mut gs);
        Ok(joined)
    }

    /// A person plays `square` for the side to move.
    pub fn play(&self, app: &Backend, token: Option<&str>, square: &str) -> Result<(), AppError> {
        let mut gs = self.lock();
        match gs.table.play(token, square) {
            Ok(()) => {}
            Err(e @ TableError::Play(PlayError::OutOfTime(_))) => {
                // The game just ended on time: everyone watching hears it.
                self.changed(app, &mut gs);
                return Err(e.into());
            }
            Err(e) => return Err(e.into()),
        }
        self.changed(app, &mut gs);
        Ok(())
    }

    /// Takes back to the previous turn of a person.
    pub fn undo(&self, app: &Backend, token: Option<&str>) -> Result<(), AppError> {
        let mut gs = self.lock();
        gs.table.undo(token)?;
        self.changed(app, &mut gs);
        Ok(())
    }

    pub fn redo(&self, app: &Backend, token: Option<&str>) -> Result<(), AppError> {
        let mut gs = self.lock();
        gs.table.redo(token)?;
        self.changed(app, &mut gs);
        Ok(())
    }

    /// The holder of `token` resigns (see [`Table::resign`] for which side).
    pub fn resign(&self, app: &Backend, token: Option<&str>) -> Result<(), AppError> {
        let mut gs = self.lock();
        gs.table.resign(token)?;
        gs.cancel_search();
        app.cancel_game(self.id);
        {
            let mut store = app.store();
            store.abandon_game(self.id)?;
            // Who resigned, for the page that opens the game again from the history.
            store.save_web_seats(self.id, &gs.table.stored_seats())?;
        }
        self.broadcast(&mut gs);
        Ok(())
    }

    /// Stops the search and marks the game abandoned in the history (unless ended).
    pub fn abandon(&self, store: Option<&mut Store>) {
        let mut gs = self.lock();
        gs.cancel_search();
        if !gs.ended() {
            if let Some(store) = store {
                // A game deleted meanwhile has nothing left to mark.
                let _ = store.abandon_game(self.id);
            }
        }
    }

    /// After every change: forced passes, telling the watchers, the computer's turn. The
    /// session has saved the change; a failure to save is reported (once) and shown.
    fn changed(&self, app: &Backend, gs: &mut GameState) {
        gs.cancel_search();
        while gs.table.session.must_pass() {
            if gs.table.session.pass().is_err() {
                break;
            }
        }
        if let Some(e) = gs.table.session.take_save_warning() {
            eprintln!("reversi serve: game {}: {e}", self.id);
        }
        self.broadcast(gs);
        self.watch_clock(app, gs);
        self.start_search(app, gs);
    }

    fn broadcast(&self, gs: &mut GameState) {
        gs.version = next_version(gs.version);
        gs.last_active = Instant::now();
        if gs.ended() && gs.ended_at.is_none() {
            gs.ended_at = Some(Instant::now());
        }
        // No watcher is not an error.
        let _ = self.events.send(Event::State(Arc::new(self.view(gs))));
    }

    /// Starts the computer's search if the computer is to move.
    fn start_search(&self, app: &Backend, gs: &mut GameState) {
        if gs.table.resigned.is_some() {
            return;
        }
        let Some(turn) = gs.table.session.computer_turn() else {
            return;
        };
        gs.searches += 1;
        let id = gs.searches;
        let stop = Arc::new(AtomicBool::new(false));
        gs.search = Some(Search {
            id,
            stop: Arc::clone(&stop),
        });
        let app = app.clone();
        let me = self.me.clone();
        let budget = computer_budget(&gs.table.session);
        tokio::spawn(async move {
            let permit = app.pool().slot(Work::computer_move(budget)).await;
            // Cancelled (undo, resign, delete, shutdown) while it waited for its slot.
            if stop.load(Ordering::Relaxed) {
                return;
            }
            // The cap raises the same flag as a cancel, but the two part afterwards: a
            // cancelled search is no longer the game's (`cancel_search` took it), while a cut
            // one still is, and its best move so far is played.
            Backend::stop_after(&stop, budget.min(app.search_cap) + CAP_GRACE);
            let Some(game) = me.upgrade() else {
                return;
            };
            let events = game.events.clone();
            let (color, ply) = (turn.color, turn.ply);
            let watcher = Arc::clone(&game);
            let decided = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                turn.run(&stop, &mut |t: &Thinking| {
                    let view = Arc::new(ThinkingView::of(color, ply, t));
                    watcher.lock().thinking = Some(Arc::clone(&view));
                    let _ = events.send(Event::Thinking(view));
                })
            })
            .await;
            game.computer_played(&app, id, ply, decided.ok().flatten().as_ref());
        });
    }

    /// The computer's search `search` has ended with `decision`: played if the search is still
    /// the game's. A search that ended without a move (it failed) frees the game's search
    /// slot all the same, so that the game is not left "thinking" with nothing running.
    fn computer_played(&self, app: &Backend, search: u64, ply: usize, decision: Option<&Decision>) {
        let mut gs = self.lock();
        if gs.search.as_ref().map(|s| s.id) != Some(search) {
            return;
        }
        gs.search = None;
        let Some(decision) = decision else {
            eprintln!(
                "reversi serve: game {}: the computer's search ended without a move",
                self.id
            );
            gs.thinking = None;
            self.broadcast(&mut gs);
            return;
        };
        match gs.table.session.play_decision(ply, decision) {
            Ok(()) | Err(PlayError::OutOfTime(_)) => self.changed(app, &mut gs),
            Err(_) => {}
        }
    }

    /// Ends the game if the side to move has run out of time; tells the watchers when it
    /// just did.
    pub fn check_time(&self, app: &Backend) {
        let mut gs = self.lock();
        if gs.ended() {
            return;
        }
        if gs.table.session.check_time().is_some() {
            self.changed(app, &mut gs);
        }
    }

    /// For a timed game on: wakes when the side to move's time would run out and ends the
    /// game if it has (a move made meanwhile leaves nothing to do).
    fn watch_clock(&self, app: &Backend, gs: &GameState) {
        if gs.ended() {
            return;
        }
        let Some(view) = gs.table.session.clocks() else {
            return;
        };
        let Some(side) = view.running else {
            return;
        };
        let wait = view.left(side) + std::time::Duration::from_millis(20);
        let (app, me) = (app.clone(), self.me.clone());
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            if let Some(game) = me.upgrade() {
                game.check_time(&app);
            }
        });
    }
}
