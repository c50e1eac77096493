//! Fitting the pattern weights: least squares on (position, final disc difference) samples,
//! one stage at a time, by mini-batch Adam with L2 regularisation. Only the weights a batch
//! touches are updated (each with its own step count), so a pass costs what the batch's
//! features cost, not the whole table. Deterministic for a seed: one thread, a seeded
//! shuffle, sums in a fixed order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::{pattern_set, stage_empties, Weights, ACTIVE, MAX_STAGES};
use crate::Board;

/// A training position: the board (player to move) and the value to learn, in discs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// The position, from the side to move's point of view.
    pub board: Board,
    /// The final disc difference for the side to move (from the game's result or a solve).
    pub label: i8,
}

impl Sample {
    /// The empty squares of the 8x8 board, which pick the sample's stage.
    #[must_use]
    pub fn empties(&self) -> u32 {
        self.board.empties().count_ones()
    }
}

/// How to fit.
#[derive(Debug, Clone, PartialEq)]
pub struct FitOptions {
    /// Passes over each stage's training positions.
    pub epochs: u32,
    /// Seed of the shuffles; the same seed and samples give the same weights.
    pub seed: u64,
    /// Adam's step size in discs at the first epoch (it falls linearly to a tenth).
    pub learning_rate: f32,
    /// L2 penalty on every weight.
    pub l2: f32,
    /// Positions per mini-batch (one Adam step each).
    pub batch: usize,
    /// A stage also learns from positions this many empties outside its own range, which
    /// smooths the weights from stage to stage and helps rare patterns.
    pub window: u32,
    /// Weight sets sharing the game evenly (1 to [`MAX_STAGES`]).
    pub stages: usize,
    /// Stages fitted at once (the result does not depend on it).
    pub threads: usize,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 12,
            seed: 1,
            learning_rate: 0.02,
            l2: 1e-4,
            batch: 256,
            window: 2,
            stages: 30,
            threads: 1,
        }
    }
}

/// The state of one stage after an epoch.
#[derive(Debug, Clone, PartialEq)]
pub struct EpochReport {
    /// The stage fitted, 0-based (see [`super::stage_empties`]).
    pub stage: usize,
    /// The epoch just finished, counting from 1.
    pub epoch: u32,
    /// Positions the stage learnt from, its window included.
    pub train_samples: usize,
    /// Mean squared error over the epoch's batches (before each batch's update).
    pub train_mse: f64,
    /// Validation positions in the stage's own range.
    pub valid_samples: usize,
    /// On the validation positions of the stage's own range, after the epoch.
    pub valid_mse: f64,
    /// Mean absolute error in discs on the same validation positions.
    pub valid_mae: f64,
}

/// A seeded generator for the shuffles (`SplitMix64`).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

fn predict(w: &[f32], active: &[u32; ACTIVE]) -> f32 {
    active.iter().map(|&f| w[f as usize]).sum()
}

/// Mean squared and absolute error of `w` on `samples` (predictions clamped to ±64).
#[must_use]
pub fn errors(w: &[f32], samples: &[&Sample]) -> (f64, f64) {
    let set = pattern_set();
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let (mut se, mut ae) = (0.0f64, 0.0f64);
    for s in samples {
        let e = f64::from(predict(w, &set.active(s.board)).clamp(-64.0, 64.0) - f32::from(s.label));
        se += e * e;
        ae += e.abs();
    }
    let n = samples.len() as f64;
    (se / n, ae / n)
}

