//! `reversi bench algorithms`: the classic algorithms on the same positions, depth by depth —
//! states explored, time, the ratio to minimax — and a check that they agree on every value.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use reversi_core::{BoardSize, Move, Position, Rules, XorShift64};
use reversi_formats::xot::read_openings;
use reversi_players::classic::{self, Algorithm};

/// Plies of the random walk that makes the positions of boards other than 8x8.
const WALK_PLIES: usize = 6;

pub fn run(
    depth: u32,
    count: usize,
    size: BoardSize,
    openings: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    if depth == 0 || count == 0 {
        bail!("--depth and --positions must be at least 1");
    }
    let positions = if size == BoardSize::EIGHT {
        let path = openings.unwrap_or_else(crate::data::xot_openings);
        read_openings(&path, ..count)?
            .into_iter()
            .map(|game| game.current().clone())
            .collect()
    } else {
        walk_positions(size, count)
    };
    outln!(
        "{} positions on {size}, depths 1 to {depth}; states are the positions explored below the roots",
        positions.len()
    )?;
    outln!(
        "{:<13} {:>5} {:>14} {:>10} {:>11}",
        "algorithm",
        "depth",
        "states",
        "ms",
        "vs minimax"
    )?;
    let stop = AtomicBool::new(false);
    let mut disagreements = 0;
    for d in 1..=depth {
        let mut reference: Option<Vec<i32>> = None;
        let mut minimax_states = 0u64;
        for algorithm in Algorithm::ALL {
            let started = Instant::now();
            let mut states = 0u64;
            let mut values = Vec::with_capacity(positions.len());
            for pos in &positions {
                let r = classic::search(pos, algorithm, d, &stop)
                    .context("a benchmark position has no move")?;
                states += r.states;
                values.push(r.value);
            }
            let elapsed = started.elapsed();
            if algorithm == Algorithm::Minimax {
                minimax_states = states;
            }
            outln!(
                "{:<13} {d:>5} {states:>14} {:>10} {:>11}",
                algorithm.name(),
                millis(elapsed),
                ratio(states, minimax_states)
            )?;
            match &reference {
                None => reference = Some(values),
                Some(expected) => {
                    for (i, (a, b)) in expected.iter().zip(&values).enumerate() {
                        if a != b {
                            eprintln!(
                                "error: at depth {d}, position {} has value {b} with {algorithm} \
                                 but {a} with minimax",
                                i + 1
                            );
                            disagreements += 1;
                        }
                    }
                }
            }
        }
    }
    if disagreements > 0 {
        eprintln!("error: {disagreements} values differ between algorithms");
        return Ok(ExitCode::FAILURE);
    }
    outln!("all algorithms found the same value at every position and depth")?;
    Ok(ExitCode::SUCCESS)
}

fn millis(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

fn ratio(states: u64, minimax: u64) -> String {
    if minimax == 0 {
        "-".into()
    } else {
        format!("{:.3}", states as f64 / minimax as f64)
    }
}

/// `count` positions reached by a fixed-seed random walk of a few plies from the Othello start.
fn walk_positions(size: BoardSize, count: usize) -> Vec<Position> {
    let mut rng = XorShift64::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::start(size, Rules::Othello);
        for _ in 0..WALK_PLIES {
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            pos = match pos.play(mv) {
                Ok(p) => p,
                Err(_) => break,
            };
        }
        if pos.moves().first().is_some_and(|&m| m != Move::Pass) {
            out.push(pos);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_are_fixed_and_playable() {
        let a = walk_positions(BoardSize::SIX, 3);
        assert_eq!(a, walk_positions(BoardSize::SIX, 3));
        assert!(a.iter().all(|p| !p.is_game_over() && p.empty_count() < 32));
    }
}
