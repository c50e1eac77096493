//! Game analysis: the engine scores every legal move of each position of a game at one level,
//! and each move played is measured against the best one (its disc loss). `reversi history
//! analyze` and the web page's evaluation graph both come from [`analyze`].

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use reversi_core::{Color, Game, Move, Position, Score};
use std::sync::Arc;

use reversi_engine::book::Book;
use reversi_engine::engine::Engine;
use reversi_engine::levels::Level;
use reversi_engine::{Candidate, ScoreKind};
use reversi_players::Advisor;

/// A loss of this many discs or more is a mistake.
pub const MISTAKE: i32 = 4;
/// A loss of this many discs or more is a blunder.
pub const BLUNDER: i32 = 10;

/// How a move compares with the best one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// As good as the best move (or the only one).
    Best,
    /// Loses a little (under [`MISTAKE`] discs).
    Inaccuracy,
    /// Loses [`MISTAKE`] discs or more.
    Mistake,
    /// Loses [`BLUNDER`] discs or more.
    Blunder,
    /// A forced pass: nothing to choose.
    Forced,
}

impl Verdict {
    fn of_loss(loss: i32) -> Verdict {
        match loss {
            l if l >= BLUNDER => Verdict::Blunder,
            l if l >= MISTAKE => Verdict::Mistake,
            l if l > 0 => Verdict::Inaccuracy,
            _ => Verdict::Best,
        }
    }

    /// The verdict as a word for reports: `best`, `inaccuracy`, `mistake`, `blunder`, `forced`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
            Verdict::Forced => "forced",
        }
    }
}

/// One move of the game as the engine sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// 0-based ply of the move.
    pub ply: usize,
    /// The side that moved.
    pub color: Color,
    /// The square played, or a pass.
    pub played: Move,
    /// The engine's best move and its score for the mover (`None` for a forced pass).
    pub best: Option<Candidate>,
    /// The played move's score for the mover (an upper bound when the engine only proved
    /// that much).
    pub played_score: Option<i32>,
    /// Best score minus the played move's score, in discs (0 for the best move).
    pub loss: i32,
    /// The loss in words: best, inaccuracy, mistake, blunder, or a forced pass.
    pub verdict: Verdict,
}

/// A whole game analysed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The engine level every position was searched at.
    pub level: Level,
    /// Each move of the game, in order, passes included.
    pub moves: Vec<MoveAnalysis>,
    /// The value of each position of the game (start first, the last after the final move)
    /// in discs for Black: positive when Black is ahead. The final one is the game's margin
    /// once it is over.
    pub evals: Vec<i32>,
    /// What the scores are (exact, or estimates from a search this deep), per position.
    pub kinds: Vec<Option<ScoreKind>>,
}

impl Analysis {
    /// Total disc loss of each side (Black, White).
    #[must_use]
    pub fn total_loss(&self) -> (i32, i32) {
        self.moves.iter().fold((0, 0), |(b, w), m| match m.color {
            Color::Black => (b + m.loss, w),
            Color::White => (b, w + m.loss),
        })
    }
}

fn for_black(color: Color, score: i32) -> i32 {
    match color {
        Color::Black => score,
        Color::White => -score,
    }
}

