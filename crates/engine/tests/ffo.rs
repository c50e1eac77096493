//! The FFO endgame suite (data/reference/obf): exact scores and best moves.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use reversi_engine::engine::{Engine, Limits};
use reversi_engine::{Board, ScoreKind};
use reversi_formats::obf::parse_obf;
use reversi_testkit::data_file;

/// Solves every position of `file` with `threads` threads and checks score and move; returns
/// the total nodes.
fn solve_file(file: &str, threads: usize, wld: bool) -> u64 {
    let text = std::fs::read_to_string(data_file(format!("obf/{file}"))).unwrap();
    let positions = parse_obf(&text).unwrap();
    let engine = Engine::new(64, threads);
    let stop = AtomicBool::new(false);
    let mut total = 0;
    for (i, p) in positions.iter().enumerate() {
        let (board, mask) = Board::from_position(&p.position).unwrap();
        engine.clear();
        let t = Instant::now();
        let limits = if wld { Limits::wld() } else { Limits::exact() };
        let info = engine.search(board, mask, &limits, &stop, &mut |_| {});
        let found = info.best.unwrap();
        let best = p.scores.iter().map(|&(_, s)| s).max().unwrap();
        let listed = p
            .scores
            .iter()
            .find(|&&(m, _)| m == found.mv)
            .map(|&(_, s)| s);
        if wld {
            assert_eq!(found.kind, ScoreKind::WinLossDraw);
            assert_eq!(found.score.signum(), best.signum(), "{file} #{}", i + 1);
        } else {
            assert_eq!(found.kind, ScoreKind::Exact);
            assert_eq!(found.score, best, "{file} #{}", i + 1);
            assert_eq!(listed.unwrap_or(best), best, "{file} #{} move", i + 1);
        }
        println!(
            "{file} #{:>2}: {:+} nodes {} in {:.3}s",
            i + 1,
            found.score,
            info.nodes,
            t.elapsed().as_secs_f64()
        );
        total += info.nodes;
    }
    total
}

#[test]
#[ignore = "slow: run in release mode"]
fn ffo_1_to_39_exact() {
    solve_file("fforum-1-19.obf", 2, false);
    solve_file("fforum-20-39.obf", 2, false);
}

#[test]
#[ignore = "slow: run in release mode"]
fn ffo_1_to_19_wld_agrees_in_sign() {
    solve_file("fforum-1-19.obf", 1, true);
}
