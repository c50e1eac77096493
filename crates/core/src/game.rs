//! A game: a start position and the moves played from it, with the final score.

use std::fmt;

use crate::{Color, IllegalMove, Move, Position};

/// Who won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Color),
    Draw,
}

/// Disc counts at the end of a game, with the empty squares given to the winner (split on a
/// draw), as tournament records count them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Score {
    pub black: u16,
    pub white: u16,
}

impl Score {
    /// The final score of `position` as tournament records count it.
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

    /// Black's discs minus White's.
    #[must_use]
    pub fn margin(self) -> i32 {
        i32::from(self.black) - i32::from(self.white)
    }

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
    /// The index of the first illegal move and why.
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
    /// When `mv` is illegal; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let next = self.current().play(mv)?;
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Takes back the last move, returning it.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }

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
