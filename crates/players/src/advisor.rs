//! What the computer players and hints consult ([`Advisor`]: an engine and a book the
//! program makes once), and the hints it gives ([`HintLine`]).

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use reversi_core::{Move, Position};
use reversi_engine::book::{self, Book};
use reversi_engine::clock::Stopwatch;
use reversi_engine::engine::Engine;
use reversi_engine::levels::Level;
use reversi_engine::{Board, Candidate, ScoreKind, Thinking};

use crate::ai::Ai;
use crate::computer::Computer;
use crate::level::{book_thinking, level_search, level_time, standard_engine};

/// What computer players and hints consult: an engine, whose transposition table carries
/// over from search to search (it is safe to search from several threads at once), and the
/// opening book (`None`: none). The program makes one and hands it to whatever plays or hints;
/// nothing in the library is shared behind the caller's back.
///
/// A clone consults the same engine and book.
#[derive(Clone)]
pub struct Advisor {
    /// Made at the first search when [`Advisor::standard`] made this advisor.
    engine: Arc<OnceLock<Arc<Engine>>>,
    book: Option<Arc<Book>>,
}

impl fmt::Debug for Advisor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Advisor")
            .field("book", &self.book.is_some())
            .finish_non_exhaustive()
    }
}

impl Advisor {
    /// `engine` with `book`.
    #[must_use]
    pub fn new(engine: Arc<Engine>, book: Option<Arc<Book>>) -> Advisor {
        Advisor {
            engine: Arc::new(OnceLock::from(engine)),
            book,
        }
    }

    /// A 64 MB engine on [`default_threads`](reversi_engine::engine::default_threads)
    /// threads, made at the first search, and the shipped book.
    #[must_use]
    pub fn standard() -> Advisor {
        Advisor {
            engine: Arc::new(OnceLock::new()),
            book: book::shipped(),
        }
    }

    /// The same engine with `book` instead.
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> Advisor {
        self.book = book;
        self
    }

    /// The engine.
    #[must_use]
    pub fn engine(&self) -> &Arc<Engine> {
        self.engine.get_or_init(standard_engine)
    }

    /// The opening book, if any.
    #[must_use]
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// A computer player searching with this engine and consulting this book.
    #[must_use]
    pub fn computer(&self, ai: Ai, seed: u64) -> Computer {
        Computer::new(ai, seed)
            .sharing_engine(Arc::clone(&self.engine))
            .with_book(self.book.clone())
    }

    /// Scores every legal move of `pos` at `level` within the level's budget, best first
    /// (empty when the game is over or the side to move must pass). Moves the book values
    /// carry the book's value, tagged [`ScoreKind::Book`].
    pub fn hints(
        &self,
        pos: &Position,
        level: Level,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Vec<Candidate> {
        self.hints_within(pos, level, level_time(level, pos), stop, progress)
    }

    /// [`Advisor::hints`] within `time` (at most the level's own budget).
    pub fn hints_within(
        &self,
        pos: &Position,
        level: Level,
        time: Duration,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Vec<Candidate> {
        if pos.legal_moves().is_empty() {
            return Vec::new();
        }
        let time = time.min(level_time(level, pos));
        let engine = self.engine();
        let started = Stopwatch::start(engine.clock().as_ref());
        let mut candidates =
            level_search(engine, pos, level, time, stop, progress, started, true).candidates;
        let book = self.book_moves(pos);
        if !book.is_empty() {
            with_book_values(&mut candidates, &book);
        }
        candidates
    }

    /// [`Advisor::hints`] with each move's expected line.
    ///
    /// # Examples
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use reversi_core::{BoardSize, Position, Rules};
    /// use reversi_engine::levels::Level;
    /// use reversi_players::Advisor;
    ///
    /// let start = Position::start(BoardSize::SIX, Rules::Othello);
    /// let advisor = Advisor::standard();
    /// let lines = advisor.hint_lines(&start, Level::new(2).unwrap(), &AtomicBool::new(false), &mut |_| {});
    /// assert_eq!(lines.len(), 4);
    /// for h in &lines {
    ///     assert_eq!(h.line.first(), Some(&h.candidate.mv));
    /// }
    /// ```
    pub fn hint_lines(
        &self,
        pos: &Position,
        level: Level,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Vec<HintLine> {
        self.hint_lines_within(pos, level, level_time(level, pos), stop, progress)
    }

    /// [`Advisor::hint_lines`] within `time` (at most the level's own budget).
    pub fn hint_lines_within(
        &self,
        pos: &Position,
        level: Level,
        time: Duration,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Vec<HintLine> {
        self.hints_within(pos, level, time, stop, progress)
            .into_iter()
            .map(|candidate| {
                let mut line = vec![candidate.mv];
                let Ok(mut next) = pos.play(candidate.mv) else {
                    return HintLine { candidate, line };
                };
                if candidate.kind == ScoreKind::Book {
                    while let Some(reply) = self.book_moves(&next).first().map(|c| c.mv) {
                        match next.play(reply) {
                            Ok(p) if line.len() < MAX_LINE => {
                                line.push(reply);
                                next = p;
                            }
                            _ => break,
                        }
                    }
                } else if let Ok((board, mask)) = Board::from_position(&next) {
                    line.extend(self.engine().line(board, mask, MAX_LINE - 1));
                }
                HintLine { candidate, line }
            })
            .collect()
    }

    /// The book's moves of `pos` as candidates tagged [`ScoreKind::Book`], best first; empty
    /// when the position is not in the book or there is none.
    #[must_use]
    pub fn book_moves(&self, pos: &Position) -> Vec<Candidate> {
        self.book
            .as_deref()
            .and_then(|b| book_thinking(b, pos, 0, None, 0))
            .map(|t| t.candidates)
            .unwrap_or_default()
    }
}

/// A hint with the line of play expected after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintLine {
    /// The move and its score.
    pub candidate: Candidate,
    /// The expected line, starting with the move: the book's best replies for a book move,
    /// else the search's best replies as far as its table knows them (the move alone on
    /// boards over 8x8).
    pub line: Vec<Move>,
}

/// The longest line a [`HintLine`] shows.
const MAX_LINE: usize = 30;

/// Replaces the scores of the moves the book values by the book's, best first again.
fn with_book_values(candidates: &mut Vec<Candidate>, book: &[Candidate]) {
    for b in book {
        match candidates.iter_mut().find(|c| c.mv == b.mv) {
            Some(c) => *c = b.clone(),
            None => candidates.push(b.clone()),
        }
    }
    candidates.sort_by_key(|c| -c.score);
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{BoardSize, Rules};

    #[test]
    fn top_level_plays_4x4_perfectly() {
        // On 4x4 every level from 8 up solves the whole game; hints are exact.
        let stop = AtomicBool::new(false);
        let pos = Position::start(BoardSize::FOUR, Rules::Othello);
        let h = Advisor::standard().hints(&pos, Level::new(8).unwrap(), &stop, &mut |_| {});
        assert_eq!(h.len(), 4);
        assert!(h.iter().all(|c| c.kind == ScoreKind::Exact));
        // The four first moves are symmetric: one value.
        assert!(h.iter().all(|c| c.score == h[0].score));
    }
}
