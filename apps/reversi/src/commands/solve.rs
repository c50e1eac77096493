//! `reversi solve`: exact (or win/loss/draw) endgame solving of OBF positions, with a check
//! against the scores the file gives.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Context;
use reversi_core::{Move, Position};
use reversi_engine::engine::{Engine, Info, Limits, Precision};
use reversi_engine::{square_bit, square_name, Board};
use reversi_formats::obf::parse_obf;

use super::perft::format_rate;

pub struct SolveArgs<'a> {
    pub file: &'a Path,
    pub threads: usize,
    pub wld: bool,
    pub hash_mb: usize,
}

/// The name of a bit on the 8x8 board, upper-case as OBF files write it.
fn square_text(bit: u8) -> String {
    if bit >= 64 {
        "PA".into()
    } else {
        square_name(u32::from(bit)).to_string().to_uppercase()
    }
}

pub fn run(args: &SolveArgs<'_>) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let positions = parse_obf(&text).with_context(|| format!("in {}", args.file.display()))?;
    let mut engine = Engine::new(args.hash_mb, args.threads);
    engine.set_threads(args.threads);
    let limits = if args.wld {
        Limits::wld()
    } else {
        Limits::exact()
    };
    let stop = AtomicBool::new(false);
    let tty = std::io::stderr().is_terminal();
    println!(
        "{:>3} {:>7} {:>5} {:>6} {:>8} {:>5} {:>14} {:>9} {:>13}",
        "#", "empties", "move", "score", "expected", "check", "nodes", "seconds", "nodes/s"
    );
    let (mut total_nodes, mut total_time, mut wrong) = (0u64, Duration::ZERO, 0);
    for (i, obf) in positions.iter().enumerate() {
        let number = i + 1;
        let pos: &Position = &obf.position;
        let (board, mask) = Board::from_position(pos)
            .with_context(|| format!("position {number} cannot be solved by the engine"))?;
        let empties = (board.empties() & mask).count_ones();
        engine.clear();
        let started = Instant::now();
        let mut on_progress = |info: &Info| {
            if tty {
                eprint!(
                    "\r#{number} {} {:+} {} nodes {:.1}s   ",
                    match info.precision {
                        Precision::Depth(d) => format!("depth {d}"),
                        Precision::Exact => "exact".into(),
                        Precision::WinLossDraw => "wld".into(),
                    },
                    info.score,
                    info.nodes,
                    info.elapsed.as_secs_f64()
                );
                let _ = std::io::stderr().flush();
            }
        };
        let result = engine.search(board, mask, &limits, &stop, &mut on_progress);
        let elapsed = started.elapsed();
        if tty {
            eprint!("\r{:60}\r", "");
        }
        let (mv, score, nodes) = match &result {
            Some(info) => (info.best, info.score, info.nodes),
            None => (64, 0, 0),
        };
        let expected = obf.scores.iter().map(|&(_, s)| s).max();
        let listed = obf
            .scores
            .iter()
            .find(|(m, _)| match m {
                Move::Play(sq) => square_bit(*sq) == u32::from(mv),
                Move::Pass => mv >= 64,
            })
            .map(|&(_, s)| s);
        let ok = match expected {
            None => None,
            Some(e) if args.wld => Some(
                score.signum() == e.signum() && listed.is_none_or(|l| l.signum() == e.signum()),
            ),
            Some(e) => Some(score == e && listed.is_none_or(|l| l == e)),
        };
        if ok == Some(false) {
            wrong += 1;
        }
        total_nodes += nodes;
        total_time += elapsed;
        let secs = elapsed.as_secs_f64();
        println!(
            "{number:>3} {empties:>7} {:>5} {score:>+6} {:>8} {:>5} {nodes:>14} {secs:>9.3} {:>13}",
            square_text(mv),
            expected.map_or("-".into(), |e| format!("{e:+}")),
            match ok {
                Some(true) => "ok",
                Some(false) => "WRONG",
                None => "-",
            },
            format_rate(nodes as f64 / secs.max(1e-9)),
        );
    }
    let secs = total_time.as_secs_f64();
    println!(
        "total: {} positions, {wrong} wrong, {total_nodes} nodes in {secs:.3} s, {} nodes/s ({} threads)",
        positions.len(),
        format_rate(total_nodes as f64 / secs.max(1e-9)),
        engine.threads()
    );
    Ok(if wrong == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
