//! Static evaluation: the [`Evaluator`] interface the search calls, an evaluation that
//! orders the exact solver's moves with another ([`WithOrdering`]), and the hand-made
//! evaluation (corners and their neighbours, anchored edges, mobility, potential mobility and
//! parity) that the trained pattern evaluation replaces.

use std::sync::Arc;

use crate::mobility::{self, neighbours};
use crate::Board;

/// A static evaluation: the expected final disc difference for the side to move.
pub trait Evaluator: Send + Sync {
    /// The value of `board` (player to move) in discs, within -64..=64. `mask` holds the
    /// playable squares.
    fn evaluate(&self, board: Board, mask: u64) -> i32;

    /// The value the exact solver orders its moves by (and judges its likely fail-low nodes
    /// by), in discs: by default [`Evaluator::evaluate`]. Exact scores do not depend on it,
    /// only the nodes and time they take.
    fn ordering(&self, board: Board, mask: u64) -> i32 {
        self.evaluate(board, mask)
    }
}

/// One evaluation for the midgame ([`Evaluator::evaluate`]) and another, usually cheaper,
/// for the exact solver's move ordering ([`Evaluator::ordering`]). The program's default on
/// 8x8 is one ([`crate::pattern::default_evaluator`]); any two evaluations make one.
pub struct WithOrdering<E: ?Sized = dyn Evaluator, O: ?Sized = dyn Evaluator> {
    /// The evaluation proper.
    pub eval: Arc<E>,
    /// The one the solver orders by.
    pub order: Arc<O>,
}

impl<E: Evaluator + ?Sized, O: Evaluator + ?Sized> Evaluator for WithOrdering<E, O> {
    #[inline]
    fn evaluate(&self, board: Board, mask: u64) -> i32 {
        self.eval.evaluate(board, mask)
    }

    #[inline]
    fn ordering(&self, board: Board, mask: u64) -> i32 {
        self.order.evaluate(board, mask)
    }
}

/// The hand-made evaluation for a board of side `n` (4, 6 or 8) in the top-left corner.
#[derive(Debug, Clone)]
pub struct HandEval {
    corners: [u64; 4],
    /// For each corner: its X square and its two C squares.
    x_squares: [u64; 4],
    c_squares: [u64; 4],
    /// For each corner, the two edge rays leaving it (without the corner).
    edge_rays: [[u64; 2]; 4],
    edges: u64,
}

const fn bit(col: u32, row: u32) -> u64 {
    1u64 << (row * 8 + col)
}

impl HandEval {
    /// The evaluation for a board of side `n` (at most 8).
    #[must_use]
    pub fn new(n: u32) -> HandEval {
        let l = n.clamp(4, 8) - 1;
        let corner_at = [(0, 0), (l, 0), (0, l), (l, l)];
        let mut corners = [0; 4];
        let mut x_squares = [0; 4];
        let mut c_squares = [0; 4];
        let mut edge_rays = [[0; 2]; 4];
        for (i, &(c, r)) in corner_at.iter().enumerate() {
            let dc: i32 = if c == 0 { 1 } else { -1 };
            let dr: i32 = if r == 0 { 1 } else { -1 };
            let step = |v: u32, d: i32, k: i32| (v as i32 + d * k) as u32;
            corners[i] = bit(c, r);
            x_squares[i] = bit(step(c, dc, 1), step(r, dr, 1));
            c_squares[i] = bit(step(c, dc, 1), r) | bit(c, step(r, dr, 1));
            for k in 1..=l as i32 {
                edge_rays[i][0] |= bit(step(c, dc, k), r);
                edge_rays[i][1] |= bit(c, step(r, dr, k));
            }
        }
        let edges = edge_rays.iter().flatten().fold(0, |a, r| a | r) | corners.iter().sum::<u64>();
        HandEval {
            corners,
            x_squares,
            c_squares,
            edge_rays,
            edges,
        }
    }

