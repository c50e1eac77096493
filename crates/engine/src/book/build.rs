//! Building and growing a book: positions gathered from games, each searched for its best
//! move out of the book, the engine's own best lines added, games learned; all resumable,
//! with progress, and split into shards whose merge equals the single run.
//!
//! Every search is one thread on a cleared table to a fixed depth, so a position's result
//! does not depend on which process searched it, in which order, or next to what: shards of
//! one build ([`Shard`], split by a hash of each position's key) merge ([`Book::merge`]) into
//! the book a single process builds.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use reversi_core::Move;

use super::{playing, Book, Child, Key};
use crate::engine::{Engine, Limits};
use crate::search::probcut::NO_SELECTIVITY;
use crate::shard::Shard;
use crate::{Board, ScoreKind, Sq};

/// How positions are searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Midgame depth in plies.
    pub depth: u8,
    /// Solve exactly with this many empty squares or fewer.
    pub exact_empties: u8,
    /// Probcut selectivity of the midgame search, an index of
    /// [`SELECTIVITY_PERCENT`](crate::search::probcut::SELECTIVITY_PERCENT)
    /// (5, the last, for full width).
    pub selectivity: u8,
    /// Positions searched at once, one thread each.
    pub workers: usize,
    /// Transposition table of each worker, in MB.
    pub hash_mb: usize,
}

impl SearchOptions {
    /// `depth` plies with probcut at 73 % (as the levels search), exact from 20 empties,
    /// `workers` at once with 32 MB each.
    #[must_use]
    pub fn new(depth: u8, workers: usize) -> SearchOptions {
        SearchOptions {
            depth,
            exact_empties: 20,
            selectivity: 0,
            workers: workers.max(1),
            hash_mb: 32,
        }
    }

    fn limits(self) -> Limits {
        Limits {
            depth: u32::from(self.depth),
            exact_empties: u32::from(self.exact_empties),
            wld_empties: u32::from(self.exact_empties),
            selectivity: self.selectivity.min(NO_SELECTIVITY),
            time: None,
            nodes: None,
        }
    }
}

/// How far a run of searches has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Positions searched so far in this run.
    pub done: usize,
    /// Positions this run searches.
    pub total: usize,
    /// Time since the run started.
    pub elapsed: Duration,
}

/// Counts the positions of `games` (moves from the 8x8 start; passes implied, as WTHOR
/// stores them) up to `max_ply` moves in, and returns a book of those reached at least
/// `min_games` times, unsearched. A game stops counting at its first illegal move.
#[must_use]
pub fn from_games<'a>(
    games: impl IntoIterator<Item = &'a [Sq]>,
    max_ply: usize,
    min_games: u32,
) -> Book {
    let mut counts: HashMap<Key, u32> = HashMap::new();
    for moves in games {
        for board in line(moves, max_ply) {
            *counts.entry(Key::of(board).0).or_default() += 1;
        }
    }
    let mut book = Book::new();
    for (key, n) in counts {
        if n >= min_games {
            book.insert_games(key.board(), n);
        }
    }
    book
}

/// The positions of a game from the start, each with its side to move able to play, up to
/// `max_ply` moves in (the start included), stopping at the end or an illegal move.
#[must_use]
pub(crate) fn line(moves: &[Sq], max_ply: usize) -> Vec<Board> {
    let mut out = Vec::new();
    let mut board = Board::START;
    for ply in 0..=max_ply.min(moves.len()) {
        let Some(b) = playing(board) else { break };
        out.push(b);
        let Some(&sq) = moves.get(ply) else { break };
        if b.moves() & sq.bit() == 0 {
            break;
        }
        board = b.play(sq.index());
    }
    out
}

/// Adds one game to the book, up to `max_ply` moves in: one more game for every position
/// it reaches, the new ones unsearched; a position whose best move out of the book now leads
/// into the book is marked for a new search. Returns how many positions were new.
pub fn learn(book: &mut Book, moves: &[Sq], max_ply: usize) -> usize {
    let boards = line(moves, max_ply);
    let mut new = 0;
    for &b in &boards {
        if book.insert_games(b, 1) {
            new += 1;
        }
    }
    for &b in &boards {
        invalidate_if_stale(book, b);
    }
    new
}

/// Marks `board` for a new search when its leaf has become a book move.
fn invalidate_if_stale(book: &mut Book, board: Board) {
    let (key, _) = Key::of(board);
    let Some(rec) = book.record(&key) else { return };
    let Some((leaf, _)) = rec.leaf else { return };
    if matches!(book.child(key.board(), u32::from(leaf)), Child::Book(..)) {
        book.invalidate(&key);
    }
}

/// Adds the engine's own best lines: for up to `count` positions whose leaf is within
/// `margin` discs of the position's value (the most played first), the position after the
/// leaf joins the book, and the position is marked to be searched again for its next move out
/// of the book. Returns the positions added.
pub fn extend(book: &mut Book, count: usize, margin: i32) -> usize {
    let mut candidates: Vec<(u32, u32, Key, u8)> = book
        .iter()
        .filter_map(|(key, r)| {
            let (leaf, v) = r.leaf?;
            let value = r.value?;
            (r.depth > 0 && i32::from(v) >= i32::from(value) - margin).then(|| {
                let discs = (key.player | key.opponent).count_ones();
                (r.games, discs, *key, leaf)
            })
        })
        .collect();
    // Most games first, then the earliest positions, then key order (reproducible).
    candidates.sort_by_key(|&(games, discs, key, _)| (std::cmp::Reverse(games), discs, key));
    let mut added = 0;
    for (_, _, key, leaf) in candidates {
        if added == count {
            break;
        }
        let next = key.board().play(u32::from(leaf));
        if book.insert_games(next, 0) {
            added += 1;
            book.invalidate(&key);
        }
    }
    added
}

