//! The trained pattern evaluation for 8x8: Edax-style patterns (corner 3x3 and 2x5 regions,
//! edges with their X squares, rows, columns and diagonals) with weights shared between the
//! eight symmetries, plus mobility, potential mobility and parity, one weight set per stage
//! of the game (the weights file says how many: generation 1 has one per four empty squares,
//! generation 2 one per two).
//!
//! Every pattern instance reads its squares as a base-3 number (empty 0, player 1,
//! opponent 2), digits in increasing bit order; with BMI2 that is two `pext` and two table
//! look-ups. At load the shared weights are expanded into one table per instance and stage,
//! so the evaluation is one load per instance and no symmetry work.
//!
//! Generation 3's weights may add mobility patterns (each instance's squares read as a
//! binary number in each side's legal moves: one `pext` each, expanded per instance like
//! the others) and a head: a small network over each pattern's sum, the scalars' sum and
//! the phase, added to the sum ([`Extras`]); its first layer is evaluated in integers, its
//! output layer in `f32`.
//!
//! The fits that find the weights are the training crate's (`reversi-train`). What they read
//! of the engine is public here: the numbering of the shared features and the features a
//! position reads ([`pattern_set`], [`PatternSet`]), the stages ([`stage`],
//! [`stage_empties`]), the weights ([`Weights`], in 1/[`SCALE`] discs), the evaluation's exact
//! value ([`PatternEval::raw`]) and the generated evaluation's parameters ([`net`]).

pub mod net;
mod set;
mod weights;

use std::sync::{Arc, OnceLock};

use crate::eval::{Evaluator, HandEval, WithOrdering};
use crate::kernel;
use crate::lanes::{Lanes, LANES};
#[cfg(test)]
use crate::ternary::{ternary, ternary_portable};
use crate::Board;

use set::scalars_of;
#[cfg(test)]
pub(crate) use set::transform;
pub use set::{
    pattern_set, stage, stage_empties, PatternSet, ACTIVE, MAX_STAGES, MOBILITY_ACTIVE,
    PATTERN_NAMES, SCALE,
};
pub(crate) use set::{GROUPS, SCALAR_COUNT};
pub use weights::{crc32, Extras, Weights, WeightsError, HEAD_INPUTS, MAX_HIDDEN};

/// The trained evaluation: expanded weights, and the hand-made evaluation for boards smaller
/// than 8x8 (the patterns are 8x8 only).
pub struct PatternEval {
    /// The pattern instances the weights use, in the set's order: the instances of a pattern
    /// whose weights are zero in every stage (one a small evaluation leaves out) are neither
    /// stored nor read.
    probes: Vec<Probe>,
    /// The weight set of each number of empties (0 to 64).
    stage_of: [u8; 65],
    /// Entries of a stage's expanded table: the tables of the instances read, then the
    /// scalars' (from `scalar_local`).
    local: usize,
    scalar_local: usize,
    /// One table of `local` weights per stage.
    expanded: Vec<i16>,
    /// The mobility patterns the weights use, in the set's order: those of a pattern whose
    /// mobility weights are zero in every stage (for either side) are neither stored nor
    /// read (empty without mobility patterns).
    mobility_probes: Vec<MobilityProbe>,
    /// Entries of a stage's expanded mobility table: the tables of the mobility patterns
    /// read, the mover's then the opponent's for each.
    mobility_local: usize,
    /// One table of `mobility_local` weights per stage.
    mobility: Vec<i16>,
    /// One head per stage (none without a head).
    heads: Heads,
    small: [HandEval; 2],
}

/// A pattern instance as the evaluation reads it.
#[derive(Debug, Clone, Copy)]
struct Probe {
    /// The instance's squares.
    mask: u64,
    /// Where its table starts in a stage's expanded table.
    offset: usize,
    /// Its pattern (index in [`GROUPS`]), for the head.
    group: u8,
}

/// A mobility pattern as the evaluation reads it.
#[derive(Debug, Clone, Copy)]
struct MobilityProbe {
    /// The instance's squares.
    mask: u64,
    /// Where its mover's table starts in a stage's expanded mobility table; the opponent's
    /// follows it.
    offset: usize,
    /// Entries of one side's table (2^squares).
    size: usize,
}

