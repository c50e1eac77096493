//! The human scale's measure (`reversi train human-scale`): ratings for the WTHOR players
//! from all their results, a sample of their games analysed at one level to give each rating
//! band's mean disc loss a move, the curve from loss to rating, and the computer levels'
//! games measured the same way; the result is a [`HumanScale`], the table the program ships.
//!
//! Both people and levels are measured on the moves after the first eight (the XOT openings
//! the levels start from are eight moves long), forced passes left out; every game is
//! analysed by [`analyze_alone`] (an engine of its own, one thread), so a game's losses do
//! not depend on what was analysed before it or on the threads.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reversi_arena::{fit_ratings, Encounter, RatingFit, RatingsError};
use reversi_core::{BoardSize, Color, Game, Move, Position, Rules, Square, XorShift64};
use reversi_engine::engine::Engine;
use reversi_engine::levels::Level;
use reversi_formats::wthor::{list_files, parse_names, parse_wtb, WthorError};
use reversi_formats::xot::{read_openings, OpeningsError};
use reversi_game::analysis::{analyze_alone, Analysis, Verdict};
use reversi_game::human_scale::{Band, Curve, CurveError, HumanScale, LevelLoss, OPENING_PLIES};
use reversi_players::{Ai, Computer};

use crate::{parallel, Progress};

/// The most an analysis of one game may take (far more than a fast level needs).
const ANALYSIS_TIME: Duration = Duration::from_secs(600);

/// What to measure.
#[derive(Debug, Clone)]
pub struct Options {
    /// The WTHOR folder (`WTH_*.wtb` and `WTH.JOU`).
    pub wthor: PathBuf,
    /// The XOT openings the levels play from.
    pub openings: PathBuf,
    /// The level every game is analysed at.
    pub analysis_level: Level,
    /// The first year of the games sampled (the ratings use every year).
    pub from_year: u16,
    /// The games a player needs (in the whole database) for their games to be sampled.
    pub min_games: usize,
    /// The width of a rating band.
    pub band_width: f64,
    /// Sides (one player's moves in one game) wanted in each band.
    pub sides_per_band: usize,
    /// Bands with fewer sides are left out of the table.
    pub min_sides: usize,
    /// The levels measured.
    pub levels: Vec<Level>,
    /// Games each level plays against itself.
    pub level_games: usize,
    /// The seed of the sample's order and of the levels' games.
    pub seed: u64,
    /// Games analysed or played at once.
    pub threads: usize,
    /// A table whose people (bands and curve) are kept instead of measured again: only
    /// `levels` are measured, and the table's other levels stay as they were. Its analysis
    /// level must be `analysis_level`.
    pub update: Option<HumanScale>,
}

/// Why the measure failed.
#[derive(Debug)]
pub enum HumanScaleError {
    /// A file or folder that does not read.
    Read(PathBuf, std::io::Error),
    /// A WTHOR file that does not parse.
    Wthor(PathBuf, WthorError),
    /// A folder without `.wtb` files.
    NoWthorFiles(PathBuf),
    /// The openings do not read.
    Openings(OpeningsError),
    /// The ratings cannot be fitted.
    Ratings(RatingsError),
    /// The bands give no decreasing curve.
    Curve(CurveError),
    /// The table to update was analysed at another level.
    UpdateLevel(Level),
    /// Stopped before the end.
    Stopped,
}

impl fmt::Display for HumanScaleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HumanScaleError::Read(path, e) => write!(f, "reading {}: {e}", path.display()),
            HumanScaleError::Wthor(path, e) => write!(f, "parsing {}: {e}", path.display()),
            HumanScaleError::NoWthorFiles(dir) => write!(f, "no .wtb files in {}", dir.display()),
            HumanScaleError::Openings(e) => write!(f, "the openings: {e}"),
            HumanScaleError::Ratings(e) => write!(f, "fitting the ratings: {e}"),
            HumanScaleError::Curve(e) => write!(f, "fitting the curve: {e}"),
            HumanScaleError::UpdateLevel(l) => write!(
                f,
                "the table to update was analysed at level {}, not at --analysis-level",
                l.get()
            ),
            HumanScaleError::Stopped => f.write_str("stopped"),
        }
    }
}

