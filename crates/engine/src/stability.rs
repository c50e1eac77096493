//! Stable discs: discs that can never be flipped, found by growing from the edges and full
//! lines. A lower bound on the opponent's stable discs caps the player's final score, which
//! the endgame solver uses to cut off hopeless lines.

use std::sync::OnceLock;

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

/// `edge_table()[own << 8 | other]`: the discs of `own` (one bit a square of an edge of the 8x8
/// board) that no sequence of moves on that edge can flip, for every placement of `own` and
/// `other` on it. Edge discs can only be flipped along their edge, so these are stable.
fn edge_table() -> &'static [u8; 65536] {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Box<[u8; 65536]> = vec![0u8; 65536].try_into().expect("65536 entries");
        let mut known = vec![false; 65536];
        for own in 0..=255u8 {
            for other in 0..=255u8 {
                if own & other == 0 {
                    edge_stable(own, other, &mut table, &mut known);
                }
            }
        }
        table
    })
}

/// The stable discs of `own` on one edge (see [`edge_table`]): those that stay `own` after
/// either side fills any empty square of the edge, flipping what it brackets there.
fn edge_stable(own: u8, other: u8, table: &mut [u8; 65536], known: &mut [bool]) -> u8 {
    let index = usize::from(own) << 8 | usize::from(other);
    if known[index] {
        return table[index];
    }
    let mut stable = own;
    let empty = !(own | other);
    for sq in 0..8 {
        if empty >> sq & 1 == 0 {
            continue;
        }
        // Either side may fill sq (a move there may be legal through another line).
        let f = line_flips(own, other, sq);
        stable &= edge_stable(own | 1 << sq | f, other & !f, table, known);
        let f = line_flips(other, own, sq);
        stable &= edge_stable(own & !f, other | 1 << sq | f, table, known);
    }
    table[index] = stable;
    known[index] = true;
    stable
}

/// The discs of `them` that `me` flips on a line of eight by placing a disc at `sq`.
fn line_flips(me: u8, them: u8, sq: u32) -> u8 {
    let mut flips = 0;
    for step in [1i32, -1] {
        let mut run = 0u8;
        let mut at = sq as i32 + step;
        while (0..8).contains(&at) && them >> at & 1 == 1 {
            run |= 1 << at;
            at += step;
        }
        if (0..8).contains(&at) && me >> at & 1 == 1 {
            flips |= run;
        }
    }
    flips
}

