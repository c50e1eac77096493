//! Multi-ProbCut (Buro, 1997): a shallow search predicts the value of a deep one well enough
//! that when the prediction lies far outside the window, the deep search is skipped.
//!
//! How far is "far" is the selectivity: `t` standard deviations of the error of the shallow
//! search, so that the cut is right with the probability of a normal variable within `t`
//! deviations (t = 1.1 → 73 %, … 3.3 → 99 %). The deviations were measured by
//! `reversi train probcut` on positions of WTHOR games and fitted as a linear function of the
//! depths and the number of empty squares (at least one disc).

use super::state::Searcher;
use crate::Board;

/// The selectivities, weakest first, as the share of cuts expected to be right (%); the last
/// one is a full-width search.
pub const SELECTIVITY_PERCENT: [u8; 6] = [73, 87, 95, 98, 99, 100];
/// The index of the full-width selectivity (no probcut).
pub(crate) const NO_SELECTIVITY: u8 = 5;
/// Standard deviations of the prediction error a cut needs, per selectivity.
const T: [f32; 5] = [1.1, 1.5, 2.0, 2.6, 3.3];

/// Midgame nodes this deep or deeper try a probcut.
pub const MIDGAME_MIN_DEPTH: u32 = 3;
/// Endgame nodes with this many empties or more try a probcut when solving selectively.
pub(crate) const ENDGAME_MIN_EMPTIES: u32 = 8;

/// The depth of the shallow search that predicts a `depth`-deep midgame search: about a
/// quarter of it, of the same parity (the evaluation swings with the side to move).
#[must_use]
pub const fn midgame_shallow(depth: u32) -> u32 {
    (depth / 4) * 2 + (depth & 1)
}

/// The depth of the shallow search that predicts an exact solve of `empties` squares.
#[must_use]
pub const fn endgame_shallow(empties: u32) -> u32 {
    if empties >= 24 {
        empties / 4
    } else {
        empties.saturating_sub(8) / 3
    }
}

/// Fitted deviation (discs) of a `shallow`-deep search from a `depth`-deep one with `empties`
/// empty squares: `c0 + c1·empties + c2·depth + c3·shallow` (`reversi train probcut
/// --positions 100 --depth 10 --exact-to 22`: 1,400 positions of WTHOR 2023, generation 2
/// evaluation; the fit's rms error 0.38 disc).
const MIDGAME_SIGMA: [f32; 4] = [4.979, -0.0540, 0.1573, -0.4201];
/// Fitted deviation (discs) of a `shallow`-deep search from the exact score of a position with
/// `empties` empty squares: `c0 + c1·empties + c2·shallow` (same run, 12–22 empties; rms
/// error 0.56 disc).
const ENDGAME_SIGMA: [f32; 3] = [9.939, -0.0976, -0.4498];

/// The deviation of a midgame prediction, in discs.
#[must_use]
pub(crate) fn midgame_sigma(empties: u32, depth: u32, shallow: u32) -> f32 {
    let [c0, c1, c2, c3] = MIDGAME_SIGMA;
    (c0 + c1 * empties as f32 + c2 * depth as f32 + c3 * shallow as f32).max(1.0)
}

/// The deviation of an endgame prediction, in discs.
#[must_use]
pub(crate) fn endgame_sigma(empties: u32, shallow: u32) -> f32 {
    let [c0, c1, c2] = ENDGAME_SIGMA;
    (c0 + c1 * empties as f32 + c2 * shallow as f32).max(1.0)
}

impl Searcher<'_> {
    /// A probcut at a midgame node `depth` deep, or (with `depth` `None`) at an endgame node
    /// being solved: `Some(bound)` when a shallow search puts the value outside the window
    /// (`alpha`, `beta`) with the searcher's selectivity.
    pub(crate) fn probcut(
        &mut self,
        b: Board,
        depth: Option<u32>,
        empties: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let t = *T.get(usize::from(self.selectivity))?;
        let (shallow, sigma) = match depth {
            Some(d) => {
                let s = midgame_shallow(d);
                (s, midgame_sigma(empties, d, s))
            }
            None => {
                let s = endgame_shallow(empties);
                (s, endgame_sigma(empties, s))
            }
        };
        let margin = (t * sigma).ceil() as i32;
        let high = beta + margin;
        if high < 64 && self.shallow_value(b, shallow, high - 1, high) >= high {
            return (!self.stopped).then_some(beta);
        }
        let low = alpha - margin;
        if low > -64 && self.shallow_value(b, shallow, low, low + 1) <= low {
            return (!self.stopped).then_some(alpha);
        }
        None
    }

    fn shallow_value(&mut self, b: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            self.eval.evaluate(b, self.mask)
        } else {
            self.pvs(b, depth, alpha, beta)
        }
    }
}
