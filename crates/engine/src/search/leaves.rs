//! The solver's last empty squares (one to six): the last square counted directly, two by a
//! pair of tries, three to six by parity-ordered loops over the empty squares. These are
//! where the endgame spends most of its time, so they are compiled once per kernel set
//! ([`crate::kernel::multiversion`]); [`Searcher`]'s methods pick the set the CPU runs.

use super::state::{final_score, odd_quadrants, Searcher, INF};
use crate::flip::NEIGHBOURS;
use crate::Board;

/// One empty square, `sq`: whoever can play it does, and the game ends. A macro, so that each
/// copy of the functions below has it inline with its own kernels (target features forbid
/// `#[inline(always)]`; a call here cost about 2 % of `reversi bench`).
macro_rules! solve_1_at {
    ($s:expr, $b:expr, $sq:expr) => {{
        let (s, b, sq): (&mut Searcher<'_>, Board, u32) = ($s, $b, $sq);
        s.nodes += 1;
        let diff = b.player.count_ones() as i32 - b.opponent.count_ones() as i32;
        let mine = last_flips!(s.mask, b.player, b.opponent, sq) as i32;
        if mine != 0 {
            diff + 2 * mine + 1
        } else {
            let theirs = last_flips!(s.mask, b.opponent, b.player, sq) as i32;
            if theirs != 0 {
                diff - 2 * theirs - 1
            } else {
                match diff.signum() {
                    1 => diff + 1,
                    -1 => diff - 1,
                    _ => 0,
                }
            }
        }
    }};
}

/// How many discs `p` flips by playing the last empty square `sq` of a board under `mask`
/// (inline in each copy, as [`solve_1_at`]).
macro_rules! last_flips {
    ($mask:expr, $p:expr, $o:expr, $sq:expr) => {{
        let (mask, p, o, sq): (u64, u64, u64, u32) = ($mask, $p, $o, $sq);
        if mask == u64::MAX {
            // A full 8x8 board: count line by line without computing the flips.
            count_last_flips(p, sq)
        } else if NEIGHBOURS[sq as usize] & o != 0 {
            flips(p, o, sq).count_ones()
        } else {
            0
        }
    }};
}

crate::kernel::multiversion! {
    /// One empty square, `sq` (see the macro [`solve_1_at`]).
    fn solve_1_at(s: &mut Searcher<'_>, b: Board, sq: u32) -> i32 {
        solve_1_at!(s, b, sq)
    }

    /// Two empty squares `x1 < x2` (their order by parity is always the square order: both
    /// lie in one quadrant, or each is alone in its own).
    fn solve_2(s: &mut Searcher<'_>, b: Board, alpha: i32, beta: i32, x1: u32, x2: u32) -> i32 {
        s.nodes += 1;
        let mut best = -INF;
        if NEIGHBOURS[x1 as usize] & b.opponent != 0 {
            let f = flips(b.player, b.opponent, x1);
            if f != 0 {
                best = -solve_1_at!(s, b.make(x1, f), x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2 as usize] & b.opponent != 0 {
            let f = flips(b.player, b.opponent, x2);
            if f != 0 {
                return best.max(-solve_1_at!(s, b.make(x2, f), x1));
            }
        }
        if best == -INF {
            let opponent_moves = |x: u32| {
                NEIGHBOURS[x as usize] & b.player != 0 && flips(b.opponent, b.player, x) != 0
            };
            if !opponent_moves(x1) && !opponent_moves(x2) {
                return final_score(b, s.mask);
            }
            return -solve_2(s, b.pass(), -beta, -alpha, x1, x2);
        }
        best
    }

    /// Three to six empties: the stability cutoff, then each empty square (odd quadrants
    /// first) without generating moves.
    fn solve_shallow(s: &mut Searcher<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        let mut alpha = alpha;
        s.nodes += 1;
        if let Some(cap) = crate::stability::cutoff(b, s.mask, alpha) {
            return cap;
        }
        let empties = b.empties() & s.mask;
        let odd = odd_quadrants(empties, &s.quadrants);
        let mut best = -INF;
        for set in [odd, empties & !odd] {
            let mut m = set;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                if NEIGHBOURS[sq as usize] & b.opponent == 0 {
                    continue;
                }
                let f = flips(b.player, b.opponent, sq);
                if f == 0 {
                    continue;
                }
                let child = b.make(sq, f);
                let v = if n == 3 {
                    let rest = empties & !(1 << sq);
                    -solve_2(
                        s,
                        child,
                        -beta,
                        -alpha,
                        rest.trailing_zeros(),
                        63 - rest.leading_zeros(),
                    )
                } else {
                    -solve_shallow(s, child, -beta, -alpha, n - 1)
                };
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                    alpha = alpha.max(v);
                }
            }
        }
        if best == -INF {
            let passed = b.pass();
            if moves(passed.player, passed.opponent) & s.mask == 0 {
                return final_score(b, s.mask);
            }
            return -solve_shallow(s, passed, -beta, -alpha, n);
        }
        best
    }
}
