//! `reversi train selfplay`: labelled positions from the engine's own games on XOT
//! openings, one file per run (`selfplay-SEED.bin`) or, with `--shard K/N`, one shard file
//! holding the games numbered K modulo N (shard.rs), which `train merge` joins into the
//! run's file.
//!
//! Each game is played by one-thread searches on tables cleared before it and its positions
//! solved on a cleared table, so a game's records do not depend on the games before it, on
//! `--threads` or on the sharding.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::pattern::crc32;

use super::data::{self, Kind, Record};
use super::duel::{engine_with, openings, play};
use super::parallel;
use super::shard::{self, Shard, ShardFile};

/// `reversi train selfplay` options.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// Data folder to write `selfplay-SEED.bin` (or its shard file) to.
    #[arg(long)]
    pub out: PathBuf,
    /// Games (from consecutive XOT openings starting at the seed's offset).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Depth of the searches that play and label the positions.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Solve positions with this many empties or fewer exactly.
    #[arg(long, default_value_t = 14)]
    pub exact_empties: u32,
    /// Picks the first opening (seed × games) and names the file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Weights of the playing engine [default: the shipped weights].
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// XOT openings [default: the shared data's xot-large.txt]
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Play only shard K of N (the games numbered K modulo N) into
    /// `selfplay-SEED-K-of-N.bin`; `train merge` joins the N shards into the file one run
    /// writes.
    #[arg(long, value_parser = shard::parse_shard)]
    pub shard: Option<Shard>,
    /// Games played at once, one thread each (the records do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
}

pub fn run(a: &SelfplayArgs) -> anyhow::Result<()> {
    let stem = format!("selfplay-{}", a.seed);
    let target = a.out.join(match a.shard {
        Some(s) => s.file_name(&stem),
        None => format!("{stem}.bin"),
    });
    if target.exists() {
        eprintln!("{}: done before, skipped", target.display());
        return Ok(());
    }
    let path = a.openings.clone().unwrap_or_else(crate::data::xot_openings);
    let from = usize::try_from(a.seed)?.saturating_mul(a.games);
    let openings = openings(&path, from, a.games)?;
    let openings_crc =
        crc32(&std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?);
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let (eval, weights) = super::eval_of(a.weights.as_deref())?;
    let limits = Limits::midgame(a.depth);
    let mine: Vec<usize> = (0..a.games)
        .filter(|&g| a.shard.is_none_or(|s| s.holds(g)))
        .collect();
    let t = Instant::now();
    let reported = Mutex::new(0usize);
    let games = parallel::map(
        &mine,
        a.threads,
        || (engine_with(eval.clone()), Engine::new(64, 1)),
        |(player, solver), &g| {
            let (board, black) = openings[g];
            let (_, seen) = play(board, black, [&*player, &*player], &limits);
            solver.clear();
            seen.iter()
                .rev()
                .map(|&(b, score)| {
                    let (label, kind) = if b.empties().count_ones() <= a.exact_empties {
                        (data::solve(solver, b), Kind::Solved)
                    } else {
                        (score, Kind::Searched)
                    };
                    Record {
                        board: b,
                        label: label as i8,
                        kind,
                    }
                })
                .collect::<Vec<Record>>()
        },
        |so_far| {
            let done = so_far.iter().flatten().count();
            let Ok(mut reported) = reported.lock() else {
                return;
            };
            if done >= *reported + 10 || done == mine.len() {
                *reported = done;
                let positions: usize = so_far.iter().flatten().map(Vec::len).sum();
                eprintln!(
                    "game {done}/{}: {positions} positions [{:.0} s]",
                    mine.len(),
                    t.elapsed().as_secs_f64()
                );
            }
        },
    );
    let positions: usize = games.iter().map(Vec::len).sum();
    match a.shard {
        Some(shard) => {
            let file = ShardFile {
                target: format!("{stem}.bin"),
                job: format!(
                    "train selfplay seed={} games={} depth={} exact-empties={} weights={weights} openings=crc32:{openings_crc:08x}",
                    a.seed, a.games, a.depth, a.exact_empties
                ),
                shard,
                units: a.games,
                parts: mine.into_iter().zip(games).collect(),
            };
            shard::write(&target, &file)?;
        }
        None => data::write_data(&target, &games.concat())?,
    }
    eprintln!(
        "wrote {} ({positions} positions) in {:.1} s",
        target.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
