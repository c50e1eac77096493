//! `reversi train selfplay`: labelled positions from the engine's own games on XOT
//! openings, one file per run (`selfplay-SEED.bin`) or, with `--shard K/N`, one shard file
//! holding the games numbered K modulo N (shard.rs), which `train merge` joins into the
//! run's file.
//!
//! With `--random-moves N` each game first plays N random legal moves after its XOT
//! opening, drawn from the seed and the game's number, so that games differ even when they
//! start from the same opening: the XOT list is then taken again from its start when a run
//! needs more openings than it holds.
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
use reversi_engine::rng::XorShift64;
use reversi_engine::Board;

use super::data::{self, Kind, Record};
use super::duel::{all_openings, engine_with, openings, play};
use super::parallel;
use super::shard::{self, Shard, ShardFile};

/// `reversi train selfplay` options.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// Data folder to write `selfplay-SEED.bin` (or its shard file) to.
    #[arg(long)]
    pub out: PathBuf,
    /// Games (from consecutive XOT openings starting at the seed's offset; with
    /// `--random-moves` the list is taken again from its start when it runs out).
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Depth of the searches that play and label the positions.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Solve positions with this many empties or fewer exactly.
    #[arg(long, default_value_t = 14)]
    pub exact_empties: u32,
    /// Random legal moves each game plays after its XOT opening before the engine takes
    /// over (drawn from the seed and the game's number: the same whatever the threads or
    /// shards).
    #[arg(long, default_value_t = 0)]
    pub random_moves: u32,
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
    // Without random moves a game repeated from the same opening would be the same game.
    let openings = if a.random_moves == 0 {
        openings(&path, from, a.games)
            .context("without --random-moves each opening is played once")?
    } else {
        let all = all_openings(&path)?;
        if all.is_empty() {
            anyhow::bail!("{} holds no openings", path.display());
        }
        let first = from % all.len();
        (0..a.games).map(|g| all[(first + g) % all.len()]).collect()
    };
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
            let (board, black) = random_moves(board, black, a.random_moves, a.seed, g);
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
                    "train selfplay seed={} games={} depth={} exact-empties={} random-moves={} weights={weights} openings=crc32:{openings_crc:08x}",
                    a.seed, a.games, a.depth, a.exact_empties, a.random_moves
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

/// Plays `count` random legal moves from `board` (passing when the side to move has none),
/// drawn from a generator seeded by the run's `seed` and the game's number `game`; stops
/// early if the game ends. Returns the board and whether Black is to move.
fn random_moves(
    mut board: Board,
    mut black: bool,
    count: u32,
    seed: u64,
    game: usize,
) -> (Board, bool) {
    let mut rng = XorShift64::new(
        seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ (game as u64 + 1).wrapping_mul(0xbf58_476d_1ce4_e5b9),
    );
    for _ in 0..count {
        if board.moves() == 0 {
            if board.pass().moves() == 0 {
                break;
            }
            board = board.pass();
            black = !black;
        }
        let mut moves = board.moves();
        for _ in 0..rng.below(u64::from(moves.count_ones())) {
            moves &= moves - 1;
        }
        board = board.play(moves.trailing_zeros());
        black = !black;
    }
    (board, black)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_moves_are_legal_and_depend_on_the_game() {
        let start = Board::START;
        let (same, black) = random_moves(start, true, 0, 1, 0);
        assert_eq!((same, black), (start, true));
        let mut seen = std::collections::HashSet::new();
        for game in 0..20 {
            let (b, black) = random_moves(start, true, 6, 1, game);
            assert_eq!(b, random_moves(start, true, 6, 1, game).0, "repeatable");
            assert_eq!(b.empties().count_ones(), 54, "six discs placed");
            assert!(black, "six moves without a pass leave Black to move");
            seen.insert(b);
        }
        assert!(seen.len() > 10, "games differ: {} distinct", seen.len());
        // Sixty moves play a game to its end (passing on the way if need be); at the end
        // nothing more is played.
        let (b, _) = random_moves(start, true, 60, 7, 0);
        assert_eq!(b.moves() | b.pass().moves(), 0, "played to the end");
        assert_eq!(
            random_moves(b, true, 3, 7, 0).0,
            b,
            "nothing to play at the end"
        );
    }
}