    /// Edge discs of `own` held in an unbroken run from one of its corners: they can never be
    /// flipped along the edge.
    fn anchored(&self, own: u64) -> u32 {
        let mut stable = 0u64;
        for (i, &corner) in self.corners.iter().enumerate() {
            if own & corner == 0 {
                continue;
            }
            stable |= corner;
            for &ray in &self.edge_rays[i] {
                // Walk out from the corner while the discs are ours.
                let mut run = 0u64;
                let mut rest = ray;
                while rest != 0 {
                    // The ray square nearest the corner first.
                    let next = if corner < ray {
                        rest & rest.wrapping_neg()
                    } else {
                        1u64 << (63 - rest.leading_zeros())
                    };
                    if own & next == 0 {
                        break;
                    }
                    run |= next;
                    rest &= !next;
                }
                stable |= run;
            }
        }
        stable.count_ones()
    }
}

impl Evaluator for HandEval {
    fn evaluate(&self, b: Board, mask: u64) -> i32 {
        let (p, o) = (b.player, b.opponent);
        let empty = !(p | o) & mask;
        let n_empty = empty.count_ones() as i32;
        // Weights in hundredths of a disc, shifting from mobility towards material late on.
        let late = (60 - n_empty.min(60)) as f32 / 60.0;
        let mut v = 0i32;
        for i in 0..4 {
            let corner = self.corners[i];
            v += 800 * ((p & corner != 0) as i32 - (o & corner != 0) as i32);
            if empty & corner != 0 {
                let x = self.x_squares[i];
                let c = self.c_squares[i];
                v -= 350 * ((p & x != 0) as i32 - (o & x != 0) as i32);
                v -= 120 * ((p & c).count_ones() as i32 - (o & c).count_ones() as i32);
            }
        }
        v += 150 * (self.anchored(p) as i32 - self.anchored(o) as i32);
        v += 20 * ((p & self.edges).count_ones() as i32 - (o & self.edges).count_ones() as i32);
        let my_moves = (mobility::moves(p, o) & mask).count_ones() as i32;
        let their_moves = (mobility::moves(o, p) & mask).count_ones() as i32;
        v += (90.0 * (1.0 - 0.5 * late)) as i32 * (my_moves - their_moves);
        let frontier_p = (neighbours(p) & empty).count_ones() as i32;
        let frontier_o = (neighbours(o) & empty).count_ones() as i32;
        v += 35 * (frontier_o - frontier_p);
        v += (60.0 * late * late) as i32 * (p.count_ones() as i32 - o.count_ones() as i32);
        if n_empty < 20 && n_empty % 2 == 1 {
            v += 100;
        }
        (v / 100).clamp(-64, 64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_even_and_corners_count() {
        let e = HandEval::new(8);
        let v = e.evaluate(Board::START, u64::MAX);
        assert!(v.abs() <= 1, "{v}");
        let with_corner = Board::new(Board::START.player | 1, Board::START.opponent);
        assert!(e.evaluate(with_corner, u64::MAX) > v + 4);
        let mirrored = Board::new(Board::START.player, Board::START.opponent | 1);
        assert!(e.evaluate(mirrored, u64::MAX) < v - 4);
    }

    #[test]
    fn anchored_edges() {
        let e = HandEval::new(8);
        // a1, b1, c1 and a2 held from the a1 corner; e1 alone is not anchored.
        let own = bit(0, 0) | bit(1, 0) | bit(2, 0) | bit(0, 1) | bit(4, 0);
        assert_eq!(e.anchored(own), 4);
        // From the h8 corner the walk goes towards lower bits.
        let own = bit(7, 7) | bit(6, 7) | bit(7, 6) | bit(7, 5);
        assert_eq!(e.anchored(own), 4);
        let small = HandEval::new(6);
        let own = bit(5, 5) | bit(4, 5);
        assert_eq!(small.anchored(own), 2);
    }
}
