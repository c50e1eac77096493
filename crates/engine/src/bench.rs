//! The bench, kept with the engine as Stockfish keeps its own: a fixed set of positions
//! searched on one thread with a fresh table to fixed depths. The total node count, the
//! engine's signature, is the same from run to run and machine to machine and changes only
//! when search or evaluation does; `reversi bench` prints it, and this crate's tests pin it.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use reversi_core::XorShift64;

use crate::clock::Stopwatch;
use crate::engine::{Engine, Limits};
use crate::eval::Evaluator;
use crate::Board;

/// A position reached from the start by `plies` moves of a fixed pseudo-random walk (a
/// side without a move passes; the walk stops at the end of the game).
///
/// # Examples
/// ```
/// use reversi_engine::bench::walk;
///
/// let b = walk(7, 10);
/// assert_eq!(b.empties().count_ones(), 50);
/// assert_eq!(b, walk(7, 10));
/// ```
#[must_use]
pub fn walk(seed: u64, plies: u32) -> Board {
    let mut rng = XorShift64::new(seed | 1);
    let mut b = Board::START;
    for _ in 0..plies {
        let moves = b.moves();
        if moves == 0 {
            if b.pass().moves() == 0 {
                break;
            }
            b = b.pass();
            continue;
        }
        let mut m = moves;
        for _ in 0..rng.below(u64::from(moves.count_ones())) {
            m &= m - 1;
        }
        b = b.play(m.trailing_zeros());
    }
    b
}

/// A position of the bench and how it is searched.
#[derive(Debug, Clone)]
pub struct BenchPosition {
    /// The position (side to move first).
    pub board: Board,
    /// The search's limits: a fixed depth, never a time.
    pub limits: Limits,
    /// The kind of search, for the table: `depth 11`, `15@73%` or `exact`.
    pub search: &'static str,
}

/// The bench set: midgame positions at fixed depths (full width, and with probcut at 73 %),
/// endgames solved exactly.
#[must_use]
pub fn positions() -> Vec<BenchPosition> {
    let mut out = Vec::new();
    for (i, plies) in [10u32, 16, 20, 24, 28, 32].into_iter().enumerate() {
        out.push(BenchPosition {
            board: walk(0x5151 + i as u64, plies),
            limits: Limits::midgame(11),
            search: "depth 11",
        });
    }
    for (i, plies) in [12u32, 22, 30].into_iter().enumerate() {
        let limits = Limits {
            depth: 15,
            exact_empties: 0,
            wld_empties: 0,
            selectivity: 0,
            time: None,
            nodes: None,
        };
        out.push(BenchPosition {
            board: walk(0x7373 + i as u64, plies),
            limits,
            search: "15@73%",
        });
    }
    for (i, plies) in [38u32, 40, 41, 42].into_iter().enumerate() {
        out.push(BenchPosition {
            board: walk(0xe0e0 + i as u64, plies),
            limits: Limits::exact(),
            search: "exact",
        });
    }
    out
}

/// One bench position searched.
#[derive(Debug, Clone)]
pub struct Measured {
    /// The position and its limits.
    pub position: BenchPosition,
    /// The search's score for the side to move (0 without one).
    pub score: i32,
    /// The nodes searched.
    pub nodes: u64,
    /// The time the search took.
    pub time: Duration,
}

/// Searches the bench positions one by one, each as the iterator reaches it, on one engine
/// (one thread, a 64 MB table cleared before every position). The sum of the nodes is the
/// signature.
pub fn run() -> impl Iterator<Item = Measured> {
    run_with(None)
}

/// [`run`] with `eval` instead of the default evaluation (other weights: the signature is
/// then theirs, not the shipped one).
pub fn run_with(eval: Option<Arc<dyn Evaluator>>) -> impl Iterator<Item = Measured> {
    let mut engine = Engine::new(64, 1);
    if let Some(eval) = eval {
        engine.set_evaluator(eval);
    }
    run_on(engine)
}

/// [`run`] on `engine` (a 64 MB table on one thread gives the signature; its clock times
/// the positions): a platform without the system's clock hands in an engine with its own.
pub fn run_on(engine: Engine) -> impl Iterator<Item = Measured> {
    let stop = AtomicBool::new(false);
    positions().into_iter().map(move |position| {
        engine.clear();
        let t = Stopwatch::start(engine.clock().as_ref());
        let thinking = engine.search(
            position.board,
            u64::MAX,
            &position.limits,
            &stop,
            &mut |_| {},
        );
        let time = t.elapsed();
        Measured {
            position,
            score: thinking.score().unwrap_or(0),
            nodes: thinking.nodes,
            time,
        }
    })
}
