//! The search's shared vocabulary, at the bottom of it: one thread's [`Searcher`] state, what
//! stops it, the pool of splits its helper threads share, the score and move constants, the
//! final score of a finished game and the board's quadrants for parity ordering. Every part
//! of the search (midgame, endgame, leaves, ordering, probcut, parallel) imports these and
//! adds its own `impl Searcher` methods; none of them imports another's parent.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::clock::Clock;
use crate::eval::Evaluator;
use crate::tt::TranspositionTable;
use crate::Board;

/// Larger than any score.
pub(crate) const INF: i32 = 127;

/// The move code of no square: a pass in a line, no hash move in the table. The search keeps
/// squares as bit indices (`u8`, this one past the last); the public API turns them into
/// [`Sq`](crate::Sq) and [`Move`](reversi_core::Move).
pub(crate) const NO_MOVE: u8 = 64;

/// What stops a search: the caller's flag, an optional second flag, a deadline and a node
/// budget.
pub(crate) struct Stopper<'a> {
    /// Set by the caller to stop the search (a move played, the user's stop key).
    pub(crate) flag: &'a AtomicBool,
    /// A second flag, polled like `flag`. The [`Engine`](crate::engine::Engine) passes
    /// none: its helper threads end through [`Pool::quit`].
    pub(crate) halt: Option<&'a AtomicBool>,
    /// The search stops once `clock` reads this time, with the best move found so far.
    pub(crate) deadline: Option<Duration>,
    /// The clock the deadline is read on.
    pub(crate) clock: &'a dyn Clock,
    /// The search stops after about this many nodes, counted over all threads when the
    /// searchers share a node counter.
    pub(crate) node_limit: Option<u64>,
}

/// The clock of a search without a deadline: never read for one, and always at zero.
#[derive(Debug)]
pub(crate) struct Untimed;

impl Clock for Untimed {
    fn now(&self) -> Duration {
        Duration::ZERO
    }
}

/// One search thread's state.
pub(crate) struct Searcher<'a> {
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) eval: &'a dyn Evaluator,
    pub(crate) mask: u64,
    pub(crate) nodes: u64,
    pub(crate) stopper: &'a Stopper<'a>,
    pub(crate) shared_nodes: Option<&'a std::sync::atomic::AtomicU64>,
    pub(crate) stopped: bool,
    /// Helper threads for splitting nodes, if the search may use more than one thread.
    pub(crate) pool: Option<&'a Pool>,
    /// The abort flags of the splits this thread is working in: a cutoff found by a helper
    /// ends this thread's now useless search of its own move too.
    pub(crate) split_aborts: Vec<std::sync::Arc<AtomicBool>>,
    /// Whether `stopped` came from the caller (flag, time, nodes) rather than a split's cutoff.
    pub(crate) stopped_for_good: bool,
    /// The probcut selectivity (an index of [`super::probcut::SELECTIVITY_PERCENT`]);
    /// [`super::probcut::NO_SELECTIVITY`] searches full width.
    pub(crate) selectivity: u8,
    /// The board's quadrants, for the endgame's parity ordering.
    pub(crate) quadrants: [u64; 4],
}

/// The final score of a finished game for the player: disc difference with the empty squares
/// given to the winner.
#[inline(always)]
#[must_use]
pub fn final_score(b: Board, mask: u64) -> i32 {
    let p = b.player.count_ones() as i32;
    let o = b.opponent.count_ones() as i32;
    let e = (b.empties() & mask).count_ones() as i32;
    let diff = p - o;
    if diff > 0 {
        diff + e
    } else if diff < 0 {
        diff - e
    } else {
        0
    }
}

/// The four quadrants of a board of side `n` in the top-left corner, for parity ordering
/// (4x4 blocks on 8x8, 3x3 on 6x6, 2x2 on 4x4).
#[must_use]
pub(crate) const fn quadrants(n: u32) -> [u64; 4] {
    let h = n / 2;
    let row: u64 = (1 << h) - 1;
    let mut block = 0u64;
    let mut r = 0;
    while r < h {
        block |= row << (8 * r);
        r += 1;
    }
    [block, block << h, block << (8 * h), block << (8 * h + h)]
}

/// The empty squares in quadrants holding an odd number of empties.
#[inline(always)]
pub(crate) fn odd_quadrants(empties: u64, quadrants: &[u64; 4]) -> u64 {
    let mut odd = 0;
    for &q in quadrants {
        if (empties & q).count_ones() & 1 == 1 {
            odd |= empties & q;
        }
    }
    odd
}

/// The splits waiting for helpers, and how many threads are idle.
#[derive(Default)]
pub(crate) struct Pool {
    pub(crate) queue: Mutex<VecDeque<Arc<Split>>>,
    /// Splits in the queue (read without the lock by spinning threads).
    pub(crate) queued: AtomicUsize,
    /// Threads waiting for work: helpers between splits and masters waiting for theirs.
    pub(crate) idle: AtomicUsize,
    pub(crate) quit: AtomicBool,
}

/// A node whose remaining moves are shared between threads.
pub(crate) struct Split {
    pub(crate) board: Board,
    pub(crate) list: Vec<(u8, u64)>,
    pub(crate) child: Child,
    pub(crate) beta: i32,
    pub(crate) selectivity: u8,
    pub(crate) next: AtomicUsize,
    pub(crate) shared: Mutex<Shared>,
    /// Set by a cutoff (or a stop): every thread leaves the split.
    pub(crate) abort: Arc<AtomicBool>,
    /// The abort flags of this split and of the splits it lies within.
    pub(crate) aborts: Vec<Arc<AtomicBool>>,
    /// Taken by a helper, or withdrawn by its master.
    pub(crate) claimed: AtomicBool,
    /// Helpers working on it, and the nodes they searched.
    pub(crate) working: AtomicUsize,
    pub(crate) helper_nodes: AtomicU64,
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
pub(crate) struct Shared {
    pub(crate) best: i32,
    pub(crate) best_move: u8,
    pub(crate) alpha: i32,
    /// Each move searched: its square, score, and whether the score is only an upper bound
    /// (the null-window probe failed low).
    pub(crate) results: Vec<(u8, i32, bool)>,
}

#[cfg(test)]
mod tests {
    use super::quadrants;

    #[test]
    fn quadrants_split_each_board_in_four() {
        assert_eq!(
            quadrants(8),
            [
                0x0000_0000_0f0f_0f0f,
                0x0000_0000_f0f0_f0f0,
                0x0f0f_0f0f_0000_0000,
                0xf0f0_f0f0_0000_0000
            ]
        );
        for n in [4u8, 6, 8] {
            let q = quadrants(u32::from(n));
            assert_eq!(q[0] | q[1] | q[2] | q[3], crate::playable(n));
            assert!(q.iter().all(|x| x.count_ones() == u32::from(n * n / 4)));
        }
    }
}
