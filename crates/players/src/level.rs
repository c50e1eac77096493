//! How a level plays a move of any position: from the opening book, from the solved openings
//! the engine ships, with the bitboard engine on boards up to 8x8, and over the generic rules
//! beyond, within the level's time.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use reversi_core::{Move, Position};
use reversi_engine::book::{self, Book};
use reversi_engine::clock::Stopwatch;
use reversi_engine::engine::{self, Engine, Limits};
use reversi_engine::levels::{Allowance, Level};
use reversi_engine::{Board, Candidate, ScoreKind, Sq, Thinking};

use crate::classic::{self, Algorithm};
use crate::heuristic::TERMINAL;

/// Transposition table of an engine made by [`Advisor::standard`](crate::Advisor::standard)
/// or by a player without one, in MB.
const HASH_MB: usize = 64;

/// The engine an advisor or a player makes at its first search when it was handed none: a
/// [`HASH_MB`] table searched on [`engine::default_threads`] threads.
pub(crate) fn standard_engine() -> Arc<Engine> {
    Arc::new(Engine::new(HASH_MB, engine::default_threads()))
}

/// The time a level spends on a move of `pos`.
pub(crate) fn level_time(level: Level, pos: &Position) -> Duration {
    level
        .spec()
        .move_time(pos.empty_count().try_into().unwrap_or(60))
}

/// The book's moves of `pos` as a level plays them: every book move as a candidate (best
/// first), the one played chosen by `roll`: a stray within the level's `allowance` as often
/// as it strays in a search, otherwise one of the moves within `margin` discs of the best.
/// `None` when the position is not in `book` (or not an 8x8 board).
///
/// The margin is kept small because it applies on every book move: a weak level that chose
/// freely among all moves within its allowance lost to itself without a book (24 wins, 4
/// draws, 49 losses in 77 games of level 10 from the start).
pub(crate) fn book_thinking(
    book: &Book,
    pos: &Position,
    margin: u8,
    allowance: Option<Allowance>,
    roll: u64,
) -> Option<Thinking> {
    let (board, mask) = Board::from_position(pos).ok()?;
    if mask != u64::MAX {
        return None;
    }
    let moves = book.moves(board)?;
    let best = moves.first()?.value;
    let scores: Vec<i32> = moves.iter().map(|m| m.value).collect();
    // `pick` reads the roll's low bits to decide whether to stray and its high bits for
    // which move; the middle bits choose among the near-best moves.
    let index = allowance
        .map(|a| a.pick(&scores, roll))
        .filter(|&i| i != 0)
        .unwrap_or_else(|| {
            let near = scores
                .iter()
                .take_while(|&&v| v >= best - i32::from(margin))
                .count();
            ((roll >> 12) % near as u64) as usize
        });
    let chosen = moves[index];
    let candidates: Vec<Candidate> = moves.iter().map(book_candidate).collect();
    Some(Thinking {
        depth: u32::from(chosen.depth),
        best: Some(book_candidate(&chosen)),
        pv: vec![Move::from(chosen.sq)],
        candidates,
        ..Thinking::default()
    })
}

fn book_candidate(m: &book::BookMove) -> Candidate {
    Candidate {
        mv: Move::from(m.sq),
        score: m.value,
        kind: ScoreKind::Book,
        upper_bound: false,
    }
}

/// A level's search within `time`: the bitboard engine on boards up to 8x8, the generic
/// rules beyond.
#[allow(clippy::too_many_arguments)]
pub(crate) fn level_search(
    engine: &Engine,
    pos: &Position,
    level: Level,
    time: Duration,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Thinking),
    started: Stopwatch<'_>,
    all_exact: bool,
) -> Thinking {
    let Ok((board, mask)) = Board::from_position(pos) else {
        return generic_level_search(pos, level, time, stop, progress, started);
    };
    if let Some(t) = solved_thinking(board, mask, level) {
        progress(&t);
        return t;
    }
    // On 8x8 a level may play its midgame as another (perfect as level 24).
    let level = if mask == u64::MAX {
        level.at((board.empties() & mask).count_ones())
    } else {
        level
    };
    let limits = Limits {
        time: Some(time),
        ..Limits::level(level)
    };
    if all_exact {
        engine.analyze(board, mask, &limits, stop, progress)
    } else {
        engine.search(board, mask, &limits, stop, progress)
    }
}

/// Every move's exact score from the solved openings the program ships (6x6), when the level
/// would solve this position exactly and all its moves lead to stored positions.
fn solved_thinking(board: Board, mask: u64, level: Level) -> Option<Thinking> {
    let n = (mask & 0xff).count_ones() as u8;
    let table = reversi_engine::solved::shipped(n)?;
    let empties = (board.empties() & mask).count_ones();
    if level.spec().exact_empties < empties {
        return None;
    }
    let mut candidates = Vec::new();
    let mut m = board.moves() & mask;
    while let Some(sq) = Sq::new(m.trailing_zeros()) {
        m &= m - 1;
        candidates.push(Candidate {
            mv: Move::from(sq),
            score: -table.value(board.play(sq.index()))?,
            kind: ScoreKind::Exact,
            upper_bound: false,
        });
    }
    // Best first; among equals, board order.
    candidates.sort_by_key(|c| -c.score);
    let best = candidates.first()?.clone();
    Some(Thinking {
        depth: empties,
        pv: vec![best.mv],
        best: Some(best),
        candidates,
        nodes: 0,
        elapsed: Duration::ZERO,
    })
}

/// A level's search over the generic rules (boards larger than 8x8, and the Reversi rule's
/// placement phase): iterative deepening with negascout and a transposition table, to the
/// level's depth or, once the game's end is within its exact range, to the end; stopped at
/// `time` (no iteration starts after half of it).
fn generic_level_search(
    pos: &Position,
    level: Level,
    time: Duration,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Thinking),
    started: Stopwatch<'_>,
) -> Thinking {
    let spec = level.spec();
    let empties = pos.empty_count() as u32;
    // Every ply fills a square or passes, and two passes in a row end the game.
    let solving = empties <= spec.exact_empties;
    let max_depth = if solving { 2 * empties + 1 } else { spec.depth };
    let mut best = Thinking::default();
    let mut nodes = 0;
    let mut depth = 1;
    let until = Some((started.clock(), started.deadline(time)));
    while depth <= max_depth {
        if depth > 1 && started.elapsed() * 2 > time {
            break;
        }
        let Some(r) = classic::search_until(pos, Algorithm::NegascoutTt, depth, stop, until) else {
            break;
        };
        nodes += r.states;
        if r.stopped {
            break;
        }
        let exact = solving && depth == max_depth;
        let kind = |v: i32| {
            if exact || v.abs() >= TERMINAL {
                ScoreKind::Exact
            } else {
                ScoreKind::Points(depth)
            }
        };
        let score = |v: i32| {
            if exact || v.abs() >= TERMINAL {
                v / TERMINAL
            } else {
                v
            }
        };
        let mut candidates: Vec<Candidate> = r
            .root
            .iter()
            .map(|&(mv, v)| Candidate {
                mv,
                score: score(v),
                kind: kind(v),
                upper_bound: false,
            })
            .collect();
        candidates.sort_by_key(|c| -c.score);
        best = Thinking {
            depth,
            best: Some(Candidate {
                mv: r.best,
                score: score(r.value),
                kind: kind(r.value),
                upper_bound: false,
            }),
            pv: vec![r.best],
            candidates,
            nodes,
            elapsed: started.elapsed(),
        };
        progress(&best);
        depth += 1;
    }
    best.nodes = nodes;
    best
}
