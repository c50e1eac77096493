//! The hand-made evaluation of the classic algorithms: square weights plus mobility, for any
//! board size. Values are in points from the side to move's view; finished games score far
//! beyond any heuristic value.

use reversi_core::{Color, Position, Square};

/// Finished games score `disc difference * TERMINAL`, above every heuristic value.
pub(crate) const TERMINAL: i32 = 10_000;

/// Mobility weight: points per legal move more than the opponent.
const MOBILITY: i32 = 10;

/// The weight of `sq` on a board of side `n`: corners are worth most, the squares next to an
/// empty corner (C and X squares) cost, edges are good, the ring inside the edge slightly bad.
#[must_use]
pub(crate) fn square_weight(sq: Square, n: u8) -> i32 {
    let last = n - 1;
    let edge_dist = |v: u8| v.min(last - v);
    let (dc, dr) = (edge_dist(sq.col()), edge_dist(sq.row()));
    match (dc.min(dr), dc.max(dr)) {
        (0, 0) => 100,
        (0, 1) => -20,
        (1, 1) => -50,
        (0, _) => 10,
        (1, _) => -2,
        _ => 1,
    }
}

/// The final value of a finished game from the side to move's view: disc difference with
/// the empties to the winner, times [`TERMINAL`].
#[must_use]
pub(crate) fn final_value(pos: &Position) -> i32 {
    let score = reversi_core::Score::of(pos);
    let margin = score.margin();
    let mine = if pos.turn() == Color::Black {
        margin
    } else {
        -margin
    };
    mine * TERMINAL
}

/// The heuristic value of `pos` for the side to move.
#[must_use]
pub(crate) fn evaluate(pos: &Position) -> i32 {
    let n = pos.size().get();
    let me = pos.turn();
    let mut v = 0;
    for sq in pos.squares() {
        match pos.get(sq) {
            Some(c) if c == me => v += square_weight(sq, n),
            Some(_) => v -= square_weight(sq, n),
            None => {}
        }
    }
    let mine = pos.legal_moves().len() as i32;
    let theirs = pos.with_turn(me.opposite()).legal_moves().len() as i32;
    v + MOBILITY * (mine - theirs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{BoardSize, Rules};

    #[test]
    fn weights_are_symmetric_on_every_size() {
        for size in BoardSize::ALL {
            let n = size.get();
            for sq in Position::start(size, Rules::Othello).squares() {
                let w = square_weight(sq, n);
                let mirror = Square::new(n - 1 - sq.col(), sq.row());
                let flip = Square::new(sq.row(), sq.col());
                assert_eq!(w, square_weight(mirror, n));
                assert_eq!(w, square_weight(flip, n));
            }
        }
        assert_eq!(square_weight(Square::new(0, 0), 8), 100);
        assert_eq!(square_weight(Square::new(1, 1), 8), -50);
    }

    #[test]
    fn start_is_balanced() {
        for size in BoardSize::ALL {
            assert_eq!(evaluate(&Position::start(size, Rules::Othello)), 0);
        }
    }
}
