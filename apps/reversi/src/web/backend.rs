//! What a live game needs from the server: the shared history database, the search pool,
//! and the stop flags of the searches each game has started (raised when the game is
//! deleted or resigned).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use reversi_store::{GameId, Store};

use super::error::AppError;
use super::pool::{SearchPool, Ticket};

/// The history and the search pool, shared by every request and game.
#[derive(Clone)]
pub struct Backend {
    /// Shared with the games' logs, which save their moves into it.
    store: Arc<Mutex<Store>>,
    pool: Arc<SearchPool>,
    /// The hints and analyses under way, by game.
    stops: Arc<Mutex<HashMap<GameId, Vec<Weak<AtomicBool>>>>>,
    /// The longest any one search may run, whatever it is.
    pub search_cap: Duration,
}

/// Sets its flag when dropped: a request whose client went away stops its search.
pub struct StopOnDrop(pub Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Backend {
    /// The backend over `store` with the search `pool`; no search runs longer than
    /// `search_cap`.
    pub fn new(store: Store, pool: Arc<SearchPool>, search_cap: Duration) -> Backend {
        Backend {
            store: Arc::new(Mutex::new(store)),
            pool,
            stops: Arc::default(),
            search_cap,
        }
    }

    /// The history (every call on it is one short transaction).
    pub fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The history, for a game's log to keep.
    pub fn shared_store(&self) -> Arc<Mutex<Store>> {
        Arc::clone(&self.store)
    }

    pub fn pool(&self) -> &Arc<SearchPool> {
        &self.pool
    }

    fn stops(&self) -> MutexGuard<'_, HashMap<GameId, Vec<Weak<AtomicBool>>>> {
        self.stops.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Stops every hint and analysis of game `id` (deleted, resigned or ended).
    pub fn cancel_game(&self, id: GameId) {
        for flag in self.stops().remove(&id).unwrap_or_default() {
            if let Some(flag) = flag.upgrade() {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Raises `flag` once `after` has passed (a search's time cap).
    pub fn stop_after(flag: &Arc<AtomicBool>, after: Duration) {
        let flag = Arc::downgrade(flag);
        tokio::spawn(async move {
            tokio::time::sleep(after).await;
            if let Some(flag) = flag.upgrade() {
                flag.store(true, Ordering::Relaxed);
            }
        });
    }

    /// Runs a hint or analysis of game `id` (`None`: of a position of no game) admitted with
    /// `ticket`: once the pool gives it a slot, on the blocking threads. The search stops when
    /// `stop` is dropped (the client went away), when the game is deleted or resigned, and
    /// after `cap`.
    pub async fn request<T: Send + 'static>(
        &self,
        id: Option<GameId>,
        ticket: Ticket,
        stop: &StopOnDrop,
        cap: Duration,
        work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
    ) -> Result<T, AppError> {
        if let Some(id) = id {
            let mut stops = self.stops();
            let flags = stops.entry(id).or_default();
            flags.retain(|f| f.strong_count() > 0);
            flags.push(Arc::downgrade(&stop.0));
        }
        Backend::run(ticket, stop, cap, work).await
    }

    /// Runs a search admitted with `ticket` that belongs to no game (the explorer's values):
    /// as [`Backend::request`], stopped when `stop` is dropped and after `cap`.
    pub async fn run<T: Send + 'static>(
        ticket: Ticket,
        stop: &StopOnDrop,
        cap: Duration,
        work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
    ) -> Result<T, AppError> {
        let slot = ticket.slot().await;
        Backend::stop_after(&stop.0, cap);
        let flag = Arc::clone(&stop.0);
        tokio::task::spawn_blocking(move || {
            // Both are held until the search has really ended, even if the client has gone.
            let _held = (slot, ticket);
            work(&flag)
        })
        .await
        .map_err(|e| AppError::internal(format!("search failed: {e}")))
    }
}
