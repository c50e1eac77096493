//! `reversi bench` with no subcommand: the engine's node-count signature. A fixed set of
//! positions searched on one thread with a fresh table to fixed depths; the total node count
//! is the same from run to run and machine to machine, and changes only when search does.

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use reversi_engine::engine::{Engine, Limits};
use reversi_engine::rng::XorShift64;
use reversi_engine::Board;

use crate::commands::perft::format_rate;

/// A position reached from the start by `plies` moves of a fixed pseudo-random walk.
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

/// The bench set: midgame positions at fixed depths (full width, and with probcut at 73 %),
/// endgames solved exactly.
fn positions() -> Vec<(Board, Limits, &'static str)> {
    let mut out = Vec::new();
    for (i, plies) in [10u32, 16, 20, 24, 28, 32].into_iter().enumerate() {
        let limits = Limits::midgame(11);
        out.push((walk(0x5151 + i as u64, plies), limits, "depth 11"));
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
        out.push((walk(0x7373 + i as u64, plies), limits, "15@73%"));
    }
    for (i, plies) in [38u32, 40, 41, 42].into_iter().enumerate() {
        out.push((walk(0xe0e0 + i as u64, plies), Limits::exact(), "exact"));
    }
    out
}

pub fn run() -> anyhow::Result<ExitCode> {
    let engine = Engine::new(64, 1);
    let stop = AtomicBool::new(false);
    let (mut nodes, mut secs) = (0u64, 0f64);
    outln!(
        "{:>3} {:>7} {:>9} {:>6} {:>14} {:>9}",
        "#",
        "empties",
        "search",
        "score",
        "nodes",
        "seconds"
    )?;
    for (i, (board, limits, what)) in positions().iter().enumerate() {
        engine.clear();
        let t = Instant::now();
        let thinking = engine.search(*board, u64::MAX, limits, &stop, &mut |_| {});
        let s = t.elapsed().as_secs_f64();
        let (score, n) = (thinking.score().unwrap_or(0), thinking.nodes);
        outln!(
            "{:>3} {:>7} {what:>9} {score:>+6} {n:>14} {s:>9.3}",
            i + 1,
            board.empties().count_ones()
        )?;
        nodes += n;
        secs += s;
    }
    outln!(
        "signature: {nodes} nodes; {secs:.3} s, {} nodes/s on one thread",
        format_rate(nodes as f64 / secs.max(1e-9))
    )?;
    Ok(ExitCode::SUCCESS)
}
