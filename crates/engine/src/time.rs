//! The engine's time budget: a fixed time per move, or a game clock with increment split
//! over the moves still to come (named apart from [`reversi_core::TimeControl`], the game's
//! clock setting, from which a clock budget is made each move).

use std::time::Duration;

/// How much time the engine has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeBudget {
    /// The same time for every move.
    PerMove(Duration),
    /// What is left on the engine's clock, and what each move adds to it.
    Clock {
        /// Time left on the engine's clock now, before its move.
        remaining: Duration,
        /// Time added to the clock after each of the engine's moves (Fischer increment).
        increment: Duration,
    },
}

/// Kept back on the clock for the overhead of moving.
const SAFETY: Duration = Duration::from_millis(50);

impl TimeBudget {
    /// The time to spend on the next move with `empties` empty squares on the board.
    ///
    /// On a clock the engine expects to make about half of the remaining moves, plans as if
    /// a few fewer were left (the midgame decides more than the solved endgame), adds most of
    /// the increment, and never spends more than 40% of what is left.
    ///
    /// # Examples
    /// ```
    /// use std::time::Duration;
    /// use reversi_engine::time::TimeBudget;
    ///
    /// let per_move = TimeBudget::PerMove(Duration::from_secs(2));
    /// assert_eq!(per_move.for_move(40), Duration::from_secs(2));
    ///
    /// // Five minutes for the game at the first move: a few seconds, far from the whole clock.
    /// let clock = TimeBudget::Clock {
    ///     remaining: Duration::from_secs(300),
    ///     increment: Duration::ZERO,
    /// };
    /// let budget = clock.for_move(60);
    /// assert!(budget > Duration::from_secs(5) && budget < Duration::from_secs(20));
    /// ```
    #[must_use]
    pub fn for_move(&self, empties: u32) -> Duration {
        match *self {
            TimeBudget::PerMove(t) => t,
            TimeBudget::Clock {
                remaining,
                increment,
            } => {
                let my_moves = empties.div_ceil(2).max(1);
                let plan = my_moves.saturating_sub(4).clamp(1, 25);
                // Saturating: a clock of centuries (a controller's way to say "no limit")
                // must not overflow.
                let share = (remaining / plan).saturating_add(increment.mul_f64(0.9));
                let cap = remaining.mul_f64(0.4);
                share
                    .min(cap)
                    .saturating_sub(SAFETY)
                    .max(Duration::from_millis(1))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_move_is_fixed() {
        let t = TimeBudget::PerMove(Duration::from_millis(300));
        assert_eq!(t.for_move(60), Duration::from_millis(300));
        assert_eq!(t.for_move(1), Duration::from_millis(300));
    }

    #[test]
    fn a_clock_is_spread_and_never_emptied() {
        let clock = TimeBudget::Clock {
            remaining: Duration::from_secs(300),
            increment: Duration::ZERO,
        };
        let opening = clock.for_move(56);
        assert!(opening > Duration::from_secs(5) && opening < Duration::from_secs(20));
        // Spending the budget every move from the start never runs the clock out.
        let mut left = Duration::from_secs(60);
        for empties in (1..=60).rev().step_by(2) {
            let b = TimeBudget::Clock {
                remaining: left,
                increment: Duration::from_secs(1),
            }
            .for_move(empties);
            assert!(b < left, "{b:?} of {left:?} at {empties}");
            left = left - b + Duration::from_secs(1);
        }
        // With the clock almost empty, a tiny budget.
        let low = TimeBudget::Clock {
            remaining: Duration::from_millis(100),
            increment: Duration::ZERO,
        };
        assert!(low.for_move(30) <= Duration::from_millis(40));
    }
}
