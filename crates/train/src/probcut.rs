//! Probcut's constants (`reversi train probcut`): how far shallow searches stray from deep ones and from exact
//! scores, on positions of WTHOR games, and the linear fits of those deviations that the
//! engine's probcut uses (`crates/engine/src/search/probcut.rs`).

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use reversi_engine::engine::{Engine, Limits};
use reversi_engine::pattern::default_evaluator;
use reversi_engine::search::probcut::{endgame_shallow, midgame_shallow, MIDGAME_MIN_DEPTH};
use reversi_engine::{Board, ScoreKind};
use reversi_formats::wthor::parse_wtb;

use crate::data;
use crate::error::{Error, FileError};

/// What `reversi train probcut` measures.
#[derive(Debug, Clone)]
pub struct ProbcutOptions {
    /// WTHOR file to take positions from.
    pub wthor: PathBuf,
    /// Positions per number of empty squares.
    pub positions: usize,
    /// Deepest midgame search measured.
    pub depth: u32,
    /// Shallowest endgame solved exactly for the endgame deviations.
    pub exact_from: u32,
    /// Deepest endgame solved exactly.
    pub exact_to: u32,
}

/// A linear fit of deviations: its coefficients (the constant first) and its rms error.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The coefficients, the constant first.
    pub coefficients: Vec<f64>,
    /// The fit's root-mean-square error.
    pub rms_error: f64,
}

/// `train probcut`'s measures; its `Display` is the command's tables, line by line, up to
/// the first fit that failed ([`ProbcutReport::fits`] says which).
#[derive(Debug, Clone, PartialEq)]
pub struct ProbcutReport {
    /// The WTHOR file.
    pub wthor: PathBuf,
    /// Positions measured.
    pub positions: usize,
    /// Seconds the searches took.
    pub seconds: f64,
    /// Midgame cells: empties, depth, shallow depth, sigma, positions.
    pub midgame: Vec<(u32, u32, u32, f64, usize)>,
    /// sigma = c0 + c1·empties + c2·depth + c3·shallow (`None`: singular).
    pub midgame_fit: Option<Fit>,
    /// Endgame cells: empties, shallow depth, sigma, positions.
    pub endgame: Vec<(u32, u32, f64, usize)>,
    /// sigma = c0 + c1·empties + c2·shallow (`None`: singular).
    pub endgame_fit: Option<Fit>,
}

impl ProbcutReport {
    /// Whether both fits were found.
    ///
    /// # Errors
    /// The first fit whose normal equations are singular.
    pub fn fits(&self) -> Result<(&Fit, &Fit), Error> {
        let mid = self
            .midgame_fit
            .as_ref()
            .ok_or(Error::Singular("the midgame"))?;
        let end = self
            .endgame_fit
            .as_ref()
            .ok_or(Error::Singular("the endgame"))?;
        Ok((mid, end))
    }
}

impl fmt::Display for ProbcutReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} positions of {} ({:.0} s)",
            self.positions,
            self.wthor.display(),
            self.seconds
        )?;
        writeln!(
            f,
            "\nmidgame: deviation of the probcut's shallow search from the deep one (discs)"
        )?;
        writeln!(
            f,
            "{:>7} {:>5} {:>7} {:>6} {:>4}",
            "empties", "depth", "shallow", "sigma", "n"
        )?;
        for (e, d, s, sigma, n) in &self.midgame {
            writeln!(f, "{e:>7} {d:>5} {s:>7} {sigma:>6.2} {n:>4}")?;
        }
        let Some(fit) = &self.midgame_fit else {
            return Ok(());
        };
        let c = &fit.coefficients;
        writeln!(
            f,
            "fit: sigma = {:.3} + {:.4}·empties + {:.4}·depth + {:.4}·shallow (rms error {:.3})",
            c[0], c[1], c[2], c[3], fit.rms_error
        )?;
        writeln!(
            f,
            "\nendgame: deviation of a shallow search from the exact score (discs)"
        )?;
        writeln!(
            f,
            "{:>7} {:>7} {:>6} {:>4}",
            "empties", "shallow", "sigma", "n"
        )?;
        for &(e, s, sigma, n) in &self.endgame {
            let used = if s == endgame_shallow(e) {
                "  (the engine's shallow depth)"
            } else {
                ""
            };
            writeln!(f, "{e:>7} {s:>7} {sigma:>6.2} {n:>4}{used}")?;
        }
        let Some(fit) = &self.endgame_fit else {
            return Ok(());
        };
        let c = &fit.coefficients;
        writeln!(
            f,
            "fit: sigma = {:.3} + {:.4}·empties + {:.4}·shallow (rms error {:.3})",
            c[0], c[1], c[2], fit.rms_error
        )
    }
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

/// Measures the deviations on positions of `a.wthor`, telling `progress` (positions done,
/// positions in all, their empties, seconds so far) before each position.
///
/// # Errors
/// The WTHOR file cannot be read.
pub fn run(
    a: &ProbcutOptions,
    progress: &dyn Fn(usize, usize, u32, f64),
) -> Result<ProbcutReport, Error> {
    let path = &a.wthor;
    let bytes = std::fs::read(path).map_err(FileError::on("reading", path))?;
    let db = parse_wtb(&bytes).map_err(|e| Error::Wthor("parsing", path.clone(), e))?;
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
            progress(done, total, e, started.elapsed().as_secs_f64());
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
    let seconds = started.elapsed().as_secs_f64();
    let mut midgame = Vec::new();
    let mut rows = Vec::new();
    for ((e, d, s), sigma, n) in mid.sigmas() {
        midgame.push((e, d, s, sigma, n));
        rows.push((vec![1.0, f64::from(e), f64::from(d), f64::from(s)], sigma));
    }
    let midgame_fit = least_squares(&rows).map(|c| Fit {
        rms_error: rms_error(&rows, &c),
        coefficients: c,
    });
    let mut endgame = Vec::new();
    let mut rows = Vec::new();
    for ((e, _, s), sigma, n) in end.sigmas() {
        endgame.push((e, s, sigma, n));
        rows.push((vec![1.0, f64::from(e), f64::from(s)], sigma));
    }
    let endgame_fit = least_squares(&rows).map(|c| Fit {
        rms_error: rms_error(&rows, &c),
        coefficients: c,
    });
    Ok(ProbcutReport {
        wthor: path.clone(),
        positions: total,
        seconds,
        midgame,
        midgame_fit,
        endgame,
        endgame_fit,
    })
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
