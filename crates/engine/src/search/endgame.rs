//! The exact endgame solver: the last empty square counted directly, a few more empties by
//! parity-ordered loops over the empty squares, and deeper endgames by fastest-first
//! negascout with the transposition table.

use super::state::{final_score, Child, Searcher, INF, NO_MOVE};
use super::{leaves, order, probcut};
use crate::tt::{self, solved_depth};
use crate::{kernel, stability, Board};

/// From this many empties the solver generates moves and orders them fastest-first.
const DEEP_MIN: u32 = 7;
/// From this many empties a node's later moves may be searched by two threads.
const SPLIT_MIN_EMPTIES: u32 = 12;
/// From this many empties the solver looks up every child in the table before searching
/// (from 14 before: FFO #45-#48 414 M -> 404 M nodes, #49-#52 1.66e9 -> 1.62e9).
const ETC_MIN: u32 = 12;
/// How far (in discs) the evaluation must put a node below alpha for the solver to order its
/// moves fastest-first only.
const ALL_NODE_MARGIN: i32 = 8;
/// From this many empties the solver uses the transposition table.
const TT_MIN: u32 = 10;

impl Searcher<'_> {
    /// Solves `b` with exactly `n` empty squares.
    pub(crate) fn solve_n(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        match n {
            0 => {
                self.nodes += 1;
                final_score(b, self.mask)
            }
            1 => self.solve_1(b),
            2 => {
                let e = b.empties() & self.mask;
                self.solve_2(b, alpha, beta, e.trailing_zeros(), 63 - e.leading_zeros())
            }
            3..DEEP_MIN => self.solve_shallow(b, alpha, beta, n),
            DEEP_MIN..TT_MIN => self.solve_small(b, alpha, beta, n),
            _ => self.solve_deep(b, alpha, beta, n),
        }
    }

    /// One empty square: whoever can play it does, and the game ends.
    #[inline(always)]
    fn solve_1(&mut self, b: Board) -> i32 {
        let sq = (b.empties() & self.mask).trailing_zeros();
        kernel::dispatch!(leaves, solve_1_at(self, b, sq))
    }

    /// Two empty squares `x1 < x2`.
    fn solve_2(&mut self, b: Board, alpha: i32, beta: i32, x1: u32, x2: u32) -> i32 {
        kernel::dispatch!(leaves, solve_2(self, b, alpha, beta, x1, x2))
    }

    /// Three to six empties.
    fn solve_shallow(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        kernel::dispatch!(leaves, solve_shallow(self, b, alpha, beta, n))
    }

    /// The cutoffs a node of `n` empties tries before its moves: the stability cutoff, then
    /// probcut in a selective solve. `Some(0)` when the search stopped meanwhile.
    #[inline(always)]
    fn cutoff(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> Option<i32> {
        if let Some(cap) = stability::cutoff(b, self.mask, alpha) {
            return Some(cap);
        }
        if self.selectivity < probcut::NO_SELECTIVITY && n >= probcut::ENDGAME_MIN_EMPTIES {
            if let Some(v) = self.probcut(b, None, n, alpha, beta) {
                return Some(v);
            }
            if self.stopped {
                return Some(0);
            }
        }
        None
    }

    /// Small endgames, below the table: move generation and fastest-first negascout.
    fn solve_small(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        kernel::dispatch!(versions, solve_small(self, b, alpha, beta, n))
    }

    /// Deeper endgames: move generation, fastest-first ordering, negascout and the table.
    fn solve_deep(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        kernel::dispatch!(versions, solve_deep(self, b, alpha, beta, n))
    }
}

/// The deeper solver compiled once per kernel set ([`crate::kernel::multiversion`]).
mod versions {
    use super::*;

