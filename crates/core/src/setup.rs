//! Whether a set-up position could arise in a game under its start rule: [`Position::check`]
//! and the reason it could not, [`ImpossiblePosition`].

use std::fmt;

use crate::{Color, Position, Rules, Square};

/// Why a set-up position cannot arise in a game under its rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImpossiblePosition {
    /// A centre square is empty although the rule fills the centre first: the Othello rule
    /// starts with it full, the Reversi rule fills it with the first four discs.
    EmptyCentre {
        /// The empty centre square.
        square: Square,
        /// The rule.
        rules: Rules,
    },
    /// Under the Reversi rule, fewer than four discs stand and one is outside the centre.
    OutsideCentre(Square),
    /// Under the Reversi rule's first four moves (Black, White, Black, White, no flips), the
    /// disc counts or the side to move do not fit the number of discs placed.
    PlacementOrder {
        /// Black's discs.
        black: usize,
        /// White's discs.
        white: usize,
        /// The side to move.
        turn: Color,
    },
    /// A disc with no way back to the centre through neighbouring discs: every disc after the
    /// start is placed next to one already there, and no disc is ever removed.
    Detached(Square),
}

impl fmt::Display for ImpossiblePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImpossiblePosition::EmptyCentre {
                square,
                rules: Rules::Othello,
            } => write!(
                f,
                "{square} is empty, but the four centre squares are never empty under the \
                 Othello rule (it starts with them filled)"
            ),
            ImpossiblePosition::EmptyCentre {
                square,
                rules: Rules::Reversi,
            } => write!(
                f,
                "{square} is empty, but under the Reversi rule the first four discs fill the \
                 centre"
            ),
            ImpossiblePosition::OutsideCentre(sq) => write!(
                f,
                "{sq} holds a disc, but under the Reversi rule the first four discs go in the \
                 centre"
            ),
            ImpossiblePosition::PlacementOrder { black, white, turn } => write!(
                f,
                "Black {black}, White {white} with {turn} to move cannot happen: under the \
                 Reversi rule Black and White take turns placing the first four discs, Black \
                 first"
            ),
            ImpossiblePosition::Detached(sq) => write!(
                f,
                "the disc on {sq} is cut off from the centre: every disc is placed next to \
                 another and none is ever removed"
            ),
        }
    }
}

impl std::error::Error for ImpossiblePosition {}

impl Position {
    /// Checks that this position could arise in a game from its rule's start.
    ///
    /// The checks are necessary conditions, not a proof of reachability: the centre is
    /// filled (from the start under Othello, by the first four discs under Reversi), the
    /// Reversi placement alternates from Black, and the discs form one group around the
    /// centre. A position where neither side can move passes: it is a finished game.
    ///
    /// # Errors
    /// [`ImpossiblePosition`] naming the first square or count that cannot be.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Color, ImpossiblePosition, Position, Rules};
    ///
    /// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    /// assert_eq!(start.check(), Ok(()));
    ///
    /// // The Othello rule never leaves a centre square empty.
    /// let mut cells = start.cells().to_vec();
    /// let d4 = start.parse_square("d4")?;
    /// cells[d4.index(BoardSize::EIGHT)] = None;
    /// let hole = Position::setup(BoardSize::EIGHT, Rules::Othello, &cells, Color::Black)
    ///     .expect("64 cells");
    /// assert_eq!(
    ///     hole.check(),
    ///     Err(ImpossiblePosition::EmptyCentre { square: d4, rules: Rules::Othello })
    /// );
    /// # Ok::<(), reversi_core::ParseSquareError>(())
    /// ```
    pub fn check(&self) -> Result<(), ImpossiblePosition> {
        let size = self.size();
        let centre = self.centre();
        let black = self.disc_count(Color::Black);
        let white = self.disc_count(Color::White);
        if self.rules() == Rules::Reversi && black + white < 4 {
            if let Some(sq) = self
                .squares()
                .find(|&sq| self.get(sq).is_some() && !centre.contains(&sq))
            {
                return Err(ImpossiblePosition::OutsideCentre(sq));
            }
            let placed = black + white;
            let turn = if placed.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            };
            if black != placed.div_ceil(2) || white != placed / 2 || self.turn() != turn {
                return Err(ImpossiblePosition::PlacementOrder {
                    black,
                    white,
                    turn: self.turn(),
                });
            }
            return Ok(());
        }
        let mut sorted = centre;
        sorted.sort_by_key(|sq| sq.index(size));
        if let Some(&square) = sorted.iter().find(|&&sq| self.get(sq).is_none()) {
            return Err(ImpossiblePosition::EmptyCentre {
                square,
                rules: self.rules(),
            });
        }
        // Every disc must join the centre through neighbouring discs (8 directions).
        let n = i16::from(size.get());
        let mut seen = vec![false; size.cells()];
        let mut stack: Vec<Square> = centre.to_vec();
        for sq in &stack {
            seen[sq.index(size)] = true;
        }
        while let Some(sq) = stack.pop() {
            for dr in -1..=1i16 {
                for dc in -1..=1i16 {
                    let (c, r) = (i16::from(sq.col()) + dc, i16::from(sq.row()) + dr);
                    if !(0..n).contains(&c) || !(0..n).contains(&r) {
                        continue;
                    }
                    let next = Square::new(c as u8, r as u8);
                    let i = next.index(size);
                    if !seen[i] && self.get(next).is_some() {
                        seen[i] = true;
                        stack.push(next);
                    }
                }
            }
        }
        match self
            .squares()
            .find(|&sq| self.get(sq).is_some() && !seen[sq.index(size)])
        {
            Some(sq) => Err(ImpossiblePosition::Detached(sq)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoardSize;

    fn board(rows: &str, rules: Rules, turn: Color) -> Position {
        let cells: Vec<Option<Color>> = rows
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                _ => None,
            })
            .collect();
        let size = BoardSize::ALL
            .into_iter()
            .find(|s| s.cells() == cells.len())
            .unwrap_or(BoardSize::EIGHT);
        Position::setup(size, rules, &cells, turn).unwrap_or_else(|| Position::start(size, rules))
    }