/// The head's inputs in pairs (the last pair padded with a zero input).
const HEAD_PAIRS: usize = HEAD_INPUTS.div_ceil(2);

/// The largest pattern or scalar sum the head reads (in 1/[`SCALE`] discs: 128 discs); a
/// larger sum is read as this. With the largest weight (below 2^14) and bias (2^27) it
/// keeps the first layer's sums within 32 bits (checked below).
const HEAD_INPUT_MAX: i32 = (1 << 13) - 1;

/// The largest weight of the head's first layer in its integer units.
const HEAD_WEIGHT_MAX: i32 = (1 << 14) - 1;

/// The largest bias of the head's first layer in its integer units.
const HEAD_BIAS_MAX: i32 = 1 << 27;

// The sums' inputs, the empties (at most 64) and the bias.
const _: () = assert!(
    (HEAD_INPUTS - 1) as i64 * (HEAD_WEIGHT_MAX as i64) * (HEAD_INPUT_MAX as i64)
        + 64 * (HEAD_WEIGHT_MAX as i64)
        + (HEAD_BIAS_MAX as i64)
        < (i32::MAX as i64),
    "the head's first-layer sums stay within 32 bits"
);

/// The heads of every stage as the evaluation reads them. The first layer is integer: the
/// inputs are the pattern sums and the scalars' sum as they come (16 bits, 1/[`SCALE`]
/// discs) and the empty squares, the weights 16 bits (the file's times a scale of the unit,
/// rounded), the sums 32 bits, exact, so every kernel set gets the same units. The output
/// layer (leaky ReLU, weights, in `f32`) divides each unit's scale out again (the leaky
/// ReLU commutes with a positive scale).
struct Heads {
    /// Hidden units (0: no head).
    hidden: usize,
    /// Each stage's first-layer weights: for each pair of inputs, for each unit, the
    /// weights of the pair's two inputs (so that one vector step takes a pair for eight
    /// units).
    weights: Vec<i16>,
    /// Each stage's first-layer biases.
    bias: Vec<i32>,
    /// Each stage's output weights (in 1/[`SCALE`] discs a unit of the first layer), then
    /// its output bias (in 1/[`SCALE`] discs).
    out: Vec<f32>,
}

/// The slope of the head's leaky ReLU below zero.
const LEAK: f32 = 1.0 / 16.0;

impl Heads {
    /// No head.
    fn none() -> Heads {
        Heads {
            hidden: 0,
            weights: Vec::new(),
            bias: Vec::new(),
            out: Vec::new(),
        }
    }

    /// The heads of a weights file with `hidden` units a stage, `stages` of them.
    fn new(w: &Weights, stages: usize, hidden: usize) -> Heads {
        if hidden == 0 {
            return Heads::none();
        }
        let mut heads = Heads {
            hidden,
            weights: vec![0; stages * 2 * HEAD_PAIRS * hidden],
            bias: vec![0; stages * hidden],
            out: vec![0.0; stages * (hidden + 1)],
        };
        for s in 0..stages {
            heads.expand(s, w.head(s));
        }
        heads
    }

