//! `reversi solve --size N --store FILE --plies K`: the engine's solved-openings table of an
//! N×N Othello board ([`reversi_engine::solved::build`]) written to FILE, with its progress on
//! standard error.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use reversi_core::BoardSize;
use reversi_engine::engine::Engine;
use reversi_engine::solved::build::{build, BuildError, BuildProgress};

pub fn run(engine: &Engine, size: BoardSize, plies: u32, out: &Path) -> anyhow::Result<ExitCode> {
    let mut t = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let mut total = 0;
    // Off a terminal, a progress line every ten seconds.
    let mut last_line = Instant::now();
    let mut report = |p: BuildProgress| match p {
        BuildProgress::Level { ply, positions } => eprintln!("ply {ply}: {positions} positions"),
        BuildProgress::Solving { positions } => {
            (t, total) = (Instant::now(), positions);
        }
        BuildProgress::Solved { done, nodes } => {
            if tty || last_line.elapsed().as_secs() >= 10 || done == total {
                last_line = Instant::now();
                let secs = t.elapsed().as_secs_f64();
                let eta = secs / done as f64 * (total - done) as f64;
                eprint!(
                    "\rsolved {done}/{total} positions at ply {plies}, {nodes} nodes, {secs:.0} s, about {eta:.0} s left   ",
                );
                if !tty {
                    eprintln!();
                }
                let _ = std::io::stderr().flush();
            }
        }
    };
    let built = build(engine, size, plies, &mut report).map_err(|e| match e {
        BuildError::TooLarge(_) => anyhow::anyhow!(
            "--store covers the small boards (4x4, 6x6); {size} positions do not fit its keys"
        ),
        e => e.into(),
    })?;
    eprintln!();
    let bytes = built.table.to_bytes();
    std::fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    outln!(
        "{size} Othello: {} positions within {plies} plies, start {:+} for Black; {} positions solved in {:.1} s ({} nodes); wrote {} ({} bytes)",
        built.table.len(),
        built.root,
        built.solved,
        t.elapsed().as_secs_f64(),
        built.nodes,
        out.display(),
        bytes.len()
    )?;
    Ok(ExitCode::SUCCESS)
}
