//! Parallel search of a node's younger brothers, in the manner of YBWC: once a node's first
//! move has been searched, idle threads join the search of the other moves, all taking moves
//! from a shared list under a shared bound. A cutoff found by any ends the split.
//!
//! The helper threads live as long as a search. An idle one spins on the pool's queue of
//! splits; a thread whose own moves are done while a helper still works on the split's last
//! move helps with the splits below it ("helpful master") instead of waiting idle.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::state::{Child, Pool, Searcher, Shared, Split, Stopper};
use crate::eval::Evaluator;
use crate::tt::TranspositionTable;
use crate::Board;

impl Pool {
    /// An empty pool: no split queued, no helper idle.
    #[must_use]
    pub(crate) fn new() -> Pool {
        Pool::default()
    }

    fn post(&self, split: Arc<Split>) {
        let mut q = self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        q.push_back(split);
        self.queued.store(q.len(), Ordering::Release);
    }

    /// Takes a queued split that `accept` allows, marking it claimed and worked on.
    fn take(&self, accept: impl Fn(&Split) -> bool) -> Option<Arc<Split>> {
        if self.queued.load(Ordering::Acquire) == 0 {
            return None;
        }
        let mut q = self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Withdrawn splits are dropped on the way.
        q.retain(|s| !s.claimed.load(Ordering::Acquire));
        let i = q.iter().position(|s| accept(s));
        let taken = i.and_then(|i| q.remove(i));
        self.queued.store(q.len(), Ordering::Release);
        drop(q);
        let split = taken?;
        split.working.fetch_add(1, Ordering::AcqRel);
        if split
            .claimed
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            split.working.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(split)
    }

    /// Ends the helpers' loops (at the end of a search).
    pub(crate) fn quit(&self) {
        self.quit.store(true, Ordering::Release);
    }

    /// A helper thread's life: take splits and search them until [`Pool::quit`].
    pub(crate) fn helper(
        &self,
        tt: &TranspositionTable,
        eval: &dyn Evaluator,
        mask: u64,
        stopper: &Stopper<'_>,
        shared_nodes: Option<&AtomicU64>,
    ) {
        let mut spins = 0u32;
        self.idle.fetch_add(1, Ordering::AcqRel);
        while !self.quit.load(Ordering::Acquire) {
            if let Some(split) = self.take(|_| true) {
                self.idle.fetch_sub(1, Ordering::AcqRel);
                run_split(self, tt, eval, mask, stopper, shared_nodes, &split);
                self.idle.fetch_add(1, Ordering::AcqRel);
                spins = 0;
            } else {
                idle_wait(&mut spins);
            }
        }
        self.idle.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Waits a moment: spinning first, then yielding the core.
fn idle_wait(spins: &mut u32) {
    *spins += 1;
    if *spins < 1 << 12 {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
}

/// Searches a claimed split's moves with a searcher of its own, then reports.
fn run_split(
    pool: &Pool,
    tt: &TranspositionTable,
    eval: &dyn Evaluator,
    mask: u64,
    stopper: &Stopper<'_>,
    shared_nodes: Option<&AtomicU64>,
    split: &Split,
) {
    let mut s = Searcher::new(tt, eval, mask, stopper, shared_nodes);
    s.pool = Some(pool);
    s.selectivity = split.selectivity;
    s.split_aborts.clone_from(&split.aborts);
    work(&mut s, split);
    split.helper_nodes.fetch_add(s.nodes, Ordering::AcqRel);
    split.working.fetch_sub(1, Ordering::AcqRel);
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
            self.siblings_scored::<false>(b, list, child, alpha, beta, best, best_move, split);
        (best, best_move)
    }

    /// [`Searcher::siblings`], also returning each move searched with its score and whether
    /// that score is only an upper bound (when `RECORD`; without, the list stays empty and
    /// nothing is allocated, except in a split).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn siblings_scored<const RECORD: bool>(
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
                if pool.idle.load(Ordering::Relaxed) > 0 {
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
            if RECORD {
                results.push((sq, v, bound));
            }
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
        let abort = Arc::new(AtomicBool::new(false));
        let mut aborts = self.split_aborts.clone();
        aborts.push(abort.clone());
        let split = Arc::new(Split {
            board: b,
            list: list.to_vec(),
            child,
            beta,
            selectivity: self.selectivity,
            next: AtomicUsize::new(1),
            shared: Mutex::new(Shared {
                best,
                best_move,
                alpha,
                results: Vec::new(),
            }),
            abort: abort.clone(),
            aborts,
            claimed: AtomicBool::new(false),
            working: AtomicUsize::new(0),
            helper_nodes: AtomicU64::new(0),
        });
        pool.post(split.clone());
        self.split_aborts.push(abort.clone());
        work(self, &split);
        self.split_aborts.pop();
        // Withdraw the split if no helper took it; else help below it until the helpers
        // are done.
        if split
            .claimed
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            let mut spins = 0u32;
            pool.idle.fetch_add(1, Ordering::AcqRel);
            while split.working.load(Ordering::Acquire) != 0 {
                let below = |s: &Split| s.aborts.iter().any(|a| Arc::ptr_eq(a, &abort));
                if let Some(inner) = pool.take(below) {
                    pool.idle.fetch_sub(1, Ordering::AcqRel);
                    run_split(
                        pool,
                        self.tt,
                        self.eval,
                        self.mask,
                        self.stopper,
                        self.shared_nodes,
                        &inner,
                    );
                    pool.idle.fetch_add(1, Ordering::AcqRel);
                    spins = 0;
                } else {
                    idle_wait(&mut spins);
                }
            }
            pool.idle.fetch_sub(1, Ordering::AcqRel);
        }
        // A cutoff in this split stopped only this split's work.
        if self.stopped && !self.stopped_for_good {
            self.stopped = self.split_aborts.iter().any(|a| a.load(Ordering::Relaxed));
        }
        self.nodes += split.helper_nodes.load(Ordering::Acquire);
        let mut s = split
            .shared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (s.best, s.best_move, std::mem::take(&mut s.results))
    }
}

/// One thread's part of a split: take the next move, search it under the shared bound,
/// publish the result.
fn work(s: &mut Searcher<'_>, split: &Split) {
    loop {
        if split.abort.load(Ordering::Relaxed) {
            return;
        }
        let i = split.next.fetch_add(1, Ordering::Relaxed);
        let Some(&(sq, flips)) = split.list.get(i) else {
            return;
        };
        let alpha = split
            .shared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .alpha;
        let c = split.board.make(u32::from(sq), flips);
        let mut v = s.child_value(split.child, c, alpha, alpha + 1);
        let bound = v <= alpha;
        if v > alpha && v < split.beta && !s.stopped {
            v = s.child_value(split.child, c, v, split.beta);
        }
        if s.stopped {
            if s.stopped_for_good {
                split.abort.store(true, Ordering::Relaxed);
            }
            return;
        }
        let mut st = split
            .shared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        st.results.push((sq, v, bound));
        if v > st.best {
            st.best = v;
            st.best_move = sq;
            if v > st.alpha {
                st.alpha = v;
            }
            if v >= split.beta {
                split.abort.store(true, Ordering::Relaxed);
                return;
            }
        }
    }
}
