//! The search of one thread: principal-variation (negascout) search for the midgame, the exact
//! endgame solver below it, move ordering, and the transposition table.
//!
//! Scores are final disc differences for the side to move (empties to the winner), or
//! estimates of it from the evaluation.

mod endgame;
mod leaves;
mod order;
mod parallel;
pub mod probcut;
mod state;

pub use state::final_score;
pub(crate) use state::{Child, Pool, Searcher, Stopper, Untimed, INF, NO_MOVE};

use std::sync::atomic::Ordering;

use reversi_core::Move;

use crate::eval::Evaluator;
use crate::kernel;
use crate::tt::{self, Entry, TranspositionTable};
use crate::{Board, Sq};

/// Midgame nodes this deep or deeper may be searched by two threads.
const SPLIT_MIN_DEPTH: u32 = 5;

impl<'a> Searcher<'a> {
    /// A searcher on the playable squares `mask` (`u64::MAX` for 8x8), probing and filling
    /// `tt`, scoring the horizon with `eval`, polling `stopper`; with `shared_nodes`, it adds
    /// its nodes to that counter so that a node limit counts every thread. It starts full
    /// width, alone (no pool of helper threads).
    pub(crate) fn new(
        tt: &'a TranspositionTable,
        eval: &'a dyn Evaluator,
        mask: u64,
        stopper: &'a Stopper<'a>,
        shared_nodes: Option<&'a std::sync::atomic::AtomicU64>,
    ) -> Searcher<'a> {
        Searcher {
            tt,
            eval,
            mask,
            nodes: 0,
            stopper,
            shared_nodes,
            stopped: false,
            pool: None,
            split_aborts: Vec::new(),
            stopped_for_good: false,
            selectivity: probcut::NO_SELECTIVITY,
            quadrants: state::quadrants((mask & 0xff).count_ones()),
        }
    }

    /// Checks the stop flag, the clock and the node budget every few thousand nodes.
    #[inline(always)]
    pub(crate) fn poll(&mut self) -> bool {
        if self.nodes & 4095 == 0 && !self.stopped {
            if self.stopper.flag.load(Ordering::Relaxed)
                || self.stopper.halt.is_some_and(|h| h.load(Ordering::Relaxed))
                || self
                    .stopper
                    .deadline
                    .is_some_and(|d| self.stopper.clock.now() >= d)
            {
                self.stopped = true;
            }
            if let Some(limit) = self.stopper.node_limit {
                let total = self
                    .shared_nodes
                    .map_or(self.nodes, |n| n.fetch_add(4096, Ordering::Relaxed) + 4096);
                if total >= limit {
                    self.stopped = true;
                }
            }
            self.stopped_for_good = self.stopped;
            if !self.stopped && self.split_aborts.iter().any(|a| a.load(Ordering::Relaxed)) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    #[inline(always)]
    pub(crate) fn moves(&self, b: Board) -> u64 {
        b.moves() & self.mask
    }

    /// Midgame principal-variation search to `depth` plies; exact once the depth reaches the
    /// end of the game.
    pub(crate) fn pvs(&mut self, b: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        kernel::dispatch!(versions, pvs(self, b, depth, alpha, beta))
    }

    /// Records a fail-soft result `best` of a search with window (`alpha`, `beta`).
    #[inline]
    pub(crate) fn store(&self, key: u64, depth: u8, alpha: i32, beta: i32, best: i32, mv: u8) {
        let (lower, upper) = if best <= alpha {
            (-64, best)
        } else if best >= beta {
            (best, 64)
        } else {
            (best, best)
        };
        self.tt.store(
            key,
            Entry {
                lower: lower.clamp(-64, 64) as i8,
                upper: upper.clamp(-64, 64) as i8,
                depth,
                selectivity: self.selectivity,
                best: Sq::from_code(mv),
            },
        );
    }

    /// Exact endgame solve: the final disc difference with perfect play, within the window.
    pub(crate) fn solve(&mut self, b: Board, alpha: i32, beta: i32) -> i32 {
        let empties = (b.empties() & self.mask).count_ones();
        self.solve_n(b, alpha, beta, empties)
    }

    /// The principal variation stored in the table from `b`, at most `max` moves (passes
    /// included); it ends where the table has no legal best move or the game ends.
    #[must_use]
    pub(crate) fn pv(&self, mut b: Board, max: usize) -> Vec<Move> {
        let mut line = Vec::new();
        while line.len() < max {
            if self.moves(b) == 0 {
                if self.moves(b.pass()) == 0 {
                    break;
                }
                line.push(Move::Pass);
                b = b.pass();
                continue;
            }
            let Some(sq) = self.hash_move(b) else {
                break;
            };
            line.push(Move::from(sq));
            b = b.play(sq.index());
        }
        line
    }

    /// The table's best move for `b`, when it has one and it is legal.
    pub(crate) fn hash_move(&self, b: Board) -> Option<Sq> {
        let e = self.tt.probe(tt::hash(b))?;
        e.best.filter(|sq| self.moves(b) & sq.bit() != 0)
    }

    /// Whether an entry in the table already proves the exact value of `b`.
    #[cfg(test)]
    #[must_use]
    pub(crate) fn solved(&self, b: Board) -> Option<i32> {
        self.tt
            .probe(tt::hash(b))
            .filter(|e| {
                e.is_solve() && e.selectivity == probcut::NO_SELECTIVITY && e.lower == e.upper
            })
            .map(|e| i32::from(e.lower))
    }
}

#[cfg(test)]
mod tests;

/// The midgame search compiled once per kernel set ([`crate::kernel::multiversion`]).
mod versions {
    use super::{final_score, probcut, Child, Searcher, NO_MOVE, SPLIT_MIN_DEPTH};
    use crate::tt;
    use crate::Board;

    crate::kernel::multiversion! {
        /// Midgame principal-variation search to `depth` plies; exact once the depth reaches the
        /// end of the game.
        fn pvs(this: &mut Searcher<'_>, b: Board, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
            let empties = (b.empties() & this.mask).count_ones();
            if depth >= empties {
                return this.solve(b, alpha, beta);
            }
            if depth == 0 {
                return this.eval.evaluate(b, this.mask);
            }
            this.nodes += 1;
            if this.poll() {
                return 0;
            }
            let moves = this.moves(b);
            if moves == 0 {
                let passed = b.pass();
                if this.moves(passed) == 0 {
                    return final_score(b, this.mask);
                }
                return -pvs(this, passed, depth, -beta, -alpha);
            }
            let key = tt::hash(b);
            let mut hash_move = NO_MOVE;
            if let Some(e) = this.tt.probe(key) {
                hash_move = e.best.map_or(NO_MOVE, |sq| sq.index() as u8);
                if u32::from(e.depth) >= depth && e.selectivity >= this.selectivity {
                    match e.apply(alpha, beta) {
                        Ok(v) => return v,
                        Err(window) => (alpha, beta) = window,
                    }
                }
            }
            if this.selectivity < probcut::NO_SELECTIVITY && depth >= probcut::MIDGAME_MIN_DEPTH {
                if let Some(v) = this.probcut(b, Some(depth), empties, alpha, beta) {
                    return v;
                }
                if this.stopped {
                    return 0;
                }
            }
            let list = this.order_midgame(b, moves, hash_move, depth);
            let (best, best_move) = this.search_moves(
                b,
                &list,
                Child::Midgame(depth - 1),
                alpha,
                beta,
                depth >= SPLIT_MIN_DEPTH,
            );
            if this.stopped {
                return 0;
            }
            this.store(key, depth as u8, alpha, beta, best, best_move);
            best
        }
    }
}
