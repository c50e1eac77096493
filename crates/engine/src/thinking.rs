//! What a search reports, in the same words from the bitboard [`Engine`](crate::engine::Engine)
//! and from the computer players (`reversi-players`): the best [`Candidate`] and the line
//! expected from it, every root move scored, and what the scores are worth ([`ScoreKind`]).

use std::fmt;
use std::time::Duration;

use reversi_core::Move;

/// What a score is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreKind {
    /// The exact final disc difference with perfect play.
    Exact,
    /// Only the sign is proven: win (> 0), draw (0) or loss (< 0).
    WinLossDraw,
    /// An estimate of the final disc difference from a search this deep, whose probcut cuts
    /// were right with probability `selectivity` (%, 100 for full width).
    Depth {
        /// Plies searched (for a selective endgame solve, the empty squares).
        depth: u32,
        /// Probability in % that the search's probcut cuts were right; 100 when it searched
        /// full width.
        selectivity: u8,
    },
    /// Heuristic points (not discs) from a classic search this deep.
    Points(u32),
    /// The number of discs the move flips (the greedy player's measure).
    Flips,
    /// No score: the move was chosen at random.
    Random,
    /// The opening book's value: a deep search at the end of the book line, backed up
    /// through the book's moves (an estimate of the final disc difference).
    Book,
}

impl fmt::Display for ScoreKind {
    /// `exact`, `win/loss`, `depth 12`, `depth 14@73%`, `points, depth 4`, `flips`, `random`,
    /// `book`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreKind::Exact => f.write_str("exact"),
            ScoreKind::WinLossDraw => f.write_str("win/loss"),
            ScoreKind::Depth {
                depth,
                selectivity: 100,
            } => write!(f, "depth {depth}"),
            ScoreKind::Depth { depth, selectivity } => write!(f, "depth {depth}@{selectivity}%"),
            ScoreKind::Points(d) => write!(f, "points, depth {d}"),
            ScoreKind::Flips => f.write_str("flips"),
            ScoreKind::Random => f.write_str("random"),
            ScoreKind::Book => f.write_str("book"),
        }
    }
}

/// A legal move with its score for the side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move, in the unit `kind` says (discs unless points, flips
    /// or random).
    pub score: i32,
    /// What the score is worth.
    pub kind: ScoreKind,
    /// The score is only an upper bound: the search proved the move no better than this
    /// without computing its exact value.
    pub upper_bound: bool,
}

impl Candidate {
    /// The score as shown on a board square: `+6`, `-2`, `W`/`D`/`L` for win/loss/draw,
    /// `<=-2` for an upper bound, `?` for a random move.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Move, Square};
    /// use reversi_engine::{Candidate, ScoreKind};
    ///
    /// let f5 = Move::Play(Square::parse("f5", BoardSize::EIGHT)?);
    /// let exact = Candidate { mv: f5, score: 6, kind: ScoreKind::Exact, upper_bound: false };
    /// assert_eq!(exact.short_score(), "+6");
    /// assert_eq!(exact.to_string(), "f5 +6 (exact)");
    ///
    /// let refuted = Candidate { score: -2, upper_bound: true, ..exact.clone() };
    /// assert_eq!(refuted.short_score(), "<=-2");
    /// let win = Candidate { score: 2, kind: ScoreKind::WinLossDraw, ..exact };
    /// assert_eq!(win.short_score(), "W");
    /// # Ok::<(), reversi_core::ParseSquareError>(())
    /// ```
    #[must_use]
    pub fn short_score(&self) -> String {
        match self.kind {
            ScoreKind::WinLossDraw => match self.score.signum() {
                1 => "W".into(),
                0 => "D".into(),
                _ => "L".into(),
            },
            ScoreKind::Random => "?".into(),
            _ if self.upper_bound => format!("<={:+}", self.score),
            _ => format!("{:+}", self.score),
        }
    }
}

impl fmt::Display for Candidate {
    /// The move, its short score and its kind: `f5 +6 (depth 12)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ({})", self.mv, self.short_score(), self.kind)
    }
}

/// What a search is considering, reported after each completed iteration, and its answer.
///
/// The default value is an empty report: no move, nothing searched.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Thinking {
    /// Depth of the last completed iteration: plies for a midgame search (the empty squares
    /// for a selective endgame solve), the length of the expected line for an exact or
    /// win/loss/draw solve.
    pub depth: u32,
    /// The best move so far and its score; `None` when there was nothing to choose (no legal
    /// move, or a forced pass).
    pub best: Option<Candidate>,
    /// The expected line of play, starting with the best move; passes are [`Move::Pass`].
    pub pv: Vec<Move>,
    /// Every root move searched in the last completed iteration with its score, best first.
    /// Empty when not even one iteration finished (the best move is then the first legal
    /// one, unscored).
    pub candidates: Vec<Candidate>,
    /// States (positions) explored, by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

impl Thinking {
    /// What the best move's score is worth (from the engine, what every score of the report
    /// is worth); `None` without a best move.
    #[must_use]
    pub fn kind(&self) -> Option<ScoreKind> {
        self.best.as_ref().map(|b| b.kind)
    }

    /// The best move's score; `None` without a best move.
    #[must_use]
    pub fn score(&self) -> Option<i32> {
        self.best.as_ref().map(|b| b.score)
    }
}
