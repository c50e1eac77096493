//! `reversi bench` with no subcommand: the engine's node-count signature over
//! [`reversi_engine::bench`]'s fixed positions, a line per position, the midgame searches'
//! and the exact solves' subtotals, and the total.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use reversi_engine::bench;
use reversi_engine::eval::{Evaluator, WithOrdering};
use reversi_engine::pattern::shipped_with_ordering;
use reversi_train::load_eval;

use crate::commands::perft::format_rate;

/// The signature with the shipped weights, or with `weights` (a weights file of either
/// format) when given. With `weights` the solver keeps the shipped ordering evaluation, as
/// the program would order it if the file shipped: the figures then differ from the shipped
/// ones by the evaluation alone.
pub fn run(weights: Option<&Path>) -> anyhow::Result<ExitCode> {
    let eval: Option<Arc<dyn Evaluator>> = match weights {
        // Its errors name the file.
        Some(path) => Some(Arc::new(WithOrdering {
            eval: Arc::new(load_eval(path)?),
            order: shipped_with_ordering()?.order.clone(),
        })),
        None => crate::advisor::evaluation_from_env(),
    };
    let (mut nodes, mut secs) = (0u64, 0f64);
    // The midgame searches' (fixed depths) and the exact solves' nodes and seconds.
    let mut parts = [(0u64, 0f64); 2];
    outln!(
        "{:>3} {:>7} {:>9} {:>6} {:>14} {:>9}",
        "#",
        "empties",
        "search",
        "score",
        "nodes",
        "seconds"
    )?;
    for (i, m) in bench::run_with(eval).enumerate() {
        let (what, score, n, s) = (m.position.search, m.score, m.nodes, m.time.as_secs_f64());
        outln!(
            "{:>3} {:>7} {what:>9} {score:>+6} {n:>14} {s:>9.3}",
            i + 1,
            m.position.board.empties().count_ones()
        )?;
        nodes += n;
        secs += s;
        let part = &mut parts[usize::from(m.position.search == "exact")];
        part.0 += n;
        part.1 += s;
    }
    for ((n, s), what) in parts.into_iter().zip(["midgame", "exact"]) {
        outln!(
            "{what}: {n} nodes; {s:.3} s, {} nodes/s",
            format_rate(n as f64 / s.max(1e-9))
        )?;
    }
    outln!(
        "signature: {nodes} nodes; {secs:.3} s, {} nodes/s on one thread",
        format_rate(nodes as f64 / secs.max(1e-9))
    )?;
    Ok(ExitCode::SUCCESS)
}
