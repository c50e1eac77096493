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

pub mod fit;
pub mod net;
pub mod netfit;
mod weights;

use std::sync::{Arc, OnceLock};

use crate::eval::{Evaluator, HandEval};
use crate::kernel;
use crate::mobility::{self, neighbours};
use crate::ternary::ternary;
#[cfg(test)]
use crate::ternary::ternary_portable;
use crate::Board;

pub use weights::{crc32, Weights, WeightsError};

/// The most weight sets a file may hold: one per number of empty squares (1–60).
pub const MAX_STAGES: usize = 60;

/// Stored weights are in 1/`SCALE` discs.
pub const SCALE: i32 = 64;

/// Mobility and potential mobility are one-hot up to these counts (larger counts share the
/// last weight).
const MOBILITY_MAX: u32 = 30;
const POTENTIAL_MAX: u32 = 40;

/// The weight set, of `stages` (1 to [`MAX_STAGES`]) sharing the game evenly, for a
/// position with `empties` empty squares: with 15 stages one per four empties (1–4, 5–8, …),
/// with 30 one per two, with 60 one per empty square.
#[inline]
#[must_use]
pub fn stage(empties: u32, stages: usize) -> usize {
    let stages = stages.clamp(1, MAX_STAGES);
    (empties.clamp(1, 60) as usize - 1) * stages / MAX_STAGES
}

/// The empty-square counts of a stage of `stages`, inclusive (the first stage also takes 0
/// empties, the last one anything above 60).
#[must_use]
pub fn stage_empties(s: usize, stages: usize) -> (u32, u32) {
    let of = |e: u32| stage(e, stages);
    let lo = (1..=60).find(|&e| of(e) == s).unwrap_or(1);
    let hi = (1..=60).rev().find(|&e| of(e) == s).unwrap_or(lo);
    (if lo == 1 { 0 } else { lo }, hi)
}

/// A pattern: its squares as (column, row) in the order that defines its base-3 digits.
struct Group {
    name: &'static str,
    squares: &'static [(u8, u8)],
}

/// The pattern set (its canonical instance; the others are its images under the eight
/// symmetries of the board).
const GROUPS: &[Group] = &[
    Group {
        name: "corner 3x3",
        squares: &[
            (0, 0),
            (1, 0),
            (2, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
        ],
    },
    Group {
        name: "corner 2x5",
        squares: &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
        ],
    },
    Group {
        name: "edge + 2X",
        squares: &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0),
            (6, 0),
            (7, 0),
            (1, 1),
            (6, 1),
        ],
    },
    Group {
        name: "row 2",
        squares: &[
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
            (5, 1),
            (6, 1),
            (7, 1),
        ],
    },
    Group {
        name: "row 3",
        squares: &[
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 2),
            (6, 2),
            (7, 2),
        ],
    },
    Group {
        name: "row 4",
        squares: &[
            (0, 3),
            (1, 3),
            (2, 3),
            (3, 3),
            (4, 3),
            (5, 3),
            (6, 3),
            (7, 3),
        ],
    },
    Group {
        name: "diagonal 8",
        squares: &[
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
        ],
    },
    Group {
        name: "diagonal 7",
        squares: &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    },
    Group {
        name: "diagonal 6",
        squares: &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)],
    },
    Group {
        name: "diagonal 5",
        squares: &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)],
    },
    Group {
        name: "diagonal 4",
        squares: &[(4, 0), (5, 1), (6, 2), (7, 3)],
    },
    // Generation 2 on.
    Group {
        name: "corner triangle",
        squares: &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (0, 3),
        ],
    },
    Group {
        name: "edge + block",
        squares: &[
            (0, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0),
            (7, 0),
            (2, 1),
            (3, 1),
            (4, 1),
            (5, 1),
        ],
    },
];

/// Generation 1 weights files hold the first this many patterns of [`GROUPS`]; they load
/// with zero weights for the others.
const GEN1_GROUPS: usize = 11;

/// A symmetry of the square, on (column, row).
type Symmetry = fn(u8, u8) -> (u8, u8);

/// The eight symmetries of the square.
const SYMMETRIES: [Symmetry; 8] = [
    |c, r| (c, r),
    |c, r| (7 - c, r),
    |c, r| (c, 7 - r),
    |c, r| (7 - c, 7 - r),
    |c, r| (r, c),
    |c, r| (7 - r, 7 - c),
    |c, r| (7 - r, c),
    |c, r| (r, 7 - c),
];

