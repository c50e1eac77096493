//! Edax's book and this program's: what each field of an Edax position becomes in a
//! [`BookEntry`] and back.
//!
//! - The board keys the record (Edax's orientation is the book's key; another orientation
//!   is turned, its moves with it).
//! - The leaf is the record's leaf; its level gives the record's depth and whether it was a
//!   solve ([`level`](super::level)).
//! - The links are not stored: a move links when the position it leads to is in the book,
//!   and the values are backed up again from the leaves. A link to a position the file lacks
//!   becomes the leaf when it scores better (Edax's own rule when it prunes a book).
//! - A position whose side to move must pass is, in this program's book, the position after
//!   the pass: Edax's pass positions are dropped on reading and written again (one link, the
//!   pass) for every move that leads to one. Finished games are no positions here.
//! - Game counts are not part of Edax's format: read positions have none. Edax's value,
//!   bounds and win/draw/loss/line counts are written as Edax's negamax
//!   (`position_negamax`) computes them, with its default errors (2 discs midgame, 1
//!   endgame), so Edax reads the book as if it had built it.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};

use super::level::{choose_level, edax_search, searched, EdaxSearch};
use super::{
    EdaxBook, EdaxBookError, EdaxDate, EdaxHeader, EdaxLink, EdaxPosition, PositionProblem,
    HEADER_LEN, MAX_LEVEL, NO_MOVE, PASS, RELEASE, SCORE_INF,
};
use crate::book::{image_square, Book, BookEntry, Child, Key};
use crate::Board;

/// Edax's default error of a midgame search, in discs (`book_init`).
const MIDGAME_ERROR: i16 = 2;
/// Edax's default error of a selective endgame search, in discs.
const ENDCUT_ERROR: i16 = 1;

/// Checks a position with no move for its side (a pass, or the end of the game): Edax allows
/// it one link, a pass, or a pass as its leaf, and only when the other side can move.
fn check_no_move(board: Board, p: &EdaxPosition) -> Result<(), PositionProblem> {
    let must_pass = board.pass().moves() != 0;
    for l in &p.links {
        if l.mv != PASS {
            return Err(PositionProblem::IllegalLink(l.mv));
        }
        if !must_pass || p.links.len() > 1 {
            return Err(PositionProblem::MisplacedPass);
        }
    }
    match p.leaf.mv {
        NO_MOVE => Ok(()),
        PASS if must_pass && p.links.is_empty() => Ok(()),
        PASS => Err(PositionProblem::MisplacedPass),
        sq => Err(PositionProblem::IllegalLeaf(sq)),
    }
}

/// The moves of a position with moves, checked; its leaf.
fn check_moves(board: Board, p: &EdaxPosition) -> Result<Option<(u8, i8)>, PositionProblem> {
    let legal = board.moves();
    let mut linked = 0u64;
    for l in &p.links {
        if l.mv == PASS {
            return Err(PositionProblem::MisplacedPass);
        }
        let bit = 1u64 << l.mv;
        if legal & bit == 0 {
            return Err(PositionProblem::IllegalLink(l.mv));
        }
        if linked & bit != 0 {
            return Err(PositionProblem::DuplicateMove(l.mv));
        }
        linked |= bit;
    }
    let leaf = match p.leaf.mv {
        NO_MOVE => None,
        PASS => return Err(PositionProblem::MisplacedPass),
        sq => {
            let bit = 1u64 << sq;
            if legal & bit == 0 {
                return Err(PositionProblem::IllegalLeaf(sq));
            }
            if linked & bit != 0 {
                return Err(PositionProblem::DuplicateMove(sq));
            }
            if !(-64..=64).contains(&p.leaf.score) {
                return Err(PositionProblem::LeafScore(p.leaf.score));
            }
            Some((sq, p.leaf.score))
        }
    };
    Ok(leaf)
}