/// Column a of `x` as a byte (row 1 in bit 0).
#[inline(always)]
fn column_a(x: u64) -> usize {
    (((x & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as usize
}

/// `SPREAD_A[byte]`: the byte spread back over column a (the inverse of [`column_a`]).
const SPREAD_A: [u64; 256] = {
    let mut out = [0u64; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut r = 0;
        while r < 8 {
            if byte >> r & 1 == 1 {
                out[byte] |= 1 << (8 * r);
            }
            r += 1;
        }
        byte += 1;
    }
    out
};

#[inline(always)]
fn spread_a(byte: u8) -> u64 {
    SPREAD_A[usize::from(byte)]
}

/// The stable discs of `own` on the four edges of the 8x8 board.
#[inline(always)]
fn edge_stable_discs(own: u64, other: u64) -> u64 {
    let table = edge_table();
    let row = |shift: u32| {
        let i = ((own >> shift) & 0xff) << 8 | ((other >> shift) & 0xff);
        u64::from(table[i as usize]) << shift
    };
    let col = |shift: u32| {
        let i = column_a(own >> shift) << 8 | column_a(other >> shift);
        spread_a(table[i]) << shift
    };
    row(0) | row(56) | col(0) | col(7)
}

/// The discs of `own` that can never be flipped, given the opponent's discs `other` and the
/// playable squares `mask` (squares outside it stay empty forever and act as edges).
///
/// A disc is stable when, along each of the four lines through it, either the line is full or
/// a neighbour on that line is an edge or a stable disc of its own colour. Growing that set
/// until it stops changing gives a sound lower bound; on 8x8 it grows from the discs the
/// edge table proves stable, which finds more of them in fewer rounds.
#[must_use]
// Inlined so the solver's kernel-specific copies get it compiled with their features (FFO
// #45-#48 one thread 14.9 -> 14.4 s against the generic out-of-line call).
#[inline(always)]
pub(crate) fn stable_discs(own: u64, other: u64, mask: u64) -> u64 {
    let filled = own | other | !mask;
    let full_h = full_rows(filled);
    let full_v = full_columns(filled);
    let full_d9 = full_diagonals(filled, &DIAG9);
    let full_d7 = full_diagonals(filled, &DIAG7);
    // Off-board and unplayable squares act as stable neighbours.
    let wall = !mask;
    let mut stable = if mask == u64::MAX {
        edge_stable_discs(own, other)
    } else {
        0
    };
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
        let grown = stable
            | own
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

/// A superset of the stable discs of `own`, cheap to compute: the discs that, along the
/// rows and columns, lie on a full line or next to an edge or another disc of their own, and
/// every disc on an edge.
#[inline(always)]
fn stable_candidates(own: u64, other: u64, mask: u64) -> u64 {
    let filled = own | other | !mask;
    let s = own | !mask;
    let west = ((s << 1) & NOT_A) | !NOT_A;
    let east = ((s >> 1) & NOT_H) | !NOT_H;
    let north = (s << 8) | 0xff;
    let south = (s >> 8) | 0xff00_0000_0000_0000;
    // Edge discs may be stable by the edge table without such a neighbour.
    own & ((full_rows(filled) | west | east) & (full_columns(filled) | north | south) | EDGES)
}

/// The squares on the edges of the 8x8 board.
const EDGES: u64 = 0xff81_8181_8181_81ff;

/// The stability cutoff of a node with window (`alpha`, ..): `Some(cap)` when the
/// opponent's stable discs cap the player's final score at `cap <= alpha`, so that the node
/// fails low without a search. The stable discs are only counted when even all of the
/// opponent's discs being stable could cut, and then all of a cheap superset of them.
#[inline(always)]
#[must_use]
pub(crate) fn cutoff(b: Board, mask: u64, alpha: i32) -> Option<i32> {
    let cells = mask.count_ones() as i32;
    if cells - 2 * b.opponent.count_ones() as i32 > alpha {
        return None;
    }
    if cells - 2 * stable_candidates(b.opponent, b.player, mask).count_ones() as i32 > alpha {
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

    #[test]
    fn column_a_and_spread_a_are_inverse() {
        for byte in 0..=255u8 {
            let mut col = 0u64;
            for r in 0..8 {
                if byte >> r & 1 == 1 {
                    col |= 1 << (8 * r);
                }
            }
            assert_eq!(spread_a(byte), col);
            assert_eq!(column_a(col | 0xfefe_fefe_fefe_fefe), usize::from(byte));
        }
    }

    #[test]
    fn edge_stability_finds_anchored_runs_and_full_edges() {
        let t = edge_table();
        let at = |own: u8, other: u8| t[usize::from(own) << 8 | usize::from(other)];
        // A corner and its run are stable; a run away from the corner is not.
        assert_eq!(at(0b0000_0111, 0b0000_1000), 0b0000_0111);
        assert_eq!(at(0b0000_0110, 0), 0);
        // A full edge is all stable, whatever the colours.
        assert_eq!(at(0b1010_0101, 0b0101_1010), 0b1010_0101);
        // X O O O O O O . : the two sides can never bracket the O run from the empty h1 side.
        assert_eq!(at(0b0111_1110, 0b0000_0001), 0);
    }

    /// The cheap superset the cutoff tries first holds every disc the full test finds.
    #[test]
    fn candidates_hold_every_stable_disc() {
        // Every placement on the first row, the rest of the board empty or random.
        let mut rng = Rng::new(0x0bad_5eed_0000_0001);
        for own in 0..=255u64 {
            for other in 0..=255u64 {
                if own & other != 0 {
                    continue;
                }
                let bits = rng.next_u64() & !0xff;
                let split = rng.next_u64();
                let (own, other) = (own | (bits & split), other | (bits & !split));
                let stable = stable_discs(own, other, u64::MAX);
                assert_eq!(stable & !stable_candidates(own, other, u64::MAX), 0);
            }
        }
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
