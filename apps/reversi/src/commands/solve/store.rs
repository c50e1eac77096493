//! `reversi solve --size N --store FILE --plies K`: the exact value of every position within
//! K plies of the start of an N×N Othello board, for the top level's perfect play from the
//! first move. Only the positions K plies deep are solved; every earlier one takes the best of
//! its children.

use std::collections::{HashMap, HashSet};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context;
use reversi_core::{BoardSize, Position, Rules};
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::search::final_score;
use reversi_engine::solved::{key, SolvedOpenings};
use reversi_engine::Board;

/// The position to look up for `b`: after a forced pass; `None` when the game is over.
fn normalized(b: Board, mask: u64) -> Option<(Board, i32)> {
    if b.moves() & mask != 0 {
        return Some((b, 1));
    }
    let passed = b.pass();
    (passed.moves() & mask != 0).then_some((passed, -1))
}

pub fn run(engine: &Engine, size: BoardSize, plies: u32, out: &Path) -> anyhow::Result<ExitCode> {
    let n = size.get();
    anyhow::ensure!(
        n <= 6,
        "--store covers the small boards (4x4, 6x6); {size} positions do not fit its keys"
    );
    let start = Position::start(size, Rules::Othello);
    let (board, mask) = Board::from_position(&start).context("the start left the bitboard")?;
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
        eprintln!("ply {}: {} positions", p + 1, next.len());
        levels.push(next);
    }
    let mut values: HashMap<u64, i8> = HashMap::new();
    let deepest = levels.last().map_or(&[][..], Vec::as_slice);
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let mut nodes = 0u64;
    // Off a terminal, a progress line every ten seconds.
    let mut last_line = Instant::now();
    for (i, &b) in deepest.iter().enumerate() {
        let thinking = engine.search(b, mask, &Limits::exact(), &stop, &mut |_| {});
        let score = thinking.score().context("a stored position has no move")?;
        nodes += thinking.nodes;
        values.insert(key(b, n), score as i8);
        let done = i + 1;
        if tty || last_line.elapsed().as_secs() >= 10 || done == deepest.len() {
            last_line = Instant::now();
            let secs = t.elapsed().as_secs_f64();
            let eta = secs / done as f64 * (deepest.len() - done) as f64;
            eprint!(
                "\rsolved {done}/{} positions at ply {plies}, {nodes} nodes, {secs:.0} s, about {eta:.0} s left   ",
                deepest.len()
            );
            if !tty {
                eprintln!();
            }
            let _ = std::io::stderr().flush();
        }
    }
    eprintln!();
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
                        sign * i32::from(*values.get(&key(c, n)).context("a child was not solved")?)
                    }
                };
                best = best.max(-v);
            }
            values.insert(key(b, n), best as i8);
        }
    }
    let table = SolvedOpenings::new(n, plies as u8, values.into_iter().collect());
    let root = table.value(board).context("the start was not solved")?;
    let bytes = table.to_bytes();
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    outln!(
        "{size} Othello: {} positions within {plies} plies, start {root:+} for Black; {} positions solved in {:.1} s ({nodes} nodes); wrote {} ({} bytes)",
        table.len(),
        deepest.len(),
        t.elapsed().as_secs_f64(),
        out.display(),
        bytes.len()
    )?;
    Ok(ExitCode::SUCCESS)
}
