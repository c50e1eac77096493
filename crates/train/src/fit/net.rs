//! The network fit (generation 3): training the generated evaluation (the engine's
//! `pattern::net`) by least squares on (position, final disc difference) samples by
//! mini-batch Adam on the networks' parameters. Each position's prediction is what the
//! generated tables will hold for it: the sum of its pattern instances' network outputs and
//! its scalars' quadratics, at its stage's phase; the error is propagated back through every
//! network it used. Deterministic for a seed whatever the
//! threads: a batch is cut into a fixed number of parts whose gradients are summed in order.
//!
//! Weights with extras ([`NetWeights::with_extras`]) learn generation 3's mobility patterns
//! and head together with the networks: the head reads each pattern's sum of network
//! outputs, and its derivative in that sum scales the error sent back into the pattern's
//! network, as the table fit does for its tables. The mobility-pattern weights are many
//! (7,188 a stage) and a position touches 108, so they take sparse Adam steps (each weight
//! its own step count) instead of a dense pass over all of them every batch.
//!
//! What it reads of the engine: the networks' parameter layout and forward pass
//! (`pattern::net`), the pattern set's features, the evaluation the tables make (for the
//! validation error), and [`kernel::run`], which compiles the per-position gradient once per
//! kernel set.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use reversi_engine::kernel::{self, Tiered};
use reversi_engine::pattern::net::{
    self, forward, layout, leaky, net_parts, Layout, NetWeights, Tail, LEAK,
};
use reversi_engine::pattern::{
    pattern_set, stage, PatternEval, ACTIVE, HEAD_INPUTS, MAX_HIDDEN, MOBILITY_ACTIVE,
    PATTERN_NAMES, SCALE,
};

use super::linear::{HeadNet, Rng, Sample};

/// The head's Adam step, as a share of the networks' (the table fit's head learns at a
/// tenth of its tables' step, which is about three times the networks').
const HEAD_STEP: f32 = 0.3;
/// The mobility patterns' Adam step, as a multiple of the networks' (the table fit's
/// step for tables).
const MOBILITY_STEP: f32 = 3.0;

/// Parts of a batch whose gradients are computed apart (and summed in order).
const PARTS: usize = 8;

/// A part's gradient: every parameter's but the mobility patterns' (dense), and those of
/// the mobility patterns as (parameter, value) in the order the positions gave them.
type Part = (Vec<f32>, Vec<(u32, f32)>);

/// How to train.
#[derive(Debug, Clone, PartialEq)]
pub struct NetFitOptions {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Seed of the shuffles.
    pub seed: u64,
    /// Adam's step size at the first epoch (it falls along a cosine to a twentieth).
    pub learning_rate: f32,
    /// Positions per Adam step.
    pub batch: usize,
    /// Threads computing a batch's gradient (the result does not depend on it).
    pub threads: usize,
}

impl Default for NetFitOptions {
    fn default() -> NetFitOptions {
        NetFitOptions {
            epochs: 10,
            seed: 1,
            learning_rate: 0.002,
            batch: 1024,
            threads: 1,
        }
    }
}

/// The state after an epoch.
#[derive(Debug, Clone, PartialEq)]
pub struct NetEpochReport {
    /// The epoch just finished, counting from 1.
    pub epoch: u32,
    /// Mean squared error over the epoch's batches (before each batch's step).
    pub train_mse: f64,
    /// Mean absolute error in discs of the generated tables on the validation positions.
    pub valid_mae: f64,
    /// The same for each number of empties 0 to 60: (positions, mean absolute error).
    pub valid_by_empties: Vec<(usize, f64)>,
}

/// The W1 rows of every shared pattern feature, computed once per fit.
struct Rows {
    rows: Vec<[u8; 16]>,
    len: Vec<u8>,
}

impl Rows {
    fn build() -> Rows {
        let set = pattern_set();
        // The rows depend on the squares only, not on the networks' width.
        let l = layout(net::DEFAULT_NET_HIDDEN);
        let configurations = set.configurations();
        let mut rows = Vec::with_capacity(configurations.len());
        let mut len = Vec::with_capacity(configurations.len());
        for &(g, config) in configurations {
            let mut r = [0u8; 16];
            let k = net::config_rows(config, l.squares[usize::from(g)], &mut r);
            rows.push(r);
            len.push(k as u8);
        }
        Rows { rows, len }
    }
}

