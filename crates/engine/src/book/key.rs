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
    pub fn of(board: Board) -> (Key, usize) {
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
    pub fn shard_hash(self) -> u64 {
        let mut h = self.player ^ self.opponent.rotate_left(29);
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// Mirrors columns: a ↔ h.
fn mirror_columns(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Mirrors rows: 1 ↔ 8.
fn mirror_rows(x: u64) -> u64 {
    x.swap_bytes()
}

/// Reflects in the a1–h8 diagonal: (column, row) → (row, column).
fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The image of `bits` under symmetry `s` (0..8), numbered as the pattern evaluation numbers
/// them ([`crate::pattern::transform`], which this computes with shifts instead of a loop).
#[must_use]
pub fn image(bits: u64, s: usize) -> u64 {
    match s {
        0 => bits,
        1 => mirror_columns(bits),
        2 => mirror_rows(bits),
        3 => mirror_rows(mirror_columns(bits)),
        4 => transpose(bits),
        5 => mirror_rows(mirror_columns(transpose(bits))),
        6 => mirror_columns(transpose(bits)),
        _ => mirror_rows(transpose(bits)),
    }
}

/// The symmetry that undoes symmetry `s`.
#[must_use]
pub fn inverse(s: usize) -> usize {
    // Every symmetry but the two quarter turns (6 and 7) is its own inverse.
    match s {
        6 => 7,
        7 => 6,
        s => s,
    }
}

/// The square (bit index) `sq` moves to under symmetry `s`.
#[must_use]
pub fn image_square(sq: u32, s: usize) -> u32 {
    image(1u64 << sq, s).trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::transform;
    use crate::rng::XorShift64;

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
    fn inverses_undo() {
        let mut rng = XorShift64::new(9);
        for _ in 0..100 {
            let x = rng.next_u64();
            for s in 0..8 {
                assert_eq!(image(image(x, s), inverse(s)), x, "symmetry {s}");
            }
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