/// Fits every stage on `train`, reporting after each epoch the training loss and the error
/// on `valid` (which the fit never learns from). Starts from `start` when given and it has
/// as many stages, from zero otherwise. Returns the weights in discs, stage by stage.
///
/// With several threads the stages are fitted side by side and reports of different stages
/// interleave; the weights are the same as with one.
pub fn fit(
    train: &[Sample],
    valid: &[Sample],
    start: Option<&Weights>,
    opts: &FitOptions,
    report: &(dyn Fn(&EpochReport) + Sync),
) -> Vec<Vec<f32>> {
    let stages = opts.stages.clamp(1, MAX_STAGES);
    let start = start.filter(|w| w.stages() == stages);
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<Vec<f32>>>> = Mutex::new(vec![None; stages]);
    std::thread::scope(|scope| {
        for _ in 0..opts.threads.clamp(1, stages) {
            scope.spawn(|| loop {
                let s = next.fetch_add(1, Ordering::Relaxed);
                if s >= stages {
                    break;
                }
                let w = fit_stage(s, train, valid, start, opts, report);
                if let Ok(mut d) = done.lock() {
                    d[s] = Some(w);
                }
            });
        }
    });
    let n = pattern_set().features();
    done.into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|w| w.unwrap_or_else(|| vec![0.0; n]))
        .collect()
}

fn fit_stage(
    stage: usize,
    train: &[Sample],
    valid: &[Sample],
    start: Option<&Weights>,
    opts: &FitOptions,
    report: &(dyn Fn(&EpochReport) + Sync),
) -> Vec<f32> {
    let set = pattern_set();
    let n = set.features();
    let (lo, hi) = stage_empties(stage, opts.stages.clamp(1, MAX_STAGES));
    let mut mine: Vec<&Sample> = train
        .iter()
        .filter(|s| {
            let e = s.empties();
            e + opts.window >= lo && e <= hi + opts.window
        })
        .collect();
    let check: Vec<&Sample> = valid
        .iter()
        .filter(|s| (lo..=hi).contains(&s.empties()))
        .collect();
    let mut w = start.map_or_else(|| vec![0.0f32; n], |w| w.stage_discs(stage));
    let mut m = vec![0.0f32; n];
    let mut v = vec![0.0f32; n];
    let mut steps = vec![0u32; n];
    let mut grad = vec![0.0f32; n];
    let mut touched: Vec<u32> = Vec::new();
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut rng = Rng(opts.seed ^ (stage as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let batch = opts.batch.max(1);
    for epoch in 1..=opts.epochs {
        // The step shrinks linearly to a tenth by the last epoch, to settle.
        let progress = (epoch - 1) as f32 / opts.epochs.max(1) as f32;
        let lr = opts.learning_rate * (1.0 - 0.9 * progress);
        rng.shuffle(&mut mine);
        let mut se = 0.0f64;
        for chunk in mine.chunks(batch) {
            let scale = 2.0 / chunk.len() as f32;
            for s in chunk {
                let active = set.active(s.board);
                let e = predict(&w, &active) - f32::from(s.label);
                se += f64::from(e) * f64::from(e);
                for &f in &active {
                    let g = &mut grad[f as usize];
                    if *g == 0.0 {
                        touched.push(f);
                    }
                    // A zero sum stays listed once: mark it with a tiny non-zero value.
                    *g += scale * e + f32::MIN_POSITIVE;
                }
            }
            for &f in &touched {
                let f = f as usize;
                let g = grad[f] + opts.l2 * w[f];
                grad[f] = 0.0;
                steps[f] += 1;
                m[f] = b1 * m[f] + (1.0 - b1) * g;
                v[f] = b2 * v[f] + (1.0 - b2) * g * g;
                let t = steps[f].min(100_000) as i32;
                let mh = m[f] / (1.0 - b1.powi(t));
                let vh = v[f] / (1.0 - b2.powi(t));
                w[f] -= lr * mh / (vh.sqrt() + eps);
            }
            touched.clear();
        }
        let (valid_mse, valid_mae) = errors(&w, &check);
        report(&EpochReport {
            stage,
            epoch,
            train_samples: mine.len(),
            train_mse: if mine.is_empty() {
                0.0
            } else {
                se / mine.len() as f64
            },
            valid_samples: check.len(),
            valid_mse,
            valid_mae,
        });
    }
    w
}
