//! Solved openings of the small boards: the exact value of every position within the first
//! plies of a game, stored in the program so that its top level plays perfectly from the first
//! move where a live solve would take minutes (6x6 Othello).
//!
//! Positions are stored once for their 8 symmetric images, under the least base-3 code of
//! the images (each square empty, the side to move's, or the opponent's, row by row), with
//! the exact final disc difference for the side to move. A position whose side to move must
//! pass is looked up as the position after the pass.
//!
//! File: magic `RVSOLVED`, format version (1), board side, plies covered, entry count
//! (`u32`), then the entries sorted by key (`u64` key, `i8` value, little-endian), then a
//! CRC-32 of everything before it.

pub mod build;

use std::fmt;
use std::sync::OnceLock;

use crate::pattern::crc32;
use crate::search::final_score;
use crate::{playable, Board};

const MAGIC: &[u8; 8] = b"RVSOLVED";
const VERSION: u8 = 1;
const HEADER: usize = 8 + 1 + 1 + 1 + 4;
const ENTRY: usize = 9;

/// Why a solved-openings file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolvedError {
    /// Shorter than its header or its entry count says.
    Truncated {
        /// The file's length in bytes.
        len: usize,
        /// The length its header (or the smallest header) needs.
        expected: usize,
    },
    /// Not a solved-openings file.
    BadMagic,
    /// A format version this program does not read.
    Version(u8),
    /// A board side other than 4..=8 (even).
    Size(u8),
    /// The checksum does not match: the file is damaged.
    Checksum {
        /// The CRC-32 at the end of the file.
        stored: u32,
        /// The CRC-32 of the file's contents.
        computed: u32,
    },
    /// Keys out of order or repeated, or a value outside -64..=64.
    Corrupt {
        /// The index of the first bad entry, from 0.
        entry: usize,
    },
}

impl fmt::Display for SolvedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolvedError::Truncated { len, expected } => write!(
                f,
                "solved-openings file is truncated: {len} bytes where {expected} are needed"
            ),
            SolvedError::BadMagic => f.write_str("not a solved-openings file (no RVSOLVED magic)"),
            SolvedError::Version(v) => {
                write!(
                    f,
                    "solved-openings file has format version {v}; this program reads {VERSION}"
                )
            }
            SolvedError::Size(n) => write!(f, "solved-openings file is for a {n}x{n} board"),
            SolvedError::Checksum { stored, computed } => write!(
                f,
                "solved-openings file is damaged: checksum {computed:08x}, file says {stored:08x}"
            ),
            SolvedError::Corrupt { entry } => {
                write!(f, "solved-openings file is corrupt at entry {entry}")
            }
        }
    }
}

impl std::error::Error for SolvedError {}

/// The square (col, row) of an n×n board under symmetry `s` (0 is the identity).
const fn map(s: usize, n: u8, c: u8, r: u8) -> (u8, u8) {
    let (x, y) = (n - 1 - c, n - 1 - r);
    match s {
        0 => (c, r),
        1 => (x, r),
        2 => (c, y),
        3 => (x, y),
        4 => (r, c),
        5 => (y, c),
        6 => (r, x),
        _ => (y, x),
    }
}

/// The base-3 code of `b` on an n×n board under symmetry `s`.
fn code(b: Board, n: u8, s: usize) -> u64 {
    let mut digits = [0u8; 64];
    for r in 0..n {
        for c in 0..n {
            let bit = 1u64 << (r * 8 + c);
            let d = if b.player & bit != 0 {
                1
            } else if b.opponent & bit != 0 {
                2
            } else {
                0
            };
            let (tc, tr) = map(s, n, c, r);
            digits[usize::from(tr * n + tc)] = d;
        }
    }
    digits[..usize::from(n * n)]
        .iter()
        .fold(0u64, |k, &d| k.wrapping_mul(3).wrapping_add(u64::from(d)))
}

/// The key of `b` on an n×n board (n ≤ 6, where 3^36 fits a `u64`): the least code of its 8
/// symmetric images.
#[must_use]
pub(crate) fn key(b: Board, n: u8) -> u64 {
    (0..8).map(|s| code(b, n, s)).min().unwrap_or(0)
}

/// Exact values of positions of an n×n board, by key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolvedOpenings {
    size: u8,
    plies: u8,
    entries: Vec<(u64, i8)>,
}

impl SolvedOpenings {
    /// A table of `entries` (key, value) for an n×n board covering `plies` plies.
    #[must_use]
    pub(crate) fn new(size: u8, plies: u8, mut entries: Vec<(u64, i8)>) -> SolvedOpenings {
        entries.sort_unstable();
        entries.dedup_by_key(|e| e.0);
        SolvedOpenings {
            size,
            plies,
            entries,
        }
    }

    /// How many plies from the start every position is covered.
    #[must_use]
    pub fn plies(&self) -> u8 {
        self.plies
    }

    /// The positions stored (each standing for its symmetric images).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no position is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The exact value of `b` for the side to move, if stored (or if the game is over).
    #[must_use]
    pub fn value(&self, b: Board) -> Option<i32> {
        let mask = playable(self.size);
        if b.moves() & mask == 0 {
            let passed = b.pass();
            if passed.moves() & mask == 0 {
                return Some(final_score(b, mask));
            }
            return self.stored(passed).map(|v| -v);
        }
        self.stored(b)
    }

    fn stored(&self, b: Board) -> Option<i32> {
        let k = key(b, self.size);
        self.entries
            .binary_search_by_key(&k, |e| e.0)
            .ok()
            .map(|i| i32::from(self.entries[i].1))
    }

