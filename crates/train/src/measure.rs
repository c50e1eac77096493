//! The evaluations' measures (`reversi train mae`, `reversi train bestmove`): how well the
//! static evaluations predict exact scores, and how often a fixed-depth search finds the
//! best move. Each returns a report whose `Display` is the table the command prints.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use reversi_engine::engine::{Engine, Limits};
use reversi_engine::eval::{Evaluator, HandEval};
use reversi_engine::pattern::{stage, stage_empties, PatternEval};
use reversi_engine::Board;
use reversi_formats::obf::parse_obf;

use crate::data;
use crate::error::{Error, FileError};
use crate::evals::{load_eval, shipped_eval};
use crate::parallel;
use crate::records::{self, Kind, LabelledPosition};

/// Evaluations by name.
type Contenders = Vec<(String, Arc<dyn Evaluator>)>;

/// The evaluations to compare: the hand-made one, the shipped weights, then `extra`.
fn contenders(extra: &[PathBuf]) -> Result<Contenders, Error> {
    let mut out: Vec<(String, Arc<dyn Evaluator>)> = vec![
        ("hand".into(), Arc::new(HandEval::new(8))),
        ("shipped".into(), shipped_eval()?),
    ];
    for p in extra {
        let e: PatternEval = load_eval(p)?;
        out.push((p.display().to_string(), Arc::new(e)));
    }
    Ok(out)
}

/// The last table of `train mae` groups positions by four empties (1–4, 5–8, …).
const REPORT_GROUPS: usize = 15;

/// `train mae --search-depth`: labels from searches where exact scores are out of reach.
pub struct Searched {
    /// Depth of the labelling searches (0: none).
    pub depth: u32,
    /// Positions for each number of empties.
    pub positions: usize,
    /// Searches at once.
    pub threads: usize,
}

/// Up to `count` records spread evenly over `set`, each labelled with the value of a
/// `depth`-ply search by the shipped evaluation (side to move's view).
fn searched_labels(
    set: &[&LabelledPosition],
    count: usize,
    depth: u32,
    threads: usize,
) -> Vec<LabelledPosition> {
    let step = set.len().div_ceil(count.max(1)).max(1);
    let picked: Vec<LabelledPosition> = set.iter().step_by(step).map(|r| **r).collect();
    let limits = Limits::midgame(depth);
    let labelled = parallel::map(
        &picked,
        threads,
        || (Engine::new(64, 1), AtomicBool::new(false)),
        |(engine, stop), r| {
            engine.clear();
            let t = engine.search(r.board, u64::MAX, &limits, stop, &mut |_| {});
            t.best.map(|best| LabelledPosition {
                label: best.score.clamp(-64, 64) as i8,
                kind: Kind::Searched,
                ..*r
            })
        },
        |_| {},
    );
    labelled.into_iter().flatten().collect()
}

/// One row of a [`MaeReport`]: the empties (or their range), the positions, and each
/// evaluation's mean absolute error (NaN with no positions).
#[derive(Debug, Clone, PartialEq)]
pub struct MaeRow {
    /// Empties, or a range of them (`1-4`).
    pub empties: String,
    /// Positions measured.
    pub positions: usize,
    /// Each evaluation's mean absolute error in discs, in [`MaeReport::names`]' order.
    pub errors: Vec<f64>,
}

/// `train mae`'s measures; its `Display` is the command's tables.
#[derive(Debug, Clone, PartialEq)]
pub struct MaeReport {
    /// The first WTHOR year of the validation split.
    pub valid_from: u16,
    /// Validation positions.
    pub positions: usize,
    /// The evaluations: `hand`, `shipped`, then the weights files.
    pub names: Vec<String>,
    /// Against exact scores, by empties.
    pub exact: Vec<MaeRow>,
    /// Against the games' theoretical scores, by empties.
    pub theoretical: Vec<MaeRow>,
    /// Against searches of this depth, by empties, each with the seconds its searches took.
    pub searched: Option<(u32, Vec<(MaeRow, f64)>)>,
    /// Against every label, by four empties.
    pub by_four: Vec<MaeRow>,
}

