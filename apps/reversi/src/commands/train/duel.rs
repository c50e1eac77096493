//! `reversi train match`: the pattern evaluation against the hand-made one (or other
//! weights) at equal depth, over [`reversi_arena::duel`]'s game loop (which self-play uses
//! too).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args;
use reversi_core::{parse_transcript, BoardSize, Color, Position, Rules};
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::eval::{Evaluator, HandEval};
use reversi_engine::pattern::shipped;
use reversi_engine::Board;

pub(super) use reversi_arena::duel::play;

use super::load_eval;
use super::parallel;

/// `reversi train match` options.
#[derive(Debug, Args)]
pub struct DuelArgs {
    /// Midgame depth of both sides (each solves exactly once the depth reaches the end).
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Games; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// XOT openings [default: the shared data's xot-large.txt]
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Weights of the pattern side [default: the shipped weights].
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// The other side's weights instead of the hand-made evaluation.
    #[arg(long)]
    pub against: Option<PathBuf>,
    /// Games played at once, one thread each (the results do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
}

/// Openings `from..from + count` of a transcript file, as boards with Black's turn flag.
pub(super) fn openings(
    path: &Path,
    from: usize,
    count: usize,
) -> anyhow::Result<Vec<(Board, bool)>> {
    let all = all_openings(path)?;
    if all.len() < from.saturating_add(count) {
        bail!(
            "{} holds too few openings ({count} needed from {from}, it has {})",
            path.display(),
            all.len()
        );
    }
    Ok(all[from..from + count].to_vec())
}

/// Every opening of a transcript file, as boards with Black's turn flag.
pub(super) fn all_openings(path: &Path) -> anyhow::Result<Vec<(Board, bool)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the openings {}", path.display()))?;
    let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let game = parse_transcript(line.trim(), start.clone())
            .with_context(|| format!("{}:{}", path.display(), i + 1))?;
        let pos = game.current();
        let (board, _) =
            Board::from_position(pos).with_context(|| format!("{}:{}", path.display(), i + 1))?;
        out.push((board, pos.turn() == Color::Black));
    }
    Ok(out)
}

pub(super) fn engine_with(eval: Arc<dyn Evaluator>) -> Engine {
    let mut e = Engine::new(16, 1);
    e.set_evaluator(eval);
    e
}

pub fn run(a: &DuelArgs) -> anyhow::Result<ExitCode> {
    let path = a.openings.clone().unwrap_or_else(crate::data::xot_openings);
    let openings = openings(&path, 0, a.games.div_ceil(2))?;
    let pattern: Arc<dyn Evaluator> = match &a.weights {
        Some(p) => Arc::new(load_eval(p)?),
        None => shipped().context("loading the shipped weights")?,
    };
    let other: Arc<dyn Evaluator> = match &a.against {
        Some(p) => Arc::new(load_eval(p)?),
        None => Arc::new(HandEval::new(8)),
    };
    let limits = Limits::midgame(a.depth);
    let t = Instant::now();
    // Each opening twice, the pattern side Black first.
    let jobs: Vec<(usize, bool)> = (0..openings.len())
        .flat_map(|i| [(i, true), (i, false)])
        .take(a.games)
        .collect();
    let played = parallel::map(
        &jobs,
        a.threads,
        || (engine_with(pattern.clone()), engine_with(other.clone())),
        |(pe, he), &(i, pattern_black)| {
            let (board, black) = openings[i];
            let engines = if pattern_black {
                [&*pe, &*he]
            } else {
                [&*he, &*pe]
            };
            let (black_diff, _) = play(board, black, engines, &limits);
            if pattern_black {
                black_diff
            } else {
                -black_diff
            }
        },
        |so_far| {
            let played: Vec<i32> = so_far.iter().flatten().copied().collect();
            if played.len().is_multiple_of(20) {
                let (w, d, l) = tally(&played);
                eprintln!(
                    "{}/{} games: pattern {w} wins, {d} draws, {l} losses [{:.0} s]",
                    played.len(),
                    jobs.len(),
                    t.elapsed().as_secs_f64()
                );
            }
        },
    );
    let (w, d, l) = tally(&played);
    let games = played.len();
    let discs: i64 = played.iter().map(|&x| i64::from(x)).sum();
    let score = (w as f64 + 0.5 * d as f64) / games.max(1) as f64;
    outln!(
        "pattern vs {} at depth {}: {games} games, +{w} ={d} -{l}, score {:.1}%, average disc difference {:+.2}, {:.0} s",
        a.against.as_ref().map_or("hand".into(), |p| p.display().to_string()),
        a.depth,
        100.0 * score,
        discs as f64 / games.max(1) as f64,
        t.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Wins, draws and losses among disc differences.
fn tally(diffs: &[i32]) -> (usize, usize, usize) {
    let count = |sign: i32| diffs.iter().filter(|d| d.signum() == sign).count();
    (count(1), count(0), count(-1))
}