    /// Stage `s`'s head from the file's (weights in discs, the sums read in eighths of a
    /// disc, the phase read as `empties / 30 - 1`).
    fn expand(&mut self, s: usize, file: &[f32]) {
        let h = self.hidden;
        let last = HEAD_INPUTS - 1;
        // The real weights on the integer inputs: a sum in 1/SCALE discs is 1/(8 SCALE)
        // of the file's unit; the phase term w (e / 30 - 1) is w / 30 on the empties and
        // -w in the bias.
        let per_unit = 1.0 / (8.0 * f64::from(SCALE));
        let weight = |i: usize, j: usize| {
            let w = f64::from(file[i * HEAD_INPUTS + j]);
            if j == last {
                w / 30.0
            } else {
                w * per_unit
            }
        };
        let rest = HEAD_INPUTS * h;
        let bias = |i: usize| f64::from(file[rest + i]) - f64::from(file[i * HEAD_INPUTS + last]);
        // Each unit its own scale, the largest that keeps its weights and bias within their
        // bounds (the output weight divides it out again).
        let weights = &mut self.weights[s * 2 * HEAD_PAIRS * h..(s + 1) * 2 * HEAD_PAIRS * h];
        let out = &mut self.out[s * (h + 1)..(s + 1) * (h + 1)];
        for i in 0..h {
            let largest = (0..HEAD_INPUTS)
                .map(|j| weight(i, j).abs())
                .fold(0.0, f64::max);
            let mut q = f64::from(1u32 << 30);
            if largest > 0.0 {
                q = q.min(f64::from(HEAD_WEIGHT_MAX) / largest);
            }
            if bias(i) != 0.0 {
                q = q.min(f64::from(HEAD_BIAS_MAX) / bias(i).abs());
            }
            for j in 0..HEAD_INPUTS {
                let (pair, side) = (j / 2, j % 2);
                weights[(pair * h + i) * 2 + side] = (weight(i, j) * q).round() as i16;
            }
            self.bias[s * h + i] = (bias(i) * q).round() as i32;
            out[i] = (f64::from(file[rest + h + i]) * f64::from(SCALE) / q) as f32;
        }
        out[h] = file[rest + 2 * h] * SCALE as f32;
    }

    /// Stage `s`'s first-layer weights, biases and output layer.
    #[inline(always)]
    fn stage(&self, s: usize) -> (&[i16], &[i32], &[f32]) {
        let h = self.hidden;
        let n = 2 * HEAD_PAIRS * h;
        (
            self.weights.get(s * n..(s + 1) * n).unwrap_or(&[]),
            self.bias.get(s * h..(s + 1) * h).unwrap_or(&[]),
            self.out.get(s * (h + 1)..(s + 1) * (h + 1)).unwrap_or(&[]),
        )
    }

    /// The head's inputs from the pattern sums and the scalars' sum (`sums`, the last entry
    /// unused) and the empty squares: the sums bounded by [`HEAD_INPUT_MAX`].
    #[inline(always)]
    fn inputs(sums: &[i32; HEAD_INPUTS], empties: u32) -> [i16; 2 * HEAD_PAIRS] {
        let mut x = [0i16; 2 * HEAD_PAIRS];
        for (x, &g) in x.iter_mut().zip(sums) {
            *x = g.clamp(-HEAD_INPUT_MAX, HEAD_INPUT_MAX) as i16;
        }
        x[HEAD_INPUTS - 1] = empties as i16;
        x
    }

    /// The output of a head of `z.len()` units (`z` their scratch) for inputs `x`, unit by
    /// unit: the reference the vector version ([`versions::head32`]) equals.
    #[inline(always)]
    fn output(
        x: &[i16; 2 * HEAD_PAIRS],
        weights: &[i16],
        bias: &[i32],
        out: &[f32],
        z: &mut [f32],
    ) -> f32 {
        let h = z.len();
        for (i, zi) in z.iter_mut().enumerate() {
            let mut sum = bias.get(i).copied().unwrap_or(0);
            for (pair, xs) in x.chunks_exact(2).enumerate() {
                let w = weights
                    .get((pair * h + i) * 2..(pair * h + i) * 2 + 2)
                    .unwrap_or(&[0, 0]);
                let product = (i32::from(w[0]) * i32::from(xs[0]))
                    .wrapping_add(i32::from(w[1]) * i32::from(xs[1]));
                sum = sum.wrapping_add(product);
            }
            *zi = sum as f32;
        }
        out.get(h).copied().unwrap_or(0.0) + Self::reduce(z, out.get(..h).unwrap_or(&[]))
    }