impl fmt::Display for MaeRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:>8} {:>7}", self.empties, self.positions)?;
        for e in &self.errors {
            write!(f, " {e:>10.2}")?;
        }
        Ok(())
    }
}

impl fmt::Display for MaeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "validation: {} positions of WTHOR {}+ (never trained on)",
            self.positions, self.valid_from
        )?;
        writeln!(
            f,
            "mean absolute error in discs of the static evaluation (depth 0)"
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "by empties, against exact scores (solved, or WTHOR's perfect play from 24 empties):"
        )?;
        write!(f, "{:>8} {:>7}", "empties", "n")?;
        for n in &self.names {
            write!(f, " {n:>10}")?;
        }
        writeln!(f)?;
        for row in &self.exact {
            writeln!(f, "{row}")?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "by empties, against the game's theoretical score (best available, not exact):"
        )?;
        for row in &self.theoretical {
            writeln!(f, "{row}")?;
        }
        if let Some((depth, rows)) = &self.searched {
            writeln!(f)?;
            writeln!(
                f,
                "by empties, against depth-{depth} searches by the shipped evaluation:"
            )?;
            for (row, seconds) in rows {
                writeln!(f, "{row}   ({seconds:.0} s of searches)")?;
            }
        }
        writeln!(f)?;
        write!(
            f,
            "by four empties, against every validation label (exact where solved, else theoretical):"
        )?;
        for row in &self.by_four {
            write!(f, "\n{row}")?;
        }
        Ok(())
    }
}

/// The static evaluations' mean absolute errors on the validation files (WTHOR years from
/// `valid_from` on) of the data folder `dir`: the hand-made evaluation, the shipped weights
/// and the weights files `extra`.
///
/// # Errors
/// The folder or a file cannot be read, no validation files, weights that do not load.
pub fn mae(
    dir: &Path,
    extra: &[PathBuf],
    valid_from: u16,
    searched: &Searched,
) -> Result<MaeReport, Error> {
    let mut records: Vec<LabelledPosition> = Vec::new();
    for (stem, path) in records::files(dir)? {
        if data::wthor_year(&stem).is_some_and(|y| y >= valid_from) {
            records.extend(data::read(&path)?);
        }
    }
    if records.is_empty() {
        return Err(Error::NoValidation(valid_from, dir.to_path_buf()));
    }
    let evals = contenders(extra)?;
    let row = |empties: String, set: &[&LabelledPosition]| MaeRow {
        empties,
        positions: set.len(),
        errors: evals
            .iter()
            .map(|(_, ev)| mean_error(ev.as_ref(), set))
            .collect(),
    };
    let with_empties =
        |e: u32, keep: &dyn Fn(&LabelledPosition) -> bool| -> Vec<&LabelledPosition> {
            records
                .iter()
                .filter(|r| keep(r) && r.board.empties().count_ones() == e)
                .collect()
        };
    let exact = [10u32, 14, 18, 20, 24]
        .into_iter()
        .map(|e| (e, with_empties(e, &|r| r.kind.is_exact())))
        .filter(|(_, set)| !set.is_empty())
        .map(|(e, set)| row(e.to_string(), &set))
        .collect();
    let theoretical = [30u32, 40, 50]
        .into_iter()
        .map(|e| {
            row(
                e.to_string(),
                &with_empties(e, &|r| r.kind == Kind::Theoretical),
            )
        })
        .collect();
    let searched = (searched.depth > 0).then(|| {
        let rows = [30u32, 40]
            .into_iter()
            .map(|e| {
                let all = with_empties(e, &|_| true);
                let t = Instant::now();
                let labelled =
                    searched_labels(&all, searched.positions, searched.depth, searched.threads);
                let set: Vec<&LabelledPosition> = labelled.iter().collect();
                (row(e.to_string(), &set), t.elapsed().as_secs_f64())
            })
            .collect();
        (searched.depth, rows)
    });
    let by_four = (0..REPORT_GROUPS)
        .map(|s| {
            let set: Vec<&LabelledPosition> = records
                .iter()
                .filter(|r| stage(r.board.empties().count_ones(), REPORT_GROUPS) == s)
                .collect();
            let (lo, hi) = stage_empties(s, REPORT_GROUPS);
            row(format!("{lo}-{hi}"), &set)
        })
        .collect();
    Ok(MaeReport {
        valid_from,
        positions: records.len(),
        names: evals.iter().map(|(n, _)| n.clone()).collect(),
        exact,
        theoretical,
        searched,
        by_four,
    })
}

