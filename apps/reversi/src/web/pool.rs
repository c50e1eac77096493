//! The engine searches the server runs, and in what order: a fixed number of slots; the
//! computer's quick moves first, then its long moves, then people's hints and analyses; one
//! slot always kept for quick moves so that a game against a weak level never waits behind
//! deep searches; and a bounded queue of hints and analyses, per client and overall, that
//! refuses (429) rather than grows.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::http::StatusCode;
use tokio::sync::Notify;

use super::error::AppError;

/// A computer move whose budget is at most this long is quick (levels 1-10 have 2 s).
pub const QUICK_MOVE: Duration = Duration::from_secs(2);

/// What a search is for, in the order the pool serves them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Work {
    /// The computer's move with a budget of at most [`QUICK_MOVE`].
    QuickMove,
    /// The computer's move with a longer budget.
    LongMove,
    /// A person's hint or analysis.
    Request,
}

impl Work {
    /// The kind of computer move a search of at most `budget` is.
    pub fn computer_move(budget: Duration) -> Work {
        if budget <= QUICK_MOVE {
            Work::QuickMove
        } else {
            Work::LongMove
        }
    }
}

/// How much the pool runs and queues.
#[derive(Debug, Clone, Copy)]
pub struct PoolLimits {
    /// Searches at once.
    pub slots: usize,
    /// Hints and analyses waiting or running, over all clients.
    pub requests: usize,
    /// Hints and analyses waiting or running for one client.
    pub per_client: usize,
}

impl PoolLimits {
    /// The defaults for a machine with `cores` cores: a slot a core plus the one kept for
    /// quick moves.
    pub fn for_cores(cores: usize) -> PoolLimits {
        PoolLimits {
            slots: cores.max(1) + 1,
            requests: 16,
            per_client: 2,
        }
    }
}

#[derive(Debug, Default)]
struct PoolState {
    running: usize,
    /// Running searches that are not quick moves.
    running_slow: usize,
    waiting: BTreeSet<(Work, u64)>,
    next: u64,
    /// Hints and analyses admitted (waiting or running), by client and in all.
    requests: HashMap<String, usize>,
    requests_total: usize,
}

/// The search slots shared by every game and request.
#[derive(Debug)]
pub struct SearchPool {
    limits: PoolLimits,
    state: Mutex<PoolState>,
    wake: Notify,
}

/// A running search's slot, given back when dropped.
#[derive(Debug)]
pub struct Slot {
    pool: Arc<SearchPool>,
    slow: bool,
}

/// A hint or analysis admitted to the queue; dropping it (the client went away) leaves it.
#[derive(Debug)]
pub struct Ticket {
    pool: Arc<SearchPool>,
    client: String,
}

/// Takes a waiter out of the queue however its wait ends (a slot, or a dropped request).
struct Waiting<'a> {
    pool: &'a SearchPool,
    key: (Work, u64),
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.pool.lock().waiting.remove(&self.key);
        // The next in line may be able to start now.
        self.pool.wake.notify_waiters();
    }
}

impl SearchPool {
    pub fn new(limits: PoolLimits) -> Arc<SearchPool> {
        Arc::new(SearchPool {
            limits: PoolLimits {
                slots: limits.slots.max(1),
                requests: limits.requests.max(1),
                per_client: limits.per_client.max(1),
            },
            state: Mutex::new(PoolState::default()),
            wake: Notify::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The most slots searches other than quick moves may hold: all but one, so that a
    /// quick move always finds one (unless the pool has a single slot).
    fn slow_slots(&self) -> usize {
        self.limits.slots.saturating_sub(1).max(1)
    }

    fn may_run(&self, state: &PoolState, work: Work) -> bool {
        state.running < self.limits.slots
            && (work == Work::QuickMove || state.running_slow < self.slow_slots())
    }

    /// Whether `key` is the first waiter that may run now.
    fn turn_of(&self, state: &PoolState, key: (Work, u64)) -> bool {
        state
            .waiting
            .iter()
            .find(|(work, _)| self.may_run(state, *work))
            == Some(&key)
    }

    /// Admits a hint or analysis for `client`, or refuses it with 429 when the client or the
    /// server has too many waiting or running.
    pub fn admit(self: &Arc<Self>, client: &str) -> Result<Ticket, AppError> {
        let mut state = self.lock();
        let mine = state.requests.get(client).copied().unwrap_or(0);
        if mine >= self.limits.per_client {
            return Err(AppError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "you already have {mine} hints or analyses waiting or running: wait for \
                     one to finish"
                ),
            ));
        }
        if state.requests_total >= self.limits.requests {
            return Err(AppError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "the server is busy with {} hints and analyses: try again shortly",
                    state.requests_total
                ),
            ));
        }
        *state.requests.entry(client.to_string()).or_insert(0) += 1;
        state.requests_total += 1;
        Ok(Ticket {
            pool: Arc::clone(self),
            client: client.to_string(),
        })
    }

    /// Waits for a slot for `work` (in the pool's order) and takes it.
    pub async fn slot(self: &Arc<Self>, work: Work) -> Slot {
        let key = {
            let mut state = self.lock();
            state.next += 1;
            let key = (work, state.next);
            state.waiting.insert(key);
            key
        };
        let waiting = Waiting { pool: self, key };
        loop {
            let notified = self.wake.notified();
            tokio::pin!(notified);
            // Registered before looking, so that a slot freed in between still wakes us.
            notified.as_mut().enable();
            {
                let mut state = self.lock();
                if self.turn_of(&state, key) {
                    state.waiting.remove(&key);
                    state.running += 1;
                    let slow = work != Work::QuickMove;
                    if slow {
                        state.running_slow += 1;
                    }
                    drop(state);
                    drop(waiting);
                    return Slot {
                        pool: Arc::clone(self),
                        slow,
                    };
                }
            }
            notified.await;
        }
    }

    /// Searches running and waiting, for tests and the benchmark.
    pub fn load(&self) -> (usize, usize) {
        let state = self.lock();
        (state.running, state.waiting.len())
    }
}

