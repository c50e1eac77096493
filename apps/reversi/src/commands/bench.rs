//! `reversi bench …`: speed figures for the engine's hot paths.

pub mod algorithms;
pub mod engine;

use std::process::ExitCode;
use std::time::Instant;

use reversi_engine::{flip, mobility, perft, Board};

use super::perft::format_rate;

type MovesFn = fn(u64, u64) -> u64;
type FlipsFn = fn(u64, u64, u32) -> u64;

/// Perft from the start, then raw move generation and flips, scalar against SIMD.
pub fn perft(depth: u32) -> anyhow::Result<ExitCode> {
    let t = Instant::now();
    let leaves = perft::perft(Board::START, depth, u64::MAX);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {leaves} leaves in {secs:.3} s, {} leaves/s",
        format_rate(leaves as f64 / secs)
    );

    // A fixed pseudo-random walk of positions for the kernels.
    let boards = sample_boards(4096);
    let rounds = 2000;
    let kernels: [(&str, MovesFn); 2] = [
        ("moves (scalar)", mobility::moves_scalar),
        ("moves (fastest)", mobility::moves),
    ];
    for (name, f) in kernels {
        let t = Instant::now();
        let mut acc = 0u64;
        for _ in 0..rounds {
            for b in &boards {
                acc = acc.wrapping_add(f(std::hint::black_box(b.player), b.opponent));
            }
        }
        let n = (rounds * boards.len()) as f64;
        println!(
            "{name:>16}: {:.2} ns/call ({acc:x})",
            t.elapsed().as_secs_f64() * 1e9 / n
        );
    }
    let flips: [(&str, FlipsFn); 2] = [
        ("flips (scalar)", flip::flips_scalar),
        ("flips (fastest)", flip::flips),
    ];
    for (name, f) in flips {
        let t = Instant::now();
        let mut acc = 0u64;
        let mut calls = 0u64;
        for _ in 0..rounds / 4 {
            for b in &boards {
                let mut m = b.moves();
                while m != 0 {
                    let sq = m.trailing_zeros();
                    m &= m - 1;
                    acc = acc.wrapping_add(f(std::hint::black_box(b.player), b.opponent, sq));
                    calls += 1;
                }
            }
        }
        println!(
            "{name:>16}: {:.2} ns/call ({acc:x})",
            t.elapsed().as_secs_f64() * 1e9 / calls as f64
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn sample_boards(n: usize) -> Vec<Board> {
    let mut out = Vec::with_capacity(n);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
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
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let k = (seed % u64::from(m.count_ones())) as usize;
        let mut mm = m;
        for _ in 0..k {
            mm &= mm - 1;
        }
        b = b.play(mm.trailing_zeros());
        out.push(b);
    }
    out
}
