//! The human scale: tournament players' ratings (fitted to the WTHOR games) against the discs
//! they lose a move by [`analysis`](crate::analysis) at one level, the curve from mean disc
//! loss to rating fitted on those bands, each computer level placed on it, and a game's
//! performance estimate for each side. The shipped table is `data/human-scale.txt`, written
//! by `reversi train human-scale` ([`HumanScale::to_text`]) and read at compile time.

use std::fmt;

use reversi_core::{BoardSize, Color, XorShift64};
use reversi_engine::levels::Level;

use crate::analysis::{Analysis, Verdict};
use crate::ladder::{self, Rung};

/// The shipped table's text.
const SHIPPED: &str = include_str!("../data/human-scale.txt");

/// Mean losses below this are taken as this (the curve is in log loss): a tenth of a disc a
/// move.
pub const LOSS_FLOOR: f64 = 0.1;

/// The first moves of a game, not measured: an opening's, from knowledge more than play (the
/// levels are measured from XOT openings of this many moves).
pub const OPENING_PLIES: usize = 8;

/// Resamples of a side's moves for a game's uncertainty.
const BOOTSTRAP: usize = 2000;

/// The generator's seed for a game's bootstrap: fixed, so that a game's estimate is the same
/// every time it is analysed alike.
const BOOTSTRAP_SEED: u64 = 0x4a11_0c34;

/// One rating band of the tournament players.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// The band's lowest rating.
    pub from: f64,
    /// The rating just past the band.
    pub to: f64,
    /// Players with a game in the sample.
    pub players: usize,
    /// Games in the sample.
    pub games: usize,
    /// Moves measured (the band's players' moves, forced passes left out).
    pub moves: usize,
    /// The mean rating of those moves' players.
    pub mean_rating: f64,
    /// Mean disc loss a move.
    pub mean_loss: f64,
}

/// A computer level measured like the players.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelLoss {
    /// The level.
    pub level: Level,
    /// Games it played in the measure.
    pub games: usize,
    /// Moves measured.
    pub moves: usize,
    /// Mean disc loss a move.
    pub mean_loss: f64,
}

/// `rating = intercept + slope · ln(max(loss, LOSS_FLOOR))`, held within `[low, high]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Curve {
    /// The rating at a loss of one disc a move.
    pub intercept: f64,
    /// Rating points per unit of ln(loss); negative: more loss, lower rating.
    pub slope: f64,
    /// The lowest rating the curve gives.
    pub low: f64,
    /// The highest rating the curve gives.
    pub high: f64,
}

/// A rating read off the curve, or for a level above what the curve can judge, climbed to
/// by the ladder's rungs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HumanRating {
    /// The rating, within the curve's range unless `by_ladder`.
    pub rating: f64,
    /// Where the curve's range held it: below (`Less`), above (`Greater`) or not (`Equal`).
    pub held: std::cmp::Ordering,
    /// A level's rating from a lower level's plus the Elo of the rungs between them
    /// ([`HumanScale::level_rating_on`]), not from its own disc loss.
    pub by_ladder: bool,
}

impl fmt::Display for HumanRating {
    /// Rounded to ten points: `1650`, `2300+` at the top of the range, `under 700` at the foot,
    /// `~2450` by the ladder.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = (self.rating / 10.0).round() * 10.0;
        match self.held {
            _ if self.by_ladder => write!(f, "~{r:.0}"),
            std::cmp::Ordering::Greater => write!(f, "{r:.0}+"),
            std::cmp::Ordering::Less => write!(f, "under {r:.0}"),
            std::cmp::Ordering::Equal => write!(f, "{r:.0}"),
        }
    }
}

/// Why a curve cannot be fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CurveError {
    /// Fewer than two bands with moves and distinct losses.
    TooFewBands,
    /// The fitted line gives more rating for more loss: the bands do not order.
    NotDecreasing,
}

