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
//! the phase, evaluated in `f32` and added to the sum ([`Extras`]).
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
    /// The head's hidden units (0: none).
    hidden: usize,
    /// One head per stage, [`Head`]'s layout, scaled to read the sums in 1/[`SCALE`] discs
    /// and give 1/[`SCALE`] discs (empty without a head).
    head: Vec<f32>,
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

/// A stage's head as the evaluation reads it: for each input, the hidden units' weights
/// (input-major, so that a whole input is one vector step), then the hidden biases, the
/// output weights and the output bias.
struct Head;

/// The slope of the head's leaky ReLU below zero.
const LEAK: f32 = 1.0 / 16.0;

impl Head {
    /// The output of a stage's `head` (of `z.len()` units, `z` their scratch) for inputs `x`.
    #[inline(always)]
    fn output(x: &[f32; HEAD_INPUTS], head: &[f32], z: &mut [f32]) -> f32 {
        let h = z.len();
        let (weights, rest) = head.split_at(HEAD_INPUTS * h);
        let (bias, rest) = rest.split_at(h);
        let (out, out_bias) = rest.split_at(h);
        z.copy_from_slice(bias);
        for (column, &xj) in weights.chunks_exact(h).zip(x) {
            for (zi, &w) in z.iter_mut().zip(column) {
                *zi += w * xj;
            }
        }
        out_bias.first().copied().unwrap_or(0.0) + Self::reduce(z, out)
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
        Head::tree(lanes) + tail
    }

    /// The eight running sums added in a fixed tree.
    #[inline(always)]
    fn tree(lanes: Lanes) -> f32 {
        let [l0, l1, l2, l3, l4, l5, l6, l7] = lanes;
        ((l0 + l4) + (l1 + l5)) + ((l2 + l6) + (l3 + l7))
    }

    /// Floats of one stage's head of `hidden` units.
    const fn len(hidden: usize) -> usize {
        HEAD_INPUTS * hidden + 2 * hidden + 1
    }

    /// The file's head (weights in discs, the sums read in eighths of a disc) in the
    /// evaluation's layout and units.
    fn expand(file: &[f32], hidden: usize, out: &mut [f32]) {
        let h = hidden;
        // The pattern and scalar sums come in 1/SCALE discs and the head read them in
        // eighths of a disc; the phase comes as it is.
        let per_unit = 1.0 / (8.0 * SCALE as f32);
        for i in 0..h {
            for j in 0..HEAD_INPUTS {
                let scale = if j + 1 == HEAD_INPUTS { 1.0 } else { per_unit };
                out[j * h + i] = file[i * HEAD_INPUTS + j] * scale;
            }
        }
        let rest = HEAD_INPUTS * h;
        out[rest..rest + h].copy_from_slice(&file[rest..rest + h]);
        for i in 0..h {
            out[rest + h + i] = file[rest + h + i] * SCALE as f32;
        }
        out[rest + 2 * h] = file[rest + 2 * h] * SCALE as f32;
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
        let hidden = extras.hidden;
        let mut head = vec![0f32; stages * Head::len(hidden) * usize::from(hidden > 0)];
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
            if hidden > 0 {
                let len = Head::len(hidden);
                Head::expand(w.head(s), hidden, &mut head[s * len..(s + 1) * len]);
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
            hidden,
            head,
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
    use super::{scalars_of, Head, PatternEval, GROUPS, HEAD_INPUTS, LEAK, MAX_HIDDEN};
    use crate::lanes::{Lanes, LANES};
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
            if this.hidden == 0 {
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
                let h = this.hidden;
                let len = Head::len(h);
                let head = this.head.get(s * len..(s + 1) * len).unwrap_or(&[]);
                if head.len() == len {
                    let mut x = [0f32; HEAD_INPUTS];
                    for (x, &g) in x.iter_mut().zip(&groups) {
                        *x = g as f32;
                    }
                    x[HEAD_INPUTS - 1] = empties.count_ones() as f32 / 30.0 - 1.0;
                    // The shipped width as a constant keeps the units in registers; the
                    // same operations in the same order either way.
                    let y = if h == 32 {
                        head32(&x, head)
                    } else {
                        Head::output(&x, head, &mut [0f32; MAX_HIDDEN][..h])
                    };
                    sum += y.round() as i32;
                }
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

        /// [`Head::output`] for the shipped width, 32 units, in four vector steps an input:
        /// the same operations in the same order, so the same value.
        #[inline]
        #[must_use]
        fn head32(x: &[f32; HEAD_INPUTS], head: &[f32]) -> f32 {
            const H: usize = 32;
            const STEPS: usize = H / LANES;
            let (Some(weights), Some(bias), Some(out), Some(&out_bias)) = (
                head.get(..HEAD_INPUTS * H),
                head.get(HEAD_INPUTS * H..HEAD_INPUTS * H + H),
                head.get(HEAD_INPUTS * H + H..HEAD_INPUTS * H + 2 * H),
                head.get(HEAD_INPUTS * H + 2 * H),
            ) else {
                return 0.0;
            };
            let lanes = |v: &[f32], k: usize| -> Lanes {
                std::array::from_fn(|i| v.get(k * LANES + i).copied().unwrap_or(0.0))
            };
            let mut z: [Lanes; STEPS] = std::array::from_fn(|k| lanes(bias, k));
            for (column, &xj) in weights.chunks_exact(H).zip(x) {
                for (k, zk) in z.iter_mut().enumerate() {
                    axpy(zk, &lanes(column, k), xj);
                }
            }
            let mut acc = [0f32; LANES];
            for (k, zk) in z.iter().enumerate() {
                leaky_dot(&mut acc, zk, &lanes(out, k), LEAK);
            }
            out_bias + Head::tree(acc)
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
