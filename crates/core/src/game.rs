//! A game: a start position and the moves played from it, with the final score.

use std::fmt;

use crate::{BoardSize, Color, IllegalMove, Move, Position};

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side ended with more discs.
    Win(Color),
    /// Both sides ended with the same number of discs.
    Draw,
}

/// Disc counts at the end of a game, with the empty squares given to the winner (split on a
/// draw), as tournament records count them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Score {
    /// Black's discs, plus the empty squares Black is given.
    pub black: u16,
    /// White's discs, plus the empty squares White is given.
    pub white: u16,
}

impl Score {
    /// The final score of `position` as tournament records count it.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Color, Outcome, Position, Rules, Score};
    ///
    /// // No disc touches another, so neither side can move: Black wins 2-1 on the board
    /// // and takes the 13 empty squares.
    /// let (x, o, e) = (Some(Color::Black), Some(Color::White), None);
    /// let cells = [
    ///     x, x, e, e,
    ///     e, e, e, e,
    ///     e, e, e, e,
    ///     e, e, e, o,
    /// ];
    /// let end = Position::setup(BoardSize::FOUR, Rules::Othello, &cells, Color::White)
    ///     .expect("16 cells for 4x4");
    /// assert!(end.is_game_over());
    /// let score = Score::of(&end);
    /// assert_eq!(score, Score { black: 15, white: 1 });
    /// assert_eq!(score.margin(), 14);
    /// assert_eq!(score.outcome(), Outcome::Win(Color::Black));
    /// assert_eq!(score.to_string(), "15-1");
    /// ```
    #[must_use]
    pub fn of(position: &Position) -> Score {
        let mut black = position.disc_count(Color::Black) as u16;
        let mut white = position.disc_count(Color::White) as u16;
        let empty = position.empty_count() as u16;
        match black.cmp(&white) {
            std::cmp::Ordering::Greater => black += empty,
            std::cmp::Ordering::Less => white += empty,
            std::cmp::Ordering::Equal => {
                black += empty / 2;
                white += empty - empty / 2;
            }
        }
        Score { black, white }
    }

    /// The score of a game lost off the board by `loser` (on time, or by an engine's
    /// failure) on a board of `size`: every square to the winner, 64-0 on 8x8.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Color, Score};
    ///
    /// let s = Score::forfeit(Color::White, BoardSize::EIGHT);
    /// assert_eq!((s.black, s.white), (64, 0));
    /// ```
    #[must_use]
    pub fn forfeit(loser: Color, size: BoardSize) -> Score {
        let all = u16::from(size.get()).pow(2);
        match loser {
            Color::Black => Score {
                black: 0,
                white: all,
            },
            Color::White => Score {
                black: all,
                white: 0,
            },
        }
    }

    /// Black's discs minus White's.
    #[must_use]
    pub fn margin(self) -> i32 {
        i32::from(self.black) - i32::from(self.white)
    }

    /// Who won, by the disc counts.
    #[must_use]
    pub fn outcome(self) -> Outcome {
        match self.black.cmp(&self.white) {
            std::cmp::Ordering::Greater => Outcome::Win(Color::Black),
            std::cmp::Ordering::Less => Outcome::Win(Color::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.black, self.white)
    }
}

/// A game: its start position and the moves played, passes included.
///
/// Every position along the way is kept, so taking a move back is cheap and any earlier
/// position can be shown.
///
/// # Examples
/// ```
/// use reversi_core::{parse_transcript, BoardSize, Game, Move, Position, Rules};
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let f5 = start.parse_square("f5")?;
/// let mut game = Game::new(start);
/// game.play(Move::Play(f5))?;
/// assert_eq!(game.moves(), [Move::Play(f5)]);
/// assert_eq!(game.positions().len(), 2);
/// assert!(game.play(Move::Play(f5)).is_err(), "f5 is taken now");
///
/// assert_eq!(game.undo(), Some(Move::Play(f5)));
/// assert_eq!(game.current(), game.start());
/// assert!(!game.is_over() && game.score().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game that has not started yet.
    #[must_use]
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The game after playing `moves` from `start`.
    ///
    /// # Errors
    /// The 0-based index of the first illegal move in `moves`, and the [`IllegalMove`] saying
    /// why.
    pub fn from_moves(start: Position, moves: &[Move]) -> Result<Game, (usize, IllegalMove)> {
        let mut game = Game::new(start);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position now.
    #[must_use]
    pub fn current(&self) -> &Position {
        // A game always holds its start position.
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played so far, passes included.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position before move `i` (0-based); `positions()[moves().len()]` is the current one.
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays `mv`.
    ///
    /// # Errors
    /// [`IllegalMove`] when `mv` is not legal in the current position; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let next = self.current().play(mv)?;
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Takes back the last move, returning it; `None` when no move has been played.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

    /// Whether neither side can move in the current position.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.current().is_game_over()
    }

    /// The final score, once the game is over.
    #[must_use]
    pub fn score(&self) -> Option<Score> {
        self.is_over().then(|| Score::of(self.current()))
    }
}
