//! The opening book: deeply searched positions of the opening with values backed up by
//! negamax over the book's graph, so that every level answers the common openings at once,
//! well and with variety.
//!
//! A record stands for a position and its 7 symmetric images ([`Key`]). It holds how many
//! games reached it, the best move leading out of the book (the *leaf*) with the value a
//! search gave it, and the position's value: the best of the leaf and of the moves into other
//! book positions, each valued from its own record. A position whose side
//! to move must pass is stored as the position after the pass. The file format is in
//! [`file`](mod@file), the plain text form in [`text`], Edax's book file in [`edax`],
//! building and growing in [`build`].
//!
//! # Examples
//! ```
//! use reversi_engine::book::{Book, SHIPPED};
//! use reversi_engine::Board;
//!
//! // The shipped book knows the start, and every move it gives there is legal.
//! let book = Book::from_bytes(SHIPPED).unwrap();
//! let moves = book.moves(Board::START).unwrap();
//! assert!(!moves.is_empty());
//! assert!(moves.iter().all(|m| Board::START.moves() & m.sq.bit() != 0));
//! ```

pub mod build;
pub mod edax;
pub mod file;
mod key;
pub mod text;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

pub use key::Key;
pub(crate) use key::{image_square, inverse};

use crate::search::final_score;
use crate::{Board, Sq};

/// What the book knows of one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BookEntry {
    /// Games that reached the position (from the games the book was built from, and those
    /// it learned).
    pub games: u32,
    /// The value backed up from the leaf and the book's moves, for the side to move; `None`
    /// until the position or one of its moves has been valued.
    pub value: Option<i8>,
    /// The best move out of the book (a square in the key's orientation) and its value.
    pub leaf: Option<(u8, i8)>,
    /// The depth of the search that found the leaf; 0 when the position is not searched yet.
    pub depth: u8,
    /// Whether that search was an exact solve.
    pub exact: bool,
}

/// One move of a book position, as [`Book::moves`] gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookMove {
    /// The square played, in the orientation of the position asked about.
    pub sq: Sq,
    /// The move's value for the side to move (final disc difference).
    pub value: i32,
    /// Games that played it (those that reached the position after it).
    pub games: u32,
    /// The depth behind the value (that of the search at the end of its book line).
    pub depth: u8,
    /// Whether the value is exact.
    pub exact: bool,
}

/// An opening book. See the [module documentation](self).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Book {
    records: HashMap<Key, BookEntry>,
    /// The depth new positions are searched to (set when the book is built).
    pub depth: u8,
}

/// The board with the side to move able to play, or `None` when the game is over: the board
/// itself, or the board after a forced pass.
fn playing(board: Board) -> Option<Board> {
    if board.moves() != 0 {
        Some(board)
    } else if board.pass().moves() != 0 {
        Some(board.pass())
    } else {
        None
    }
}

/// What a move leads to, from the mover's side.
pub(crate) enum Child {
    /// A position of the book, with the mover's sign (+1: the mover is to move again after
    /// a pass; -1: the opponent is to move).
    Book(Key, i32),
    /// A position outside the book.
    Outside,
    /// The end of the game, with the mover's final disc difference.
    End(i32),
}

