//! The transposition table: a fixed-size hash table of search bounds, shared by all search
//! threads without locks.
//!
//! Each slot is two `AtomicU64`: the packed data, and the key XOR the data. A reader accepts a
//! slot only when the two agree with its key, so a slot torn by two writers racing is simply a
//! miss, never a wrong answer (the "lockless hashing" of Hyatt and Mann).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::{Board, Sq};

/// How an entry without a best move packs it: the first code that is no square.
const NO_SQUARE: u8 = 64;

/// The flag of the depth stored for an exact endgame solve: above any midgame depth.
pub(crate) const SOLVED: u8 = 0x80;

/// The depth stored for an exact solve of a position with `empties` empty squares: deeper
/// than any midgame search, and ranked by empties among solves so that the table's deep slot
/// keeps the costly solves near the root rather than the last one made.
#[inline(always)]
#[must_use]
pub(crate) const fn solved_depth(empties: u32) -> u8 {
    SOLVED | empties as u8
}

/// What the table knows about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The score is at least this (a fail-high or an exact search stored it).
    pub lower: i8,
    /// The score is at most this; equal to `lower` when the score is exact.
    pub upper: i8,
    /// Plies searched, or [`solved_depth`] for an exact endgame solve.
    pub depth: u8,
    /// Selectivity the bounds were found under (higher is more exact).
    pub selectivity: u8,
    /// The best move found, if any.
    pub best: Option<Sq>,
}

impl Entry {
    /// Whether the bounds come from an endgame solve (exact, or selective if `selectivity`
    /// says so) rather than a midgame search.
    #[inline(always)]
    #[must_use]
    pub(crate) const fn is_solve(self) -> bool {
        self.depth & SOLVED != 0
    }

    /// What the bounds mean for a search with window (`alpha`, `beta`): `Ok(value)` when they
    /// settle it (a cutoff, or an exact score), else `Err` with the window they narrow it to.
    ///
    /// # Errors
    /// `Err` is not a failure: it carries the narrowed window to search with.
    #[inline]
    pub(crate) fn apply(self, alpha: i32, beta: i32) -> Result<i32, (i32, i32)> {
        let (lo, hi) = (i32::from(self.lower), i32::from(self.upper));
        if lo >= beta || lo == hi {
            Ok(lo)
        } else if hi <= alpha {
            Ok(hi)
        } else {
            Err((alpha.max(lo), beta.min(hi)))
        }
    }

