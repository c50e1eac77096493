//! Levels 1–60, in the manner of Edax and Egaroucid: each a midgame depth, the selectivity
//! of its probcut, the number of empty squares from which the endgame is solved exactly, a
//! time budget per move, and for the weaker levels an allowance of plausible mistakes; with
//! names for the terminal game.

use std::fmt;
use std::time::Duration;

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
/// assert_eq!(Level::new(13).unwrap().to_string(), "level 13");
///
/// // Only 1..=60.
/// assert_eq!(Level::new(0), None);
/// assert_eq!(Level::parse("61"), None);
///
/// // Level 10 searches 10 plies and solves exactly from 20 empties.
/// let spec = hard.spec();
/// assert_eq!((spec.depth, spec.exact_empties, spec.wld_empties), (10, 20, 22));
/// assert_eq!(Level::parse("perfect").unwrap().spec().exact_empties, 60);
///
/// // Every level answers within its budget; the weaker ones sometimes give away a little.
/// assert_eq!(spec.time.as_secs(), 2);
/// let allowance = spec.allowance.expect("hard is not among the strongest levels");
/// assert_eq!((allowance.max_loss, allowance.rate_percent), (4, 16));
/// assert_eq!(Level::parse("master").unwrap().spec().allowance, None);
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
    /// The longest the level thinks about one move (or one set of hints); the search then
    /// answers with the best move it has found.
    pub time: Duration,
    /// How far from the best move the level may stray, for the levels below the strongest;
    /// `None`: always the best move found.
    pub allowance: Option<Allowance>,
    /// How far below the best book move the level may play in the opening book (chosen at
    /// random among those within it, so that games vary); 0: always the best.
    pub book_margin: u8,
    /// The level this one plays its midgame as, above a number of empty squares (the perfect
    /// level plays as level 24 until an exact solve comes within reach, and keeps its long
    /// [`time`](LevelSpec::time) for the moves from there); `None`: itself throughout.
    pub midgame_as: Option<MidgameAs>,
}

/// The level a level plays as while more than `above` squares are empty (8x8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MidgameAs {
    /// Moves with more empty squares than this are played as `level`.
    pub above: u32,
    /// The level played as.
    pub level: Level,
}

/// The mistakes a level makes on purpose, so that a weak level plays plausible moves that
/// are a little worse, as people do, rather than blunders from a shallow search.
///
/// Each move, with probability `rate_percent` %, the level plays one of the other moves whose
/// score is within `max_loss` discs of the best, the smaller losses the more likely; otherwise
/// (and when no other move is within the allowance) the best.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowance {
    /// The most a deliberate mistake may cost, in discs by the level's own search.
    pub max_loss: i32,
    /// How often the level looks for such a move, in %.
    pub rate_percent: u8,
}

impl Allowance {
    /// The index in `scores` (each move's score by the level's search, the best among them)
    /// of the move to play, given a uniformly random `roll`.
    #[must_use]
    pub fn pick(&self, scores: &[i32], roll: u64) -> usize {
        let Some(best) = (0..scores.len()).max_by_key(|&i| (scores[i], std::cmp::Reverse(i)))
        else {
            return 0;
        };
        // The low bits decide whether to stray, the high bits which move.
        if roll % 100 >= u64::from(self.rate_percent) {
            return best;
        }
        let top = scores[best];
        // Weight max_loss + 1 - loss: a one-disc loss is chosen most often.
        let weight = |i: usize| {
            let loss = top - scores[i];
            if i == best || loss > self.max_loss {
                0
            } else {
                u64::from((self.max_loss + 1 - loss).unsigned_abs())
            }
        };
        let total: u64 = (0..scores.len()).map(weight).sum();
        if total == 0 {
            return best;
        }
        let mut r = (roll >> 32) % total;
        for i in 0..scores.len() {
            let w = weight(i);
            if r < w {
                return i;
            }
            r -= w;
        }
        best
    }
}

impl LevelSpec {
    /// The longest the level thinks about a move with `empties` empty squares: its
    /// [`time`](LevelSpec::time), or in its midgame the time of the level it plays as.
    ///
    /// # Examples
    /// ```
    /// use reversi_engine::levels::Level;
    ///
    /// let perfect = Level::parse("perfect").unwrap().spec();
    /// let level_24 = Level::new(24).unwrap().spec();
    /// // Level 24's time in the midgame, the long budget once a solve is within reach.
    /// assert_eq!(perfect.move_time(40), level_24.time);
    /// assert_eq!(perfect.move_time(26), perfect.time);
    /// let hard = Level::parse("hard").unwrap().spec();
    /// assert_eq!(hard.move_time(40), hard.time);
    /// ```
    #[must_use]
    pub fn move_time(&self, empties: u32) -> Duration {
        match self.midgame_as {
            Some(m) if empties > m.above => m.level.spec().time,
            _ => self.time,
        }
    }