/// The positions of `book` that a search to `opts.depth` would improve, in `shard`: never
/// searched, or searched shallower (and not exact). Sorted by key.
#[must_use]
pub fn pending(book: &Book, opts: SearchOptions, shard: Shard) -> Vec<Key> {
    let mut keys: Vec<Key> = book
        .iter()
        .filter(|(key, r)| {
            (r.depth == 0 || (!r.exact && r.depth < opts.depth))
                && shard.holds_hash(key.shard_hash())
        })
        .map(|(key, _)| *key)
        .collect();
    keys.sort_unstable();
    keys
}

/// A finished search of one position: every legal move's score.
struct Searched {
    key: Key,
    scores: Vec<(Sq, i32)>,
    depth: u8,
    exact: bool,
}

fn search_one(
    engine: &Engine,
    key: Key,
    opts: SearchOptions,
    stop: &AtomicBool,
) -> Option<Searched> {
    let board = key.board();
    engine.clear();
    let t = engine.analyze(board, u64::MAX, &opts.limits(), stop, &mut |_| {});
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let exact = t.best.as_ref().is_some_and(|b| b.kind == ScoreKind::Exact);
    let depth = if exact {
        (board.empties()).count_ones() as u8
    } else {
        t.depth.min(255) as u8
    };
    let scores = t
        .candidates
        .iter()
        .filter_map(|c| match c.mv {
            Move::Play(sq) => Sq::from_square(sq).map(|s| (s, c.score)),
            Move::Pass => None,
        })
        .collect();
    Some(Searched {
        key,
        scores,
        depth,
        exact,
    })
}

/// Searches the `keys` of `book` (from [`pending`]) and records each position's best move out
/// of the book, then backs values up. `progress` hears after each position; `checkpoint`
/// gets the book (values backed up) about every `every`, to save it so that a stopped run
/// resumes where it was. Raising `stop` ends the run after the positions under way; what was
/// searched is kept. Returns how many positions were searched.
pub fn search(
    book: &mut Book,
    keys: &[Key],
    opts: SearchOptions,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
    every: Duration,
    checkpoint: &mut dyn FnMut(&Book),
) -> usize {
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Searched>();
    let mut done = 0;
    let mut saved = Instant::now();
    book.depth = book.depth.max(opts.depth);
    std::thread::scope(|scope| {
        for _ in 0..opts.workers.min(keys.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let engine = Engine::new(opts.hash_mb, 1);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&key) = keys.get(i) else { break };
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(s) = search_one(&engine, key, opts, stop) else {
                        break;
                    };
                    if tx.send(s).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for s in rx {
            record(book, &s);
            done += 1;
            progress(&Progress {
                done,
                total: keys.len(),
                elapsed: started.elapsed(),
            });
            if saved.elapsed() >= every {
                book.back_up();
                checkpoint(book);
                saved = Instant::now();
            }
        }
    });
    book.back_up();
    done
}

/// Searches every position of `book` that [`pending`] names, quietly, with no saving on the
/// way (for small additions: a learned game, tests). Returns how many were searched.
pub fn search_pending(book: &mut Book, opts: SearchOptions) -> usize {
    let keys = pending(book, opts, Shard::ALL);
    let stop = AtomicBool::new(false);
    search(
        book,
        &keys,
        opts,
        &stop,
        &mut |_| {},
        Duration::MAX,
        &mut |_| {},
    )
}

/// Records a search's best move out of the book.
fn record(book: &mut Book, s: &Searched) {
    let board = s.key.board();
    let leaf = s
        .scores
        .iter()
        .filter(|(sq, _)| !matches!(book.child(board, sq.index()), Child::Book(..)))
        .max_by_key(|&&(sq, v)| (v, std::cmp::Reverse(sq.index())))
        .copied();
    book.set_leaf(board, leaf, s.depth, s.exact);
}

/// A book value beside a fresh search of the same position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// The position.
    pub key: Key,
    /// The book's backed-up value.
    pub book: i32,
    /// The fresh search's value.
    pub search: i32,
}

/// Searches `count` valued positions spread evenly through the book (in key order) to
/// `opts.depth` with `opts.workers` threads, to set the book's values beside: how far its
/// values are from what a deeper search says. Stops early when `stop` is raised.
pub fn check(
    book: &Book,
    count: usize,
    opts: SearchOptions,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Vec<Checked> {
    let valued: Vec<(Key, i8)> = book
        .sorted()
        .into_iter()
        .filter_map(|(k, r)| Some((k, r.value?)))
        .collect();
    let step = (valued.len() / count.max(1)).max(1);
    let sample: Vec<(Key, i8)> = valued.into_iter().step_by(step).take(count).collect();
    let engine = Engine::new(opts.hash_mb, opts.workers);
    let started = Instant::now();
    let mut out = Vec::new();
    for &(key, value) in &sample {
        engine.clear();
        let t = engine.search(key.board(), u64::MAX, &opts.limits(), stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if let Some(best) = t.best {
            out.push(Checked {
                key,
                book: i32::from(value),
                search: best.score,
            });
        }
        progress(&Progress {
            done: out.len(),
            total: sample.len(),
            elapsed: started.elapsed(),
        });
    }
    out
}