impl std::error::Error for HumanScaleError {}

/// One WTHOR game as the measure uses it.
#[derive(Debug, Clone)]
struct Played {
    year: u16,
    black: usize,
    white: usize,
    /// Black's recorded score (empties to the winner): above 32 a win.
    black_score: u8,
    moves: Vec<Square>,
}

/// What the measure found, beyond the table.
#[derive(Debug, Clone)]
pub struct Report {
    /// The table to ship.
    pub scale: HumanScale,
    /// How the people were rated; `None` when kept from the table updated.
    pub people: Option<People>,
    /// Each level measured, with its mean seconds a game took to play and analyse.
    pub level_seconds: Vec<(Level, f64)>,
    /// The whole measure's time.
    pub seconds: f64,
}

/// How the WTHOR players were rated.
#[derive(Debug, Clone)]
pub struct People {
    /// Games in the database and games rated (both players known).
    pub games: (usize, usize),
    /// Players rated (with at least one game) and players in the anchor's median.
    pub players: (usize, usize),
    /// MM steps and whether they converged.
    pub fit: (usize, bool),
    /// The highest-rated players with the sample's games count: name, rating, games.
    pub top: Vec<(String, f64, usize)>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.scale;
        let Some(people) = &self.people else {
            return self.fmt_table(f, "People kept from the table updated.");
        };
        writeln!(
            f,
            "Ratings: {} of {} games rated (both players named people), {} players; Bradley-Terry by MM, \
             {} steps{}; the median of the {} players with 20+ games is 1500.",
            people.games.1,
            people.games.0,
            people.players.0,
            people.fit.0,
            if people.fit.1 { "" } else { " (not converged)" },
            people.players.1
        )?;
        writeln!(f, "Highest rated (20+ games):")?;
        for (name, rating, games) in &people.top {
            writeln!(f, "  {rating:>6.0}  {name} ({games} games)")?;
        }
        self.fmt_table(f, &s.note)
    }
}

impl Report {
    /// The note, bands, curve and levels.
    fn fmt_table(&self, f: &mut fmt::Formatter<'_>, note: &str) -> fmt::Result {
        let s = &self.scale;
        writeln!(f, "{note}")?;
        writeln!(
            f,
            "\nrating band   players  games  moves  mean rating  mean disc loss a move"
        )?;
        for b in &s.bands {
            writeln!(
                f,
                "{:>5.0}-{:<5.0}  {:>7}  {:>5}  {:>5}  {:>11.0}  {:>21.3}",
                b.from, b.to, b.players, b.games, b.moves, b.mean_rating, b.mean_loss
            )?;
        }
        let c = &s.curve;
        writeln!(
            f,
            "\nCurve: rating = {:.1} {:+.1} ln(loss), held within {:.0}-{:.0}.",
            c.intercept, c.slope, c.low, c.high
        )?;
        writeln!(
            f,
            "\nlevel                   games  moves  mean disc loss a move  rating  s/game"
        )?;
        for l in &s.levels {
            let secs = self
                .level_seconds
                .iter()
                .find(|(level, _)| *level == l.level)
                .map_or_else(|| "kept".to_string(), |(_, secs)| format!("{secs:.1}"));
            writeln!(
                f,
                "{:<22}  {:>5}  {:>5}  {:>21.3}  {:>6}  {secs:>6}",
                l.level.to_string(),
                l.games,
                l.moves,
                l.mean_loss,
                s.curve.rating(l.mean_loss).to_string()
            )?;
        }
        write!(f, "\n{:.0} s in all.", self.seconds)
    }
}

