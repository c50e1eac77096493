//! The eight symmetries of the 8x8 board on 64-bit masks (bit `8 * row + column`, `a1` the
//! lowest), computed with shifts: what the opening book and the history's explorer key
//! positions by, so that a position and its rotations and reflections share one record.

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

/// The image of `bits` under symmetry `s` (0..8; 0 is the identity). The numbering is the
/// engine's pattern evaluation's: 1 mirrors columns, 2 rows, 3 both (a half turn), 4
/// transposes, 5 is the other diagonal, 6 and 7 the quarter turns.
///
/// # Examples
/// ```
/// use reversi_core::bit_symmetry::{image, image_square};
///
/// let a1 = 1u64;
/// assert_eq!(image(a1, 1), 1 << 7); // h1
/// assert_eq!(image_square(0, 3), 63); // a half turn takes a1 to h8
/// ```
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

/// The square (bit index, 0..64) `sq` moves to under symmetry `s`.
#[must_use]
pub fn image_square(sq: u32, s: usize) -> u32 {
    image(1u64 << (sq & 63), s).trailing_zeros()
}

/// The discs of an 8x8 position as two masks (bit `8 * row + column`), Black's first; `None`
/// for other sizes and during the Reversi rule's placement of the first four discs.
#[must_use]
pub fn disc_masks(pos: &crate::Position) -> Option<(u64, u64)> {
    if pos.size() != crate::BoardSize::EIGHT || pos.in_placement_phase() {
        return None;
    }
    let mut black = 0u64;
    let mut white = 0u64;
    for (i, cell) in pos.cells().iter().enumerate() {
        match cell {
            Some(crate::Color::Black) => black |= 1 << i,
            Some(crate::Color::White) => white |= 1 << i,
            None => {}
        }
    }
    Some((black, white))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The square `(col, row)` goes to under `s`, by coordinates.
    fn by_coordinates(col: u32, row: u32, s: usize) -> (u32, u32) {
        match s {
            0 => (col, row),
            1 => (7 - col, row),
            2 => (col, 7 - row),
            3 => (7 - col, 7 - row),
            4 => (row, col),
            5 => (7 - row, 7 - col),
            6 => (7 - row, col),
            _ => (row, 7 - col),
        }
    }

    #[test]
    fn squares_move_as_their_coordinates_say() {
        for s in 0..8 {
            for sq in 0..64 {
                let (c, r) = by_coordinates(sq % 8, sq / 8, s);
                assert_eq!(image_square(sq, s), r * 8 + c, "square {sq}, symmetry {s}");
            }
        }
    }

    #[test]
    fn inverses_undo() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..100 {
            x = x.rotate_left(17).wrapping_mul(0xff51_afd7_ed55_8ccd) ^ 0x1234_5678;
            for s in 0..8 {
                assert_eq!(image(image(x, s), inverse(s)), x, "symmetry {s}");
            }
        }
    }
}