    /// The output layer's sum over the units `z` (leaky ReLU, then the weights `out`), in
    /// eight running sums added in a fixed tree: the same order in every kernel set, a
    /// vector step per eight units where the CPU has them (one running sum is a chain of
    /// dependent additions). max(z, z/16) is the leaky ReLU without a branch.
    #[inline(always)]
    fn reduce(z: &[f32], out: &[f32]) -> f32 {
        let mut lanes = [0f32; LANES];
        for (zs, ws) in z.chunks_exact(LANES).zip(out.chunks_exact(LANES)) {
            for ((lane, &zi), &w) in lanes.iter_mut().zip(zs).zip(ws) {
                *lane += w * zi.max(zi * LEAK);
            }
        }
        let tail = z
            .chunks_exact(LANES)
            .remainder()
            .iter()
            .zip(out.chunks_exact(LANES).remainder())
            .fold(0.0, |sum, (&zi, &w)| sum + w * zi.max(zi * LEAK));
        Heads::tree(lanes) + tail
    }

    /// The eight running sums added in a fixed tree.
    #[inline(always)]
    fn tree(lanes: Lanes) -> f32 {
        let [l0, l1, l2, l3, l4, l5, l6, l7] = lanes;
        ((l0 + l4) + (l1 + l5)) + ((l2 + l6) + (l3 + l7))
    }
}

impl PatternEval {
    /// The evaluation with these weights.
    #[must_use]
    pub fn new(w: &Weights) -> PatternEval {
        let set = pattern_set();
        let stages = w.stages();
        let extras = w.extras();
        // The patterns with a weight in some stage; the others are neither stored nor read.
        let mut used = [false; GROUPS.len()];
        for s in 0..stages {
            let shared = w.stage(s);
            for (&(g, _), &x) in set.canon.iter().zip(shared) {
                used[usize::from(g)] |= x != 0;
            }
        }
        let mut local = 0;
        let mut probes = Vec::new();
        let mut kept = Vec::new();
        for inst in set.instances.iter().filter(|i| used[usize::from(i.group)]) {
            probes.push(Probe {
                mask: inst.mask,
                offset: local,
                group: inst.group,
            });
            kept.push(inst);
            local += inst.feature.len();
        }
        let scalar_local = local;
        local += SCALAR_COUNT;
        let mut expanded = vec![0i16; stages * local];
        // The mobility patterns with a weight in some stage, for either side.
        let mut mobility_used = [false; GROUPS.len()];
        if extras.mobility {
            let groups = set.mobility_groups();
            for s in 0..stages {
                let mobility = &w.stage(s)[set.features()..];
                let (mover, opponent) = mobility.split_at(set.mobility_features);
                for ((&g, &m), &o) in groups.iter().zip(mover).zip(opponent) {
                    mobility_used[usize::from(g)] |= m != 0 || o != 0;
                }
            }
        }
        let mut mobile = 0;
        let mut mobility_probes = Vec::new();
        let mut mobility_kept = Vec::new();
        for inst in set
            .mobility
            .iter()
            .filter(|i| mobility_used[usize::from(i.group)])
        {
            let size = inst.feature.len();
            mobility_probes.push(MobilityProbe {
                mask: inst.mask,
                offset: mobile,
                size,
            });
            mobility_kept.push(inst);
            mobile += 2 * size;
        }
        let mut mobility = vec![0i16; stages * mobile];
        for s in 0..stages {
            let shared = w.stage(s);
            let table = &mut expanded[s * local..(s + 1) * local];
            for (inst, probe) in kept.iter().zip(&probes) {
                for (i, &f) in inst.feature.iter().enumerate() {
                    table[probe.offset + i] = shared[f as usize];
                }
            }
            for k in 0..SCALAR_COUNT {
                table[scalar_local + k] = shared[set.scalar_feature + k];
            }
            if mobile > 0 {
                let table = &mut mobility[s * mobile..(s + 1) * mobile];
                let mover = &shared[set.features()..];
                let opponent = &mover[set.mobility_features..];
                for (inst, probe) in mobility_kept.iter().zip(&mobility_probes) {
                    for (i, &f) in inst.feature.iter().enumerate() {
                        table[probe.offset + i] = mover[f as usize];
                        table[probe.offset + probe.size + i] = opponent[f as usize];
                    }
                }
            }
        }
        let mut stage_of = [0u8; 65];
        for (e, slot) in stage_of.iter_mut().enumerate() {
            *slot = stage(e as u32, stages) as u8;
        }
        PatternEval {
            probes,
            local,
            scalar_local,
            stage_of,
            expanded,
            mobility_probes,
            mobility_local: mobile,
            mobility,
            heads: Heads::new(w, stages, extras.hidden),
            small: [HandEval::new(4), HandEval::new(6)],
        }
    }

