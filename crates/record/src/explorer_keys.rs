//! The opening explorer's keys: each (position, move) of a game's first moves keyed by the
//! position's least symmetric image and its side to move, the move turned to that image.
//! Every store counts games under these keys (SQLite in an index table, the browser by
//! reading its games), so that both find the same moves.

use reversi_core::bit_symmetry::{disc_masks, image, image_square};
use reversi_core::{BoardSize, Color, Move, Position, Score};

use crate::{Status, EXPLORER_MAX_DISCS};

/// A position's row key: the 64-bit hash of its least symmetric image and its side to move.
/// Sixty-four bits keep the key one integer; two positions of the index share a key with
/// odds of about n²/2⁶⁵ (one in ten million for the 2 million WTHOR positions), and a
/// query drops any move not legal where it is asked.
pub type Key = i64;

/// The square, in the least image's orientation, and the key of a move from a position.
pub type Entry = (Key, u8);

/// The 8 images' masks, and the least of them.
fn images(black: u64, white: u64) -> ([(u64, u64); 8], (u64, u64)) {
    let all: [(u64, u64); 8] = std::array::from_fn(|s| (image(black, s), image(white, s)));
    let least = all.iter().copied().min().unwrap_or((black, white));
    (all, least)
}

/// Mixes the least image and the side to move into a key (the finaliser of MurmurHash3,
/// over both masks).
fn hash(least: (u64, u64), turn: Color) -> Key {
    let mut h = least.0 ^ least.1.rotate_left(32).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= u64::from(turn == Color::White);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h as Key
}

/// The index's entry for playing `mv` in `pos`: `None` for a pass, a position too deep or
/// not on 8x8. Of the images equal to the least (a symmetric position has several), the
/// move's least image is kept, so that moves the symmetry makes alike count as one.
pub fn entry(pos: &Position, mv: Move) -> Option<Entry> {
    let Move::Play(sq) = mv else { return None };
    let (black, white) = disc_masks(pos)?;
    if (black | white).count_ones() > EXPLORER_MAX_DISCS {
        return None;
    }
    let (all, least) = images(black, white);
    let bit = sq.index(BoardSize::EIGHT) as u32;
    let square = (0..8)
        .filter(|&s| all[s] == least)
        .map(|s| image_square(bit, s))
        .min()?;
    Some((hash(least, pos.turn()), square as u8))
}

/// The key of `pos` and a symmetry that takes it to its least image.
pub fn lookup_key(pos: &Position) -> Option<(Key, usize)> {
    let (black, white) = disc_masks(pos)?;
    let (all, least) = images(black, white);
    let s = (0..8).find(|&s| all[s] == least)?;
    Some((hash(least, pos.turn()), s))
}

/// The entries of a game from `start` through `moves`, up to the explorer's depth.
pub fn game_entries(start: &Position, moves: &[Move]) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut pos = start.clone();
    for &mv in moves {
        if disc_masks(&pos).is_some_and(|(b, w)| (b | w).count_ones() > EXPLORER_MAX_DISCS) {
            break;
        }
        out.extend(entry(&pos, mv));
        match pos.play(mv) {
            Ok(next) => pos = next,
            Err(_) => break,
        }
    }
    out
}

/// The score a game counts with in the index, if it counts: finished with a score on 8x8.
pub fn counted_score(size: BoardSize, status: Status, score: Option<Score>) -> Option<Score> {
    (size == BoardSize::EIGHT && status == Status::Finished)
        .then_some(score)
        .flatten()
}