fn read_wthor(dir: &Path) -> Result<(Vec<Played>, Vec<String>), HumanScaleError> {
    let read = |path: &Path| fs::read(path).map_err(|e| HumanScaleError::Read(path.into(), e));
    let files = list_files(dir).map_err(|e| HumanScaleError::Read(dir.into(), e))?;
    if files.is_empty() {
        return Err(HumanScaleError::NoWthorFiles(dir.into()));
    }
    let mut games = Vec::new();
    for path in &files {
        let db = parse_wtb(&read(path)?).map_err(|e| HumanScaleError::Wthor(path.clone(), e))?;
        games.extend(db.games.into_iter().map(|g| Played {
            year: db.header.year,
            black: usize::from(g.black),
            white: usize::from(g.white),
            black_score: g.black_score,
            moves: g.moves,
        }));
    }
    let jou = dir.join("WTH.JOU");
    let names = parse_names(&read(&jou)?, reversi_formats::wthor::PLAYER_RECORD)
        .map_err(|e| HumanScaleError::Wthor(jou, e))?;
    Ok((games, names))
}

/// A WTHOR game as a game from the start, passes put back; `None` if a move is illegal.
fn replay(moves: &[Square]) -> Option<Game> {
    let mut game = Game::new(Position::start(BoardSize::EIGHT, Rules::Othello));
    for &square in moves {
        if game.play(Move::Play(square)).is_err() {
            game.play(Move::Pass).ok()?;
            game.play(Move::Play(square)).ok()?;
        }
    }
    Some(game)
}

/// Each side's (moves measured, disc loss) from the opening on.
fn side_losses(a: &Analysis) -> [(usize, f64); 2] {
    let mut out = [(0, 0.0); 2];
    for m in a.moves.iter().skip(OPENING_PLIES) {
        if m.verdict == Verdict::Forced {
            continue;
        }
        let i = usize::from(m.color == Color::White);
        out[i].0 += 1;
        out[i].1 += f64::from(m.loss);
    }
    out
}