/// The gradient of one position (see [`sample_gradient`]) as work for [`kernel::run`], which
/// compiles it once per kernel set, and once per network width here: the networks' 16- or
/// 32-wide rows are what the wider vectors speed up. The sums are in the same order in every
/// copy, so the result does not depend on the CPU.
struct Gradient<'a, 'm> {
    model: &'a Model<'m>,
    sample: &'a Sample,
    /// The phase and stage of the position.
    at: (f32, usize),
    scale: f32,
    part: &'a mut Part,
}

impl Tiered for Gradient<'_, '_> {
    type Output = f32;

    #[inline(always)]
    fn run(self) -> f32 {
        let Gradient {
            model: m,
            sample: s,
            at,
            scale,
            part,
        } = self;
        if m.layout.hidden == 32 {
            sample_gradient::<32>(m, s, at, scale, &mut part.0, &mut part.1)
        } else {
            sample_gradient::<16>(m, s, at, scale, &mut part.0, &mut part.1)
        }
    }
}

/// What a position's gradient reads: the parameters and where everything sits in them.
struct Model<'a> {
    params: &'a [f32],
    layout: &'a Layout,
    rows: &'a Rows,
    tail: &'a Tail,
}

/// Adds the squared error's gradient of one position, times `scale`, to `grad` (the
/// mobility patterns' to `sparse`, as parameter index and value); returns the error
/// (prediction minus label). `H` is the networks' width (`m.layout.hidden`).
#[inline(always)]
fn sample_gradient<const H: usize>(
    m: &Model<'_>,
    s: &Sample,
    (t, st): (f32, usize),
    scale: f32,
    grad: &mut [f32],
    sparse: &mut Vec<(u32, f32)>,
) -> f32 {
    let (params, l, rows, tail) = (m.params, m.layout, m.rows, m.tail);
    let set = pattern_set();
    let active = set.active(s.board);
    let instances = set.instances();
    let mut cache = [([0f32; H], [0f32; H]); ACTIVE];
    let mut pred = 0f32;
    // The head's inputs: each pattern's sum, the scalars' sum (in eighths of a disc), the
    // phase.
    let mut x = [0f32; HEAD_INPUTS];
    for (k, &f) in active.iter().enumerate().take(instances) {
        let f = f as usize;
        let g = usize::from(set.configurations()[f].0);
        let n = l.squares[g];
        let r = &rows.rows[f][..usize::from(rows.len[f])];
        let (out, h1, h2) = forward::<H>(&params[l.nets[g]..], n, r, t, st);
        pred += out;
        x[g] += out;
        cache[k] = (h1, h2);
    }
    for &f in &active[instances..] {
        let v = params[net::scalar_at(l, f as usize - set.first_scalar(), st)];
        pred += v;
        x[PATTERN_NAMES.len()] += v;
    }
    let mut mobility = [0u32; MOBILITY_ACTIVE];
    if tail.mobility_len > 0 {
        // The stage's mobility-pattern weights, which the features numbered from
        // `set.features()` on index.
        let base = tail.mobility + st * tail.mobility_len;
        for (m, &f) in mobility.iter_mut().zip(&set.active_mobility(s.board)) {
            *m = (base + (f as usize - set.features())) as u32;
            pred += params[*m as usize];
        }
    }
    let head_at = tail.head + st * tail.head_len;
    let head = (tail.hidden > 0).then(|| HeadNet {
        hidden: tail.hidden,
        p: &params[head_at..head_at + tail.head_len],
    });
    let mut z = [0f32; MAX_HIDDEN];
    if let Some(head) = &head {
        for xi in &mut x[..HEAD_INPUTS - 1] {
            *xi /= 8.0;
        }
        x[HEAD_INPUTS - 1] = s.empties() as f32 / 30.0 - 1.0;
        pred += head.forward(&x, &mut z);
    }
    let e = pred - f32::from(s.label);
    let d = scale * e;
    // What the error is worth in each head input's sum: 1, plus the head's derivative.
    let mut through = [1f32; HEAD_INPUTS];
    if let Some(head) = &head {
        let dx = head.backward(&x, &z, d, &mut grad[head_at..head_at + tail.head_len]);
        for (w, dx) in through.iter_mut().zip(dx) {
            *w += dx / 8.0;
        }
    }
    for (k, &f) in active.iter().enumerate().take(instances) {
        let f = f as usize;
        let g = usize::from(set.configurations()[f].0);
        let n = l.squares[g];
        let r = &rows.rows[f][..usize::from(rows.len[f])];
        let start = l.nets[g];
        let (h1, h2) = &cache[k];
        backward::<H>(
            &params[start..start + net::net_len(n, H)],
            n,
            r,
            (t, st),
            h1,
            h2,
            d * through[g],
            &mut grad[start..start + net::net_len(n, H)],
        );
    }
    for &f in &active[instances..] {
        grad[net::scalar_at(l, f as usize - set.first_scalar(), st)] +=
            d * through[PATTERN_NAMES.len()];
    }
    if tail.mobility_len > 0 {
        sparse.extend(mobility.iter().map(|&m| (m, d)));
    }
    e
}