    /// The evaluation in 1/[`SCALE`] discs, unclamped (8x8 only): the value before
    /// [`Evaluator::evaluate`] rounds it to a disc, which a fit's error is measured on.
    #[inline]
    #[must_use]
    pub fn raw(&self, b: Board) -> i32 {
        kernel::dispatch!(versions, raw(self, b))
    }
}

/// The sum of the weights compiled once per kernel set ([`crate::kernel::multiversion`]).
mod versions {
    use super::{
        scalars_of, Heads, PatternEval, GROUPS, HEAD_INPUTS, HEAD_PAIRS, LEAK, MAX_HIDDEN,
    };
    use crate::lanes::{Lanes, Pairs, Units, LANES};
    use crate::Board;

    crate::kernel::multiversion! {
        /// The evaluation in 1/[`SCALE`] discs, unclamped (8x8 only).
        #[inline]
        #[must_use]
        fn raw(this: &PatternEval, b: Board) -> i32 {
            let empties = b.empties();
            let s = usize::from(this.stage_of[empties.count_ones() as usize]);
            let table = &this.expanded[s * this.local..(s + 1) * this.local];
            let moves_p = moves(b.player, b.opponent);
            let moves_o = moves(b.opponent, b.player);
            let sc = &table[this.scalar_local..];
            let scalars = scalars_of(b, empties, moves_p, moves_o);
            let mut sum = 0i32;
            if this.heads.hidden == 0 {
                for p in &this.probes {
                    let i = p.offset + ternary(b.player, b.opponent, p.mask);
                    sum += i32::from(table.get(i).copied().unwrap_or(0));
                }
                for i in scalars {
                    sum += i32::from(sc.get(i).copied().unwrap_or(0));
                }
            } else {
                // The head reads each pattern's sum apart.
                let mut groups = [0i32; HEAD_INPUTS];
                for p in &this.probes {
                    let i = p.offset + ternary(b.player, b.opponent, p.mask);
                    let v = i32::from(table.get(i).copied().unwrap_or(0));
                    groups[usize::from(p.group)] += v;
                }
                for i in scalars {
                    groups[GROUPS.len()] += i32::from(sc.get(i).copied().unwrap_or(0));
                }
                sum = groups.iter().sum();
                let h = this.heads.hidden;
                let (weights, bias, out) = this.heads.stage(s);
                let x = Heads::inputs(&groups, empties.count_ones());
                // The shipped width as a constant keeps the units in registers; the
                // same operations in the same order either way.
                let y = if h == 32 {
                    head32(&x, weights, bias, out)
                } else {
                    Heads::output(&x, weights, bias, out, &mut [0f32; MAX_HIDDEN][..h])
                };
                sum += y.round() as i32;
            }
            if !this.mobility.is_empty() {
                let local = this.mobility_local;
                let table = &this.mobility[s * local..(s + 1) * local];
                for p in &this.mobility_probes {
                    let i = p.offset + binary(moves_p, p.mask);
                    let j = p.offset + p.size + binary(moves_o, p.mask);
                    sum += i32::from(table.get(i).copied().unwrap_or(0));
                    sum += i32::from(table.get(j).copied().unwrap_or(0));
                }
            }
            sum
        }

        /// [`Heads::output`] for the shipped width, 32 units, in four vector steps a pair of
        /// inputs: the same integers, then the same floats in the same order, so the same
        /// value.
        #[inline]
        #[must_use]
        fn head32(x: &[i16; 2 * HEAD_PAIRS], weights: &[i16], bias: &[i32], out: &[f32]) -> f32 {
            const H: usize = 32;
            const STEPS: usize = H / LANES;
            let (Some(weights), Some(bias), Some(out), Some(&out_bias)) = (
                weights.get(..2 * HEAD_PAIRS * H),
                bias.get(..H),
                out.get(..H),
                out.get(H),
            ) else {
                return 0.0;
            };
            let mut z: [Units; STEPS] =
                std::array::from_fn(|k| std::array::from_fn(|i| bias[k * LANES + i]));
            for (pair, xs) in x.chunks_exact(2).enumerate() {
                let row = &weights[pair * 2 * H..(pair + 1) * 2 * H];
                for (k, zk) in z.iter_mut().enumerate() {
                    let w: Pairs = std::array::from_fn(|i| row[k * 2 * LANES + i]);
                    madd(zk, &w, [xs[0], xs[1]]);
                }
            }
            let mut acc = [0f32; LANES];
            for (k, zk) in z.iter().enumerate() {
                let zf: Lanes = zk.map(|u| u as f32);
                let ok: Lanes = std::array::from_fn(|i| out[k * LANES + i]);
                leaky_dot(&mut acc, &zf, &ok, LEAK);
            }
            out_bias + Heads::tree(acc)
        }
    }
}