/// Runs the whole measure. `stop` ends it early (an error: nothing half-measured is kept).
///
/// # Errors
/// A file that does not read, ratings or a curve that do not fit, or a stop.
pub fn run(
    opts: &Options,
    stop: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Report, HumanScaleError> {
    let started = Instant::now();
    let (bands, curve, people, sampled) = match &opts.update {
        Some(table) if table.analysis_level != opts.analysis_level => {
            return Err(HumanScaleError::UpdateLevel(table.analysis_level));
        }
        Some(table) => (table.bands.clone(), table.curve, None, 0),
        None => {
            let m = measure_people(opts, stop, progress)?;
            (m.bands, m.curve, Some(m.people), m.sampled)
        }
    };

    // The levels, each against itself from the first XOT openings.
    let openings =
        read_openings(&opts.openings, ..opts.level_games).map_err(HumanScaleError::Openings)?;
    let mut levels = Vec::new();
    let mut level_seconds = Vec::new();
    for &level in &opts.levels {
        let tick = Instant::now();
        let items: Vec<(usize, &Game)> = openings.iter().enumerate().collect();
        let played = parallel::map(
            &items,
            opts.threads,
            || (),
            |(), &(i, opening)| {
                let game = self_play(level, opening, opts.seed ^ (i as u64 + 1), stop)?;
                analyze_alone(
                    reversi_engine::book::shipped(),
                    &game,
                    opts.analysis_level,
                    ANALYSIS_TIME,
                    stop,
                    &mut |_, _| {},
                )
                .map(|a| side_losses(&a))
            },
            |_| {},
        );
        if stop.load(Ordering::Relaxed) || played.iter().any(Option::is_none) {
            return Err(HumanScaleError::Stopped);
        }
        let (moves, loss) = played
            .iter()
            .flatten()
            .flatten()
            .fold((0, 0.0), |(m, l), &(dm, dl)| (m + dm, l + dl));
        let secs = tick.elapsed().as_secs_f64() / opts.level_games.max(1) as f64;
        let measured = LevelLoss {
            level,
            games: played.len(),
            moves,
            mean_loss: if moves == 0 { 0.0 } else { loss / moves as f64 },
        };
        progress.line(&format!(
            "{level}: {} games, {moves} moves, {:.3} discs lost a move, rated {} ({:.0} s)",
            measured.games,
            measured.mean_loss,
            curve.rating(measured.mean_loss),
            tick.elapsed().as_secs_f64()
        ));
        levels.push(measured);
        level_seconds.push((level, secs));
    }
    let (note, levels) = table_note_and_levels(opts, sampled, levels);
    Ok(Report {
        scale: HumanScale {
            analysis_level: opts.analysis_level,
            note,
            bands,
            curve,
            levels,
        },
        people,
        level_seconds,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The table's note and levels: a new table's, or for an update the updated table's note
/// and its levels with the `measured` ones in place of theirs, by level.
fn table_note_and_levels(
    opts: &Options,
    sampled: usize,
    measured: Vec<LevelLoss>,
) -> (String, Vec<LevelLoss>) {
    match &opts.update {
        None => (
            format!(
                "Sample: {sampled} WTHOR games from {} on whose players both have {}+ games, \
                 taken in a seeded order (seed {}) until each {:.0}-point band had {} sides; \
                 moves after the first {OPENING_PLIES}, analysed at level {}. Levels: {} games \
                 each against itself from the first XOT openings.",
                opts.from_year,
                opts.min_games,
                opts.seed,
                opts.band_width,
                opts.sides_per_band,
                opts.analysis_level.get(),
                opts.level_games
            ),
            measured,
        ),
        Some(table) => {
            let list: Vec<String> = measured.iter().map(|l| l.level.get().to_string()).collect();
            let note = if list.len() == 1 {
                format!(
                    "{} Level {} measured again: {} games (seed {}).",
                    table.note, list[0], opts.level_games, opts.seed
                )
            } else {
                format!(
                    "{} Levels {} measured again: {} games each (seed {}).",
                    table.note,
                    list.join(", "),
                    opts.level_games,
                    opts.seed
                )
            };
            let mut merged: Vec<LevelLoss> = table
                .levels
                .iter()
                .filter(|kept| measured.iter().all(|l| l.level != kept.level))
                .cloned()
                .collect();
            merged.extend(measured);
            merged.sort_by_key(|l| l.level);
            (note, merged)
        }
    }
}

/// The people's side of the measure.
struct MeasuredPeople {
    bands: Vec<Band>,
    curve: Curve,
    people: People,
    /// Games in the sample.
    sampled: usize,
}

/// Rates the WTHOR players, analyses the sample and fits the curve.
fn measure_people(
    opts: &Options,
    stop: &AtomicBool,
    progress: &dyn Progress,
) -> Result<MeasuredPeople, HumanScaleError> {
    let (games, names) = read_wthor(&opts.wthor)?;
    // People only: WTHOR names programs with their authors in brackets (`Logistello
    // (buro)`), and `???` is the unknown player.
    let known = |p: usize| p != 0 && names.get(p).is_none_or(|n| n != "???" && !n.contains('('));
    let rated: Vec<&Played> = games
        .iter()
        .filter(|g| known(g.black) && known(g.white) && g.black != g.white)
        .collect();
    let encounters: Vec<Encounter> = rated
        .iter()
        .map(|g| Encounter {
            first: g.black,
            second: g.white,
            score: match g.black_score.cmp(&32) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            },
        })
        .collect();
    let players = names.len().max(
        games
            .iter()
            .map(|g| g.black.max(g.white) + 1)
            .max()
            .unwrap_or(0),
    );
    let fit = RatingFit::default();
    let ratings = fit_ratings(players, &encounters, &fit).map_err(HumanScaleError::Ratings)?;
    progress.line(&format!(
        "rated {} players from {} games in {} steps",
        ratings.games.iter().filter(|&&g| g > 0).count(),
        encounters.len(),
        ratings.iterations
    ));
    let mut order: Vec<usize> = (0..players)
        .filter(|&p| ratings.games[p] >= fit.anchor_min_games)
        .collect();
    order.sort_by(|&a, &b| ratings.ratings[b].total_cmp(&ratings.ratings[a]));
    let top = order
        .iter()
        .take(10)
        .map(|&p| {
            let name = names.get(p).cloned().unwrap_or_else(|| format!("#{p}"));
            (name, ratings.ratings[p], ratings.games[p])
        })
        .collect();

    // The sample: recent games of players with enough games, in a seeded order, taken while
    // a band of one of their players still wants sides.
    let band_of = |p: usize| (ratings.ratings[p] / opts.band_width).floor() as i64;
    let mut candidates: Vec<&Played> = rated
        .iter()
        .copied()
        .filter(|g| {
            g.year >= opts.from_year
                && ratings.games[g.black] >= opts.min_games
                && ratings.games[g.white] >= opts.min_games
        })
        .collect();
    let mut rng = XorShift64::new(opts.seed);
    for i in (1..candidates.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        candidates.swap(i, j);
    }
    let mut wanted: BTreeMap<i64, usize> = BTreeMap::new();
    let mut sample: Vec<(Game, [usize; 2])> = Vec::new();
    for g in candidates {
        let bands = [band_of(g.black), band_of(g.white)];
        if bands
            .iter()
            .all(|b| wanted.get(b).copied().unwrap_or(0) >= opts.sides_per_band)
        {
            continue;
        }
        let Some(game) = replay(&g.moves) else {
            continue;
        };
        if !game.is_over() {
            continue;
        }
        for b in bands {
            *wanted.entry(b).or_default() += 1;
        }
        sample.push((game, [g.black, g.white]));
    }
    progress.line(&format!(
        "sample: {} games from {} on; analysing each at level {}",
        sample.len(),
        opts.from_year,
        opts.analysis_level.get()
    ));
    let done = AtomicUsize::new(0);
    let total = sample.len();
    let tick = Instant::now();
    let analysed = parallel::map(
        &sample,
        opts.threads,
        || (),
        |(), (game, _)| {
            analyze_alone(
                reversi_engine::book::shipped(),
                game,
                opts.analysis_level,
                ANALYSIS_TIME,
                stop,
                &mut |_, _| {},
            )
            .map(|a| side_losses(&a))
        },
        |_| {
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if n.is_multiple_of(25) || n == total {
                progress.line(&format!(
                    "analysed {n}/{total} games ({:.0} s)",
                    tick.elapsed().as_secs_f64()
                ));
            }
        },
    );
    if stop.load(Ordering::Relaxed) || analysed.iter().any(Option::is_none) {
        return Err(HumanScaleError::Stopped);
    }
    // Band: players, games, moves, rating x moves, loss.
    #[derive(Default)]
    struct Sum {
        players: std::collections::BTreeSet<usize>,
        games: usize,
        moves: usize,
        rating: f64,
        loss: f64,
    }
    let mut sums: BTreeMap<i64, Sum> = BTreeMap::new();
    for ((_, who), sides) in sample.iter().zip(analysed.iter().flatten()) {
        for (&p, &(moves, loss)) in who.iter().zip(sides) {
            let s = sums.entry(band_of(p)).or_default();
            s.players.insert(p);
            s.games += 1;
            s.moves += moves;
            s.rating += ratings.ratings[p] * moves as f64;
            s.loss += loss;
        }
    }
    let bands: Vec<Band> = sums
        .iter()
        .filter(|(_, s)| s.games >= opts.min_sides && s.moves > 0)
        .map(|(&b, s)| Band {
            from: b as f64 * opts.band_width,
            to: (b + 1) as f64 * opts.band_width,
            players: s.players.len(),
            games: s.games,
            moves: s.moves,
            mean_rating: s.rating / s.moves as f64,
            mean_loss: s.loss / s.moves as f64,
        })
        .collect();
    let curve = Curve::fit(&bands).map_err(HumanScaleError::Curve)?;

    Ok(MeasuredPeople {
        bands,
        curve,
        people: People {
            games: (games.len(), encounters.len()),
            players: (
                ratings.games.iter().filter(|&&g| g > 0).count(),
                ratings.anchor_players,
            ),
            fit: (ratings.iterations, ratings.converged),
            top,
        },
        sampled: sample.len(),
    })
}

/// A game of `level` against itself from `opening`, each side with its own one-thread
/// engine; `None` when stopped.
fn self_play(level: Level, opening: &Game, seed: u64, stop: &AtomicBool) -> Option<Game> {
    let mut game = opening.clone();
    let mut sides = [Color::Black, Color::White].map(|c| {
        Computer::new(
            Ai::Level(level),
            seed.wrapping_mul(2)
                .wrapping_add(u64::from(c == Color::White)),
        )
        .with_engine(Arc::new(Engine::new(16, 1)))
    });
    while !game.is_over() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let side = usize::from(game.current().turn() == Color::White);
        let decision = sides[side].choose(game.current(), stop, &mut |_| {})?;
        game.play(decision.mv).ok()?;
    }
    Some(game)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_wthor_game_replays_with_its_passes() {
        let dir = reversi_testkit::data_file("wthor");
        let db = parse_wtb(&fs::read(dir.join("WTH_2004.wtb")).unwrap()).unwrap();
        let mut with_pass = 0;
        for g in db.games.iter().take(300) {
            let game = replay(&g.moves).unwrap();
            assert!(game.moves().len() >= g.moves.len());
            if game.moves().len() > g.moves.len() {
                with_pass += 1;
            }
        }
        assert!(with_pass > 0, "some games have a pass");
    }

    /// A table of two bands and two levels, analysed at level 2.
    fn table() -> HumanScale {
        HumanScale::parse(
            "analysis-level 2\nnote Made by hand.\n\
             band 1000 1200 5 20 500 1100.0 3.0000\nband 1800 2000 5 20 500 1900.0 1.0000\n\
             curve 2000.000 -800.000 800.0 2200.0\n\
             level 1 8 400 9.0000\nlevel 5 8 400 1.5000\n",
        )
        .unwrap()
    }

    fn options(update: HumanScale, analysis_level: u8) -> Options {
        Options {
            wthor: PathBuf::from("/nonexistent: not read when updating"),
            openings: reversi_testkit::data_file("xot-large.txt"),
            analysis_level: Level::new(analysis_level).unwrap(),
            from_year: 2000,
            min_games: 50,
            band_width: 200.0,
            sides_per_band: 60,
            min_sides: 20,
            levels: vec![Level::new(1).unwrap(), Level::new(3).unwrap()],
            level_games: 2,
            seed: 34,
            threads: 1,
            update: Some(update),
        }
    }

    #[test]
    fn an_update_measures_only_the_levels_listed_and_keeps_the_rest() {
        let before = table();
        let report = run(
            &options(before.clone(), 2),
            &AtomicBool::new(false),
            &|_: &str| {},
        )
        .unwrap();
        let after = &report.scale;
        assert!(report.people.is_none());
        assert_eq!(after.bands.len(), before.bands.len());
        assert_eq!(after.curve, before.curve);
        let levels: Vec<u8> = after.levels.iter().map(|l| l.level.get()).collect();
        assert_eq!(levels, [1, 3, 5]);
        // Level 1 measured again (two games, not the table's eight), level 5 kept as it was.
        assert_eq!(after.levels[0].games, 2);
        assert!(after.levels[0].mean_loss < 9.0, "{:?}", after.levels[0]);
        assert_eq!(after.levels[2], before.levels[1]);
        assert!(after
            .note
            .starts_with("Made by hand. Levels 1, 3 measured again"));
        let text = after.to_text();
        assert_eq!(HumanScale::parse(&text).unwrap().to_text(), text);
    }

    #[test]
    fn an_update_at_another_analysis_level_is_refused() {
        let err = run(&options(table(), 3), &AtomicBool::new(false), &|_: &str| {}).unwrap_err();
        assert!(err.to_string().contains("analysed at level 2"), "{err}");
    }
}