impl Ticket {
    /// Waits for a slot for the hint or analysis.
    pub async fn slot(&self) -> Slot {
        self.pool.slot(Work::Request).await
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut state = self.pool.lock();
        if let Some(n) = state.requests.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                state.requests.remove(&self.client);
            }
        }
        state.requests_total = state.requests_total.saturating_sub(1);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        {
            let mut state = self.pool.lock();
            state.running -= 1;
            if self.slow {
                state.running_slow -= 1;
            }
        }
        self.pool.wake.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool(slots: usize) -> Arc<SearchPool> {
        SearchPool::new(PoolLimits {
            slots,
            requests: 3,
            per_client: 2,
        })
    }

    #[tokio::test]
    async fn a_quick_move_finds_a_slot_while_slow_searches_fill_the_rest() {
        let pool = pool(2);
        let long = pool.slot(Work::LongMove).await;
        // A second slow search must wait: the last slot is kept for quick moves.
        let ticket = pool.admit("a").unwrap();
        let hint = tokio::spawn({
            let pool = Arc::clone(&pool);
            async move { pool.slot(Work::Request).await }
        });
        tokio::task::yield_now().await;
        assert_eq!(pool.load(), (1, 1));
        let quick = pool.slot(Work::QuickMove).await;
        assert_eq!(pool.load(), (2, 1));
        drop(long);
        drop(quick);
        let _hint = hint.await.unwrap();
        drop(ticket);
    }

    #[tokio::test]
    async fn moves_go_before_requests_that_waited_longer() {
        let pool = pool(1);
        let first = pool.slot(Work::QuickMove).await;
        let request = tokio::spawn({
            let pool = Arc::clone(&pool);
            async move {
                let _s = pool.slot(Work::Request).await;
                "request"
            }
        });
        tokio::task::yield_now().await;
        let mv = tokio::spawn({
            let pool = Arc::clone(&pool);
            async move {
                let s = pool.slot(Work::LongMove).await;
                (s, "move")
            }
        });
        while pool.load().1 < 2 {
            tokio::task::yield_now().await;
        }
        drop(first);
        let (slot, name) = mv.await.unwrap();
        assert_eq!(name, "move");
        assert!(!request.is_finished(), "the request waits for the move");
        drop(slot);
        assert_eq!(request.await.unwrap(), "request");
    }

    #[test]
    fn the_queue_refuses_past_its_bounds_per_client_and_overall() {
        let pool = pool(1);
        let a1 = pool.admit("a").unwrap();
        let _a2 = pool.admit("a").unwrap();
        let e = pool.admit("a").unwrap_err();
        assert_eq!(e.status, StatusCode::TOO_MANY_REQUESTS, "{e}");
        let _b = pool.admit("b").unwrap();
        let e = pool.admit("c").unwrap_err();
        assert!(e.message.contains("busy"), "{e}");
        drop(a1);
        let _c = pool.admit("c").unwrap();
    }

    #[tokio::test]
    async fn a_dropped_waiter_leaves_the_queue() {
        let pool = pool(1);
        let held = pool.slot(Work::QuickMove).await;
        let waiter = tokio::spawn({
            let pool = Arc::clone(&pool);
            async move { pool.slot(Work::Request).await }
        });
        while pool.load().1 < 1 {
            tokio::task::yield_now().await;
        }
        waiter.abort();
        let _ = waiter.await;
        assert_eq!(pool.load(), (1, 0));
        drop(held);
        let _again = pool.slot(Work::Request).await;
    }
}