    fn pack(self, date: u8) -> u64 {
        u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.depth) << 16
            | u64::from(self.selectivity) << 24
            | u64::from(self.best.map_or(NO_SQUARE, |sq| sq.index() as u8)) << 32
            | u64::from(date) << 40
    }

    fn unpack(d: u64) -> (Entry, u8) {
        (
            Entry {
                lower: d as u8 as i8,
                upper: (d >> 8) as u8 as i8,
                depth: (d >> 16) as u8,
                selectivity: (d >> 24) as u8,
                best: Sq::from_code((d >> 32) as u8),
            },
            (d >> 40) as u8,
        )
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

// The table stores an entry packed in a slot's `u64` (the best move as a byte, 64 for none),
// so a slot stays 16 bytes; the unpacked entry, `Option<Sq>` and all, stays 6.
const _: () = assert!(std::mem::size_of::<Slot>() == 16);
const _: () = assert!(std::mem::size_of::<Entry>() == 6);

/// A hash table of [`Entry`]s in buckets of two slots: one kept for the deepest search, one
/// always replaced.
pub(crate) struct TranspositionTable {
    slots: Vec<Slot>,
    mask: usize,
    date: AtomicU64,
}

/// Asks Linux to back the memory at `start` (`bytes` long, not yet touched) with huge pages
/// (2 MB instead of 4 KB). A probe of a large table then rarely misses the address
/// translation caches: a 1 GB table is 512 huge pages against 262,144 small ones. Elsewhere,
/// or where the kernel declines, nothing changes but the speed.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages<T>(start: *const T, bytes: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    let address = start as usize;
    let first = address.next_multiple_of(HUGE_PAGE);
    let end = (address + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: `madvise` with MADV_HUGEPAGE only advises the kernel on how to back the
        // pages of [first, end), which lie inside this process's own allocation (the
        // vector's reserved capacity); it changes no memory contents and no mapping that
        // Rust relies on. Its result is a hint's: ignored.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_start: *const T, _bytes: usize) {}

/// A 64-bit hash of a board (player to move).
#[inline(always)]
#[must_use]
pub(crate) fn hash(b: Board) -> u64 {
    let mut h = b.player
        ^ b.opponent
            .rotate_left(29)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= h >> 32;
    h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^= h >> 32;
    h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^ (h >> 32)
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket).
    #[must_use]
    pub(crate) fn new(megabytes: usize) -> TranspositionTable {
        let bytes = megabytes.max(1) << 20;
        let buckets = (bytes / (2 * std::mem::size_of::<Slot>()))
            .next_power_of_two()
            .max(2)
            / 2;
        // Reserve first, ask for huge pages, then fill: the pages are touched only after the
        // advice, so the kernel can back the table with 2 MB pages.
        let mut slots = Vec::with_capacity(2 * buckets);
        advise_huge_pages(slots.as_ptr(), 2 * buckets * std::mem::size_of::<Slot>());
        slots.resize_with(2 * buckets, Slot::default);
        TranspositionTable {
            slots,
            mask: buckets - 1,
            date: AtomicU64::new(1),
        }
    }

    /// A table that remembers nothing: every probe misses. For checking that search results
    /// do not depend on the table.
    #[must_use]
    pub(crate) fn disabled() -> TranspositionTable {
        TranspositionTable {
            slots: Vec::new(),
            mask: 0,
            date: AtomicU64::new(1),
        }
    }

    /// Size in bytes.
    #[must_use]
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Marks the start of a new search, so that older entries are replaced first.
    pub(crate) fn new_search(&self) {
        self.date.fetch_add(1, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub(crate) fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    fn date(&self) -> u8 {
        (self.date.load(Ordering::Relaxed) % 255 + 1) as u8
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * 2
    }

    /// The address of the bucket of `key`, for a prefetch before [`Self::probe`] (null for
    /// a disabled table; a prefetch of it does nothing).
    #[inline(always)]
    #[must_use]
    pub(crate) fn address(&self, key: u64) -> *const u8 {
        self.slots
            .get(self.bucket(key))
            .map_or(std::ptr::null(), |s| std::ptr::from_ref(s).cast())
    }

    /// What is known about the board with hash `key`.
    #[inline]
    #[must_use]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        if self.slots.is_empty() {
            return None;
        }
        let i = self.bucket(key);
        for s in &self.slots[i..i + 2] {
            let d = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ d == key && d != 0 {
                return Some(Entry::unpack(d).0);
            }
        }
        None
    }

    /// Records `entry` for the board with hash `key`.
    #[inline]
    pub(crate) fn store(&self, key: u64, entry: Entry) {
        if self.slots.is_empty() {
            return;
        }
        let date = self.date();
        let packed = entry.pack(date);
        let i = self.bucket(key);
        let deep = &self.slots[i];
        let d = deep.data.load(Ordering::Relaxed);
        let same = deep.check.load(Ordering::Relaxed) ^ d == key;
        let (old, old_date) = Entry::unpack(d);
        let slot = if same || d == 0 || old_date != date || old.depth <= entry.depth {
            deep
        } else {
            &self.slots[i + 1]
        };
        slot.data.store(packed, Ordering::Relaxed);
        slot.check.store(key ^ packed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let tt = TranspositionTable::new(1);
        assert!(tt.bytes() <= 1 << 20);
        let e = Entry {
            lower: -12,
            upper: 64,
            depth: 9,
            selectivity: 3,
            best: Sq::new(19),
        };
        let k = hash(Board::START);
        assert_eq!(tt.probe(k), None);
        tt.store(k, e);
        assert_eq!(tt.probe(k), Some(e));
        assert_eq!(tt.probe(k ^ 1 << 40), None);
        tt.clear();
        assert_eq!(tt.probe(k), None);
        // No best move packs and unpacks as none.
        let e = Entry { best: None, ..e };
        tt.store(k, e);
        assert_eq!(tt.probe(k), Some(e));
    }

    #[test]
    fn bounds_settle_or_narrow_a_window() {
        let exact = Entry {
            lower: 0,
            upper: 0,
            depth: 4,
            selectivity: 5,
            best: Sq::new(37),
        };
        assert_eq!(exact.apply(-10, 10), Ok(0));
        let lower = Entry { upper: 64, ..exact };
        assert_eq!(lower.apply(-10, 10), Err((0, 10)));
        assert_eq!(lower.apply(-10, -2), Ok(0));
    }

    #[test]
    fn hash_separates_colours() {
        assert_ne!(hash(Board::START), hash(Board::START.pass()));
    }
}