    crate::kernel::multiversion! {
        /// Small endgames (from [`DEEP_MIN`] empties to below [`TT_MIN`]): the moves are
        /// generated and scored fastest-first, then picked best first one at a time (the first
        /// often cuts, so the rest are never sorted), without the table.
        fn solve_small(this: &mut Searcher<'_>, b: Board, mut alpha: i32, beta: i32, n: u32) -> i32 {
            this.nodes += 1;
            if this.poll() {
                return 0;
            }
            let mut moves = this.moves(b);
            if moves == 0 {
                let passed = b.pass();
                if this.moves(passed) == 0 {
                    return final_score(b, this.mask);
                }
                return -solve_small(this, passed, -beta, -alpha, n);
            }
            if let Some(v) = this.cutoff(b, alpha, beta, n) {
                return v;
            }
            // At most one move an empty square, and fewer than TT_MIN empties.
            let mut squares = [0u32; TT_MIN as usize];
            let mut flipped = [0u64; TT_MIN as usize];
            let mut scores = [0i32; TT_MIN as usize];
            let mut count = 0;
            while moves != 0 {
                let sq = moves.trailing_zeros();
                moves &= moves - 1;
                let f = b.flips(sq);
                scores[count] = order::fastest_first(this, sq, b.make(sq, f));
                squares[count] = sq;
                flipped[count] = f;
                count += 1;
            }
            let mut best = -INF;
            for i in 0..count {
                let mut k = i;
                for j in i + 1..count {
                    if scores[j] > scores[k] {
                        k = j;
                    }
                }
                scores.swap(i, k);
                squares.swap(i, k);
                flipped.swap(i, k);
                let child = b.make(squares[i], flipped[i]);
                let v = if i == 0 {
                    -this.solve_n(child, -beta, -alpha, n - 1)
                } else {
                    let mut v = -this.solve_n(child, -alpha - 1, -alpha, n - 1);
                    if v > alpha && v < beta {
                        v = -this.solve_n(child, -beta, -v, n - 1);
                    }
                    v
                };
                if this.stopped {
                    return 0;
                }
                if v > best {
                    best = v;
                    if v >= beta {
                        break;
                    }
                    alpha = alpha.max(v);
                }
            }
            best
        }

        /// Deeper endgames: move generation, fastest-first ordering, negascout and the table.
        fn solve_deep(this: &mut Searcher<'_>, b: Board, mut alpha: i32, mut beta: i32, n: u32) -> i32 {
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
                return -solve_deep(this, passed, -beta, -alpha, n);
            }
            let use_tt = n >= TT_MIN;
            let key = if use_tt { tt::hash(b) } else { 0 };
            let mut hash_move = NO_MOVE;
            if use_tt {
                if let Some(e) = this.tt.probe(key) {
                    hash_move = e.best.map_or(NO_MOVE, |sq| sq.index() as u8);
                    if e.is_solve() && e.selectivity >= this.selectivity {
                        match e.apply(alpha, beta) {
                            Ok(v) => return v,
                            Err(window) => (alpha, beta) = window,
                        }
                    }
                }
            }
            if let Some(v) = this.cutoff(b, alpha, beta, n) {
                return v;
            }
            // A node the evaluation puts far below alpha will likely fail low: all its moves
            // get searched whatever their order, so the cheap ordering does.
            let likely_all = n >= order::EVAL_ORDER_MIN
                && this.eval.ordering(b, this.mask) < alpha - ALL_NODE_MARGIN;
            let order_empties = if likely_all {
                order::EVAL_ORDER_MIN - 1
            } else {
                n
            };
            let list = this.order_endgame(b, moves, hash_move, order_empties);
            if n >= ETC_MIN {
                // Enhanced transposition cutoff: a child the table already proves good enough.
                for &(sq, flips) in &list {
                    let child = b.make(u32::from(sq), flips);
                    if let Some(e) = this.tt.probe(tt::hash(child)) {
                        if e.is_solve()
                            && e.selectivity >= this.selectivity
                            && -i32::from(e.upper) >= beta
                        {
                            return -i32::from(e.upper);
                        }
                    }
                }
            }
            let (best, best_move) = this.search_moves(
                b,
                &list,
                Child::Endgame(n - 1),
                alpha,
                beta,
                n >= SPLIT_MIN_EMPTIES,
            );
            if this.stopped {
                return 0;
            }
            if use_tt {
                this.store(key, solved_depth(n), alpha, beta, best, best_move);
            }
            best
        }
    }
}