    /// The file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + ENTRY * self.entries.len() + 4);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[VERSION, self.size, self.plies]);
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for &(k, v) in &self.entries {
            out.extend_from_slice(&k.to_le_bytes());
            out.push(v as u8);
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a file written by [`SolvedOpenings::to_bytes`].
    ///
    /// # Errors
    /// When the bytes are short, of another format or version, damaged, or out of order.
    pub fn from_bytes(b: &[u8]) -> Result<SolvedOpenings, SolvedError> {
        if b.len() < HEADER + 4 {
            return Err(SolvedError::Truncated {
                len: b.len(),
                expected: HEADER + 4,
            });
        }
        if &b[..8] != MAGIC {
            return Err(SolvedError::BadMagic);
        }
        if b[8] != VERSION {
            return Err(SolvedError::Version(b[8]));
        }
        let (size, plies) = (b[9], b[10]);
        if !(4..=6).contains(&size) || size % 2 == 1 {
            return Err(SolvedError::Size(size));
        }
        let count = u32::from_le_bytes([b[11], b[12], b[13], b[14]]) as usize;
        let expected = HEADER + ENTRY * count + 4;
        if b.len() != expected {
            return Err(SolvedError::Truncated {
                len: b.len(),
                expected,
            });
        }
        let body = &b[..expected - 4];
        let stored = u32::from_le_bytes([
            b[expected - 4],
            b[expected - 3],
            b[expected - 2],
            b[expected - 1],
        ]);
        let computed = crc32(body);
        if stored != computed {
            return Err(SolvedError::Checksum { stored, computed });
        }
        let mut entries = Vec::with_capacity(count);
        for (i, e) in body[HEADER..].chunks_exact(ENTRY).enumerate() {
            let mut k = [0u8; 8];
            k.copy_from_slice(&e[..8]);
            let k = u64::from_le_bytes(k);
            let v = e[8] as i8;
            if entries.last().is_some_and(|&(last, _)| last >= k) || !(-64..=64).contains(&v) {
                return Err(SolvedError::Corrupt { entry: i });
            }
            entries.push((k, v));
        }
        Ok(SolvedOpenings {
            size,
            plies,
            entries,
        })
    }
}

/// The solved openings the program ships for an n×n Othello board, if any.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Position, Rules};
/// use reversi_engine::{solved, Board};
///
/// let start = Position::start(BoardSize::new(6).unwrap(), Rules::Othello);
/// let (board, _) = Board::from_position(&start)?;
/// // 6x6 Othello is lost by 4 discs for Black, the side to move (16-20, Feinstein 1993).
/// assert_eq!(solved::shipped(6).unwrap().value(board), Some(-4));
/// assert!(solved::shipped(8).is_none());
/// # Ok::<(), reversi_engine::FromPositionError>(())
/// ```
#[must_use]
pub fn shipped(n: u8) -> Option<&'static SolvedOpenings> {
    static SIX: OnceLock<Option<SolvedOpenings>> = OnceLock::new();
    match n {
        6 => SIX
            .get_or_init(|| SolvedOpenings::from_bytes(SHIPPED_6X6).ok())
            .as_ref(),
        _ => None,
    }
}

/// The shipped 6x6 Othello table (`reversi solve --size 6 --store`).
pub const SHIPPED_6X6: &[u8] = include_bytes!("../solved/othello-6x6.bin");

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{BoardSize, Position, Rules};

    fn start(n: u8) -> Board {
        let pos = Position::start(BoardSize::new(n).unwrap(), Rules::Othello);
        Board::from_position(&pos).unwrap().0
    }

    #[test]
    fn symmetric_images_share_a_key() {
        let n = 6;
        let mask = playable(n);
        let b = start(n);
        // The four first moves of 6x6 Othello are images of each other.
        let mut m = b.moves() & mask;
        let mut keys = Vec::new();
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            keys.push(key(b.play(sq), n));
        }
        assert_eq!(keys.len(), 4);
        assert!(keys.iter().all(|&k| k == keys[0]));
        // Colours matter: the same discs with the other side to move differ.
        let after = b.play((b.moves() & mask).trailing_zeros());
        assert_ne!(key(after, n), key(after.pass(), n));
        // Every image of a position has its key.
        for s in 0..8 {
            let image = Board {
                player: image_bits(after.player, n, s),
                opponent: image_bits(after.opponent, n, s),
            };
            assert_eq!(key(image, n), key(after, n));
        }
    }

    fn image_bits(bits: u64, n: u8, s: usize) -> u64 {
        let mut out = 0;
        for r in 0..n {
            for c in 0..n {
                if bits & (1 << (r * 8 + c)) != 0 {
                    let (tc, tr) = map(s, n, c, r);
                    out |= 1 << (tr * 8 + tc);
                }
            }
        }
        out
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let b = start(4);
        let t = SolvedOpenings::new(4, 0, vec![(key(b, 4), -10), (1, 3), (1, 3)]);
        assert_eq!(t.len(), 2);
        let bytes = t.to_bytes();
        assert_eq!(SolvedOpenings::from_bytes(&bytes), Ok(t.clone()));
        assert_eq!(t.value(b), Some(-10));
        assert!(matches!(
            SolvedOpenings::from_bytes(&bytes[..bytes.len() - 1]),
            Err(SolvedError::Truncated { .. })
        ));
        let mut bad = bytes.clone();
        bad[HEADER + 3] ^= 1;
        assert!(matches!(
            SolvedOpenings::from_bytes(&bad),
            Err(SolvedError::Checksum { .. })
        ));
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(SolvedOpenings::from_bytes(&bad), Err(SolvedError::BadMagic));
        let e = SolvedOpenings::from_bytes(&bytes[..10]).unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
    }
}
