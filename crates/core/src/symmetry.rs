//! The eight symmetries of a square board (the dihedral group: rotations and reflections),
//! applied to squares and positions of any size.

use crate::{Position, Square};

/// One of the eight ways to turn or mirror an n×n board onto itself.
///
/// Four of them (the identity, the half turn and the two diagonal reflections) map the
/// Othello four-disc start onto itself; the other four swap the colours of its centre
/// diagonals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Symmetry {
    Identity,
    /// Left and right swapped.
    MirrorColumns,
    /// Top and bottom swapped.
    MirrorRows,
    /// A half turn.
    HalfTurn,
    /// Reflected in the `a1`-`h8` diagonal: columns become rows.
    Transpose,
    /// A quarter turn clockwise.
    QuarterTurn,
    /// A quarter turn anticlockwise.
    ThreeQuarterTurn,
    /// Reflected in the `h1`-`a8` diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, the identity first.
    pub(crate) const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::HalfTurn,
        Symmetry::Transpose,
        Symmetry::QuarterTurn,
        Symmetry::ThreeQuarterTurn,
        Symmetry::AntiTranspose,
    ];

    /// Where `sq` goes on a board with side `n`; `sq` must be on that board.
    pub(crate) fn square(self, sq: Square, n: u8) -> Square {
        let (c, r, m) = (sq.col(), sq.row(), n - 1);
        let (c, r) = match self {
            Symmetry::Identity => (c, r),
            Symmetry::MirrorColumns => (m - c, r),
            Symmetry::MirrorRows => (c, m - r),
            Symmetry::HalfTurn => (m - c, m - r),
            Symmetry::Transpose => (r, c),
            Symmetry::QuarterTurn => (m - r, c),
            Symmetry::ThreeQuarterTurn => (r, m - c),
            Symmetry::AntiTranspose => (m - r, m - c),
        };
        Square::new(c, r)
    }

    /// `mv` on the transformed board; a pass stays a pass.
    #[cfg(test)]
    pub(crate) fn apply_move(self, mv: crate::Move, n: u8) -> crate::Move {
        match mv {
            crate::Move::Play(sq) => crate::Move::Play(self.square(sq, n)),
            crate::Move::Pass => crate::Move::Pass,
        }
    }

    /// The same discs moved by this symmetry, with the same side to move and start rule.
    pub(crate) fn position(self, pos: &Position) -> Position {
        let size = pos.size();
        let mut cells = pos.cells().to_vec();
        for sq in pos.squares() {
            cells[self.square(sq, size.get()).index(size)] = pos.get(sq);
        }
        // The cells of a position always number size * size.
        Position::setup(size, pos.rules(), &cells, pos.turn()).unwrap_or_else(|| pos.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardSize, Rules};

    #[test]
    fn each_symmetry_is_a_distinct_permutation_of_the_squares() {
        for n in [4u8, 6, 8, 16] {
            let size = BoardSize::new(n).expect("an even size");
            let mut images = std::collections::HashSet::new();
            for s in Symmetry::ALL {
                let image: Vec<Square> = Position::start(size, Rules::Othello)
                    .squares()
                    .map(|sq| s.square(sq, n))
                    .collect();
                let mut sorted = image.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), size.cells(), "{s:?} on {size}");
                images.insert(image);
            }
            assert_eq!(images.len(), 8, "{size}");
        }
    }

    #[test]
    fn four_symmetries_keep_the_othello_start_and_four_swap_its_colours() {
        let start = Position::start(BoardSize::EIGHT, Rules::Othello);
        let kept: Vec<Symmetry> = Symmetry::ALL
            .into_iter()
            .filter(|s| s.position(&start) == start)
            .collect();
        assert_eq!(
            kept,
            [
                Symmetry::Identity,
                Symmetry::HalfTurn,
                Symmetry::Transpose,
                Symmetry::AntiTranspose
            ]
        );
        let f5 = start.parse_square("f5").expect("a square");
        let names: Vec<String> = Symmetry::ALL
            .iter()
            .map(|s| s.square(f5, 8).to_string())
            .collect();
        // The images of f5; those under the four that keep the start are Black's four openings.
        assert_eq!(names, ["f5", "c5", "f4", "c4", "e6", "d6", "e3", "d3"]);
    }
}