impl Book {
    /// The book an Edax book holds (see [`crate::book::edax`]): every position
    /// with its leaf, the depth its level gives and the values backed up over its links.
    /// The book's depth is the level of the Edax book's header.
    ///
    /// # Errors
    /// An [`EdaxBookError`] naming the first position Edax would not accept: a link or leaf
    /// on a square its side cannot play, a move given twice, a misplaced pass or a leaf score
    /// out of range.
    pub fn from_edax(edax: &EdaxBook) -> Result<Book, EdaxBookError> {
        let mut book = Book {
            depth: edax.header.level.clamp(0, i32::from(MAX_LEVEL)) as u8,
            ..Book::default()
        };
        let mut scored_links: Vec<(Key, Vec<(u32, i8)>)> = Vec::new();
        let mut offset = HEADER_LEN;
        for (index, p) in edax.positions.iter().enumerate() {
            let at = offset;
            let fail = move |problem| EdaxBookError::Position {
                index,
                offset: at,
                problem,
            };
            offset += p.len_bytes();
            let board = Board::new(p.player, p.opponent);
            if board.moves() == 0 {
                check_no_move(board, p).map_err(fail)?;
                continue;
            }
            let leaf = check_moves(board, p).map_err(fail)?;
            let (key, s) = Key::of(board);
            if book.records.contains_key(&key) {
                // Edax keeps the first copy of a position.
                continue;
            }
            let (depth, exact) = searched(p.level, board.empties().count_ones());
            book.records.insert(
                key,
                BookEntry {
                    games: 0,
                    value: None,
                    leaf: leaf.map(|(sq, v)| (image_square(u32::from(sq), s) as u8, v)),
                    depth,
                    exact,
                },
            );
            let links: Vec<(u32, i8)> = p
                .links
                .iter()
                .filter(|l| (-64..=64).contains(&l.score))
                .map(|l| (image_square(u32::from(l.mv), s), l.score))
                .collect();
            if !links.is_empty() {
                scored_links.push((key, links));
            }
        }
        for (key, links) in scored_links {
            let board = key.board();
            let lost = links
                .iter()
                .filter(|&&(sq, _)| !matches!(book.child(board, sq), Child::Book(..)))
                .max_by_key(|&&(sq, v)| (v, Reverse(sq)));
            if let (Some(&(sq, v)), Some(r)) = (lost, book.records.get_mut(&key)) {
                if r.leaf.is_none_or(|(_, leaf)| v > leaf) {
                    r.leaf = Some((sq as u8, v));
                }
            }
        }
        book.back_up();
        Ok(book)
    }

    /// The Edax book of this book, saved at `date` (see [`crate::book::edax`]).
    /// [`Book::from_edax`] of it gives this book back, but for the game counts, a midgame
    /// search no Edax level describes (written at a shallower level) and a leaf that has
    /// become a book move while its position waits for a new search (Edax drops it).
    #[must_use]
    pub fn to_edax(&self, date: EdaxDate) -> EdaxBook {
        let preferred = self.depth.min(MAX_LEVEL);
        let levels = self
            .records
            .iter()
            .map(|(key, r)| {
                let empties = key.board().empties().count_ones();
                (*key, choose_level(r.depth, r.exact, empties, preferred))
            })
            .collect();
        let mut negamax = Negamax {
            book: self,
            levels,
            nodes: HashMap::with_capacity(self.records.len()),
        };
        let mut positions: BTreeMap<Key, EdaxPosition> = BTreeMap::new();
        for (key, _) in self.sorted() {
            let node = negamax.node(key);
            let mut links = Vec::new();
            for (sq, child, sign) in negamax.links(key) {
                let c = negamax.node(child);
                if sign < 0 {
                    links.push(EdaxLink {
                        score: -c.value as i8,
                        mv: sq as u8,
                    });
                    continue;
                }
                // The move leaves the other side to pass: Edax keeps that position, linked to
                // the one after the pass.
                links.push(EdaxLink {
                    score: c.value as i8,
                    mv: sq as u8,
                });
                let (pass_key, _) = Key::of(key.board().play(sq));
                let level = negamax.levels[&child];
                positions.entry(pass_key).or_insert_with(|| {
                    c.flipped().position(
                        pass_key,
                        level,
                        vec![EdaxLink {
                            score: -c.value as i8,
                            mv: PASS,
                        }],
                        EdaxLink::NONE,
                    )
                });
            }
            let linked = links.iter().fold(0u64, |m, l| m | 1 << l.mv);
            let leaf = negamax
                .leaf(key, linked)
                .map_or(EdaxLink::NONE, |(sq, v)| EdaxLink { score: v, mv: sq });
            positions.insert(key, node.position(key, negamax.levels[&key], links, leaf));
        }
        let empties = positions
            .keys()
            .map(|k| k.board().empties().count_ones())
            .min()
            .unwrap_or(60);
        EdaxBook {
            header: EdaxHeader {
                release: RELEASE,
                date,
                level: i32::from(preferred),
                empties: empties as i32,
                midgame_error: i32::from(MIDGAME_ERROR),
                endcut_error: i32::from(ENDCUT_ERROR),
                verbosity: 0,
                count: i32::try_from(positions.len()).unwrap_or(i32::MAX),
            },
            positions: positions.into_values().collect(),
        }
    }
}

