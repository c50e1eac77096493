//! The exact endgame solver: the last empty square counted directly, a few more empties by
//! parity-ordered loops over the empty squares, and deeper endgames by fastest-first
//! negascout with the transposition table.

use super::parallel::Child;
use super::probcut;
use super::{final_score, Searcher, INF, NO_MOVE};
use crate::tt::{self, solved_depth};
use crate::{flip, stability, Board};

/// From this many empties the solver generates moves and orders them fastest-first.
const DEEP_MIN: u32 = 7;
/// From this many empties a node's later moves may be searched by two threads.
const SPLIT_MIN_EMPTIES: u32 = 12;
/// From this many empties the solver looks up every child in the table before searching.
const ETC_MIN: u32 = 14;
/// From this many empties the solver tries the stability cutoff.
const STABILITY_MIN: u32 = 8;
/// From this many empties the solver uses the transposition table.
const TT_MIN: u32 = 10;

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
fn odd_quadrants(empties: u64, quadrants: &[u64; 4]) -> u64 {
    let mut odd = 0;
    for &q in quadrants {
        if (empties & q).count_ones() & 1 == 1 {
            odd |= empties & q;
        }
    }
    odd
}

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
            _ => self.solve_deep(b, alpha, beta, n),
        }
    }

    /// One empty square: whoever can play it does, and the game ends.
    #[inline(always)]
    fn solve_1(&mut self, b: Board) -> i32 {
        self.solve_1_at(b, (b.empties() & self.mask).trailing_zeros())
    }

    /// [`Self::solve_1`] with the empty square `sq` known.
    #[inline(always)]
    fn solve_1_at(&mut self, b: Board, sq: u32) -> i32 {
        self.nodes += 1;
        let diff = b.player.count_ones() as i32 - b.opponent.count_ones() as i32;
        let n = self.last_flips(b.player, b.opponent, sq) as i32;
        if n != 0 {
            return diff + 2 * n + 1;
        }
        let n = self.last_flips(b.opponent, b.player, sq) as i32;
        if n != 0 {
            return diff - 2 * n - 1;
        }
        match diff.signum() {
            1 => diff + 1,
            -1 => diff - 1,
            _ => 0,
        }
    }

    /// How many discs `p` flips by playing the last empty square `sq`.
    #[inline(always)]
    fn last_flips(&self, p: u64, o: u64, sq: u32) -> u32 {
        if self.mask == u64::MAX {
            // A full 8x8 board: count line by line without computing the flips.
            flip::count_last_flips(p, sq)
        } else if flip::NEIGHBOURS[sq as usize] & o != 0 {
            flip::flips(p, o, sq).count_ones()
        } else {
            0
        }
    }

    /// Two empty squares `x1 < x2` (their order by parity is always the square order: both
    /// lie in one quadrant, or each is alone in its own).
    fn solve_2(&mut self, b: Board, alpha: i32, beta: i32, x1: u32, x2: u32) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        if flip::NEIGHBOURS[x1 as usize] & b.opponent != 0 {
            let f = flip::flips(b.player, b.opponent, x1);
            if f != 0 {
                best = -self.solve_1_at(b.make(x1, f), x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if flip::NEIGHBOURS[x2 as usize] & b.opponent != 0 {
            let f = flip::flips(b.player, b.opponent, x2);
            if f != 0 {
                return best.max(-self.solve_1_at(b.make(x2, f), x1));
            }
        }
        if best == -INF {
            let opponent_moves = |x: u32| {
                flip::NEIGHBOURS[x as usize] & b.player != 0
                    && flip::flips(b.opponent, b.player, x) != 0
            };
            if !opponent_moves(x1) && !opponent_moves(x2) {
                return final_score(b, self.mask);
            }
            return -self.solve_2(b.pass(), -beta, -alpha, x1, x2);
        }
        best
    }

    /// A few empties: try each empty square (odd quadrants first) without generating moves.
    fn solve_shallow(&mut self, b: Board, mut alpha: i32, beta: i32, n: u32) -> i32 {
        self.nodes += 1;
        let empties = b.empties() & self.mask;
        let odd = odd_quadrants(empties, &self.quadrants);
        let mut best = -INF;
        for set in [odd, empties & !odd] {
            let mut m = set;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                if flip::NEIGHBOURS[sq as usize] & b.opponent == 0 {
                    continue;
                }
                let f = flip::flips(b.player, b.opponent, sq);
                if f == 0 {
                    continue;
                }
                let child = b.make(sq, f);
                let v = if n == 3 {
                    let rest = empties & !(1 << sq);
                    -self.solve_2(
                        child,
                        -beta,
                        -alpha,
                        rest.trailing_zeros(),
                        63 - rest.leading_zeros(),
                    )
                } else {
                    -self.solve_shallow(child, -beta, -alpha, n - 1)
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
            if self.moves(passed) == 0 {
                return final_score(b, self.mask);
            }
            return -self.solve_shallow(passed, -beta, -alpha, n);
        }
        best
    }

    /// Deeper endgames: move generation, fastest-first ordering, negascout and the table.
    fn solve_deep(&mut self, b: Board, mut alpha: i32, mut beta: i32, n: u32) -> i32 {
        self.nodes += 1;
        if self.poll() {
            return 0;
        }
        let moves = self.moves(b);
        if moves == 0 {
            let passed = b.pass();
            if self.moves(passed) == 0 {
                return final_score(b, self.mask);
            }
            return -self.solve_deep(passed, -beta, -alpha, n);
        }
        let use_tt = n >= TT_MIN;
        let key = if use_tt { tt::hash(b) } else { 0 };
        let mut hash_move = NO_MOVE;
        if use_tt {
            if let Some(e) = self.tt.probe(key) {
                hash_move = e.best;
                if e.is_solve() && e.selectivity >= self.selectivity {
                    match e.apply(alpha, beta) {
                        Ok(v) => return v,
                        Err(window) => (alpha, beta) = window,
                    }
                }
            }
        }
        if n >= STABILITY_MIN {
            // The opponent's stable discs cap our score; only worth computing when even all
            // of its discs being stable could cut.
            let cells = self.mask.count_ones() as i32;
            if cells - 2 * b.opponent.count_ones() as i32 <= alpha {
                let stable = stability::stable_discs(b.opponent, b.player, self.mask);
                let upper = cells - 2 * stable.count_ones() as i32;
                if upper <= alpha {
                    return upper;
                }
            }
        }
        if self.selectivity < probcut::NO_SELECTIVITY && n >= probcut::ENDGAME_MIN_EMPTIES {
            if let Some(v) = self.probcut(b, None, n, alpha, beta) {
                return v;
            }
            if self.stopped {
                return 0;
            }
        }
        let list = self.order_endgame(b, moves, hash_move, n);
        if n >= ETC_MIN {
            // Enhanced transposition cutoff: a child the table already proves good enough.
            for &(sq, flips) in &list {
                let child = b.make(u32::from(sq), flips);
                if let Some(e) = self.tt.probe(tt::hash(child)) {
                    if e.is_solve()
                        && e.selectivity >= self.selectivity
                        && -i32::from(e.upper) >= beta
                    {
                        return -i32::from(e.upper);
                    }
                }
            }
        }
        let (best, best_move) = self.search_moves(
            b,
            &list,
            Child::Endgame(n - 1),
            alpha,
            beta,
            n >= SPLIT_MIN_EMPTIES,
        );
        if self.stopped {
            return 0;
        }
        if use_tt {
            self.store(key, solved_depth(n), alpha, beta, best, best_move);
        }
        best
    }
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