impl Book {
    /// An empty book.
    #[must_use]
    pub fn new() -> Book {
        Book::default()
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether the book holds no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The record of `board` (its side to move's position; after a forced pass when it must
    /// pass), if the book holds it.
    #[must_use]
    pub fn get(&self, board: Board) -> Option<&BookEntry> {
        self.records.get(&Key::of(playing(board)?).0)
    }

    /// Every position and its record, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&Key, &BookEntry)> {
        self.records.iter()
    }

    /// Adds `games` to the games count of `board`, inserting it (unsearched) when new.
    /// Finished games add nothing. Returns whether the position was new.
    pub(crate) fn insert_games(&mut self, board: Board, games: u32) -> bool {
        let Some(board) = playing(board) else {
            return false;
        };
        let key = Key::of(board).0;
        let new = !self.records.contains_key(&key);
        let r = self.records.entry(key).or_default();
        r.games = r.games.saturating_add(games);
        new
    }

    /// Inserts or replaces the record of `key` as it is (for reading files and merging).
    pub(crate) fn insert_record(&mut self, key: Key, record: BookEntry) {
        self.records.insert(key, record);
    }

    /// The record of `key`, if present.
    #[must_use]
    pub(crate) fn record(&self, key: &Key) -> Option<&BookEntry> {
        self.records.get(key)
    }

    /// Sets the leaf of `board` (in `board`'s orientation) found by a search `depth` deep
    /// (`exact` for a solve). Does nothing when `board` is not in the book.
    pub(crate) fn set_leaf(
        &mut self,
        board: Board,
        leaf: Option<(Sq, i32)>,
        depth: u8,
        exact: bool,
    ) {
        let Some(board) = playing(board) else {
            return;
        };
        let (key, s) = Key::of(board);
        if let Some(r) = self.records.get_mut(&key) {
            r.leaf =
                leaf.map(|(sq, v)| (image_square(sq.index(), s) as u8, v.clamp(-64, 64) as i8));
            r.depth = depth.max(1);
            r.exact = exact;
        }
    }

    /// Marks `key` as needing a new search (its leaf has become a book move).
    pub(crate) fn invalidate(&mut self, key: &Key) {
        if let Some(r) = self.records.get_mut(key) {
            r.depth = 0;
        }
    }

    /// What playing `sq` on `board` leads to.
    pub(crate) fn child(&self, board: Board, sq: u32) -> Child {
        let next = board.play(sq);
        if next.moves() != 0 {
            let key = Key::of(next).0;
            if self.records.contains_key(&key) {
                return Child::Book(key, -1);
            }
            Child::Outside
        } else if next.pass().moves() != 0 {
            let key = Key::of(next.pass()).0;
            if self.records.contains_key(&key) {
                return Child::Book(key, 1);
            }
            Child::Outside
        } else {
            Child::End(-final_score(next, u64::MAX))
        }
    }

    /// The moves of `board` the book values, best first: the moves into book positions and
    /// the leaf. `None` when the position is not in the book or nothing in it is valued yet.
    #[must_use]
    pub fn moves(&self, board: Board) -> Option<Vec<BookMove>> {
        if board.moves() == 0 {
            return None;
        }
        let (key, s) = Key::of(board);
        let rec = self.records.get(&key)?;
        let mut out = Vec::new();
        let mut m = board.moves();
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let Some(square) = Sq::new(sq) else { continue };
            let mv = |value: i32, games: u32, depth: u8, exact: bool| BookMove {
                sq: square,
                value,
                games,
                depth,
                exact,
            };
            match self.child(board, sq) {
                Child::Book(k, sign) => {
                    let r = &self.records[&k];
                    if let Some(v) = r.value {
                        out.push(mv(sign * i32::from(v), r.games, r.depth, r.exact));
                    }
                }
                Child::End(v) => out.push(mv(v, 0, 60, true)),
                Child::Outside => {
                    if let Some((leaf, v)) = rec.leaf {
                        if image_square(u32::from(leaf), inverse(s)) == sq {
                            out.push(mv(i32::from(v), 0, rec.depth, rec.exact));
                        }
                    }
                }
            }
        }
        if out.is_empty() {
            return None;
        }
        out.sort_by_key(|m| (-m.value, std::cmp::Reverse(m.games)));
        Some(out)
    }

    /// Backs every position's value up from its leaf and its moves into the book (negamax
    /// over the book's graph, which has no cycles: every move adds a disc).
    pub(crate) fn back_up(&mut self) {
        let mut memo: HashMap<Key, Option<i8>> = HashMap::with_capacity(self.records.len());
        let keys: Vec<Key> = self.records.keys().copied().collect();
        for key in &keys {
            self.value_of(*key, &mut memo);
        }
        for (key, value) in memo {
            if let Some(r) = self.records.get_mut(&key) {
                r.value = value;
            }
        }
    }

    fn value_of(&self, key: Key, memo: &mut HashMap<Key, Option<i8>>) -> Option<i8> {
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let rec = self.records[&key];
        let board = key.board();
        let mut best: Option<i32> = None;
        let mut m = board.moves();
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let v = match self.child(board, sq) {
                Child::Book(k, sign) => self.value_of(k, memo).map(|v| sign * i32::from(v)),
                Child::End(v) => Some(v),
                Child::Outside => rec
                    .leaf
                    .filter(|&(leaf, _)| u32::from(leaf) == sq)
                    .map(|(_, v)| i32::from(v)),
            };
            if let Some(v) = v {
                best = Some(best.map_or(v, |b| b.max(v)));
            }
        }
        let value = best.map(|v| v.clamp(-64, 64) as i8);
        memo.insert(key, value);
        value
    }

    /// Merges `other` into this book: positions only in `other` are added; for positions in
    /// both, the deeper search is kept and the larger games count (two shards of one build
    /// count the same games). Values are backed up again.
    pub fn merge(&mut self, other: &Book) {
        for (key, theirs) in &other.records {
            match self.records.get_mut(key) {
                None => {
                    self.records.insert(*key, *theirs);
                }
                Some(ours) => {
                    let games = ours.games.max(theirs.games);
                    if (theirs.depth, theirs.exact) > (ours.depth, ours.exact) {
                        *ours = *theirs;
                    }
                    ours.games = games;
                }
            }
        }
        self.depth = self.depth.max(other.depth);
        self.back_up();
    }

    /// The positions sorted by key (the order of the file).
    #[must_use]
    pub(crate) fn sorted(&self) -> Vec<(Key, BookEntry)> {
        let mut v: Vec<(Key, BookEntry)> = self.records.iter().map(|(k, r)| (*k, *r)).collect();
        v.sort_unstable_by_key(|(k, _)| *k);
        v
    }
}

/// The book the program ships (`crates/engine/book/book.bin`), built by the recipe in
/// docs/book.md.
pub const SHIPPED: &[u8] = include_bytes!("../book/book.bin");

/// The shipped book ([`SHIPPED`]), read once; `None` if it does not load (a damaged build: the
/// tests check that it loads).
#[must_use]
pub fn shipped() -> Option<Arc<Book>> {
    static BOOK: OnceLock<Option<Arc<Book>>> = OnceLock::new();
    BOOK.get_or_init(|| Book::from_bytes(SHIPPED).ok().map(Arc::new))
        .clone()
}

#[cfg(test)]
mod tests;
