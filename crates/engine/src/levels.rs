//! Levels 1–60, in the manner of Edax and Egaroucid: each a midgame depth, the selectivity
//! of its probcut, and the number of empty squares from which the endgame is solved exactly,
//! with names for the terminal game.

use std::fmt;

/// A computer level, 1 (weakest searching level) to 60 (perfect play from 60 empties).
///
/// # Examples
/// ```
/// use reversi_engine::levels::Level;
///
/// // By number or by the terminal game's name.
/// let hard = Level::parse("hard").unwrap();
/// assert_eq!(Level::parse(" 10 "), Some(hard));
/// assert_eq!(hard, Level::DEFAULT);
/// assert_eq!(hard.get(), 10);
/// assert_eq!(hard.name(), Some("hard"));
/// assert_eq!(hard.to_string(), "level 10 (hard)");
/// assert_eq!(Level::new(12).unwrap().to_string(), "level 12");
///
/// // Only 1..=60.
/// assert_eq!(Level::new(0), None);
/// assert_eq!(Level::parse("61"), None);
///
/// // Level 10 searches 10 plies and solves exactly from 20 empties.
/// let spec = hard.spec();
/// assert_eq!((spec.depth, spec.exact_empties, spec.wld_empties), (10, 20, 22));
/// assert_eq!(Level::parse("perfect").unwrap().spec().exact_empties, 60);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// What a level searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelSpec {
    /// Midgame search depth in plies.
    pub depth: u32,
    /// From this many empty squares on, the endgame is solved exactly.
    pub exact_empties: u32,
    /// From this many empty squares on, the endgame is solved for win/loss/draw (at least
    /// `exact_empties`).
    pub wld_empties: u32,
    /// Probcut selectivity of the midgame search, an index of
    /// [`SELECTIVITY_PERCENT`](crate::search::probcut::SELECTIVITY_PERCENT).
    pub selectivity: u8,
}

impl LevelSpec {
    /// The share of probcut cuts expected to be right, in % (100: full width).
    #[must_use]
    pub fn selectivity_percent(&self) -> u8 {
        crate::search::probcut::SELECTIVITY_PERCENT[usize::from(self.selectivity)]
    }
}

impl Level {
    /// The lowest level number.
    pub const MIN: u8 = 1;
    /// The highest level number: perfect play, solving from 60 empties.
    pub const MAX: u8 = 60;
    /// The level of `reversi play --white ai`.
    pub const DEFAULT: Level = Level(10);

    /// The names of the terminal game, weakest first, with their levels.
    pub const NAMED: [(&'static str, Level); 7] = [
        ("beginner", Level(1)),
        ("easy", Level(3)),
        ("medium", Level(6)),
        ("hard", Level(10)),
        ("expert", Level(16)),
        ("master", Level(24)),
        ("perfect", Level(60)),
    ];

    /// The level `n`, if within 1..=60.
    #[must_use]
    pub fn new(n: u8) -> Option<Level> {
        (Self::MIN..=Self::MAX).contains(&n).then_some(Level(n))
    }

    /// The level's number, 1..=60.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// A level by number or name (`12`, `hard`), ignoring case and surrounding spaces;
    /// `None` for anything else.
    #[must_use]
    pub fn parse(text: &str) -> Option<Level> {
        let t = text.trim().to_ascii_lowercase();
        if let Ok(n) = t.parse::<u8>() {
            return Level::new(n);
        }
        Self::NAMED
            .iter()
            .find(|(name, _)| *name == t)
            .map(|&(_, l)| l)
    }

    /// The name of this level, if it has one.
    #[must_use]
    pub fn name(self) -> Option<&'static str> {
        Self::NAMED
            .iter()
            .find(|(_, l)| *l == self)
            .map(|&(n, _)| n)
    }

    /// The depths this level searches to.
    #[must_use]
    pub fn spec(self) -> LevelSpec {
        let n = u32::from(self.0);
        let exact = match n {
            1..=10 => 2 * n,
            11..=20 => 20 + (n - 10) * 4 / 5,
            21..=59 => 28 + (n - 20) / 4,
            _ => 60,
        };
        let wld = if n == 60 {
            60
        } else if n >= 10 {
            exact + 2
        } else {
            exact
        };
        // Shallow levels search full width; from level 10 the midgame prunes with probcut at
        // 73 % (as Edax's levels do), which reaches the depth in a fraction of the time.
        let selectivity = if (10..60).contains(&n) {
            0
        } else {
            crate::search::probcut::NO_SELECTIVITY
        };
        LevelSpec {
            depth: n,
            exact_empties: exact,
            wld_empties: wld,
            selectivity,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "level {} ({name})", self.0),
            None => write!(f, "level {}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_grow() {
        assert_eq!(Level::parse("hard"), Some(Level::DEFAULT));
        assert_eq!(Level::parse(" 12 "), Level::new(12));
        assert_eq!(Level::parse("0"), None);
        assert_eq!(Level::parse("61"), None);
        assert_eq!(Level::parse("godlike"), None);
        let mut last = Level(1).spec();
        for n in 2..=60 {
            let s = Level(n).spec();
            assert!(s.depth > last.depth);
            assert!(s.exact_empties >= last.exact_empties);
            assert!(s.wld_empties >= s.exact_empties);
            last = s;
        }
        assert_eq!(Level(60).spec().exact_empties, 60);
    }
}
