//! The book file: a versioned header, the records deflated, and a checksum.
//!
//! Layout (little-endian): magic `RVRSBOOK`, format version (1), the book's search depth,
//! two reserved bytes, the record count (`u32`), the deflated length (`u32`), the deflated
//! records, then a CRC-32 of everything before it. Each record is 25 bytes, sorted by key:
//! the side to move's discs (`u64`), the other side's (`u64`), games (`u32`), the value (`i8`,
//! -128 for none), the leaf square (`u8`, 255 for none), the leaf value (`i8`), the search
//! depth (`u8`, 0 unsearched) and flags (`u8`, bit 0: exact).

use std::fmt;

use super::{Book, BookEntry, Key};
use crate::pattern::crc32;

const MAGIC: &[u8; 8] = b"RVRSBOOK";
const VERSION: u8 = 1;
const HEADER: usize = 8 + 1 + 1 + 2 + 4 + 4;
const RECORD: usize = 25;
const NO_VALUE: i8 = i8::MIN;
const NO_LEAF: u8 = 255;

/// Why a book file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookError {
    /// Shorter than its header or than its header says.
    Truncated {
        /// The file's length in bytes.
        len: usize,
        /// The length it needs.
        expected: usize,
    },
    /// Not a book file (another file, or another program's book).
    BadMagic,
    /// A format version this program does not read.
    Version(u8),
    /// The checksum does not match: the file is damaged.
    Checksum {
        /// The CRC-32 stored at the end.
        stored: u32,
        /// The CRC-32 of the contents.
        computed: u32,
    },
    /// The records do not inflate to the size the header says.
    Inflate,
    /// A record out of order, repeated, with overlapping discs or a value out of range.
    Corrupt {
        /// The index of the first bad record, from 0.
        record: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Truncated { len, expected } => write!(
                f,
                "book file too short: {len} bytes where {expected} are needed"
            ),
            BookError::BadMagic => {
                f.write_str("not a book file of this program (it does not start with RVRSBOOK)")
            }
            BookError::Version(v) => write!(
                f,
                "book format version {v} is not supported (this program reads version {VERSION})"
            ),
            BookError::Checksum { stored, computed } => write!(
                f,
                "book file damaged: checksum {computed:08x} does not match the stored {stored:08x}"
            ),
            BookError::Inflate => f.write_str("book file damaged: the records do not unpack"),
            BookError::Corrupt { record } => {
                write!(f, "book file damaged: record {record} is invalid")
            }
        }
    }
}

impl std::error::Error for BookError {}

fn le_u32(b: &[u8], at: usize) -> u32 {
    let mut a = [0; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

impl Book {
    /// The file bytes of this book.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let records = self.sorted();
        let mut raw = Vec::with_capacity(records.len() * RECORD);
        for (k, r) in &records {
            raw.extend_from_slice(&k.player.to_le_bytes());
            raw.extend_from_slice(&k.opponent.to_le_bytes());
            raw.extend_from_slice(&r.games.to_le_bytes());
            raw.push(r.value.unwrap_or(NO_VALUE) as u8);
            let (sq, v) = r.leaf.unwrap_or((NO_LEAF, 0));
            raw.push(sq);
            raw.push(v as u8);
            raw.push(r.depth);
            raw.push(u8::from(r.exact));
        }
        let packed = miniz_oxide::deflate::compress_to_vec(&raw, 9);
        let mut out = Vec::with_capacity(HEADER + packed.len() + 4);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(self.depth);
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&(records.len() as u32).to_le_bytes());
        out.extend_from_slice(&(packed.len() as u32).to_le_bytes());
        out.extend_from_slice(&packed);
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a book file.
    ///
    /// # Errors
    /// A [`BookError`] naming what is wrong with the file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(if bytes.len() < 8 && MAGIC.starts_with(bytes) {
                BookError::Truncated {
                    len: bytes.len(),
                    expected: HEADER + 4,
                }
            } else {
                BookError::BadMagic
            });
        }
        if bytes.len() < HEADER + 4 {
            return Err(BookError::Truncated {
                len: bytes.len(),
                expected: HEADER + 4,
            });
        }
        if bytes[8] != VERSION {
            return Err(BookError::Version(bytes[8]));
        }
        let depth = bytes[9];
        let count = le_u32(bytes, 12) as usize;
        let packed_len = le_u32(bytes, 16) as usize;
        let expected = HEADER + packed_len + 4;
        if bytes.len() != expected {
            return Err(BookError::Truncated {
                len: bytes.len(),
                expected,
            });
        }
        let stored = le_u32(bytes, HEADER + packed_len);
        let computed = crc32(&bytes[..HEADER + packed_len]);
        if stored != computed {
            return Err(BookError::Checksum { stored, computed });
        }
        let raw_len = count.checked_mul(RECORD).ok_or(BookError::Inflate)?;
        let raw = miniz_oxide::inflate::decompress_to_vec_with_limit(
            &bytes[HEADER..HEADER + packed_len],
            raw_len,
        )
        .map_err(|_| BookError::Inflate)?;
        if raw.len() != raw_len {
            return Err(BookError::Inflate);
        }
        let mut book = Book {
            depth,
            ..Book::default()
        };
        book.records.reserve(count);
        let mut last: Option<Key> = None;
        for (i, r) in raw.chunks_exact(RECORD).enumerate() {
            let key = Key {
                player: le_u64(r, 0),
                opponent: le_u64(r, 8),
            };
            let value = r[20] as i8;
            let leaf_value = r[22] as i8;
            let bad = last.is_some_and(|l| l >= key)
                || key.player & key.opponent != 0
                || Key::of(key.board()).0 != key
                || !(-64..=64).contains(&leaf_value)
                || (value != NO_VALUE && !(-64..=64).contains(&value))
                || (r[21] != NO_LEAF && r[21] >= 64)
                || r[24] > 1;
            if bad {
                return Err(BookError::Corrupt { record: i });
            }
            last = Some(key);
            book.records.insert(
                key,
                BookEntry {
                    games: le_u32(r, 16),
                    value: (value != NO_VALUE).then_some(value),
                    leaf: (r[21] != NO_LEAF).then_some((r[21], leaf_value)),
                    depth: r[23],
                    exact: r[24] == 1,
                },
            );
        }
        Ok(book)
    }
}