    /// The share of probcut cuts expected to be right, in % (100: full width).
    #[must_use]
    pub fn selectivity_percent(&self) -> u8 {
        crate::search::probcut::SELECTIVITY_PERCENT[usize::from(self.selectivity)]
    }
}

/// The perfect level's budget for a move with [`PERFECT_MIDGAME_ABOVE`] empty squares or
/// fewer, in seconds: on 2 threads a typical game position of 24–26 empties solves within it.
const PERFECT_SOLVE_TIME: u64 = 25;
/// Above this many empty squares the perfect level plays as [`PERFECT_MIDGAME_AS`].
const PERFECT_MIDGAME_ABOVE: u32 = 30;
/// The level the perfect level plays its midgame as: level 24 (up to 10 s a move), so that it
/// is never weaker than level 24 anywhere (given a few seconds, its own deeper midgame search
/// was: 1 win, 3 draws and 8 losses in 12 games against level 24).
const PERFECT_MIDGAME_AS: Level = Level(24);

/// The allowance of levels 1 to 14 (the stronger levels never stray): the most a deliberate
/// mistake may cost in discs, and how often, in %. Chosen so that each level is a rung of
/// 100–200 Elo above the one below it (docs/ladder.md has the matches). From level 6 up a
/// level strays a little less than the one below it: less far, or as far on fewer moves
/// (level 10 strays up to 4 discs on 16 % of its moves, level 11 only up to 3 on 20 %:
/// a 4-disc stray costs far more than a 3-disc one, and at 24 % level 10 lay 205 Elo below
/// level 11); below, depth alone steps further
/// (level 1's one ply to level 2's two is worth 300 Elo at equal allowance), so levels 1 and
/// 2 stray less than levels 3 and 4: level 1 up to 4 discs on 26 % of its moves.
const ALLOWANCES: [(i32, u8); 14] = [
    (4, 26),
    (6, 44),
    (6, 48),
    (6, 48),
    (6, 44),
    (6, 40),
    (6, 36),
    (5, 32),
    (4, 28),
    (4, 16),
    (3, 20),
    (2, 16),
    (2, 12),
    (1, 8),
];

impl Level {
    /// The lowest level number.
    pub const MIN: u8 = 1;
    /// The highest level number: perfect play, solving from 60 empties.
    pub const MAX: u8 = 60;
    /// The level of `reversi play --white ai`.
    pub const DEFAULT: Level = Level(10);

