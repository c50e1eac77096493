//! `reversi train probcut`: how far shallow searches stray from deep ones and from exact
//! scores, on positions of WTHOR games, and the linear fits of those deviations that the
//! engine's probcut uses (`crates/engine/src/search/probcut.rs`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::pattern::default_evaluator;
use reversi_engine::search::probcut::{endgame_shallow, midgame_shallow, MIDGAME_MIN_DEPTH};
use reversi_engine::{Board, ScoreKind};
use reversi_formats::wthor::parse_wtb;

use super::data;
use crate::data::shared_data;

/// `reversi train probcut` options.
#[derive(Debug, Args)]
pub struct ProbcutArgs {
    /// WTHOR file to take positions from [default: the shared data's WTH_2023.wtb]
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// Positions per number of empty squares.
    #[arg(long, default_value_t = 60)]
    pub positions: usize,
    /// Deepest midgame search measured.
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Shallowest and deepest endgames solved exactly for the endgame deviations.
    #[arg(long, default_value_t = 12)]
    pub exact_from: u32,
    #[arg(long, default_value_t = 20)]
    pub exact_to: u32,
}

/// Root-mean-square deviations of shallow from deep values, by cell.
#[derive(Default)]
struct Cells(BTreeMap<(u32, u32, u32), (f64, usize)>);

impl Cells {
    fn add(&mut self, key: (u32, u32, u32), diff: i32) {
        let c = self.0.entry(key).or_default();
        c.0 += f64::from(diff * diff);
        c.1 += 1;
    }

    fn sigmas(&self) -> impl Iterator<Item = ((u32, u32, u32), f64, usize)> + '_ {
        self.0
            .iter()
            .map(|(&k, &(sum, n))| (k, (sum / n as f64).sqrt(), n))
    }
}