impl fmt::Display for CurveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CurveError::TooFewBands => "too few rating bands with distinct disc losses to fit",
            CurveError::NotDecreasing => {
                "the bands' disc losses do not fall as ratings rise: no decreasing curve fits"
            }
        })
    }
}

impl std::error::Error for CurveError {}

impl Curve {
    /// The least-squares line of rating on ln(loss) through the bands (each weighted by its
    /// moves), held within one band width beyond the outer bands' mean ratings.
    ///
    /// # Errors
    /// Fewer than two usable bands, or a line that does not fall.
    pub fn fit(bands: &[Band]) -> Result<Curve, CurveError> {
        let points: Vec<(f64, f64, f64)> = bands
            .iter()
            .filter(|b| b.moves > 0 && b.mean_loss.is_finite())
            .map(|b| {
                (
                    b.mean_loss.max(LOSS_FLOOR).ln(),
                    b.mean_rating,
                    b.moves as f64,
                )
            })
            .collect();
        let w: f64 = points.iter().map(|p| p.2).sum();
        if points.len() < 2 || w <= 0.0 {
            return Err(CurveError::TooFewBands);
        }
        let mx = points.iter().map(|p| p.0 * p.2).sum::<f64>() / w;
        let my = points.iter().map(|p| p.1 * p.2).sum::<f64>() / w;
        let sxx: f64 = points.iter().map(|p| p.2 * (p.0 - mx).powi(2)).sum();
        let sxy: f64 = points.iter().map(|p| p.2 * (p.0 - mx) * (p.1 - my)).sum();
        if sxx <= 1e-12 {
            return Err(CurveError::TooFewBands);
        }
        let slope = sxy / sxx;
        if slope.is_nan() || slope >= 0.0 {
            return Err(CurveError::NotDecreasing);
        }
        let width = bands.iter().map(|b| b.to - b.from).fold(0.0, f64::max);
        let lowest = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let highest = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        Ok(Curve {
            intercept: my - slope * mx,
            slope,
            low: lowest - width,
            high: highest + width,
        })
    }

    /// The rating of a mean loss of `loss` discs a move.
    #[must_use]
    pub fn rating(&self, loss: f64) -> HumanRating {
        let raw = self.intercept + self.slope * loss.max(LOSS_FLOOR).ln();
        if raw > self.high {
            HumanRating {
                rating: self.high,
                held: std::cmp::Ordering::Greater,
                by_ladder: false,
            }
        } else if raw < self.low || raw.is_nan() {
            HumanRating {
                rating: self.low,
                held: std::cmp::Ordering::Less,
                by_ladder: false,
            }
        } else {
            HumanRating {
                rating: raw,
                held: std::cmp::Ordering::Equal,
                by_ladder: false,
            }
        }
    }
}

/// The whole table: what was measured, the bands, the curve and the levels.
#[derive(Debug, Clone, PartialEq)]
pub struct HumanScale {
    /// The level the games were analysed at.
    pub analysis_level: Level,
    /// One line saying what was measured (sample, dates), kept with the table.
    pub note: String,
    /// The rating bands, lowest first.
    pub bands: Vec<Band>,
    /// The curve fitted on them.
    pub curve: Curve,
    /// The computer levels measured.
    pub levels: Vec<LevelLoss>,
}

/// A line of the table file that does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseScaleError {
    /// 1-based line number (0: something missing from the whole file).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ParseScaleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "human scale table: {}", self.reason)
        } else {
            write!(f, "human scale table, line {}: {}", self.line, self.reason)
        }
    }
}

impl std::error::Error for ParseScaleError {}

/// One side's performance in a game, on the human scale.
#[derive(Debug, Clone, PartialEq)]
pub struct Performance {
    /// The side.
    pub color: Color,
    /// Moves measured (forced passes left out).
    pub moves: usize,
    /// Mean disc loss a move.
    pub mean_loss: f64,
    /// The rating of that loss.
    pub rating: HumanRating,
    /// The 90 % range of the rating over resamples of the side's moves (low, high).
    pub range: (f64, f64),
}