/// Applies symmetry `s` to a whole bitboard.
#[must_use]
pub(crate) fn transform(bits: u64, s: usize) -> u64 {
    let mut out = 0;
    let mut rest = bits;
    while rest != 0 {
        let sq = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        let (c, r) = SYMMETRIES[s](sq % 8, sq / 8);
        out |= 1u64 << (8 * r + c);
    }
    out
}

/// One image of a pattern on the board.
struct Instance {
    mask: u64,
    /// Where this instance's weights start in a stage's expanded table.
    local_offset: usize,
    /// The shared feature of each base-3 index.
    feature: Vec<u32>,
}

/// The pattern instances and the numbering of the shared features.
pub struct PatternSet {
    instances: Vec<Instance>,
    /// Shared features per stage, scalars included.
    features: usize,
    /// Start of the scalar features (mobility, potential mobility, parity), shared and
    /// expanded alike.
    scalar_feature: usize,
    scalar_local: usize,
    /// Entries of a stage's expanded table.
    local: usize,
    /// A fingerprint of the patterns and scalars; weight files store it mixed with their
    /// stage count ([`PatternSet::signature`]).
    base_signature: u32,
    /// The same for generation 1's patterns (the first [`GEN1_GROUPS`]).
    gen1_signature: u32,
    /// Shared pattern features of generation 1's patterns (numbered first).
    gen1_features: usize,
    /// The pattern (index in [`GROUPS`]) and canonical configuration (base 3, digit `j` the
    /// pattern's square `j`) of each shared pattern feature, which generation 3 generates
    /// its weights from (net.rs).
    canon: Vec<(u8, u32)>,
}

/// One step of the set's fingerprint (FNV-1a on words).
const fn mix(signature: u32, x: u32) -> u32 {
    (signature ^ x).wrapping_mul(0x0100_0193)
}

/// The scalar features of a position, relative to the scalar block.
#[inline(always)]
fn scalars(b: Board, empties: u64) -> [usize; 5] {
    let (p, o) = (b.player, b.opponent);
    let mob_p = mobility::moves(p, o).count_ones().min(MOBILITY_MAX) as usize;
    let mob_o = mobility::moves(o, p).count_ones().min(MOBILITY_MAX) as usize;
    let pot_p = (neighbours(o) & empties).count_ones().min(POTENTIAL_MAX) as usize;
    let pot_o = (neighbours(p) & empties).count_ones().min(POTENTIAL_MAX) as usize;
    let m = MOBILITY_MAX as usize + 1;
    let q = POTENTIAL_MAX as usize + 1;
    [
        mob_p,
        m + mob_o,
        2 * m + pot_p,
        2 * m + q + pot_o,
        2 * m + 2 * q + (empties.count_ones() & 1) as usize,
    ]
}

const SCALAR_COUNT: usize = 2 * (MOBILITY_MAX as usize + 1) + 2 * (POTENTIAL_MAX as usize + 1) + 2;

/// Active features of every position: one per instance and the five scalars.
pub const ACTIVE: usize = 54 + 5;