pub fn run(a: &ProbcutArgs) -> anyhow::Result<()> {
    let path = a
        .wthor
        .clone()
        .unwrap_or_else(|| shared_data().join("wthor/WTH_2023.wtb"));
    let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let db = parse_wtb(&bytes).with_context(|| format!("parsing {}", path.display()))?;
    let mid_empties: Vec<u32> = (16..=52).step_by(4).collect();
    let end_empties: Vec<u32> = (a.exact_from..=a.exact_to).step_by(2).collect();
    let mut wanted: BTreeMap<u32, Vec<Board>> = BTreeMap::new();
    for game in &db.games {
        let Some(positions) = data::replay(game) else {
            continue;
        };
        for (b, _) in positions {
            let e = b.empties().count_ones();
            if (mid_empties.contains(&e) || end_empties.contains(&e)) && b.moves() != 0 {
                let list = wanted.entry(e).or_default();
                if list.len() < a.positions {
                    list.push(b);
                }
            }
        }
    }
    let eval = default_evaluator(u64::MAX);
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    // Values of every depth 0..=max for a position (depth 0: the static evaluation).
    let depth_values = |b: Board, max: u32| -> Vec<i32> {
        engine.clear();
        let mut values = vec![eval.evaluate(b, u64::MAX)];
        let limits = Limits::midgame(max);
        engine.search(b, u64::MAX, &limits, &stop, &mut |t| {
            if let Some(best) = &t.best {
                if let ScoreKind::Depth { depth, .. } = best.kind {
                    if depth as usize == values.len() {
                        values.push(best.score);
                    }
                }
            }
        });
        values
    };
    let started = Instant::now();
    let mut mid = Cells::default();
    let mut end = Cells::default();
    let total: usize = wanted.values().map(Vec::len).sum();
    let mut done = 0;
    for (&e, boards) in &wanted {
        for &b in boards {
            done += 1;
            eprint!(
                "\r{done}/{total} positions ({e} empties), {:.0} s",
                started.elapsed().as_secs_f64()
            );
            if mid_empties.contains(&e) {
                let v = depth_values(b, a.depth.min(e - 1));
                for d in MIDGAME_MIN_DEPTH..v.len() as u32 {
                    let s = midgame_shallow(d);
                    mid.add((e, d, s), v[d as usize] - v[s as usize]);
                }
            }
            if end_empties.contains(&e) {
                engine.clear();
                let exact = engine
                    .search(b, u64::MAX, &Limits::exact(), &stop, &mut |_| {})
                    .score()
                    .unwrap_or(0);
                let v = depth_values(b, 8.min(e - 1));
                for (s, &value) in v.iter().enumerate() {
                    end.add((e, e, s as u32), exact - value);
                }
            }
        }
    }
    eprintln!();
    outln!(
        "{total} positions of {} ({:.0} s)",
        path.display(),
        started.elapsed().as_secs_f64()
    )?;
    outln!("\nmidgame: deviation of the probcut's shallow search from the deep one (discs)")?;
    outln!(
        "{:>7} {:>5} {:>7} {:>6} {:>4}",
        "empties",
        "depth",
        "shallow",
        "sigma",
        "n"
    )?;
    let mut rows = Vec::new();
    for ((e, d, s), sigma, n) in mid.sigmas() {
        outln!("{e:>7} {d:>5} {s:>7} {sigma:>6.2} {n:>4}")?;
        rows.push((vec![1.0, f64::from(e), f64::from(d), f64::from(s)], sigma));
    }
    let c = least_squares(&rows).context("fitting the midgame deviations")?;
    outln!(
        "fit: sigma = {:.3} + {:.4}·empties + {:.4}·depth + {:.4}·shallow (rms error {:.3})",
        c[0],
        c[1],
        c[2],
        c[3],
        rms_error(&rows, &c)
    )?;
    outln!("\nendgame: deviation of a shallow search from the exact score (discs)")?;
    outln!(
        "{:>7} {:>7} {:>6} {:>4}",
        "empties",
        "shallow",
        "sigma",
        "n"
    )?;
    let mut rows = Vec::new();
    for ((e, _, s), sigma, n) in end.sigmas() {
        let used = if s == endgame_shallow(e) {
            "  (the engine's shallow depth)"
        } else {
            ""
        };
        outln!("{e:>7} {s:>7} {sigma:>6.2} {n:>4}{used}")?;
        rows.push((vec![1.0, f64::from(e), f64::from(s)], sigma));
    }
    let c = least_squares(&rows).context("fitting the endgame deviations")?;
    outln!(
        "fit: sigma = {:.3} + {:.4}·empties + {:.4}·shallow (rms error {:.3})",
        c[0],
        c[1],
        c[2],
        rms_error(&rows, &c)
    )?;
    Ok(())
}

fn rms_error(rows: &[(Vec<f64>, f64)], c: &[f64]) -> f64 {
    let sum: f64 = rows
        .iter()
        .map(|(x, y)| {
            let p: f64 = x.iter().zip(c).map(|(a, b)| a * b).sum();
            (p - y).powi(2)
        })
        .sum();
    (sum / rows.len().max(1) as f64).sqrt()
}

/// Ordinary least squares by the normal equations; `None` when they are singular.
fn least_squares(rows: &[(Vec<f64>, f64)]) -> Option<Vec<f64>> {
    let k = rows.first()?.0.len();
    // The augmented normal equations [XᵀX | Xᵀy].
    let mut m = vec![vec![0.0; k + 1]; k];
    for (x, y) in rows {
        for i in 0..k {
            for j in 0..k {
                m[i][j] += x[i] * x[j];
            }
            m[i][k] += x[i] * y;
        }
    }
    for col in 0..k {
        let pivot = (col..k).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-9 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..k).map(|i| m[i][k] / m[i][i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_recovers_a_plane() {
        let rows: Vec<(Vec<f64>, f64)> = (0..20)
            .map(|i| {
                let (a, b) = (f64::from(i % 5), f64::from(i / 5));
                (vec![1.0, a, b], 2.0 + 0.5 * a - 1.5 * b)
            })
            .collect();
        let c = least_squares(&rows).unwrap();
        for (got, want) in c.iter().zip([2.0, 0.5, -1.5]) {
            assert!((got - want).abs() < 1e-9, "{c:?}");
        }
        assert!(rms_error(&rows, &c) < 1e-9);
        assert_eq!(least_squares(&[(vec![0.0, 0.0], 1.0)]), None);
    }
}