/// The level a game is analysed at for its sides' ratings: the shipped scale's (other levels
/// measure loss differently), else level 4.
#[must_use]
pub fn rating_level() -> Level {
    HumanScale::shipped().map_or(Level::new(4).unwrap_or(Level::DEFAULT), |s| {
        s.analysis_level
    })
}

impl HumanScale {
    /// The table shipped with the program (`None` if it has no bands yet or does not read,
    /// which a test rules out).
    #[must_use]
    pub fn shipped() -> Option<&'static HumanScale> {
        static TABLE: std::sync::OnceLock<Option<HumanScale>> = std::sync::OnceLock::new();
        TABLE
            .get_or_init(|| HumanScale::parse(SHIPPED).ok())
            .as_ref()
    }

    /// The rating of a level measured in the table.
    #[must_use]
    pub fn level_rating(&self, level: Level) -> Option<HumanRating> {
        self.levels
            .iter()
            .find(|l| l.level == level)
            .map(|l| self.curve.rating(l.mean_loss))
    }

    /// A level's rating with the ladder's `rungs`: its own loss's reading where that judges
    /// it (a level below the analysis level, read within the curve); otherwise, when a rung
    /// ends at it, the rating of the rung's lower level plus the rung's Elo, climbing down
    /// the rungs to a level its loss judges. An analysis cannot see the mistakes of a level
    /// that searches as deep as itself, so those levels lose little and read at the curve's
    /// top whatever their strength. Without such a chain, a level below the analysis level
    /// keeps its own reading (held at the curve's end, or none if not measured), and one at
    /// or above it has none.
    #[must_use]
    pub fn level_rating_on(&self, level: Level, rungs: &[Rung]) -> Option<HumanRating> {
        let judged = level < self.analysis_level;
        let own = self.level_rating(level).filter(|_| judged);
        if own.is_some_and(|r| r.held == std::cmp::Ordering::Equal) {
            return own;
        }
        ladder::rung_below(rungs, level)
            .and_then(|rung| {
                let below = self.level_rating_on(rung.low, rungs)?;
                (below.held == std::cmp::Ordering::Equal).then_some(HumanRating {
                    rating: below.rating + rung.elo,
                    held: std::cmp::Ordering::Equal,
                    by_ladder: true,
                })
            })
            .or(own)
    }

    /// Each side's performance in an analysed game from its moves after the first
    /// [`OPENING_PLIES`], when the analysis was made at the table's level (another level
    /// measures loss differently), the game is on the 8x8 board the scale was measured on,
    /// and the side has such moves. Reproducible: the resampling is seeded.
    #[must_use]
    pub fn performance(&self, analysis: &Analysis, size: BoardSize) -> Vec<Performance> {
        if analysis.level != self.analysis_level || size != BoardSize::EIGHT {
            return Vec::new();
        }
        [Color::Black, Color::White]
            .into_iter()
            .filter_map(|color| {
                let losses: Vec<f64> = analysis
                    .moves
                    .iter()
                    .filter(|m| {
                        m.ply >= OPENING_PLIES && m.color == color && m.verdict != Verdict::Forced
                    })
                    .map(|m| f64::from(m.loss))
                    .collect();
                self.performance_of(color, &losses)
            })
            .collect()
    }

    fn performance_of(&self, color: Color, losses: &[f64]) -> Option<Performance> {
        if losses.is_empty() {
            return None;
        }
        let n = losses.len();
        let mean_loss = losses.iter().sum::<f64>() / n as f64;
        let mut rng = XorShift64::new(BOOTSTRAP_SEED);
        let mut resampled: Vec<f64> = (0..BOOTSTRAP)
            .map(|_| {
                let sum: f64 = (0..n).map(|_| losses[rng.below(n as u64) as usize]).sum();
                self.curve.rating(sum / n as f64).rating
            })
            .collect();
        resampled.sort_by(f64::total_cmp);
        let at = |q: f64| resampled[((BOOTSTRAP - 1) as f64 * q).round() as usize];
        Some(Performance {
            color,
            moves: n,
            mean_loss,
            rating: self.curve.rating(mean_loss),
            range: (at(0.05), at(0.95)),
        })
    }

    /// The table as the file keeps it.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::from(
            "# The human scale (reversi train human-scale): WTHOR players' rating bands, their mean\n\
             # disc loss a move at the analysis level, the curve rating = intercept + slope * ln(loss)\n\
             # held within [low, high], and each computer level's loss.\n",
        );
        out += &format!("analysis-level {}\n", self.analysis_level.get());
        out += &format!("note {}\n", self.note.replace('\n', " "));
        out += "# band from to players games moves mean-rating mean-loss\n";
        for b in &self.bands {
            out += &format!(
                "band {:.0} {:.0} {} {} {} {:.1} {:.4}\n",
                b.from, b.to, b.players, b.games, b.moves, b.mean_rating, b.mean_loss
            );
        }
        let c = &self.curve;
        out += &format!(
            "curve {:.3} {:.3} {:.1} {:.1}\n",
            c.intercept, c.slope, c.low, c.high
        );
        out += "# level number games moves mean-loss\n";
        for l in &self.levels {
            out += &format!(
                "level {} {} {} {:.4}\n",
                l.level.get(),
                l.games,
                l.moves,
                l.mean_loss
            );
        }
        out
    }

    /// Reads a table written by [`HumanScale::to_text`].
    ///
    /// # Errors
    /// A line that does not read, or no analysis level or curve.
    pub fn parse(text: &str) -> Result<HumanScale, ParseScaleError> {
        let mut analysis_level = None;
        let mut note = String::new();
        let mut bands = Vec::new();
        let mut curve = None;
        let mut levels = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |reason: &str| ParseScaleError {
                line: i + 1,
                reason: reason.to_string(),
            };
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let num = |k: usize| -> Result<f64, ParseScaleError> {
                fields
                    .get(k)
                    .and_then(|f| f.parse::<f64>().ok())
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| bad(&format!("field {} is not a number", k + 1)))
            };
            let count = |k: usize| -> Result<usize, ParseScaleError> {
                fields
                    .get(k)
                    .and_then(|f| f.parse::<usize>().ok())
                    .ok_or_else(|| bad(&format!("field {} is not a count", k + 1)))
            };
            let level = |k: usize| -> Result<Level, ParseScaleError> {
                fields
                    .get(k)
                    .and_then(|f| f.parse::<u8>().ok())
                    .and_then(Level::new)
                    .ok_or_else(|| bad("not a level 1-60"))
            };
            match key {
                "analysis-level" => analysis_level = Some(level(0)?),
                "note" => note = rest.trim().to_string(),
                "band" => bands.push(Band {
                    from: num(0)?,
                    to: num(1)?,
                    players: count(2)?,
                    games: count(3)?,
                    moves: count(4)?,
                    mean_rating: num(5)?,
                    mean_loss: num(6)?,
                }),
                "curve" => {
                    let c = Curve {
                        intercept: num(0)?,
                        slope: num(1)?,
                        low: num(2)?,
                        high: num(3)?,
                    };
                    if c.slope >= 0.0 || c.low > c.high {
                        return Err(bad("the curve must fall, within low <= high"));
                    }
                    curve = Some(c);
                }
                "level" => levels.push(LevelLoss {
                    level: level(0)?,
                    games: count(1)?,
                    moves: count(2)?,
                    mean_loss: num(3)?,
                }),
                other => return Err(bad(&format!("unknown key {other:?}"))),
            }
        }
        let missing = |what: &str| ParseScaleError {
            line: 0,
            reason: format!("no {what} line"),
        };
        Ok(HumanScale {
            analysis_level: analysis_level.ok_or_else(|| missing("analysis-level"))?,
            note,
            bands,
            curve: curve.ok_or_else(|| missing("curve"))?,
            levels,
        })
    }
}