impl PatternSet {
    fn build() -> PatternSet {
        let mut instances = Vec::new();
        let mut features = 0usize;
        let mut local = 0usize;
        let mut signature = 0x811c_9dc5u32;
        let (mut gen1_signature, mut gen1_features) = (0, 0);
        let mut canon = Vec::new();
        for (k, g) in GROUPS.iter().enumerate() {
            if k == GEN1_GROUPS {
                (gen1_signature, gen1_features) = (mix(signature, SCALAR_COUNT as u32), features);
            }
            let n = g.squares.len();
            for &(c, r) in g.squares {
                signature = mix(signature, u32::from(8 * r + c));
            }
            signature = mix(signature, 0xff);
            let size = 3usize.pow(n as u32);
            let set: u64 = g.squares.iter().map(|&(c, r)| 1u64 << (8 * r + c)).sum();
            // Permutations of the digit positions under the symmetries that keep the set.
            let perms: Vec<Vec<usize>> = (0..8)
                .filter(|&s| transform(set, s) == set)
                .map(|s| {
                    g.squares
                        .iter()
                        .map(|&(c, r)| {
                            let img = SYMMETRIES[s](c, r);
                            g.squares.iter().position(|&q| q == img).unwrap_or(0)
                        })
                        .collect()
                })
                .collect();
            // Shared number of each canonical-order configuration.
            let mut id = vec![u32::MAX; size];
            let mut digits = vec![0usize; n];
            for x in 0..size {
                let mut v = x;
                for d in digits.iter_mut() {
                    *d = v % 3;
                    v /= 3;
                }
                let least = perms
                    .iter()
                    .map(|perm| {
                        (0..n)
                            .map(|j| digits[j] * 3usize.pow(perm[j] as u32))
                            .sum::<usize>()
                    })
                    .min()
                    .unwrap_or(x);
                if id[least] == u32::MAX {
                    id[least] = features as u32;
                    features += 1;
                    canon.push((k as u8, least as u32));
                }
                id[x] = id[least];
            }
            // The instances: images of the canonical set under the symmetries.
            let mut seen = Vec::new();
            for (s, sym) in SYMMETRIES.iter().enumerate() {
                let mask = transform(set, s);
                if seen.contains(&mask) {
                    continue;
                }
                seen.push(mask);
                // Digit position (increasing bit order) of each canonical square's image.
                let rank: Vec<u32> = g
                    .squares
                    .iter()
                    .map(|&(c, r)| {
                        let (ic, ir) = sym(c, r);
                        (mask & ((1u64 << (8 * ir + ic)) - 1)).count_ones()
                    })
                    .collect();
                let mut feature = vec![0u32; size];
                for (local_idx, f) in feature.iter_mut().enumerate() {
                    let mut canon = 0usize;
                    for j in (0..n).rev() {
                        canon = canon * 3 + (local_idx / 3usize.pow(rank[j])) % 3;
                    }
                    *f = id[canon];
                }
                instances.push(Instance {
                    mask,
                    local_offset: local,
                    feature,
                });
                local += size;
            }
        }
        signature = mix(signature, SCALAR_COUNT as u32);
        let scalar_feature = features;
        let scalar_local = local;
        PatternSet {
            instances,
            features: features + SCALAR_COUNT,
            scalar_feature,
            scalar_local,
            local: local + SCALAR_COUNT,
            base_signature: signature,
            gen1_signature,
            gen1_features,
            canon,
        }
    }

    /// Shared features (weights) per stage.
    #[must_use]
    pub fn features(&self) -> usize {
        self.features
    }

    /// The fingerprint a weights file of `stages` stages for this set must carry: the
    /// patterns (squares and order), the scalars and the stage count.
    #[must_use]
    pub fn signature(&self, stages: usize) -> u32 {
        mix(self.base_signature, stages as u32)
    }

    /// The fingerprint of a generation 1 file of `stages` stages (its first
    /// [`GEN1_GROUPS`] patterns).
    fn gen1_signature(&self, stages: usize) -> u32 {
        mix(self.gen1_signature, stages as u32)
    }

    /// Shared weights per stage in a generation 1 file.
    fn gen1_shared(&self) -> usize {
        self.gen1_features + SCALAR_COUNT
    }

    /// A generation 1 stage's weights in this set's numbering: its pattern weights first,
    /// zero for the later patterns, its scalar weights last.
    fn widen_gen1(&self, old: &[i16]) -> Vec<i16> {
        let mut out = vec![0i16; self.features];
        out[..self.gen1_features].copy_from_slice(&old[..self.gen1_features]);
        out[self.scalar_feature..].copy_from_slice(&old[self.gen1_features..]);
        out
    }

    /// The pattern instances on the board.
    #[must_use]
    pub fn instances(&self) -> usize {
        self.instances.len()
    }

    /// Names and sizes of the patterns, for reports.
    pub fn describe(&self) -> impl Iterator<Item = (&'static str, usize)> {
        GROUPS.iter().map(|g| (g.name, g.squares.len()))
    }

    /// The shared features active in `b` (exactly [`ACTIVE`] of them).
    #[must_use]
    pub fn active(&self, b: Board) -> [u32; ACTIVE] {
        let mut out = [0u32; ACTIVE];
        for (o, inst) in out.iter_mut().zip(&self.instances) {
            *o = inst.feature[ternary(b.player, b.opponent, inst.mask)];
        }
        let n = self.instances.len();
        for (k, s) in scalars(b, b.empties()).into_iter().enumerate() {
            out[n + k] = (self.scalar_feature + s) as u32;
        }
        out
    }
}

/// The pattern set, built once.
#[must_use]
pub(crate) fn pattern_set() -> &'static PatternSet {
    static SET: OnceLock<PatternSet> = OnceLock::new();
    SET.get_or_init(PatternSet::build)
}

/// The trained evaluation: expanded weights, and the hand-made evaluation for boards smaller
/// than 8x8 (the patterns are 8x8 only).
pub struct PatternEval {
    set: &'static PatternSet,
    /// The weight set of each number of empties (0 to 64).
    stage_of: [u8; 65],
    /// One table of `set.local` weights per stage.
    expanded: Vec<i16>,
    small: [HandEval; 2],
}