/// A position's value, bounds and counts as Edax's negamax gives them.
#[derive(Debug, Clone, Copy)]
struct Node {
    value: i16,
    lower: i16,
    upper: i16,
    wins: u64,
    draws: u64,
    losses: u64,
    lines: u64,
}

impl Node {
    const UNKNOWN: Node = Node {
        value: -SCORE_INF,
        lower: -SCORE_INF,
        upper: -SCORE_INF,
        wins: 0,
        draws: 0,
        losses: 0,
        lines: 0,
    };

    /// The same for the other side (the position before a move into this one, or a pass).
    fn flipped(self) -> Node {
        Node {
            value: -self.value,
            lower: -self.upper,
            upper: -self.lower,
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            lines: self.lines,
        }
    }

    /// Takes in a move whose resulting position, seen from this side, is `c`.
    fn add(&mut self, c: Node) {
        self.value = self.value.max(c.value);
        self.lower = self.lower.max(c.lower);
        self.upper = self.upper.max(c.upper);
        self.wins += c.wins;
        self.draws += c.draws;
        self.losses += c.losses;
        self.lines += c.lines;
    }

    fn position(self, key: Key, level: u8, links: Vec<EdaxLink>, leaf: EdaxLink) -> EdaxPosition {
        let count = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        EdaxPosition {
            player: key.player,
            opponent: key.opponent,
            wins: count(self.wins),
            draws: count(self.draws),
            losses: count(self.losses),
            lines: count(self.lines),
            value: self.value,
            lower: self.lower,
            upper: self.upper,
            level,
            links,
            leaf,
        }
    }
}

/// Edax's negamax over this book's graph, each position once.
struct Negamax<'a> {
    book: &'a Book,
    levels: HashMap<Key, u8>,
    nodes: HashMap<Key, Node>,
}

impl Negamax<'_> {
    /// The moves of `key` Edax links: those into a book position that something values, with
    /// the square, the position and the mover's sign (+1 when the other side must pass).
    fn links(&mut self, key: Key) -> Vec<(u32, Key, i32)> {
        let board = key.board();
        let mut out = Vec::new();
        let mut moves = board.moves();
        while moves != 0 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            if let Child::Book(child, sign) = self.book.child(board, sq) {
                if self.node(child).value > -SCORE_INF {
                    out.push((sq, child, sign));
                }
            }
        }
        out
    }

    /// The leaf of `key` as Edax keeps it: none when it is a linked move (`linked`, a mask
    /// of squares: a leaf that became a book move and waits for a new search), as Edax drops
    /// a leaf when it links the move.
    fn leaf(&self, key: Key, linked: u64) -> Option<(u8, i8)> {
        let leaf = self.book.records.get(&key)?.leaf?;
        (linked & (1u64 << (leaf.0 & 63)) == 0).then_some(leaf)
    }

    fn node(&mut self, key: Key) -> Node {
        if let Some(&n) = self.nodes.get(&key) {
            return n;
        }
        let mut n = Node::UNKNOWN;
        let links = self.links(key);
        let linked = links.iter().fold(0u64, |m, &(sq, _, _)| m | 1 << sq);
        if self.book.records.contains_key(&key) {
            if let Some((_, v)) = self.leaf(key, linked) {
                let v = i16::from(v);
                let empties = key.board().empties().count_ones();
                let (lower, upper) = match edax_search(self.levels[&key], empties) {
                    EdaxSearch::Exact => {
                        match v.signum() {
                            1 => n.wins += 1,
                            -1 => n.losses += 1,
                            _ => n.draws += 1,
                        }
                        (v, v)
                    }
                    EdaxSearch::Endgame => (v - ENDCUT_ERROR, v + ENDCUT_ERROR),
                    EdaxSearch::Midgame(depth) => {
                        // Edax's correction for the parity of a midgame search's depth.
                        let bias = i16::from(depth & 1) - (empties & 1) as i16;
                        (v - MIDGAME_ERROR - bias, v + MIDGAME_ERROR - bias)
                    }
                };
                n = Node {
                    value: v,
                    lower,
                    upper,
                    lines: 1,
                    ..n
                };
            }
            for &(_, child, sign) in &links {
                let c = self.node(child);
                n.add(if sign < 0 { c.flipped() } else { c });
            }
        }
        self.nodes.insert(key, n);
        n
    }
}
