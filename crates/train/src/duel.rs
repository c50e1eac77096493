//! Evaluation duels (`reversi train match`): the pattern evaluation against the hand-made
//! one (or other weights) at equal depth, over [`reversi_arena::duel`]'s game loop (which
//! self-play uses too); and the XOT openings both start from, as boards.

use std::fmt;
use std::ops::RangeBounds;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use reversi_core::Color;
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::eval::{Evaluator, HandEval};
use reversi_engine::Board;
use reversi_formats::xot::read_openings;

pub(crate) use reversi_arena::duel::play;

use crate::error::Error;
use crate::evals::{load_eval, shipped_eval};
use crate::{parallel, Progress};

/// What a duel plays.
#[derive(Debug, Clone)]
pub struct DuelOptions {
    /// Midgame depth of both sides (each solves exactly once the depth reaches the end).
    pub depth: u32,
    /// Games; each opening is played twice, colours swapped.
    pub games: usize,
    /// The XOT openings file.
    pub openings: PathBuf,
    /// Weights of the pattern side (`None`: the shipped weights).
    pub weights: Option<PathBuf>,
    /// The other side's weights instead of the hand-made evaluation.
    pub against: Option<PathBuf>,
    /// Games played at once, one thread each.
    pub threads: usize,
}

/// A duel's result, from the pattern side; its `Display` is the summary line.
#[derive(Debug, Clone, PartialEq)]
pub struct DuelResult {
    /// The other side: `hand` or its weights file.
    pub against: String,
    /// The depth both sides searched.
    pub depth: u32,
    /// Games won, drawn and lost.
    pub tally: (usize, usize, usize),
    /// The sum of the disc differences.
    pub discs: i64,
    /// Seconds the duel took.
    pub seconds: f64,
}

impl DuelResult {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> usize {
        self.tally.0 + self.tally.1 + self.tally.2
    }
}

impl fmt::Display for DuelResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, d, l) = self.tally;
        let games = self.games();
        let score = (w as f64 + 0.5 * d as f64) / games.max(1) as f64;
        write!(
            f,
            "pattern vs {} at depth {}: {games} games, +{w} ={d} -{l}, score {:.1}%, average disc difference {:+.2}, {:.0} s",
            self.against,
            self.depth,
            100.0 * score,
            self.discs as f64 / games.max(1) as f64,
            self.seconds
        )
    }
}

/// Openings `range` of an XOT file (see [`read_openings`]), as boards with Black's turn flag.
pub(crate) fn openings(
    path: &Path,
    range: impl RangeBounds<usize>,
) -> Result<Vec<(Board, bool)>, Error> {
    read_openings(path, range)?
        .iter()
        .map(|game| {
            let pos = game.current();
            let (board, _) = Board::from_position(pos)
                .map_err(|e| Error::Position(format!("an opening of {}", path.display()), e))?;
            Ok((board, pos.turn() == Color::Black))
        })
        .collect()
}

/// A one-thread engine with a 16 MB table searching with `eval`.
pub(crate) fn engine_with(eval: Arc<dyn Evaluator>) -> Engine {
    let mut e = Engine::new(16, 1);
    e.set_evaluator(eval);
    e
}

/// Plays the duel: each opening twice, the pattern side Black first, `progress` told the
/// tally every 20 games.
///
/// # Errors
/// Openings or weights that cannot be read, too few openings.
pub fn run(a: &DuelOptions, progress: &dyn Progress) -> Result<DuelResult, Error> {
    let openings = openings(&a.openings, ..a.games.div_ceil(2))?;
    let pattern: Arc<dyn Evaluator> = match &a.weights {
        Some(p) => Arc::new(load_eval(p)?),
        None => shipped_eval()?,
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
                progress.line(&format!(
                    "{}/{} games: pattern {w} wins, {d} draws, {l} losses [{:.0} s]",
                    played.len(),
                    jobs.len(),
                    t.elapsed().as_secs_f64()
                ));
            }
        },
    );
    Ok(DuelResult {
        against: a
            .against
            .as_ref()
            .map_or("hand".into(), |p| p.display().to_string()),
        depth: a.depth,
        tally: tally(&played),
        discs: played.iter().map(|&x| i64::from(x)).sum(),
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// Wins, draws and losses among disc differences.
fn tally(diffs: &[i32]) -> (usize, usize, usize) {
    let count = |sign: i32| diffs.iter().filter(|d| d.signum() == sign).count();
    (count(1), count(0), count(-1))
}
