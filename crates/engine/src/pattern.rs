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
mod set;
mod weights;

use std::sync::{Arc, OnceLock};

use crate::eval::{Evaluator, HandEval};
use crate::kernel;
#[cfg(test)]
use crate::ternary::{ternary, ternary_portable};
use crate::Board;

use set::scalars;
#[cfg(test)]
pub(crate) use set::transform;
pub(crate) use set::{pattern_set, GROUPS, SCALAR_COUNT};
pub use set::{stage, stage_empties};
pub(crate) use set::{PatternSet, ACTIVE, MAX_STAGES, SCALE};
pub use weights::{crc32, Weights, WeightsError};

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
    pub(crate) fn raw(&self, b: Board) -> i32 {
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
pub(crate) const SHIPPED: &[u8] = include_bytes!("../weights/eval-gen2.bin");

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
pub(crate) enum EvalChoice {
    /// The shipped trained weights (the default).
    Pattern,
    /// The hand-made evaluation (`REVERSI_EVAL=hand`), for comparisons.
    Hand,
}

/// The choice the environment makes: `REVERSI_EVAL=hand` selects the hand-made evaluation,
/// anything else (or nothing) the trained patterns. Read once per process.
#[must_use]
pub(crate) fn eval_choice() -> EvalChoice {
    static CHOICE: OnceLock<EvalChoice> = OnceLock::new();
    *CHOICE.get_or_init(|| match std::env::var("REVERSI_EVAL") {
        Ok(v) if v.eq_ignore_ascii_case("hand") => EvalChoice::Hand,
        _ => EvalChoice::Pattern,
    })
}

/// The evaluation for a board with playable squares `mask` when none is set: the trained
/// patterns on 8x8 (unless `REVERSI_EVAL=hand` says otherwise, or the shipped weights fail to
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