impl Evaluator for PatternEval {
    #[inline]
    fn evaluate(&self, b: Board, mask: u64) -> i32 {
        if mask != u64::MAX {
            let small = if mask & 0xff == 0x0f { 0 } else { 1 };
            return self.small[small].evaluate(b, mask);
        }
        let r = self.raw(b);
        // Round to the nearest disc.
        ((r + SCALE / 2).div_euclid(SCALE)).clamp(-64, 64)
    }
}

/// The weights the program ships with (`weights/eval-gen4.bin`: generation 2's patterns,
/// mobility patterns on the 18 images of the edges, rows 2-4 and long diagonals, and a
/// head). `weights/eval-gen3.bin` (mobility patterns on all 54 images: as strong at equal
/// depth, slower), `eval-gen2.bin` and `eval-gen1.bin` are kept for comparisons (`reversi
/// train match --against`, `train mae --weights`).
pub(crate) const SHIPPED: &[u8] = include_bytes!("../weights/eval-gen4.bin");

/// The evaluation the exact solver orders its moves by (`weights/eval-order.bin`): three
/// corner and edge patterns and the scalars, without mobility patterns or head, fitted on
/// the same data as [`SHIPPED`]; it orders as well as the full evaluation at a fraction of
/// its cost (docs/search.md).
pub(crate) const SHIPPED_ORDER: &[u8] = include_bytes!("../weights/eval-order.bin");

/// The shipped evaluation, loaded once.
///
/// # Errors
/// When the shipped weights do not load (a damaged build; the tests check they do).
pub fn shipped() -> Result<Arc<PatternEval>, WeightsError> {
    static EVAL: OnceLock<Result<Arc<PatternEval>, WeightsError>> = OnceLock::new();
    EVAL.get_or_init(|| Weights::from_bytes(SHIPPED).map(|w| Arc::new(PatternEval::new(&w))))
        .clone()
}

/// The shipped evaluation with the solver's shipped ordering evaluation, loaded once.
///
/// # Errors
/// When either file does not load (a damaged build; the tests check they do).
pub fn shipped_with_ordering() -> Result<Arc<WithOrdering<PatternEval, PatternEval>>, WeightsError>
{
    type Shipped = Result<Arc<WithOrdering<PatternEval, PatternEval>>, WeightsError>;
    static EVAL: OnceLock<Shipped> = OnceLock::new();
    EVAL.get_or_init(|| {
        let order = Weights::from_bytes(SHIPPED_ORDER)?;
        Ok(Arc::new(WithOrdering {
            eval: shipped()?,
            order: Arc::new(PatternEval::new(&order)),
        }))
    })
    .clone()
}

/// The evaluation for a board with playable squares `mask` when none is set: the trained
/// patterns on 8x8, the exact solver ordering by the small shipped evaluation (unless the
/// shipped weights fail to load), the hand-made evaluation on smaller boards.
#[must_use]
pub fn default_evaluator(mask: u64) -> Arc<dyn Evaluator> {
    if mask == u64::MAX {
        if let Ok(e) = shipped_with_ordering() {
            return e;
        }
    }
    Arc::new(HandEval::new((mask & 0xff).count_ones()))
}

#[cfg(test)]
mod tests;
