//! `reversi bench …`: speed figures for the engine's hot paths.

pub mod algorithms;
pub mod engine;
pub mod levels;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Subcommand;
use reversi_core::{BoardSize, XorShift64};
use reversi_engine::{kernel, perft, Board};

use super::perft::format_rate;

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// The classic algorithms on the same positions: states explored, time, and a check that
    /// all of them find the same value.
    Algorithms {
        /// Deepest search depth (every depth from 1 is measured).
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// How many positions.
        #[arg(long, default_value_t = 10)]
        positions: usize,
        /// Board size; 8x8 takes XOT openings, other sizes a fixed random walk from the start.
        #[arg(long, default_value = "8")]
        size: BoardSize,
        /// XOT openings file for 8x8 [default: the reference data's xot-large.txt]
        #[arg(long)]
        openings: Option<PathBuf>,
    },
    /// Each level's time per move on a fixed set of positions from the start to 20 empties:
    /// the mean and the longest against the level's budget, and the depth each move reached.
    Levels {
        /// The levels, by number or name, comma-separated [default: the named levels].
        #[arg(long, value_name = "LIST")]
        levels: Option<String>,
        /// How many of the 8 positions.
        #[arg(long, default_value_t = 8)]
        positions: usize,
        /// Search threads [default: the number of cores, as in play].
        #[arg(long, value_parser = crate::options::threads)]
        threads: Option<usize>,
    },
    /// The static evaluation's speed: nanoseconds a call over the leaves of small trees
    /// (three plies below fixed 8x8 positions, in the order a search meets them, so that
    /// consecutive calls share most of their table entries); with the shipped weights or
    /// `--weights`.
    Eval {
        /// Evaluate with this weights file (either format) instead of the shipped one.
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Passes over the positions.
        #[arg(long, default_value_t = 500)]
        rounds: usize,
    },
    /// Perft and move-generation speed on 8x8, each kernel set the CPU runs side by side.
    Perft {
        /// Perft depth from the start position.
        #[arg(long, default_value_t = 11)]
        depth: u32,
    },
}

/// Perft from the start, then raw move generation and flips in each kernel set this CPU runs.
pub fn perft(depth: u32) -> anyhow::Result<ExitCode> {
    let t = Instant::now();
    let leaves = perft::perft(Board::START, depth, u64::MAX);
    let secs = t.elapsed().as_secs_f64();
    outln!(
        "perft {depth}: {leaves} leaves in {secs:.3} s, {} leaves/s",
        format_rate(leaves as f64 / secs)
    )?;

    // A fixed pseudo-random walk of positions for the kernels.
    let boards = sample_boards(4096);
    let rounds = 2000;
    outln!("kernels in use: {}", kernel::selected().name())?;
    for k in kernel::available() {
        let name = k.kernel.name();
        let t = Instant::now();
        let mut acc = 0u64;
        for _ in 0..rounds {
            for b in &boards {
                acc = acc.wrapping_add((k.moves)(std::hint::black_box(b.player), b.opponent));
            }
        }
        let n = (rounds * boards.len()) as f64;
        outln!(
            "moves, {name}: {:.2} ns/call ({acc:x})",
            t.elapsed().as_secs_f64() * 1e9 / n
        )?;
        let t = Instant::now();
        let mut acc = 0u64;
        let mut calls = 0u64;
        for _ in 0..rounds / 4 {
            for b in &boards {
                let mut m = b.moves();
                while m != 0 {
                    let sq = m.trailing_zeros();
                    m &= m - 1;
                    acc =
                        acc.wrapping_add((k.flips)(std::hint::black_box(b.player), b.opponent, sq));
                    calls += 1;
                }
            }
        }
        outln!(
            "flips, {name}: {:.2} ns/call ({acc:x})",
            t.elapsed().as_secs_f64() * 1e9 / calls as f64
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The evaluation's time a call, best of three timings of `rounds` passes over fixed positions.
pub fn eval(weights: Option<&std::path::Path>, rounds: usize) -> anyhow::Result<ExitCode> {
    use reversi_engine::eval::Evaluator;
    let eval: std::sync::Arc<dyn Evaluator> = match weights {
        Some(path) => std::sync::Arc::new(reversi_train::load_eval(path)?),
        None => reversi_train::shipped_eval()?,
    };
    let boards = tree_leaves();
    let rounds = rounds.max(1);
    let mut acc = 0i64;
    // Load the tables and warm the caches before timing.
    for b in &boards {
        acc += i64::from(eval.evaluate(*b, u64::MAX));
    }
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let t = Instant::now();
        for _ in 0..rounds {
            for b in &boards {
                acc += i64::from(eval.evaluate(std::hint::black_box(*b), u64::MAX));
            }
        }
        let n = (rounds * boards.len()) as f64;
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / n);
    }
    outln!(
        "evaluation, {}: {best:.1} ns/call, best of 3 x {} calls (checksum {acc})",
        kernel::selected().name(),
        rounds * boards.len()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The leaves three plies below every 256th position of [`sample_boards`], depth first.
fn tree_leaves() -> Vec<Board> {
    fn walk(b: Board, depth: u32, out: &mut Vec<Board>) {
        let mut m = b.moves();
        if depth == 0 || m == 0 {
            out.push(b);
            return;
        }
        while m != 0 {
            let sq = m.trailing_zeros();
            m &= m - 1;
            walk(b.play(sq), depth - 1, out);
        }
    }
    let mut out = Vec::new();
    for b in sample_boards(4096).into_iter().step_by(256) {
        walk(b, 3, &mut out);
    }
    out
}

fn sample_boards(n: usize) -> Vec<Board> {
    let mut out = Vec::with_capacity(n);
    let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
    let mut b = Board::START;
    while out.len() < n {
        let m = b.moves();
        if m == 0 {
            b = if b.pass().moves() == 0 {
                Board::START
            } else {
                b.pass()
            };
            continue;
        }
        let k = rng.below(u64::from(m.count_ones())) as usize;
        let mut mm = m;
        for _ in 0..k {
            mm &= mm - 1;
        }
        b = b.play(mm.trailing_zeros());
        out.push(b);
    }
    out
}