impl PatternEval {
    /// The evaluation with these weights.
    #[must_use]
    pub fn new(w: &Weights) -> PatternEval {
        let set = pattern_set();
        let stages = w.stages();
        let mut expanded = vec![0i16; stages * set.local];
        for s in 0..stages {
            let shared = w.stage(s);
            let table = &mut expanded[s * set.local..(s + 1) * set.local];
            for inst in &set.instances {
                for (i, &f) in inst.feature.iter().enumerate() {
                    table[inst.local_offset + i] = shared[f as usize];
                }
            }
            for k in 0..SCALAR_COUNT {
                table[set.scalar_local + k] = shared[set.scalar_feature + k];
            }
        }
        let mut stage_of = [0u8; 65];
        for (e, slot) in stage_of.iter_mut().enumerate() {
            *slot = stage(e as u32, stages) as u8;
        }
        PatternEval {
            set,
            stage_of,
            expanded,
            small: [HandEval::new(4), HandEval::new(6)],
        }
    }

    /// The evaluation in 1/[`SCALE`] discs, unclamped (8x8 only).
    #[inline]
    #[must_use]
    pub fn raw(&self, b: Board) -> i32 {
        kernel::dispatch!(versions, raw(self, b))
    }
}

/// The sum of the weights compiled once per kernel set ([`crate::kernel::multiversion`]).
mod versions {
    use super::{scalars, PatternEval};
    use crate::Board;

    crate::kernel::multiversion! {
        /// The evaluation in 1/[`SCALE`] discs, unclamped (8x8 only).
        #[inline]
        #[must_use]
        fn raw(this: &PatternEval, b: Board) -> i32 {
            let empties = b.empties();
            let s = usize::from(this.stage_of[empties.count_ones() as usize]);
            let table = &this.expanded[s * this.set.local..(s + 1) * this.set.local];
            let mut sum = 0i32;
            for inst in &this.set.instances {
                let i = inst.local_offset + ternary(b.player, b.opponent, inst.mask);
                sum += i32::from(table.get(i).copied().unwrap_or(0));
            }
            let sc = &table[this.set.scalar_local..];
            for i in scalars(b, empties) {
                sum += i32::from(sc.get(i).copied().unwrap_or(0));
            }
            sum
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

/// The weights the program ships with (`weights/eval-gen2.bin`; `weights/eval-gen1.bin`
/// is kept for comparisons: `reversi train match --against`, `train mae --weights`).
pub const SHIPPED: &[u8] = include_bytes!("../weights/eval-gen2.bin");

/// The shipped evaluation, loaded once.
///
/// # Errors
/// When the shipped weights do not load (a damaged build; the tests check they do).
pub fn shipped() -> Result<Arc<PatternEval>, WeightsError> {
    static EVAL: OnceLock<Result<Arc<PatternEval>, WeightsError>> = OnceLock::new();
    EVAL.get_or_init(|| Weights::from_bytes(SHIPPED).map(|w| Arc::new(PatternEval::new(&w))))
        .clone()
}

/// Which evaluation an engine without its own uses on 8x8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalChoice {
    /// The shipped trained weights (the default).
    Pattern,
    /// The hand-made evaluation (`REVERSI_EVAL=hand`), for comparisons.
    Hand,
}

/// The choice the environment makes: `REVERSI_EVAL=hand` selects the hand-made evaluation,
/// anything else (or nothing) the trained patterns. Read once per process.
#[must_use]
pub fn eval_choice() -> EvalChoice {
    static CHOICE: OnceLock<EvalChoice> = OnceLock::new();
    *CHOICE.get_or_init(|| match std::env::var("REVERSI_EVAL") {
        Ok(v) if v.eq_ignore_ascii_case("hand") => EvalChoice::Hand,
        _ => EvalChoice::Pattern,
    })
}

/// The evaluation for a board with playable squares `mask` when none is set: the trained
/// patterns on 8x8 (unless [`eval_choice`] says otherwise, or the shipped weights fail to
/// load), the hand-made evaluation on smaller boards.
#[must_use]
pub fn default_evaluator(mask: u64) -> Arc<dyn Evaluator> {
    if mask == u64::MAX && eval_choice() == EvalChoice::Pattern {
        if let Ok(e) = shipped() {
            return e;
        }
    }
    Arc::new(HandEval::new((mask & 0xff).count_ones()))
}

#[cfg(test)]
mod tests;
