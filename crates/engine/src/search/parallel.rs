//! Parallel search of a node's younger brothers, in the manner of YBWC: once a node's first
//! move has been searched, an idle helper thread from the pool joins the search of the other
//! moves, both threads taking moves from a shared list under a shared bound. A cutoff found by
//! either ends the split.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::{Searcher, Stopper};
use crate::Board;

/// The helper threads a search may use beyond its own.
pub struct Pool {
    busy: AtomicUsize,
    capacity: usize,
}

impl Pool {
    /// A pool of `helpers` threads (0 disables splitting).
    #[must_use]
    pub fn new(helpers: usize) -> Pool {
        Pool {
            busy: AtomicUsize::new(0),
            capacity: helpers,
        }
    }

    fn try_acquire(&self) -> bool {
        self.busy
            .fetch_update(Ordering::AcqRel, Ordering::Relaxed, |b| {
                (b < self.capacity).then_some(b + 1)
            })
            .is_ok()
    }

    fn release(&self) {
        self.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

/// How the children of a node are searched.
#[derive(Clone, Copy)]
pub(crate) enum Child {
    /// A midgame search this deep.
    Midgame(u32),
    /// An exact solve of a position with this many empties.
    Endgame(u32),
}

/// What the threads of a split share: the best score and move so far, and the lower bound.
struct Shared {
    best: i32,
    best_move: u8,
    alpha: i32,
    /// Each move searched: its square, score, and whether the score is only an upper bound
    /// (the null-window probe failed low).
    results: Vec<(u8, i32, bool)>,
}

impl<'a> Searcher<'a> {
    /// The value of `child` (a position after one of our moves) for us.
    #[inline]
    pub(crate) fn child_value(&mut self, child: Child, b: Board, alpha: i32, beta: i32) -> i32 {
        match child {
            Child::Midgame(d) => -self.pvs(b, d, -beta, -alpha),
            Child::Endgame(n) => -self.solve_n(b, -beta, -alpha, n),
        }
    }

    /// Searches a node's ordered moves: the first with the full window, the others through
    /// [`Searcher::siblings`] (splitting when `split` allows). Returns the best score and
    /// move; meaningless when the search was stopped.
    pub(crate) fn search_moves(
        &mut self,
        b: Board,
        list: &[(u8, u64)],
        child: Child,
        alpha: i32,
        beta: i32,
        split: bool,
    ) -> (i32, u8) {
        let (sq, flips) = list[0];
        let best = self.child_value(child, b.make(u32::from(sq), flips), alpha, beta);
        if self.stopped {
            return (best, sq);
        }
        self.siblings(b, list, child, alpha.max(best), beta, best, sq, split)
    }

    /// Searches the moves of `list` after the first, whose search gave `best` for
    /// `best_move`, in the window (`alpha`, `beta`) with `alpha` already raised by it. Splits
    /// with a helper thread when `split` allows and one is idle. Returns the best score and
    /// move.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn siblings(
        &mut self,
        b: Board,
        list: &[(u8, u64)],
        child: Child,
        alpha: i32,
        beta: i32,
        best: i32,
        best_move: u8,
        split: bool,
    ) -> (i32, u8) {
        let (best, best_move, _) =
            self.siblings_scored(b, list, child, alpha, beta, best, best_move, split);
        (best, best_move)
    }

    /// [`Searcher::siblings`], also returning each move searched with its score and whether
    /// that score is only an upper bound.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn siblings_scored(
        &mut self,
        b: Board,
        list: &[(u8, u64)],
        child: Child,
        mut alpha: i32,
        beta: i32,
        mut best: i32,
        mut best_move: u8,
        split: bool,
    ) -> (i32, u8, Vec<(u8, i32, bool)>) {
        let mut results = Vec::new();
        if best >= beta || list.len() < 2 {
            return (best, best_move, results);
        }
        if split && list.len() >= 3 {
            if let Some(pool) = self.pool {
                if pool.try_acquire() {
                    return self.split(pool, b, list, child, alpha, beta, best, best_move);
                }
            }
        }
        for &(sq, flips) in &list[1..] {
            let c = b.make(u32::from(sq), flips);
            let mut v = self.child_value(child, c, alpha, alpha + 1);
            let bound = v <= alpha;
            if v > alpha && v < beta {
                v = self.child_value(child, c, v, beta);
            }
            if self.stopped {
                return (best, best_move, results);
            }
            results.push((sq, v, bound));
            if v > best {
                best = v;
                best_move = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_move, results)
    }

    #[allow(clippy::too_many_arguments)]
    fn split(
        &mut self,
        pool: &'a Pool,
        b: Board,
        list: &[(u8, u64)],
        child: Child,
        alpha: i32,
        beta: i32,
        best: i32,
        best_move: u8,
    ) -> (i32, u8, Vec<(u8, i32, bool)>) {
        let next = AtomicUsize::new(1);
        let shared = Mutex::new(Shared {
            best,
            best_move,
            alpha,
            results: Vec::new(),
        });
        let abort = Arc::new(AtomicBool::new(false));
        let (tt, eval, mask, shared_nodes) = (self.tt, self.eval, self.mask, self.shared_nodes);
        let selectivity = self.selectivity;
        let (flag, deadline, node_limit) = (
            self.stopper.flag,
            self.stopper.deadline,
            self.stopper.node_limit,
        );
        let helper_nodes = std::thread::scope(|scope| {
            let handle = scope.spawn(|| {
                let stopper = Stopper {
                    flag,
                    halt: Some(&abort),
                    deadline,
                    node_limit,
                };
                let mut helper = Searcher::new(tt, eval, mask, &stopper, shared_nodes);
                helper.pool = Some(pool);
                helper.selectivity = selectivity;
                work(&mut helper, b, list, child, beta, &next, &shared, &abort);
                // The helper is free again as soon as the list runs dry.
                pool.release();
                helper.nodes
            });
            self.split_aborts.push(abort.clone());
            work(self, b, list, child, beta, &next, &shared, &abort);
            self.split_aborts.pop();
            // A cutoff in this split stopped only this split's work.
            if self.stopped && !self.stopped_for_good {
                self.stopped = self.split_aborts.iter().any(|a| a.load(Ordering::Relaxed));
            }
            handle.join().unwrap_or(0)
        });
        self.nodes += helper_nodes;
        let s = shared
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (s.best, s.best_move, s.results)
    }
}

/// One thread's part of a split: take the next move, search it under the shared bound,
/// publish the result.
#[allow(clippy::too_many_arguments)]
fn work(
    s: &mut Searcher<'_>,
    b: Board,
    list: &[(u8, u64)],
    child: Child,
    beta: i32,
    next: &AtomicUsize,
    shared: &Mutex<Shared>,
    abort: &AtomicBool,
) {
    loop {
        if abort.load(Ordering::Relaxed) {
            return;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&(sq, flips)) = list.get(i) else {
            return;
        };
        let alpha = shared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .alpha;
        let c = b.make(u32::from(sq), flips);
        let mut v = s.child_value(child, c, alpha, alpha + 1);
        if v > alpha && v < beta && !s.stopped {
            v = s.child_value(child, c, v, beta);
        }
        if s.stopped {
            return;
        }
        let mut st = shared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if v > st.best {
            st.best = v;
            st.best_move = sq;
            if v > st.alpha {
                st.alpha = v;
            }
            if v >= beta {
                abort.store(true, Ordering::Relaxed);
                return;
            }
        }
    }
}