#[inline(always)]
fn slope(x: f32) -> f32 {
    if x > 0.0 {
        1.0
    } else {
        LEAK
    }
}

/// Adds `d` times the gradient of one network's output to `grad` (the network's own
/// slice), from the pre-activations of its forward pass.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn backward<const H: usize>(
    net: &[f32],
    n: usize,
    rows: &[u8],
    (t, st): (f32, usize),
    h1: &[f32; H],
    h2: &[f32; H],
    d: f32,
    grad: &mut [f32],
) {
    let [w1, b1, w2, b2, w3, b3] = net_parts(n, H);
    grad[b3] += d;
    let mut g2 = [0f32; H];
    for i in 0..H {
        grad[w3 + i] += d * leaky(h2[i]);
        g2[i] = d * net[w3 + i] * slope(h2[i]);
    }
    for (g, x) in grad[b2..b2 + H].iter_mut().zip(&g2) {
        *g += x;
    }
    let mut g1 = [0f32; H];
    for i in 0..H {
        let a = leaky(h1[i]);
        let row = w2 + i * H;
        let mut back = 0f32;
        for j in 0..H {
            grad[row + j] += a * g2[j];
            back += net[row + j] * g2[j];
        }
        g1[i] = back * slope(h1[i]);
    }
    for (g, x) in grad[b1..b1 + H].iter_mut().zip(&g1) {
        *g += x;
    }
    let phase_row = w1 + 2 * n * H;
    for (g, x) in grad[phase_row..phase_row + H].iter_mut().zip(&g1) {
        *g += t * x;
    }
    let stage_row = w1 + (2 * n + 1 + st) * H;
    for (g, x) in grad[stage_row..stage_row + H].iter_mut().zip(&g1) {
        *g += x;
    }
    for &r in rows {
        let at = w1 + usize::from(r) * H;
        for (g, x) in grad[at..at + H].iter_mut().zip(&g1) {
            *g += x;
        }
    }
}

/// Mean absolute error of an evaluation's rounded-to-1/[`SCALE`] values on `samples`,
/// overall and for each number of empties 0 to 60.
#[must_use]
pub(super) fn mae_by_empties(eval: &PatternEval, samples: &[Sample]) -> (f64, Vec<(usize, f64)>) {
    let mut by = vec![(0usize, 0f64); 61];
    let mut total = 0f64;
    for s in samples {
        let v = (f64::from(eval.raw(s.board)) / f64::from(SCALE)).clamp(-64.0, 64.0);
        let e = (v - f64::from(s.label)).abs();
        let slot = &mut by[(s.empties() as usize).min(60)];
        slot.0 += 1;
        slot.1 += e;
        total += e;
    }
    for slot in &mut by {
        if slot.0 > 0 {
            slot.1 /= slot.0 as f64;
        }
    }
    (total / samples.len().max(1) as f64, by)
}

/// What every thread of the fit reads to compute a batch's parts.
struct Batch<'a> {
    train: &'a [Sample],
    layout: &'a Layout,
    rows: &'a Rows,
    phase_of: &'a [(f32, usize)],
    tail: &'a Tail,
    dense: &'a [std::ops::Range<usize>; 2],
    params: &'a RwLock<Vec<f32>>,
    order: &'a RwLock<Vec<u32>>,
    parts: &'a [Mutex<Part>],
    threads: usize,
}

impl Batch<'_> {
    /// Thread `t`'s parts of the batch `order[lo..hi]`: those numbered `t` modulo the
    /// threads.
    fn run(&self, t: usize, lo: usize, hi: usize) -> Vec<(usize, f64)> {
        self.parts((t..PARTS).step_by(self.threads).collect(), lo, hi)
    }

    /// The gradients of the parts `ks` of the batch `order[lo..hi]` (each part an eighth
    /// of it, into its buffer) and each part's squared error.
    fn parts(&self, ks: Vec<usize>, lo: usize, hi: usize) -> Vec<(usize, f64)> {
        let params = read(self.params);
        let order = read(self.order);
        let chunk = order.get(lo..hi).unwrap_or(&[]);
        let scale = 2.0 / chunk.len().max(1) as f32;
        let per = chunk.len().div_ceil(PARTS);
        let mut out = Vec::new();
        for k in ks {
            let Some(part) = self.parts.get(k) else {
                continue;
            };
            let mut part = lock(part);
            for r in self.dense {
                part.0[r.clone()].iter_mut().for_each(|x| *x = 0.0);
            }
            part.1.clear();
            let mut part_se = 0f64;
            let from = (k * per).min(chunk.len());
            let to = ((k + 1) * per).min(chunk.len());
            for &i in &chunk[from..to] {
                let s = &self.train[i as usize];
                let at = self.phase_of[s.empties() as usize];
                let m = Model {
                    params: params.as_slice(),
                    layout: self.layout,
                    rows: self.rows,
                    tail: self.tail,
                };
                let e = kernel::run(Gradient {
                    model: &m,
                    sample: s,
                    at,
                    scale,
                    part: &mut part,
                });
                part_se += f64::from(e) * f64::from(e);
            }
            out.push((k, part_se));
        }
        out
    }
}

