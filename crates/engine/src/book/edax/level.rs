//! Edax's search levels as its book uses them: what a position's level says about the search
//! of its leaf, and the level that says what this program's search of a position did.
//!
//! Edax turns a level and a position's empty squares into a depth and a selectivity
//! (`search_global_init` in its `src/search.c`): near the end it searches to the end, exactly
//! up to some number of empties and with probcut beyond, and further from the end it searches
//! `level` plies deep. The book needs only the two boundaries of each level, which every
//! Edax 4 release shares.

/// What Edax's search at a level did in a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EdaxSearch {
    /// Solved exactly.
    Exact,
    /// Searched to the end with probcut.
    Endgame,
    /// Searched this many plies deep.
    Midgame(u8),
}

/// Up to how many empty squares a level solves exactly, and up to how many it searches to the
/// end at all.
fn windows(level: u8) -> (u32, u32) {
    let level32 = u32::from(level);
    match level {
        0 => (0, 0),
        1..=10 => (2 * level32, 2 * level32),
        11..=12 => (21, 24),
        13..=18 => (21, 27),
        19..=21 => (24, 30),
        22..=24 => (24, 33),
        25..=27 => (27, 33),
        28..=29 => (27, 36),
        30..=31 => (30, 36),
        32..=35 => (30, 39),
        36..=59 => (level32 - 6, level32 + 9),
        _ => (60, 60),
    }
}

/// The search Edax's `level` makes of a position with `empties` empty squares.
pub(super) fn edax_search(level: u8, empties: u32) -> EdaxSearch {
    let (exact, endgame) = windows(level);
    if empties <= exact {
        EdaxSearch::Exact
    } else if empties <= endgame {
        EdaxSearch::Endgame
    } else {
        EdaxSearch::Midgame(level)
    }
}

/// The depth and exactness of a book record whose leaf Edax searched at `level`: an exact
/// solve has the empties' depth, as this program's book records solves.
pub(super) fn searched(level: u8, empties: u32) -> (u8, bool) {
    let depth = empties.min(60) as u8;
    match edax_search(level, empties) {
        EdaxSearch::Exact => (depth, true),
        EdaxSearch::Endgame => (depth, false),
        EdaxSearch::Midgame(d) => (d, false),
    }
}

/// The level to write for a record searched `depth` plies deep (`exact` for a solve; depth 0:
/// not searched) with `empties` empty squares: `preferred` (the book's) when Edax reads it so,
/// else a level Edax reads so. A midgame search that no level describes (one inside Edax's
/// endgame window for its depth) gets the deepest level Edax reads as a midgame search no
/// deeper: the level never claims more than the search did.
pub(super) fn choose_level(depth: u8, exact: bool, empties: u32, preferred: u8) -> u8 {
    if depth == 0 {
        return 0;
    }
    let wanted = (depth, exact);
    if preferred > 0 && searched(preferred, empties) == wanted {
        return preferred;
    }
    if exact {
        return super::MAX_LEVEL;
    }
    if let Some(level) = (1..super::MAX_LEVEL)
        .rev()
        .find(|&l| searched(l, empties) == wanted)
    {
        return level;
    }
    (1..depth.min(super::MAX_LEVEL))
        .rev()
        .find(|&l| edax_search(l, empties) == EdaxSearch::Midgame(l))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_windows_follow_edax_table() {
        // Spot checks of search_global_init: level 21 solves 24 empties, searches 25-30 to the
        // end selectively, and 31 on at depth 21.
        assert_eq!(edax_search(21, 24), EdaxSearch::Exact);
        assert_eq!(edax_search(21, 25), EdaxSearch::Endgame);
        assert_eq!(edax_search(21, 30), EdaxSearch::Endgame);
        assert_eq!(edax_search(21, 31), EdaxSearch::Midgame(21));
        assert_eq!(edax_search(5, 10), EdaxSearch::Exact);
        assert_eq!(edax_search(5, 11), EdaxSearch::Midgame(5));
        assert_eq!(edax_search(40, 34), EdaxSearch::Exact);
        assert_eq!(edax_search(40, 49), EdaxSearch::Endgame);
        assert_eq!(edax_search(40, 50), EdaxSearch::Midgame(40));
        assert_eq!(edax_search(60, 60), EdaxSearch::Exact);
        assert_eq!(edax_search(0, 30), EdaxSearch::Midgame(0));
    }

    #[test]
    fn a_chosen_level_reads_back_or_claims_less() {
        for empties in 1..=60 {
            for depth in 0..=60u8 {
                // A solve's depth is its empties (as this program's book records it).
                for exact in [false, true]
                    .into_iter()
                    .filter(|&x| !x || u32::from(depth) == empties)
                {
                    for preferred in [0, 2, 14, 16, 21, 30, 60] {
                        let level = choose_level(depth, exact, empties, preferred);
                        let (d, x) = if level == 0 {
                            (0, false)
                        } else {
                            searched(level, empties)
                        };
                        if (d, x) != (depth, exact) && depth > 0 {
                            // Never a solve that was not one, never deeper than searched.
                            assert!(!x, "{depth} {exact} {empties} -> {level}");
                            assert!(d < depth, "{depth} {exact} {empties} -> {level}");
                        }
                    }
                }
            }
        }
        // The shipped book's case: depth 16 far from the end is level 16.
        assert_eq!(choose_level(16, false, 40, 16), 16);
        // A solve is the book's level when that level solves there, else 60.
        assert_eq!(choose_level(20, true, 20, 16), 16);
        assert_eq!(choose_level(30, true, 30, 16), 60);
        // Depth 16 at 24 empties: level 16 would be a selective endgame search, level 10
        // is the deepest midgame search Edax knows there.
        assert_eq!(choose_level(16, false, 24, 16), 10);
    }
}
