//! Building a [`SolvedOpenings`] table: every position within K plies of the start of a
//! small Othello board, of which only those K plies deep are solved by the engine; every
//! earlier one takes the best of its children.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::AtomicBool;

use reversi_core::{BoardSize, Position, Rules};

use super::{key, SolvedOpenings};
use crate::engine::{Engine, Limits};
use crate::search::final_score;
use crate::Board;

/// Why a table could not be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// Boards above 6x6 have too many positions for the table's keys.
    TooLarge(BoardSize),
    /// The start does not fit the bitboard.
    NotOnBitboard,
    /// The engine gave no score for a position K plies deep.
    NoScore,
    /// A position's child, or the start, was left without a value (a fault of the builder).
    Unsolved(&'static str),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::TooLarge(size) => write!(
                f,
                "solved openings cover the small boards (4x4, 6x6); {size} positions do not \
                 fit their keys"
            ),
            BuildError::NotOnBitboard => f.write_str("the start left the bitboard"),
            BuildError::NoScore => f.write_str("a stored position has no move"),
            BuildError::Unsolved(what) => write!(f, "{what} was not solved"),
        }
    }
}

impl std::error::Error for BuildError {}

/// How a build goes, for its progress reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BuildProgress {
    /// The distinct positions `ply` plies from the start have been found.
    Level {
        /// Plies from the start (1 to K).
        ply: u32,
        /// Positions at that ply.
        positions: usize,
    },
    /// The solving of the deepest positions starts.
    Solving {
        /// Positions to solve.
        positions: usize,
    },
    /// `done` of the deepest positions are solved, in `nodes` nodes so far.
    Solved {
        /// Positions solved so far.
        done: usize,
        /// Nodes searched so far.
        nodes: u64,
    },
}

/// A built table and what building it took.
#[derive(Debug)]
pub struct Built {
    /// The table.
    pub table: SolvedOpenings,
    /// The start's value for Black.
    pub root: i32,
    /// Positions solved by the engine (those K plies deep).
    pub solved: usize,
    /// Nodes the engine searched.
    pub nodes: u64,
}

/// The position to look up for `b`: after a forced pass; `None` when the game is over.
fn normalized(b: Board, mask: u64) -> Option<(Board, i32)> {
    if b.moves() & mask != 0 {
        return Some((b, 1));
    }
    let passed = b.pass();
    (passed.moves() & mask != 0).then_some((passed, -1))
}

/// The exact value of every position within `plies` plies of the Othello start of `size`
/// (4x4 or 6x6), solved with `engine`; `progress` hears of each ply found and each position
/// solved.
///
/// # Errors
/// [`BuildError::TooLarge`] above 6x6; the others only when something is amiss.
pub fn build(
    engine: &Engine,
    size: BoardSize,
    plies: u32,
    progress: &mut dyn FnMut(BuildProgress),
) -> Result<Built, BuildError> {
    let n = size.get();
    if n > 6 {
        return Err(BuildError::TooLarge(size));
    }
    let start = Position::start(size, Rules::Othello);
    let (board, mask) = Board::from_position(&start).map_err(|_| BuildError::NotOnBitboard)?;
    // Every move adds a disc, so a position's ply is fixed by its disc count: each position
    // belongs to exactly one level.
    let mut levels: Vec<Vec<Board>> = vec![vec![board]];
    let mut seen: HashSet<u64> = HashSet::new();
    seen.insert(key(board, n));
    for p in 0..plies as usize {
        let mut next = Vec::new();
        for &b in &levels[p] {
            let mut m = b.moves() & mask;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                if let Some((child, _)) = normalized(b.play(sq), mask) {
                    if seen.insert(key(child, n)) {
                        next.push(child);
                    }
                }
            }
        }
        progress(BuildProgress::Level {
            ply: p as u32 + 1,
            positions: next.len(),
        });
        levels.push(next);
    }
    let mut values: HashMap<u64, i8> = HashMap::new();
    let deepest = levels.last().map_or(&[][..], Vec::as_slice);
    progress(BuildProgress::Solving {
        positions: deepest.len(),
    });
    let stop = AtomicBool::new(false);
    let mut nodes = 0u64;
    for (i, &b) in deepest.iter().enumerate() {
        let thinking = engine.search(b, mask, &Limits::exact(), &stop, &mut |_| {});
        let score = thinking.score().ok_or(BuildError::NoScore)?;
        nodes += thinking.nodes;
        values.insert(key(b, n), score as i8);
        progress(BuildProgress::Solved { done: i + 1, nodes });
    }
    // Earlier plies: the best child, deepest first.
    for level in levels.iter().rev().skip(1) {
        for &b in level {
            let mut best = -64;
            let mut m = b.moves() & mask;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                let child = b.play(sq);
                let v = match normalized(child, mask) {
                    None => final_score(child, mask),
                    Some((c, sign)) => {
                        let value = values
                            .get(&key(c, n))
                            .ok_or(BuildError::Unsolved("a child"))?;
                        sign * i32::from(*value)
                    }
                };
                best = best.max(-v);
            }
            values.insert(key(b, n), best as i8);
        }
    }
    let table = SolvedOpenings::new(n, plies as u8, values.into_iter().collect());
    let root = table
        .value(board)
        .ok_or(BuildError::Unsolved("the start"))?;
    Ok(Built {
        table,
        root,
        solved: deepest.len(),
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_4x4_table_agrees_with_a_search_of_each_position() {
        let engine = Engine::new(1, 1);
        let mut heard = Vec::new();
        let built =
            build(&engine, BoardSize::FOUR, 3, &mut |p| heard.push(p)).expect("a 4x4 table");
        let start = Position::start(BoardSize::FOUR, Rules::Othello);
        let (board, mask) = Board::from_position(&start).unwrap();
        let stop = AtomicBool::new(false);
        let exact = |b: Board| {
            engine
                .search(b, mask, &Limits::exact(), &stop, &mut |_| {})
                .score()
        };
        assert_eq!(Some(built.root), exact(board));
        // Every move from the start, looked up in the table, as the engine solves it.
        let mut m = board.moves() & mask;
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            let child = board.play(sq);
            assert_eq!(built.table.value(child), exact(child), "after {sq}");
        }
        assert_eq!(heard.len(), 3 + 1 + built.solved);
        assert!(matches!(
            heard[0],
            BuildProgress::Level {
                ply: 1,
                positions: 1
            }
        ));
        assert_eq!(
            heard[3],
            BuildProgress::Solving {
                positions: built.solved
            }
        );
    }

    #[test]
    fn boards_above_6x6_are_refused() {
        let engine = Engine::new(1, 1);
        let size = BoardSize::EIGHT;
        let refused = build(&engine, size, 1, &mut |_| {}).expect_err("too large");
        assert_eq!(refused, BuildError::TooLarge(size));
    }
}