/// Analyses every move of `game` at `level` with `advisor`'s engine and book. `progress`
/// hears (positions done, positions in all). Returns `None` when stopped.
pub fn analyze(
    advisor: &Advisor,
    game: &Game,
    level: Level,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Analysis> {
    analyze_by(game, level, stop, progress, &mut |pos| {
        advisor.hints(pos, level, stop, &mut |_| {})
    })
}

/// The table of an analysis's own engine, in MB.
const OWN_HASH_MB: usize = 16;

/// [`analyze`] with an engine of its own (a fresh table, one thread), so that analysing the
/// same game at the same level gives the same result whatever was searched before, and with
/// at most `time` in all (shared evenly by the positions, each within its level's budget),
/// consulting `book`. The server's analyses come from here.
pub fn analyze_alone(
    book: Option<Arc<Book>>,
    game: &Game,
    level: Level,
    time: Duration,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Analysis> {
    analyze_on(
        &Advisor::new(Arc::new(Engine::new(OWN_HASH_MB, 1)), book),
        game,
        level,
        time,
        stop,
        progress,
    )
}

/// [`analyze_alone`] searched by `advisor`'s engine (whose clock times it) and book: a
/// platform without the system's clock hands in an engine of its own.
pub fn analyze_on(
    advisor: &Advisor,
    game: &Game,
    level: Level,
    time: Duration,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Analysis> {
    let positions = u32::try_from(game.positions().len())
        .unwrap_or(u32::MAX)
        .max(1);
    let each = time / positions;
    analyze_by(game, level, stop, progress, &mut |pos| {
        advisor.hints_within(pos, level, each, stop, &mut |_| {})
    })
}

fn analyze_by(
    game: &Game,
    level: Level,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
    score: &mut dyn FnMut(&Position) -> Vec<Candidate>,
) -> Option<Analysis> {
    let positions = game.positions();
    let total = positions.len();
    let mut scored: Vec<Vec<Candidate>> = Vec::with_capacity(total);
    for (i, pos) in positions.iter().enumerate() {
        progress(i, total);
        scored.push(score(pos));
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
    }
    progress(total, total);
    // Values from the end backwards: a pass or the end takes the value of what follows.
    let mut evals = vec![0; total];
    let mut kinds = vec![None; total];
    let last = total - 1;
    evals[last] = match scored[last].first() {
        Some(best) => for_black(positions[last].turn(), best.score),
        None if game.is_over() => game.score().map_or(0, Score::margin),
        None => 0,
    };
    kinds[last] = scored[last]
        .first()
        .map(|c| c.kind)
        .or(game.is_over().then_some(ScoreKind::Exact));
    for i in (0..last).rev() {
        match scored[i].first() {
            Some(best) => {
                evals[i] = for_black(positions[i].turn(), best.score);
                kinds[i] = Some(best.kind);
            }
            None => {
                evals[i] = evals[i + 1];
                kinds[i] = kinds[i + 1];
            }
        }
    }
    let moves = game
        .moves()
        .iter()
        .enumerate()
        .map(|(ply, &played)| {
            let color = positions[ply].turn();
            let best = scored[ply].first().cloned();
            let played_score = scored[ply].iter().find(|c| c.mv == played).map(|c| c.score);
            let (loss, verdict) = match (&best, played_score) {
                (Some(b), Some(s)) => {
                    let loss = (b.score - s).max(0);
                    (loss, Verdict::of_loss(loss))
                }
                _ => (0, Verdict::Forced),
            };
            MoveAnalysis {
                ply,
                color,
                played,
                best,
                played_score,
                loss,
                verdict,
            }
        })
        .collect();
    Some(Analysis {
        level,
        moves,
        evals,
        kinds,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use reversi_core::{BoardSize, Position, Rules};

    fn game(size: u8, moves: &[&str]) -> Game {
        let mut g = Game::new(Position::start(
            BoardSize::new(size).unwrap(),
            Rules::Othello,
        ));
        for m in moves {
            let mv = if *m == "PA" {
                Move::Pass
            } else {
                Move::Play(g.current().parse_square(m).unwrap())
            };
            g.play(mv).unwrap();
        }
        g
    }

    #[test]
    fn an_exact_analysis_measures_every_move_against_the_best() {
        // 4x4 at a level that solves it exactly: every score is the true final margin.
        let mut g = game(4, &[]);
        while !g.is_over() {
            let mv = g.current().moves()[0];
            g.play(mv).unwrap();
        }
        let level = Level::new(20).unwrap();
        let a = analyze(
            &Advisor::standard(),
            &g,
            level,
            &AtomicBool::new(false),
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(a.moves.len(), g.moves().len());
        assert_eq!(a.evals.len(), g.positions().len());
        assert_eq!(*a.evals.last().unwrap(), g.score().unwrap().margin());
        for m in &a.moves {
            match m.played {
                Move::Pass => assert_eq!(m.verdict, Verdict::Forced),
                _ => {
                    let best = m.best.as_ref().unwrap();
                    assert_eq!(best.kind, ScoreKind::Exact);
                    assert_eq!(m.loss, best.score - m.played_score.unwrap());
                    // The value after a move is the mover's played score (exact play after).
                    let after = a.evals[m.ply + 1];
                    assert_eq!(for_black(m.color, m.played_score.unwrap()), after);
                }
            }
        }
        // Values only fall from perfect play: each side's losses add up to the change.
        let (b, w) = a.total_loss();
        assert_eq!(a.evals[0] - b + w, *a.evals.last().unwrap());
    }

    #[test]
    fn an_analysis_alone_does_not_depend_on_earlier_searches() {
        // Searches only (no book), each analysis with a table of its own.
        let g = game(
            8,
            &[
                "f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7", "d7", "c6",
            ],
        );
        let level = Level::new(8).unwrap();
        let stop = AtomicBool::new(false);
        let time = Duration::from_secs(600);
        let first = analyze_alone(None, &g, level, time, &stop, &mut |_, _| {}).unwrap();
        // Deeper searches of other positions in between, by another engine.
        let other = Advisor::standard().with_book(None);
        for pos in g.positions().iter().skip(3) {
            other.hints(pos, Level::new(12).unwrap(), &stop, &mut |_| {});
        }
        let again = analyze_alone(None, &g, level, time, &stop, &mut |_, _| {}).unwrap();
        assert_eq!(first.evals, again.evals);
        let losses = |a: &Analysis| a.moves.iter().map(|m| m.loss).collect::<Vec<_>>();
        assert_eq!(losses(&first), losses(&again));
    }

    #[test]
    fn a_stopped_analysis_returns_nothing() {
        let g = game(8, &["f5", "d6"]);
        let level = Level::new(1).unwrap();
        assert!(analyze(
            &Advisor::standard(),
            &g,
            level,
            &AtomicBool::new(true),
            &mut |_, _| {}
        )
        .is_none());
    }
}