    #[test]
    fn every_position_of_random_games_passes() {
        for rules in [Rules::Othello, Rules::Reversi] {
            for size in [BoardSize::FOUR, BoardSize::EIGHT] {
                let mut p = Position::start(size, rules);
                let mut k = 7usize;
                assert_eq!(p.check(), Ok(()));
                loop {
                    let moves = p.moves();
                    if moves.is_empty() {
                        break;
                    }
                    k = k.wrapping_mul(31).wrapping_add(17);
                    let mv = moves[k % moves.len()];
                    p = p.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
                    assert_eq!(p.check(), Ok(()), "{p:?}");
                }
            }
        }
    }

    #[test]
    fn impossible_positions_are_named() {
        let x = Color::Black;
        let lone = board(
            "X----- ------ --OX-- --XO-- ------ ------",
            Rules::Othello,
            Color::White,
        );
        assert_eq!(
            lone.check(),
            Err(ImpossiblePosition::Detached(Square::new(0, 0)))
        );
        assert!(lone.check().is_err_and(|e| e.to_string().contains("a1")));
        let empty_centre = board("---- -OX- -X-- ----", Rules::Othello, x);
        let err = empty_centre.check().err();
        assert_eq!(
            err,
            Some(ImpossiblePosition::EmptyCentre {
                square: Square::new(2, 2),
                rules: Rules::Othello
            })
        );
        assert!(err.is_some_and(|e| e.to_string().contains("c3 is empty")));
        // Reversi: two discs placed, Black's and White's, Black to move.
        assert_eq!(
            board("---- -X-- --O- ----", Rules::Reversi, x).check(),
            Ok(())
        );
        assert!(matches!(
            board("---- -X-- --X- ----", Rules::Reversi, x).check(),
            Err(ImpossiblePosition::PlacementOrder { .. })
        ));
        assert!(matches!(
            board("---- -X-- --O- ----", Rules::Reversi, Color::White).check(),
            Err(ImpossiblePosition::PlacementOrder { .. })
        ));
        assert_eq!(
            board("X--- ---- ---- ----", Rules::Reversi, Color::White).check(),
            Err(ImpossiblePosition::OutsideCentre(Square::new(0, 0)))
        );
        assert!(matches!(
            board("XOX- -X-- --O- ----", Rules::Reversi, x).check(),
            Err(ImpossiblePosition::EmptyCentre {
                rules: Rules::Reversi,
                ..
            })
        ));
        // A finished game is a position like any other.
        let full = board("XXXX XXXX XXXX XXXO", Rules::Othello, x);
        assert!(full.is_game_over());
        assert_eq!(full.check(), Ok(()));
    }
}
