//! `reversi train mae` and `reversi train bestmove`: how well the static evaluations predict
//! exact scores, and how often a fixed-depth search finds the best move.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::eval::{Evaluator, HandEval};
use reversi_engine::pattern::{shipped, stage, stage_empties, PatternEval};
use reversi_engine::Board;
use reversi_formats::obf::parse_obf;

use super::data::{self, Kind, Record};
use super::{load_eval, parallel};

/// The evaluations to compare: the hand-made one, the shipped weights, then `extra`.
fn contenders(extra: &[PathBuf]) -> anyhow::Result<Vec<(String, Arc<dyn Evaluator>)>> {
    let mut out: Vec<(String, Arc<dyn Evaluator>)> = vec![
        ("hand".into(), Arc::new(HandEval::new(8))),
        (
            "shipped".into(),
            shipped().context("loading the shipped weights")?,
        ),
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
fn searched_labels(set: &[&Record], count: usize, depth: u32, threads: usize) -> Vec<Record> {
    let step = set.len().div_ceil(count.max(1)).max(1);
    let picked: Vec<Record> = set.iter().step_by(step).map(|r| **r).collect();
    let limits = Limits::midgame(depth);
    let labelled = parallel::map(
        &picked,
        threads,
        || (Engine::new(64, 1), AtomicBool::new(false)),
        |(engine, stop), r| {
            engine.clear();
            let t = engine.search(r.board, u64::MAX, &limits, stop, &mut |_| {});
            t.best.map(|best| Record {
                label: best.score.clamp(-64, 64) as i8,
                kind: Kind::Searched,
                ..*r
            })
        },
        |_| {},
    );
    labelled.into_iter().flatten().collect()
}

pub fn mae(
    dir: &Path,
    extra: &[PathBuf],
    valid_from: u16,
    searched: &Searched,
) -> anyhow::Result<()> {
    let mut records: Vec<Record> = Vec::new();
    for (stem, path) in data::files(dir)? {
        if data::wthor_year(&stem).is_some_and(|y| y >= valid_from) {
            records.extend(data::read(&path)?);
        }
    }
    if records.is_empty() {
        anyhow::bail!(
            "no validation files (wthor-{valid_from}.bin or later) in {}",
            dir.display()
        );
    }
    let evals = contenders(extra)?;
    let names: Vec<&str> = evals.iter().map(|(n, _)| n.as_str()).collect();
    outln!(
        "validation: {} positions of WTHOR {valid_from}+ (never trained on)",
        records.len()
    )?;
    outln!("mean absolute error in discs of the static evaluation (depth 0)")?;
    outln!()?;
    outln!("by empties, against exact scores (solved, or WTHOR's perfect play from 24 empties):")?;
    out!("{:>8} {:>7}", "empties", "n")?;
    for n in &names {
        out!(" {n:>10}")?;
    }
    outln!()?;
    for e in [10u32, 14, 18, 20, 24] {
        let set: Vec<&Record> = records
            .iter()
            .filter(|r| r.kind.is_exact() && r.board.empties().count_ones() == e)
            .collect();
        if set.is_empty() {
            continue;
        }
        out!("{e:>8} {:>7}", set.len())?;
        for (_, ev) in &evals {
            out!(" {:>10.2}", mean_error(ev.as_ref(), &set))?;
        }
        outln!()?;
    }
    outln!()?;
    outln!("by empties, against the game's theoretical score (best available, not exact):")?;
    for e in [30u32, 40, 50] {
        let set: Vec<&Record> = records
            .iter()
            .filter(|r| r.kind == Kind::Theoretical && r.board.empties().count_ones() == e)
            .collect();
        out!("{e:>8} {:>7}", set.len())?;
        for (_, ev) in &evals {
            out!(" {:>10.2}", mean_error(ev.as_ref(), &set))?;
        }
        outln!()?;
    }
    if searched.depth > 0 {
        outln!()?;
        outln!(
            "by empties, against depth-{} searches by the shipped evaluation:",
            searched.depth
        )?;
        for e in [30u32, 40] {
            let all: Vec<&Record> = records
                .iter()
                .filter(|r| r.board.empties().count_ones() == e)
                .collect();
            let t = Instant::now();
            let labelled =
                searched_labels(&all, searched.positions, searched.depth, searched.threads);
            let set: Vec<&Record> = labelled.iter().collect();
            out!("{e:>8} {:>7}", set.len())?;
            for (_, ev) in &evals {
                out!(" {:>10.2}", mean_error(ev.as_ref(), &set))?;
            }
            outln!("   ({:.0} s of searches)", t.elapsed().as_secs_f64())?;
        }
    }
    outln!()?;
    outln!(
        "by four empties, against every validation label (exact where solved, else theoretical):"
    )?;
    for s in 0..REPORT_GROUPS {
        let set: Vec<&Record> = records
            .iter()
            .filter(|r| stage(r.board.empties().count_ones(), REPORT_GROUPS) == s)
            .collect();
        let (lo, hi) = stage_empties(s, REPORT_GROUPS);
        out!("{:>8} {:>7}", format!("{lo}-{hi}"), set.len())?;
        for (_, ev) in &evals {
            out!(" {:>10.2}", mean_error(ev.as_ref(), &set))?;
        }
        outln!()?;
    }
    Ok(())
}

fn mean_error(ev: &dyn Evaluator, set: &[&Record]) -> f64 {
    if set.is_empty() {
        return f64::NAN;
    }
    let sum: i64 = set
        .iter()
        .map(|r| i64::from((ev.evaluate(r.board, u64::MAX) - i32::from(r.label)).abs()))
        .sum();
    sum as f64 / set.len() as f64
}

pub fn bestmove(files: &[PathBuf], depth: u32, weights: Option<&Path>) -> anyhow::Result<()> {
    let mut positions = Vec::new();
    for f in files {
        let text =
            std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
        positions.extend(parse_obf(&text).with_context(|| format!("reading {}", f.display()))?);
    }
    let mut evals = contenders(&[])?;
    if let Some(p) = weights {
        evals[1] = (p.display().to_string(), Arc::new(load_eval(p)?));
    }
    let limits = Limits::midgame(depth);
    outln!(
        "best-move rate of a depth-{depth} midgame search, 1 thread, {} positions",
        positions.len()
    )?;
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
        outln!(
            "{name:>10}: {best}/{} best moves, {:.2} discs lost per position, {nodes} nodes, {:.1} s",
            positions.len(),
            lost as f64 / positions.len().max(1) as f64,
            t.elapsed().as_secs_f64()
        )?;
    }
    Ok(())
}