    /// The named levels, weakest first: the ladder of docs/ladder.md, chosen from matches so
    /// that each is 100–200 Elo above the one before it (the game crate's `data/ladder.txt`
    /// holds each rung's match). Levels 9, 12 and 13 lie within 100 Elo of a named
    /// neighbour; the levels between expert, master and perfect are not measured one by one.
    pub const NAMED: [(&'static str, Level); 11] = [
        ("beginner", Level(3)),
        ("novice", Level(4)),
        ("easy", Level(5)),
        ("medium", Level(6)),
        ("club", Level(7)),
        ("advanced", Level(8)),
        ("hard", Level(10)),
        ("strong", Level(11)),
        ("expert", Level(14)),
        ("master", Level(18)),
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

    /// The level whose search plays a move of an 8x8 game with `empties` empty squares: this
    /// one, or the one it plays its midgame as.
    ///
    /// # Examples
    /// ```
    /// use reversi_engine::levels::Level;
    ///
    /// let perfect = Level::parse("perfect").unwrap();
    /// assert_eq!(perfect.at(44), Level::new(24).unwrap());
    /// assert_eq!(perfect.at(30), perfect);
    /// ```
    #[must_use]
    pub fn at(self, empties: u32) -> Level {
        match self.spec().midgame_as {
            Some(m) if empties > m.above => m.level,
            _ => self,
        }
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
        // 73 % (as Edax's levels do), which reaches the depth in a fraction of the time. Level
        // 60 deepens its midgame the same way until its budget lets it solve.
        let selectivity = if n >= 10 {
            0
        } else {
            crate::search::probcut::NO_SELECTIVITY
        };
        let time = Duration::from_secs(match n {
            1..=10 => 2,
            11..=20 => 5,
            21..=40 => 10,
            41..=59 => 20,
            _ => PERFECT_SOLVE_TIME,
        });
        // Perfect plays its midgame as level 24, and keeps its long budget for the moves from
        // which a solve can finish within it.
        let midgame_as = (n == 60).then_some(MidgameAs {
            above: PERFECT_MIDGAME_ABOVE,
            level: PERFECT_MIDGAME_AS,
        });
        // Levels 1 to 14 stray (`ALLOWANCES`): level 10 up to 4 discs 16 % of the time,
        // level 14 up to one disc 8 % of the time.
        let allowance = ALLOWANCES
            .get(n as usize - 1)
            .map(|&(max_loss, rate_percent)| Allowance {
                max_loss,
                rate_percent,
            });
        // In the book: below level 24, one of the moves within a disc of the best (the weak
        // levels also stray within their allowance, at their rate); level 24 and up one
        // of the best moves.
        let book_margin = if n < 24 { 1 } else { 0 };
        LevelSpec {
            book_margin,
            depth: n,
            exact_empties: exact,
            wld_empties: wld,
            selectivity,
            time,
            allowance,
            midgame_as,
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
    fn an_allowance_strays_within_its_loss() {
        let sometimes = Allowance {
            max_loss: 4,
            rate_percent: 50,
        };
        let scores = [2, 6, -10, 3];
        // Whatever the roll, the move played is the best (6) or within 4 discs of it (2 or 3).
        for roll in 0..1000u64 {
            let i = sometimes.pick(&scores, roll.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            assert!(scores[i] >= 6 - 4);
        }
    }

    #[test]
    fn perfect_plays_as_level_24_until_a_solve_is_near() {
        let perfect = Level::parse("perfect").unwrap();
        let level_24 = Level(24);
        assert_eq!(perfect.at(31), level_24);
        assert_eq!(perfect.at(30), perfect);
        assert_eq!(level_24.at(50), level_24);
        let spec = perfect.spec();
        assert_eq!(spec.move_time(40), level_24.spec().time);
        assert_eq!(spec.move_time(26), spec.time);
    }

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

    #[test]
    fn budgets_grow_and_allowances_shrink() {
        let mut last = Level(1).spec();
        for n in 2..=60 {
            let s = Level(n).spec();
            // No level makes a player wait more than half a minute for a move.
            assert!(s.time >= last.time && s.time <= Duration::from_secs(30));
            assert!(s.move_time(60) <= s.time && s.move_time(1) == s.time);
            match (last.allowance, s.allowance) {
                // Plausible mistakes, never blunders: at most 6 discs, on at most half the
                // moves; from level 6 up each level strays less than the one below: less
                // far, or as far on fewer moves.
                (Some(a), Some(b)) => {
                    assert!(b.max_loss >= 1 && b.max_loss <= 6 && b.rate_percent <= 50);
                    if n > 6 {
                        assert!(
                            (b.max_loss, b.rate_percent) < (a.max_loss, a.rate_percent),
                            "level {n} strays as much as level {}",
                            n - 1
                        );
                    }
                }
                (_, None) => {}
                (None, Some(_)) => panic!("level {n} strays though a weaker level does not"),
            }
            last = s;
        }
    }

    #[test]
    fn the_allowance_never_picks_outside_it() {
        let mut rng = reversi_core::XorShift64::new(7);
        let mut strayed = 0;
        for max_loss in 0..6 {
            for rate in [0u8, 30, 100] {
                let a = Allowance {
                    max_loss,
                    rate_percent: rate,
                };
                for _ in 0..500 {
                    let len = 1 + (rng.next_u64() % 12) as usize;
                    let scores: Vec<i32> = (0..len)
                        .map(|_| (rng.next_u64() % 21) as i32 - 10)
                        .collect();
                    let best = *scores.iter().max().unwrap();
                    let i = a.pick(&scores, rng.next_u64());
                    assert!(scores[i] >= best - max_loss, "{a:?} {scores:?} picked {i}");
                    if rate == 0 {
                        assert_eq!(scores[i], best);
                    }
                    if scores[i] < best {
                        strayed += 1;
                    }
                }
            }
        }
        assert!(strayed > 100, "the allowance is used ({strayed} times)");
        // No move but the best within reach: the best, whatever the roll.
        let a = Allowance {
            max_loss: 2,
            rate_percent: 100,
        };
        assert_eq!(a.pick(&[0, 9, 3], 12345), 1);
        assert_eq!(a.pick(&[], 1), 0);
    }
}