/// A level's rating on the shipped table and the shipped ladder
/// ([`HumanScale::level_rating_on`]), else `None`.
#[must_use]
pub fn level_rating(level: Level) -> Option<HumanRating> {
    HumanScale::shipped().and_then(|t| t.level_rating_on(level, ladder::shipped()))
}

/// "plays like a 1650 tournament player" for a level the shipped table rates.
#[must_use]
pub fn level_note(level: Level) -> Option<String> {
    level_rating(level).map(|r| format!("plays like a {r} tournament player"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::analysis::MoveAnalysis;
    use reversi_core::Move;

    fn band(from: f64, loss: f64) -> Band {
        Band {
            from,
            to: from + 200.0,
            players: 10,
            games: 20,
            moves: 600,
            mean_rating: from + 100.0,
            mean_loss: loss,
        }
    }

    fn scale() -> HumanScale {
        let bands = vec![
            band(1000.0, 4.0),
            band(1200.0, 3.1),
            band(1400.0, 2.6),
            band(1600.0, 2.0),
            band(1800.0, 1.5),
        ];
        HumanScale {
            analysis_level: Level::new(4).unwrap(),
            note: "test".into(),
            curve: Curve::fit(&bands).unwrap(),
            bands,
            levels: vec![LevelLoss {
                level: Level::new(3).unwrap(),
                games: 4,
                moves: 120,
                mean_loss: 2.6,
            }],
        }
    }

    #[test]
    fn the_mapping_is_monotonic() {
        let s = scale();
        let mut last = f64::INFINITY;
        for i in 0..=400 {
            let loss = f64::from(i) * 0.05;
            let r = s.curve.rating(loss).rating;
            assert!(r <= last, "loss {loss}: {r} after {last}");
            last = r;
        }
        // It passes near the bands and is held at their ends.
        assert!((s.curve.rating(2.6).rating - 1500.0).abs() < 60.0);
        assert_eq!(s.curve.rating(0.0).held, std::cmp::Ordering::Greater);
        assert_eq!(s.curve.rating(50.0).held, std::cmp::Ordering::Less);
        assert_eq!(s.curve.rating(0.0).to_string(), "2100+");
        // The shipped table's curve falls too.
        if let Some(t) = HumanScale::shipped() {
            assert!(t.curve.slope < 0.0);
            assert!(t.curve.rating(1.0).rating >= t.curve.rating(2.0).rating);
        }
    }

    #[test]
    fn levels_the_analysis_cannot_judge_climb_the_ladder() {
        let mut s = scale();
        s.levels.push(LevelLoss {
            level: Level::new(5).unwrap(),
            games: 4,
            moves: 120,
            mean_loss: 0.2,
        });
        let rungs = ladder::parse("rung 3 5 150 100 200 200\nrung 5 7 120 60 180 60\n").unwrap();
        let level = |n| Level::new(n).unwrap();
        // Level 3, below the analysis level (4) and within the curve: its own loss.
        let three = s.level_rating_on(level(3), &rungs).unwrap();
        assert_eq!(three, s.level_rating(level(3)).unwrap());
        assert!(!three.by_ladder && three.held == std::cmp::Ordering::Equal);
        // Level 5 reads at the curve's top by its loss; the rung from level 3 places it.
        assert_eq!(
            s.level_rating(level(5)).unwrap().held,
            std::cmp::Ordering::Greater
        );
        let five = s.level_rating_on(level(5), &rungs).unwrap();
        assert!(five.by_ladder);
        assert!((five.rating - (three.rating + 150.0)).abs() < 1e-9);
        // Level 7 is not measured at all: two rungs up.
        let seven = s.level_rating_on(level(7), &rungs).unwrap();
        assert!((seven.rating - (three.rating + 270.0)).abs() < 1e-9);
        assert_eq!(
            seven.to_string(),
            format!("~{:.0}", (seven.rating / 10.0).round() * 10.0)
        );
        // Without a rung, a level below the analysis level keeps its own reading; one the
        // analysis cannot judge has none, measured or not.
        assert_eq!(s.level_rating_on(level(3), &[]), Some(three));
        assert_eq!(s.level_rating_on(level(5), &[]), None);
        assert_eq!(s.level_rating_on(level(9), &rungs), None);
        // A chain that ends at a level read at the curve's end gives no ladder rating.
        let from_two = ladder::parse("rung 2 6 100 50 150 200\n").unwrap();
        assert_eq!(s.level_rating_on(level(6), &from_two), None);
    }

    #[test]
    fn the_named_levels_rise_on_the_shipped_scale() {
        let mut last = f64::NEG_INFINITY;
        for (name, level) in Level::NAMED {
            let r = level_rating(level).unwrap_or_else(|| panic!("{name} has no rating"));
            assert_eq!(r.held, std::cmp::Ordering::Equal, "{name}: {r}");
            assert!(r.rating > last, "{name}: {r} after {last}");
            last = r.rating;
        }
    }

    #[test]
    fn bands_that_do_not_order_are_refused() {
        let rising = vec![band(1000.0, 1.0), band(1200.0, 2.0), band(1400.0, 3.0)];
        assert_eq!(Curve::fit(&rising), Err(CurveError::NotDecreasing));
        assert_eq!(
            Curve::fit(&[band(1000.0, 1.0)]),
            Err(CurveError::TooFewBands)
        );
    }

    #[test]
    fn the_table_reads_back_what_it_writes_and_the_shipped_one_reads() {
        let s = scale();
        let back = HumanScale::parse(&s.to_text()).unwrap();
        assert_eq!(back.bands.len(), s.bands.len());
        assert_eq!(back.analysis_level, s.analysis_level);
        assert!((back.curve.slope - s.curve.slope).abs() < 1e-3);
        assert_eq!(back.levels[0].level, s.levels[0].level);
        assert!(
            HumanScale::parse(SHIPPED).is_ok(),
            "{:?}",
            HumanScale::parse(SHIPPED)
        );
        let err = HumanScale::parse("analysis-level 4\nband 1 x").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(HumanScale::parse("analysis-level 4\n").is_err());
        assert!(HumanScale::parse("wat 3\n").is_err());
    }

    fn analysis(level: u8, losses: &[i32]) -> Analysis {
        let moves = losses
            .iter()
            .enumerate()
            .map(|(ply, &loss)| MoveAnalysis {
                ply,
                color: if ply % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                played: Move::Pass,
                best: None,
                played_score: None,
                loss,
                verdict: if loss > 0 {
                    Verdict::Inaccuracy
                } else {
                    Verdict::Best
                },
            })
            .collect();
        Analysis {
            level: Level::new(level).unwrap(),
            moves,
            evals: Vec::new(),
            kinds: Vec::new(),
        }
    }

    #[test]
    fn a_games_rating_is_reproducible_and_wide() {
        let s = scale();
        let losses: Vec<i32> = (0..60).map(|i| [0, 2, 0, 6, 1, 0, 3, 0][i % 8]).collect();
        let a = analysis(4, &losses);
        let first = s.performance(&a, BoardSize::EIGHT);
        assert_eq!(first.len(), 2);
        assert_eq!(first, s.performance(&a, BoardSize::EIGHT));
        for p in &first {
            assert_eq!(p.moves, 26);
            assert!(p.range.0 <= p.rating.rating && p.rating.rating <= p.range.1);
            assert!(p.range.1 - p.range.0 > 50.0, "{p:?}: one game says little");
        }
        // Analysed at another level: no estimate on this scale.
        assert!(s
            .performance(&analysis(6, &losses), BoardSize::EIGHT)
            .is_empty());
        // Another board than the scale's: none either.
        assert!(s.performance(&a, BoardSize::new(6).unwrap()).is_empty());
    }
}
