//! Move ordering: the hash move first, then moves that leave the opponent least mobile, take
//! corners and, deeper in the tree, score best by the evaluation a few plies ahead.

use smallvec::SmallVec;

use super::state::Searcher;
use crate::{kernel, Board};

/// From this many empties the endgame ordering also asks the evaluation (from 16 before: FFO
/// #49-#52 2.39e9 -> 2.31e9 nodes, #54 5.71e9 -> 5.12e9; from 12 saved nodes but not time).
pub(crate) const EVAL_ORDER_MIN: u32 = 14;
const EVAL_ORDER_WEIGHT: i32 = 8;
/// From this many empties the endgame ordering looks one ply further instead: the best
/// evaluation among the opponent's replies.
const SEARCH_ORDER_MIN: u32 = 18;
/// From this many empties it looks two plies ahead (alpha-beta over the evaluation, without
/// the table): FFO #49-#52 on 2 threads 2.59e9 nodes against 2.39e9, #54 6.60e9 against
/// 5.71e9; three or four plies from 23-24 empties cost more than they saved.
const DEEP_ORDER_MIN: u32 = 19;

/// Above this many empties the endgame ordering prefetches each child's table bucket: the
/// children use the table ([`super::endgame`] from 10 empties).
const PREFETCH_MIN: u32 = 10;

/// Corners of the 8x8 board (small boards rely on the other terms).
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// A node's moves with their flips, kept on the stack (an 8x8 position has at most 33).
pub(crate) type MoveList = SmallVec<[(u8, u64); 32]>;

/// The moves of `moves` with their flips, best first by `score(square, child)`; the hash
/// move goes first whatever its score.
#[inline]
fn sorted(
    b: Board,
    mut moves: u64,
    hash_move: u8,
    mut score: impl FnMut(u32, Board) -> i32,
) -> MoveList {
    let mut list = MoveList::new();
    let mut scores: SmallVec<[i32; 32]> = SmallVec::new();
    while moves != 0 {
        let sq = moves.trailing_zeros();
        moves &= moves - 1;
        let flips = b.flips(sq);
        let s = if sq as u8 == hash_move {
            1 << 20
        } else {
            score(sq, b.make(sq, flips))
        };
        // Insertion in place, best first; equal scores keep the square order.
        let mut i = list.len();
        while i > 0 && scores[i - 1] < s {
            i -= 1;
        }
        list.insert(i, (sq as u8, flips));
        scores.insert(i, s);
    }
    list
}

impl Searcher<'_> {
    /// The legal moves of `b` with their flips, best first for a midgame search `depth` deep.
    pub(crate) fn order_midgame(
        &mut self,
        b: Board,
        moves: u64,
        hash_move: u8,
        depth: u32,
    ) -> MoveList {
        kernel::dispatch!(versions, order_midgame(self, b, moves, hash_move, depth))
    }

    /// Fastest-first ordering for the endgame: fewest opponent replies first, corners before
    /// the rest on ties, the hash move at the front.
    pub(crate) fn order_endgame(
        &mut self,
        b: Board,
        moves: u64,
        hash_move: u8,
        empties: u32,
    ) -> MoveList {
        kernel::dispatch!(versions, order_endgame(self, b, moves, hash_move, empties))
    }
}

/// The fastest-first score of the move `sq` that gave `child`: fewer opponent moves (and
/// corner moves) and fewer empty squares next to the mover's discs are better; corners win
/// ties.
#[inline(always)]
pub(crate) fn fastest_first(this: &Searcher<'_>, sq: u32, child: Board) -> i32 {
    let opp = this.moves(child);
    let mut s = -16 * opp.count_ones() as i32 - 4 * (opp & CORNERS).count_ones() as i32;
    s -= (crate::mobility::neighbours(child.opponent) & child.empties() & this.mask).count_ones()
        as i32;
    if (1u64 << sq) & CORNERS != 0 {
        s += 8;
    }
    s
}

impl Searcher<'_> {
    /// The root's moves: the hash move first, then by the midgame ordering.
    pub(crate) fn order_root(&mut self, b: Board, hash_move: u8) -> MoveList {
        let moves = self.moves(b);
        self.order_midgame(b, moves, hash_move, 4)
    }
}

/// The orderings compiled once per kernel set ([`crate::kernel::multiversion`]).
mod versions {
    use super::{
        fastest_first, sorted, MoveList, Searcher, CORNERS, DEEP_ORDER_MIN, EVAL_ORDER_MIN,
    };
    use super::{EVAL_ORDER_WEIGHT, PREFETCH_MIN, SEARCH_ORDER_MIN};
    use crate::mobility::neighbours;
    use crate::search::INF;
    use crate::Board;

    crate::kernel::multiversion! {
        /// The legal moves of `b` with their flips, best first for a midgame search `depth` deep.
        fn order_midgame(
            this: &mut Searcher<'_>,
            b: Board,
            moves: u64,
            hash_move: u8,
            depth: u32,
        ) -> MoveList {
            sorted(b, moves, hash_move, |sq, child| {
                let opp_moves = this.moves(child);
                let mut s = -64 * (opp_moves.count_ones() as i32)
                    - 16 * (opp_moves & CORNERS).count_ones() as i32;
                if (1u64 << sq) & CORNERS != 0 {
                    s += 128;
                }
                // Potential mobility we leave the opponent.
                s -= 8 * (neighbours(child.opponent) & child.empties() & this.mask).count_ones() as i32;
                if depth >= 4 {
                    s -= 96 * this.eval.evaluate(child, this.mask);
                }
                s
            })
        }

        /// Fastest-first ordering for the endgame: fewest opponent replies first, corners before
        /// the rest on ties, the hash move at the front.
        fn order_endgame(
            this: &mut Searcher<'_>,
            b: Board,
            moves: u64,
            hash_move: u8,
            empties: u32,
        ) -> MoveList {
            sorted(b, moves, hash_move, |sq, child| {
                if empties > PREFETCH_MIN {
                    // The child's bucket, probed by the transposition cutoff or the child.
                    prefetch(this.tt.address(crate::tt::hash(child)));
                }
                let mut s = fastest_first(this, sq, child);
                if empties >= SEARCH_ORDER_MIN {
                    let depth = if empties >= DEEP_ORDER_MIN { 2 } else { 1 };
                    s -= EVAL_ORDER_WEIGHT * look_ahead(this, child, depth, -INF, INF);
                } else if empties >= EVAL_ORDER_MIN {
                    s -= EVAL_ORDER_WEIGHT * this.eval.ordering(child, this.mask);
                }
                s
            })
        }

        /// Alpha-beta over the evaluation `depth` plies ahead of `b`, without the table.
        fn look_ahead(this: &mut Searcher<'_>, b: Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
            if depth == 0 {
                return this.eval.ordering(b, this.mask);
            }
            let mut moves = this.moves(b);
            if moves == 0 {
                return this.eval.ordering(b, this.mask);
            }
            let mut best = -INF;
            while moves != 0 {
                let sq = moves.trailing_zeros();
                moves &= moves - 1;
                this.nodes += 1;
                let v = -look_ahead(this, b.play(sq), depth - 1, -beta, -alpha);
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
    }
}