/// Reads behind a lock another thread may have poisoned (the data is still whole: writers
/// here never leave it half done).
fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

/// [`read`] for writing.
fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}

/// [`read`] for a mutex.
fn lock<T>(lock: &Mutex<T>) -> MutexGuard<'_, T> {
    lock.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Trains `start` on `train`, reporting after each epoch the training loss and the
/// generated tables' error on `valid` (never learnt from). Returns the trained weights.
pub fn fit_net(
    train: &[Sample],
    valid: &[Sample],
    start: NetWeights,
    opts: &NetFitOptions,
    report: &mut dyn FnMut(&NetEpochReport),
) -> NetWeights {
    let rows = Rows::build();
    let mut w = start;
    let stages = w.stages;
    let phase_of: Vec<(f32, usize)> = (0..=64)
        .map(|e| {
            let st = stage(e, stages);
            (net::stage_phase(st, stages), st)
        })
        .collect();
    let n = w.params.len();
    let tail = w.tail();
    // The mobility patterns' weights learn by sparse steps; every other parameter densely.
    let dense = [0..tail.mobility, tail.head..n];
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let mut sparse_steps = vec![0u32; n];
    let mut sparse_grad = vec![0f32; n];
    let mut touched: Vec<u32> = Vec::new();
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    // Adam's bias corrections for each step count a sparse weight can reach, computed once
    // (the same `powi` values, without a call for every weight a batch touches).
    let corrections: Vec<(f32, f32)> = if tail.mobility_len > 0 {
        (0..=100_000)
            .map(|t| (1.0 - b1.powi(t), 1.0 - b2.powi(t)))
            .collect()
    } else {
        Vec::new()
    };
    let mut step = 0i32;
    let mut rng = Rng(opts.seed);
    let batch = opts.batch.max(PARTS);
    let threads = opts.threads.clamp(1, PARTS);
    let total_steps = (opts.epochs as usize * train.len().div_ceil(batch)).max(1);
    let parts: Vec<Mutex<Part>> = (0..PARTS)
        .map(|_| Mutex::new((vec![0f32; n], Vec::new())))
        .collect();
    // The workers live as long as the fit (threads spawned for every batch of a few
    // milliseconds are not spread over the cores beside other work, such as self-play at a
    // lower priority): the parameters and the shuffled order are shared behind locks that
    // only this thread writes, between batches.
    let params = RwLock::new(std::mem::take(&mut w.params));
    let shared_order = RwLock::new((0..train.len() as u32).collect::<Vec<u32>>());
    let batch_job = Batch {
        train,
        layout: layout(w.hidden),
        rows: &rows,
        phase_of: &phase_of,
        tail: &tail,
        dense: &dense,
        params: &params,
        order: &shared_order,
        parts: &parts,
        threads,
    };
    std::thread::scope(|scope| {
        // Worker t computes the parts k with k % threads == t; this thread is worker 0.
        let mut jobs = Vec::new();
        let mut workers = Vec::new();
        let (done_tx, done) = mpsc::channel::<Vec<(usize, f64)>>();
        for t in 1..threads {
            let (tx, rx) = mpsc::channel::<(usize, usize)>();
            jobs.push(tx);
            let done_tx = done_tx.clone();
            let job = &batch_job;
            workers.push(scope.spawn(move || {
                for (lo, hi) in rx {
                    // A panic (a bug) answers with no parts, which the calling thread then
                    // computes, and ends the worker: later batches are not sent to it.
                    let run = std::panic::catch_unwind(AssertUnwindSafe(|| job.run(t, lo, hi)));
                    let stop = run.is_err();
                    if done_tx.send(run.unwrap_or_default()).is_err() || stop {
                        break;
                    }
                }
            }));
        }
        drop(done_tx);
        for epoch in 1..=opts.epochs {
            rng.shuffle(write(&shared_order).as_mut_slice());
            let mut se = 0f64;
            for lo in (0..train.len()).step_by(batch) {
                let hi = (lo + batch).min(train.len());
                // A worker that stopped takes no batch and leaves its parts to the check
                // below.
                let sent = jobs.iter().filter(|tx| tx.send((lo, hi)).is_ok()).count();
                let mut errors = batch_job.run(0, lo, hi);
                for _ in 0..sent {
                    errors.extend(done.recv().unwrap_or_default());
                }
                errors.sort_by_key(|&(k, _)| k);
                if errors.len() < PARTS {
                    // A worker stopped (a bug): its parts are computed here instead.
                    let missing = (0..PARTS).filter(|k| errors.iter().all(|e| e.0 != *k));
                    errors.extend(batch_job.parts(missing.collect(), lo, hi));
                    errors.sort_by_key(|&(k, _)| k);
                }
                se += errors.iter().map(|&(_, e)| e).sum::<f64>();
                step += 1;
                let progress = step as f32 / total_steps as f32;
                let lr = opts.learning_rate
                    * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos()));
                let (c1, c2) = (
                    1.0 - b1.powi(step.min(100_000)),
                    1.0 - b2.powi(step.min(100_000)),
                );
                let parts: Vec<_> = parts.iter().map(lock).collect();
                let mut params = write(&params);
                for (r, step_share) in dense.iter().zip([1.0, HEAD_STEP]) {
                    let lr = lr * step_share;
                    for i in r.clone() {
                        let mut g = 0f32;
                        for part in &parts {
                            g += part.0[i];
                        }
                        m[i] = b1 * m[i] + (1.0 - b1) * g;
                        v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                        params[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                    }
                }
                // The mobility patterns: the parts' gradients summed in order, then one Adam
                // step for each weight the batch touched, with its own step count.
                for part in &parts {
                    for &(i, g) in &part.1 {
                        let slot = &mut sparse_grad[i as usize];
                        if *slot == 0.0 {
                            touched.push(i);
                        }
                        // A zero sum stays listed once: mark it with a tiny non-zero value.
                        *slot += g + f32::MIN_POSITIVE;
                    }
                }
                for &i in &touched {
                    let i = i as usize;
                    let g = std::mem::take(&mut sparse_grad[i]);
                    sparse_steps[i] = (sparse_steps[i] + 1).min(100_000);
                    let (c1, c2) = corrections[sparse_steps[i] as usize];
                    m[i] = b1 * m[i] + (1.0 - b1) * g;
                    v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                    params[i] -= lr * MOBILITY_STEP * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                }
                touched.clear();
            }
            w.params.clone_from(&read(&params));
            let eval = PatternEval::new(&w.tables());
            let (valid_mae, valid_by_empties) = mae_by_empties(&eval, valid);
            report(&NetEpochReport {
                epoch,
                train_mse: se / train.len().max(1) as f64,
                valid_mae,
                valid_by_empties,
            });
        }
        // Closing the job channels ends the workers.
        drop(jobs);
        for worker in workers {
            let _ = worker.join();
        }
    });
    w
}

