//! The pattern set of the evaluation: the patterns and their images under the eight symmetries
//! of the board, the shared features they number, the scalar features (mobility, potential
//! mobility, parity), generation 3's mobility patterns (each side's legal moves on a
//! pattern's squares), and the stages of the game the weights are split by. The evaluation
//! (pattern.rs) and the weights file (weights.rs) both read it.

use std::sync::OnceLock;

use crate::mobility::{self, neighbours};
use crate::ternary::{binary, ternary};
use crate::Board;

/// The most weight sets a file may hold: one per number of empty squares (1–60).
pub const MAX_STAGES: usize = 60;

/// Stored weights are in 1/`SCALE` discs.
pub const SCALE: i32 = 64;

/// Mobility and potential mobility are one-hot up to these counts (larger counts share the
/// last weight).
const MOBILITY_MAX: u32 = 30;
const POTENTIAL_MAX: u32 = 40;

/// The weight set, of `stages` (1 to 60) sharing the game evenly, for a
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
pub(crate) struct Group {
    pub(crate) squares: &'static [(u8, u8)],
}

/// The pattern set (its canonical instance; the others are its images under the eight
/// symmetries of the board).
pub(crate) const GROUPS: &[Group] = &[
    // corner 3x3
    Group {
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
    // corner 2x5
    Group {
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
    // edge + 2X
    Group {
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
    // row 2
    Group {
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
    // row 3
    Group {
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
    // row 4
    Group {
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
    // diagonal 8
    Group {
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
    // diagonal 7
    Group {
        squares: &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    },
    // diagonal 6
    Group {
        squares: &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)],
    },
    // diagonal 5
    Group {
        squares: &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)],
    },
    // diagonal 4
    Group {
        squares: &[(4, 0), (5, 1), (6, 2), (7, 3)],
    },
    // Generation 2 on.
    // corner triangle
    Group {
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
    // edge + block
    Group {
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

/// The patterns' names, in the order of the pattern groups (a fit may keep only some of them:
/// `reversi train fit --patterns`).
pub const PATTERN_NAMES: &[&str] = &[
    "corner3x3",
    "corner2x5",
    "edge2x",
    "row2",
    "row3",
    "row4",
    "diagonal8",
    "diagonal7",
    "diagonal6",
    "diagonal5",
    "diagonal4",
    "triangle",
    "edge-block",
];
const _: () = assert!(PATTERN_NAMES.len() == GROUPS.len());

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
pub(super) struct Instance {
    pub(super) mask: u64,
    /// Its pattern (index in [`GROUPS`]).
    pub(super) group: u8,
    /// The shared feature of each base-3 index.
    pub(super) feature: Vec<u32>,
}

/// One image of a pattern's squares read as two binary numbers: the side to move's legal
/// moves on them and the opponent's (a mobility pattern, generation 3).
pub(super) struct MobilityInstance {
    pub(super) mask: u64,
    /// Its pattern (index in [`GROUPS`]).
    pub(super) group: u8,
    /// The shared mobility feature (from 0, one side's numbering) of each binary index.
    pub(super) feature: Vec<u32>,
}

/// The pattern instances and the numbering of the shared features: what a weight of a stage
/// stands for, and which weights a position reads ([`PatternSet::active`],
/// [`PatternSet::active_mobility`]). The fits in the training crate learn the weights through
/// it; the evaluation reads the same numbering, expanded per instance.
pub struct PatternSet {
    pub(super) instances: Vec<Instance>,
    /// The mobility patterns: the same images as `instances`, in the same order.
    pub(super) mobility: Vec<MobilityInstance>,
    /// Shared mobility features of one side (the opponent's follow the mover's).
    pub(super) mobility_features: usize,
    /// The pattern (index in [`GROUPS`]) of each shared mobility feature of one side.
    mobility_groups: Vec<u8>,
    /// Shared features per stage, scalars included.
    features: usize,
    /// Start of the scalar features (mobility, potential mobility, parity), shared and
    /// expanded alike.
    pub(super) scalar_feature: usize,
    /// A fingerprint of the patterns and scalars; weight files store it mixed with their
    /// stage count ([`PatternSet::signature`]).
    base_signature: u32,
    /// The same for generation 1's patterns (the first [`GEN1_GROUPS`]).
    gen1_signature: u32,
    /// Shared pattern features of generation 1's patterns (numbered first).
    pub(super) gen1_features: usize,
    /// The pattern (index in [`GROUPS`]) and canonical configuration (base 3, digit `j` the
    /// pattern's square `j`) of each shared pattern feature, which generation 3 generates
    /// its weights from (net.rs).
    pub(super) canon: Vec<(u8, u32)>,
}

/// One step of the set's fingerprint (FNV-1a on words).
const fn mix(signature: u32, x: u32) -> u32 {
    (signature ^ x).wrapping_mul(0x0100_0193)
}

/// The scalar features of a position, relative to the scalar block.
#[inline(always)]
pub(super) fn scalars(b: Board, empties: u64) -> [usize; 5] {
    let (p, o) = (b.player, b.opponent);
    scalars_of(b, empties, mobility::moves(p, o), mobility::moves(o, p))
}

/// [`scalars`] from the legal moves of the side to move (`moves_p`) and of the opponent.
#[inline(always)]
pub(super) fn scalars_of(b: Board, empties: u64, moves_p: u64, moves_o: u64) -> [usize; 5] {
    let (p, o) = (b.player, b.opponent);
    let mob_p = moves_p.count_ones().min(MOBILITY_MAX) as usize;
    let mob_o = moves_o.count_ones().min(MOBILITY_MAX) as usize;
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

pub(crate) const SCALAR_COUNT: usize =
    2 * (MOBILITY_MAX as usize + 1) + 2 * (POTENTIAL_MAX as usize + 1) + 2;

/// Active features of every position: one per instance and the five scalars.
pub const ACTIVE: usize = 54 + 5;

/// Active mobility-pattern features of every position: two per instance (the mover's legal
/// moves on its squares, the opponent's).
pub const MOBILITY_ACTIVE: usize = 2 * 54;

/// Mixed into the signature of files with mobility patterns.
const MOBILITY_TAG: u32 = 0x4d4f_4250;

/// The digit permutations of the symmetries that map `g`'s squares onto themselves: entry
/// `j` of a permutation is the digit the image of square `j` takes.
fn self_symmetries(g: &Group) -> Vec<Vec<usize>> {
    let set: u64 = g.squares.iter().map(|&(c, r)| 1u64 << (8 * r + c)).sum();
    (0..8)
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
        .collect()
}

/// The shared number of each configuration of `g` in base `radix` (digit `j` its square
/// `j`): configurations that a self-symmetry maps onto each other share one. Numbers are
/// handed out from `*next` on; `new` hears each new number's least configuration.
fn share(g: &Group, radix: usize, next: &mut usize, mut new: impl FnMut(u32)) -> Vec<u32> {
    let n = g.squares.len();
    let perms = self_symmetries(g);
    let size = radix.pow(n as u32);
    let mut id = vec![u32::MAX; size];
    let mut digits = vec![0usize; n];
    for x in 0..size {
        let mut v = x;
        for d in digits.iter_mut() {
            *d = v % radix;
            v /= radix;
        }
        let least = perms
            .iter()
            .map(|perm| {
                (0..n)
                    .map(|j| digits[j] * radix.pow(perm[j] as u32))
                    .sum::<usize>()
            })
            .min()
            .unwrap_or(x);
        if id[least] == u32::MAX {
            id[least] = *next as u32;
            *next += 1;
            new(least as u32);
        }
        id[x] = id[least];
    }
    id
}

/// The shared number (from `id`, in canonical digit order) of each index of the image of
/// `g` under `sym` covering `mask`, whose digits are in increasing bit order.
fn image_features(g: &Group, sym: Symmetry, mask: u64, radix: usize, id: &[u32]) -> Vec<u32> {
    let n = g.squares.len();
    // Digit position (increasing bit order) of each canonical square's image.
    let rank: Vec<u32> = g
        .squares
        .iter()
        .map(|&(c, r)| {
            let (ic, ir) = sym(c, r);
            (mask & ((1u64 << (8 * ir + ic)) - 1)).count_ones()
        })
        .collect();
    (0..radix.pow(n as u32))
        .map(|local_idx| {
            let mut canon = 0usize;
            for j in (0..n).rev() {
                canon = canon * radix + (local_idx / radix.pow(rank[j])) % radix;
            }
            id[canon]
        })
        .collect()
}

impl PatternSet {
    fn build() -> PatternSet {
        let mut instances = Vec::new();
        let mut mobility = Vec::new();
        let (mut features, mut mobility_features) = (0usize, 0usize);
        let mut signature = 0x811c_9dc5u32;
        let (mut gen1_signature, mut gen1_features) = (0, 0);
        let mut canon = Vec::new();
        let mut mobility_groups = Vec::new();
        for (k, g) in GROUPS.iter().enumerate() {
            if k == GEN1_GROUPS {
                (gen1_signature, gen1_features) = (mix(signature, SCALAR_COUNT as u32), features);
            }
            for &(c, r) in g.squares {
                signature = mix(signature, u32::from(8 * r + c));
            }
            signature = mix(signature, 0xff);
            let id = share(g, 3, &mut features, |least| canon.push((k as u8, least)));
            let mobility_id = share(g, 2, &mut mobility_features, |_| {
                mobility_groups.push(k as u8);
            });
            // The instances: images of the canonical set under the symmetries.
            let set: u64 = g.squares.iter().map(|&(c, r)| 1u64 << (8 * r + c)).sum();
            let mut seen = Vec::new();
            for (s, &sym) in SYMMETRIES.iter().enumerate() {
                let mask = transform(set, s);
                if seen.contains(&mask) {
                    continue;
                }
                seen.push(mask);
                instances.push(Instance {
                    mask,
                    group: k as u8,
                    feature: image_features(g, sym, mask, 3, &id),
                });
                mobility.push(MobilityInstance {
                    mask,
                    group: k as u8,
                    feature: image_features(g, sym, mask, 2, &mobility_id),
                });
            }
        }
        signature = mix(signature, SCALAR_COUNT as u32);
        let scalar_feature = features;
        PatternSet {
            instances,
            mobility,
            mobility_features,
            mobility_groups,
            features: features + SCALAR_COUNT,
            scalar_feature,
            base_signature: signature,
            gen1_signature,
            gen1_features,
            canon,
        }
    }

    /// Shared features (weights) per stage: the patterns' configurations
    /// ([`PatternSet::configurations`]), then the scalars (from [`PatternSet::first_scalar`]).
    #[must_use]
    pub fn features(&self) -> usize {
        self.features
    }

    /// The first scalar feature (mobility, potential mobility, parity): the features below it
    /// are the patterns' configurations.
    #[must_use]
    pub fn first_scalar(&self) -> usize {
        self.scalar_feature
    }

    /// The pattern (index in [`PATTERN_NAMES`]) and canonical configuration (base 3, digit `j`
    /// the pattern's square `j`: 0 empty, 1 the side to move, 2 the opponent) of each shared
    /// pattern feature, in the features' order (one per feature below
    /// [`PatternSet::first_scalar`]).
    #[must_use]
    pub fn configurations(&self) -> &[(u8, u32)] {
        &self.canon
    }

    /// The pattern (index in [`PATTERN_NAMES`]) of each shared mobility-pattern feature of
    /// one side, in the features' order: a file with mobility patterns numbers the mover's
    /// from [`PatternSet::features`] and the opponent's after them, in the same order.
    #[must_use]
    pub fn mobility_groups(&self) -> &[u8] {
        &self.mobility_groups
    }

    /// The pattern (index in [`PATTERN_NAMES`]) whose mobility pattern the weight `f` of a
    /// file with mobility patterns belongs to, the mover's or the opponent's; `None` for the
    /// patterns' and scalars' weights (below [`PatternSet::features`]) and past the end.
    #[must_use]
    pub fn mobility_group_of(&self, f: usize) -> Option<u8> {
        let k = f.checked_sub(self.features)?;
        let n = self.mobility_groups.len();
        (k < 2 * n).then(|| self.mobility_groups[k % n])
    }

    /// The fingerprint a weights file of `stages` stages for this set must carry: the
    /// patterns (squares and order), the scalars and the stage count.
    #[must_use]
    pub(crate) fn signature(&self, stages: usize) -> u32 {
        mix(self.base_signature, stages as u32)
    }

    /// Shared weights per stage of a file with mobility patterns (`mobility`) or without:
    /// the patterns and scalars, then the mover's mobility patterns and the opponent's.
    #[must_use]
    pub fn features_with(&self, mobility: bool) -> usize {
        if mobility {
            self.features + 2 * self.mobility_features
        } else {
            self.features
        }
    }

    /// The fingerprint of a generation 3 file (version 3) of `stages` stages: the set's, with
    /// mobility patterns or not, and a head of `hidden` units over `inputs` inputs (0: none).
    #[must_use]
    pub(crate) fn signature_with(
        &self,
        stages: usize,
        mobility: bool,
        hidden: usize,
        inputs: usize,
    ) -> u32 {
        let mut s = self.base_signature;
        if mobility {
            s = mix(s, MOBILITY_TAG);
            for m in &self.mobility {
                s = mix(mix(s, m.mask as u32), (m.mask >> 32) as u32);
            }
        }
        s = mix(mix(s, hidden as u32), inputs as u32);
        mix(s, stages as u32)
    }

    /// The fingerprint of a generation 1 file of `stages` stages (its first
    /// [`GEN1_GROUPS`] patterns).
    pub(super) fn gen1_signature(&self, stages: usize) -> u32 {
        mix(self.gen1_signature, stages as u32)
    }

    /// Shared weights per stage in a generation 1 file.
    pub(super) fn gen1_shared(&self) -> usize {
        self.gen1_features + SCALAR_COUNT
    }

    /// A generation 1 stage's weights in this set's numbering: its pattern weights first,
    /// zero for the later patterns, its scalar weights last.
    pub(super) fn widen_gen1(&self, old: &[i16]) -> Vec<i16> {
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

    /// The pattern (index in [`PATTERN_NAMES`]) of each entry of [`PatternSet::active`] (the
    /// instances'), then `PATTERN_NAMES.len()` for the scalars'.
    #[must_use]
    pub fn active_groups(&self) -> [u8; ACTIVE] {
        let mut out = [GROUPS.len() as u8; ACTIVE];
        for (o, inst) in out.iter_mut().zip(&self.instances) {
            *o = inst.group;
        }
        out
    }

    /// The mobility-pattern features active in `b`, numbered as in a file with them (after
    /// [`PatternSet::features`]): each instance's mover feature, then each instance's
    /// opponent feature.
    #[must_use]
    pub fn active_mobility(&self, b: Board) -> [u32; MOBILITY_ACTIVE] {
        let mut out = [0u32; MOBILITY_ACTIVE];
        let moves_p = mobility::moves(b.player, b.opponent);
        let moves_o = mobility::moves(b.opponent, b.player);
        let n = self.mobility.len();
        let mover = self.features as u32;
        let opponent = mover + self.mobility_features as u32;
        for (k, inst) in self.mobility.iter().enumerate() {
            out[k] = mover + inst.feature[binary(moves_p, inst.mask)];
            out[n + k] = opponent + inst.feature[binary(moves_o, inst.mask)];
        }
        out
    }

    /// The shared features active in `b` (exactly [`ACTIVE`] of them): each instance's, in
    /// the instances' order, then the five scalars'.
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
pub fn pattern_set() -> &'static PatternSet {
    static SET: OnceLock<PatternSet> = OnceLock::new();
    SET.get_or_init(PatternSet::build)
}
