//! Stable discs: discs that can never be flipped, found by growing from the edges and full
//! lines. A lower bound on the opponent's stable discs caps the player's final score, which
//! the endgame solver uses to cut off hopeless lines.

use crate::Board;

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// Squares whose row is full.
#[inline]
fn full_rows(filled: u64) -> u64 {
    let mut f = filled;
    f &= f >> 1;
    f &= f >> 2;
    f &= f >> 4;
    (f & 0x0101_0101_0101_0101) * 0xff
}

/// Squares whose column is full.
#[inline]
fn full_columns(filled: u64) -> u64 {
    let mut f = filled;
    f &= f >> 8;
    f &= f >> 16;
    f &= f >> 32;
    (f & 0xff) * 0x0101_0101_0101_0101
}

/// Diagonal masks: `DIAG9[i]` the a1-h8 direction lines, `DIAG7[i]` the h1-a8 direction.
const fn diagonals(step: i32) -> [u64; 15] {
    let mut out = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        let index = if step == 9 { c - r + 7 } else { c + r };
        out[index as usize] |= 1u64 << sq;
        sq += 1;
    }
    out
}

const DIAG9: [u64; 15] = diagonals(9);
const DIAG7: [u64; 15] = diagonals(7);

#[inline]
fn full_diagonals(filled: u64, lines: &[u64; 15]) -> u64 {
    let mut full = 0;
    for &l in lines {
        if filled & l == l {
            full |= l;
        }
    }
    full
}

/// The discs of `own` that can never be flipped, given the opponent's discs `other` and the
/// playable squares `mask` (squares outside it stay empty forever and act as edges).
///
/// A disc is stable when, along each of the four lines through it, either the line is full or
/// a neighbour on that line is an edge or a stable disc of its own colour. Growing that set
/// from nothing until it stops changing gives a sound lower bound.
#[must_use]
pub fn stable_discs(own: u64, other: u64, mask: u64) -> u64 {
    let filled = own | other | !mask;
    let full_h = full_rows(filled);
    let full_v = full_columns(filled);
    let full_d9 = full_diagonals(filled, &DIAG9);
    let full_d7 = full_diagonals(filled, &DIAG7);
    // Off-board and unplayable squares act as stable neighbours.
    let wall = !mask;
    let mut stable = 0u64;
    loop {
        let s = stable | wall;
        // A neighbour in each direction is stable, or the square lies on the board's edge.
        let west = ((s << 1) & NOT_A) | !NOT_A;
        let east = ((s >> 1) & NOT_H) | !NOT_H;
        let north = (s << 8) | 0xff;
        let south = (s >> 8) | 0xff00_0000_0000_0000;
        let nw = ((s << 9) & NOT_A) | !NOT_A | 0xff;
        let se = ((s >> 9) & NOT_H) | !NOT_H | 0xff00_0000_0000_0000;
        let ne = ((s << 7) & NOT_H) | !NOT_H | 0xff;
        let sw = ((s >> 7) & NOT_A) | !NOT_A | 0xff00_0000_0000_0000;
        let grown = own
            & (full_h | west | east)
            & (full_v | north | south)
            & (full_d9 | nw | se)
            & (full_d7 | ne | sw);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// The stability cutoff of a node with window (`alpha`, ..): `Some(cap)` when the
/// opponent's stable discs cap the player's final score at `cap <= alpha`, so that the node
/// fails low without a search. The stable discs are only counted when even all of the
/// opponent's discs being stable could cut.
#[inline(always)]
#[must_use]
pub fn cutoff(b: Board, mask: u64, alpha: i32) -> Option<i32> {
    let cells = mask.count_ones() as i32;
    if cells - 2 * b.opponent.count_ones() as i32 > alpha {
        return None;
    }
    let cap = cells - 2 * stable_discs(b.opponent, b.player, mask).count_ones() as i32;
    (cap <= alpha).then_some(cap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{flip, mobility};
    use reversi_testkit::Rng;

    #[test]
    fn corners_and_their_edges_are_stable() {
        // a1, b1, c1 Black; d1 White: the a1 run is stable, d1 is not.
        let own = 0b111;
        let other = 0b1000;
        assert_eq!(stable_discs(own, other, u64::MAX), 0b111);
        assert_eq!(stable_discs(other, own, u64::MAX), 0);
        // Nothing is stable at the start.
        let b = Board::START;
        assert_eq!(stable_discs(b.player, b.opponent, u64::MAX), 0);
        // A full board is all stable.
        assert_eq!(
            stable_discs(0xffff_0000_ffff_0000, 0x0000_ffff_0000_ffff, u64::MAX),
            0xffff_0000_ffff_0000
        );
    }

    /// Soundness: on random games, a disc called stable is never flipped later in the game.
    #[test]
    fn stable_discs_are_never_flipped() {
        let mut rng = Rng::new(0x1234_5678_9abc_def1);
        for mask in [u64::MAX, crate::playable(6)] {
            for _ in 0..2000 {
                let start = if mask == u64::MAX {
                    Board::START
                } else {
                    // 6x6: White c3, d4; Black d3, c4.
                    Board::new(1 << 19 | 1 << 26, 1 << 18 | 1 << 27)
                };
                // (black, white) and whose turn.
                let (mut black, mut white) = (start.player, start.opponent);
                let mut black_to_move = true;
                let mut known_black = 0u64;
                let mut known_white = 0u64;
                loop {
                    known_black |= stable_discs(black, white, mask);
                    known_white |= stable_discs(white, black, mask);
                    assert_eq!(known_black & !black, 0, "a stable Black disc was flipped");
                    assert_eq!(known_white & !white, 0, "a stable White disc was flipped");
                    let (p, o) = if black_to_move {
                        (black, white)
                    } else {
                        (white, black)
                    };
                    let moves = mobility::moves(p, o) & mask;
                    if moves == 0 {
                        if mobility::moves(o, p) & mask == 0 {
                            break;
                        }
                        black_to_move = !black_to_move;
                        continue;
                    }
                    let k = rng.below(moves.count_ones() as usize);
                    let mut m = moves;
                    for _ in 0..k {
                        m &= m - 1;
                    }
                    let sq = m.trailing_zeros();
                    let f = flip::flips(p, o, sq);
                    let (np, no) = (p | f | (1 << sq), o & !f);
                    if black_to_move {
                        (black, white) = (np, no);
                    } else {
                        (white, black) = (np, no);
                    }
                    black_to_move = !black_to_move;
                }
            }
        }
    }
}
