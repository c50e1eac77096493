//! Inputs the fuzz targets (fuzz/, docs/fuzzing.md) found mishandled, each pinned by a test
//! named for what went wrong.

use std::time::Duration;

use reversi_engine::time::TimeBudget;

/// A clock near the longest `Duration` with an increment (a GTP controller's main time and
/// byo-yomi) overflowed when its share and the increment were added.
#[test]
fn a_clock_near_the_longest_duration_gives_a_budget() {
    let clock = TimeBudget::Clock {
        remaining: Duration::MAX,
        increment: Duration::MAX,
    };
    for empties in [0, 1, 30, 60] {
        let budget = clock.for_move(empties);
        assert!(budget > Duration::from_secs(1), "{empties}: {budget:?}");
    }
}