fn mean_error(ev: &dyn Evaluator, set: &[&LabelledPosition]) -> f64 {
    if set.is_empty() {
        return f64::NAN;
    }
    let sum: i64 = set
        .iter()
        .map(|r| i64::from((ev.evaluate(r.board, u64::MAX) - i32::from(r.label)).abs()))
        .sum();
    sum as f64 / set.len() as f64
}

/// One evaluation's line of a [`BestmoveReport`].
#[derive(Debug, Clone, PartialEq)]
pub struct BestmoveRow {
    /// The evaluation.
    pub name: String,
    /// Positions where the search chose a best move.
    pub best: usize,
    /// Discs lost against the best move, summed.
    pub lost: i64,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds the searches took.
    pub seconds: f64,
}

/// `train bestmove`'s measures; its `Display` is the command's lines.
#[derive(Debug, Clone, PartialEq)]
pub struct BestmoveReport {
    /// The searches' depth.
    pub depth: u32,
    /// Positions read.
    pub positions: usize,
    /// One row per evaluation.
    pub rows: Vec<BestmoveRow>,
}

impl fmt::Display for BestmoveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "best-move rate of a depth-{} midgame search, 1 thread, {} positions",
            self.depth, self.positions
        )?;
        for r in &self.rows {
            write!(
                f,
                "\n{:>10}: {}/{} best moves, {:.2} discs lost per position, {} nodes, {:.1} s",
                r.name,
                r.best,
                self.positions,
                r.lost as f64 / self.positions.max(1) as f64,
                r.nodes,
                r.seconds
            )?;
        }
        Ok(())
    }
}

/// The rate of best moves (by the OBF `files`' exact scores) of a `depth`-ply search by the
/// hand-made evaluation and by the shipped weights (or `weights`).
///
/// # Errors
/// A file that cannot be read or is not OBF, weights that do not load.
pub fn bestmove(
    files: &[PathBuf],
    depth: u32,
    weights: Option<&Path>,
) -> Result<BestmoveReport, Error> {
    let mut positions = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(FileError::on("reading", f))?;
        positions.extend(parse_obf(&text).map_err(|e| Error::Obf(f.clone(), e))?);
    }
    let mut evals = contenders(&[])?;
    if let Some(p) = weights {
        evals[1] = (p.display().to_string(), Arc::new(load_eval(p)?));
    }
    let limits = Limits::midgame(depth);
    let mut rows = Vec::new();
    for (name, ev) in evals {
        let mut engine = Engine::new(64, 1);
        engine.set_evaluator(ev);
        let (mut best, mut nodes, mut lost) = (0, 0u64, 0i64);
        let t = Instant::now();
        for p in &positions {
            let Ok((board, mask)) = Board::from_position(&p.position) else {
                continue;
            };
            engine.clear();
            let stop = AtomicBool::new(false);
            let thinking = engine.search(board, mask, &limits, &stop, &mut |_| {});
            let Some(chosen) = thinking.best else {
                continue;
            };
            nodes += thinking.nodes;
            let top = p.scores.iter().map(|s| s.1).max().unwrap_or(0);
            let mine = p
                .scores
                .iter()
                .find(|&&(m, _)| m == chosen.mv)
                .map_or(-64, |s| s.1);
            if mine == top {
                best += 1;
            }
            lost += i64::from(top - mine);
        }
        rows.push(BestmoveRow {
            name,
            best,
            lost,
            nodes,
            seconds: t.elapsed().as_secs_f64(),
        });
    }
    Ok(BestmoveReport {
        depth,
        positions: positions.len(),
        rows,
    })
}