/// The prediction the training computes for `b` (before the tables round it), in discs:
/// for tests that hold the generated tables to the networks.
#[cfg(test)]
#[must_use]
pub(super) fn predict(w: &NetWeights, b: reversi_engine::Board) -> f32 {
    gradient_of(w, b, 0).0
}

/// The training's prediction for `b` (label 0, so also its error) and the gradient of the
/// squared error in every parameter, the mobility patterns' summed in: for tests that
/// compare it with finite differences.
#[cfg(test)]
#[must_use]
pub(super) fn gradient_of(w: &NetWeights, b: reversi_engine::Board, label: i8) -> (f32, Vec<f32>) {
    let rows = Rows::build();
    let st = stage(b.empties().count_ones(), w.stages);
    let t = net::stage_phase(st, w.stages);
    let s = Sample { board: b, label };
    let tail = w.tail();
    let m = Model {
        params: &w.params,
        layout: layout(w.hidden),
        rows: &rows,
        tail: &tail,
    };
    let mut part: Part = (vec![0f32; w.params.len()], Vec::new());
    // Compiled for the baseline here: the same sums as every tier's copy.
    let e = Gradient {
        model: &m,
        sample: &s,
        at: (t, st),
        scale: 2.0,
        part: &mut part,
    }
    .run();
    let (mut grad, sparse) = part;
    for (i, g) in sparse {
        grad[i as usize] += g;
    }
    (e + f32::from(label), grad)
}
