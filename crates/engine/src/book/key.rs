//! The book's key of a position: the least of its 8 symmetric images, so that a position and
//! its rotations and reflections share one record.

use crate::Board;

/// A position as the book stores it: the side to move's discs and the other side's, in the
/// orientation whose `(player, opponent)` pair is the least of the 8 images.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// The discs of the side to move.
    pub player: u64,
    /// The discs of the other side.
    pub opponent: u64,
}

impl Key {
    /// The key of `board` and the symmetry that turns `board` into it (an index of
    /// [`image`]).
    #[must_use]
    pub(crate) fn of(board: Board) -> (Key, usize) {
        let mut best = (
            Key {
                player: board.player,
                opponent: board.opponent,
            },
            0,
        );
        for s in 1..8 {
            let k = Key {
                player: image(board.player, s),
                opponent: image(board.opponent, s),
            };
            if k < best.0 {
                best = (k, s);
            }
        }
        best
    }

    /// The board this key stands for, in the key's orientation.
    #[must_use]
    pub fn board(self) -> Board {
        Board::new(self.player, self.opponent)
    }

    /// A stable hash of the key, to split work into shards the same way on every machine.
    #[must_use]
    pub(crate) fn shard_hash(self) -> u64 {
        let mut h = self.player ^ self.opponent.rotate_left(29);
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

// The symmetries of the 8x8 masks live in the rules crate, which the history's explorer
// shares; the book numbers them the same way.
pub(crate) use reversi_core::bit_symmetry::{image, image_square, inverse};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::transform;
    use reversi_core::XorShift64;

    /// Checks the shift formulas against the pattern evaluation's loop.
    fn agrees_with_pattern_transform(bits: u64) -> bool {
        (0..8).all(|s| image(bits, s) == transform(bits, s))
    }

    #[test]
    fn images_match_the_pattern_symmetries() {
        let mut rng = XorShift64::new(7);
        for _ in 0..2000 {
            assert!(agrees_with_pattern_transform(rng.next_u64()));
        }
        for sq in 0..64 {
            assert!(agrees_with_pattern_transform(1 << sq));
        }
    }

    #[test]
    fn all_images_share_the_key() {
        let mut b = Board::START;
        for sq in [37, 29, 18] {
            b = b.play(sq);
        }
        let (key, s) = Key::of(b);
        assert_eq!(Key::of(key.board()).0, key);
        assert_eq!(image(b.player, s), key.player);
        for t in 0..8 {
            let img = Board::new(image(b.player, t), image(b.opponent, t));
            assert_eq!(Key::of(img).0, key, "image {t}");
        }
    }
}
