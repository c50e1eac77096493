//! A position on any supported board: discs, side to move, legal moves, flips and passes.

use std::fmt;

use crate::{BoardSize, Color, ParseSquareError, Rules, Square};

/// The most squares a board has (16x16).
pub const MAX_CELLS: usize = 256;

const DIRECTIONS: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// A move: a disc placed on a square, or a pass.
///
/// Displayed as the square's name (`f5`) or `PA`, the way transcripts and GGF write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A disc of the side to move placed on this square.
    Play(Square),
    /// No disc placed: legal only when the side to move has no legal square and the opponent
    /// has one.
    Pass,
}

impl fmt::Display for Move {
    /// The square's name, or `PA` for a pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(sq) => sq.fmt(f),
            Move::Pass => f.write_str("PA"),
        }
    }
}

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IllegalMove {
    /// The square is not on this board.
    OffBoard(Square),
    /// The square already holds a disc.
    Occupied(Square),
    /// During the Reversi rule's first four moves, only the centre squares may be played.
    NotCentre(Square),
    /// The disc would flip nothing.
    NoFlips(Square),
    /// A pass was asked for while the side to move has a legal move.
    PassWithMoves(Color),
    /// The game is over: neither side can move.
    GameOver,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::OffBoard(sq) => write!(f, "{sq} is off the board"),
            IllegalMove::Occupied(sq) => write!(f, "{sq} is already occupied"),
            IllegalMove::NotCentre(sq) => write!(
                f,
                "{sq} is not a centre square: the first four moves of the Reversi rule go in the centre"
            ),
            IllegalMove::NoFlips(sq) => write!(f, "{sq} flips no disc"),
            IllegalMove::PassWithMoves(c) => {
                write!(f, "{c} cannot pass while having a legal move")
            }
            IllegalMove::GameOver => f.write_str("the game is over"),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A position: the discs on a board of some size, the start rule, and the side to move.
///
/// A position is a value: [`Position::play`] returns the next one and leaves this one as it
/// was. Displayed as a diagram, `X` Black, `O` White, `.` empty:
///
/// ```
/// use reversi_core::{BoardSize, Position, Rules};
///
/// let start = Position::start(BoardSize::FOUR, Rules::Othello);
/// let diagram = start.to_string();
/// let rows: Vec<&str> = diagram.lines().collect();
/// assert_eq!(rows, [
///     "    a b c d",
///     "  1 . . . .",
///     "  2 . O X .",
///     "  3 . X O .",
///     "  4 . . . .",
/// ]);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    size: BoardSize,
    rules: Rules,
    turn: Color,
    cells: [Option<Color>; MAX_CELLS],
}

impl Position {
    /// The start position of a game on `size` under `rules`; Black to move.
    ///
    /// Under [`Rules::Othello`] the four centre squares hold two discs each side, White on
    /// the top-left to bottom-right diagonal (`d4`, `e5` on 8x8); under [`Rules::Reversi`]
    /// the board is empty.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Color, Position, Rules};
    ///
    /// let p = Position::start(BoardSize::EIGHT, Rules::Othello);
    /// assert_eq!(p.turn(), Color::Black);
    /// assert_eq!(p.get(p.parse_square("d4")?), Some(Color::White));
    /// assert_eq!(p.get(p.parse_square("e4")?), Some(Color::Black));
    /// assert_eq!(p.empty_count(), 60);
    ///
    /// // The Reversi start is empty: the first four moves fill the centre.
    /// let r = Position::start(BoardSize::EIGHT, Rules::Reversi);
    /// assert_eq!(r.empty_count(), 64);
    /// assert_eq!(r.legal_moves(), r.centre());
    /// # Ok::<(), reversi_core::ParseSquareError>(())
    /// ```
    #[must_use]
    pub fn start(size: BoardSize, rules: Rules) -> Position {
        let mut p = Position {
            size,
            rules,
            turn: Color::Black,
            cells: [None; MAX_CELLS],
        };
        if rules == Rules::Othello {
            let c = size.get() / 2;
            p.set(Square::new(c - 1, c - 1), Some(Color::White));
            p.set(Square::new(c, c), Some(Color::White));
            p.set(Square::new(c, c - 1), Some(Color::Black));
            p.set(Square::new(c - 1, c), Some(Color::Black));
        }
        p
    }

    /// A position set up square by square: `cells` lists the board row by row from `a1`.
    ///
    /// Returns `None` when `cells` does not hold exactly `size * size` entries. Any
    /// arrangement of discs is accepted, reachable in a game or not.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Color, Position, Rules};
    ///
    /// let (x, o, e) = (Some(Color::Black), Some(Color::White), None);
    /// let cells = [
    ///     x, x, e, e,
    ///     x, x, e, e,
    ///     e, e, o, e,
    ///     e, e, e, e,
    /// ];
    /// let p = Position::setup(BoardSize::FOUR, Rules::Othello, &cells, Color::White)
    ///     .expect("16 cells for 4x4");
    /// assert_eq!(p.disc_count(Color::Black), 4);
    /// assert_eq!(p.get(p.parse_square("c3")?), Some(Color::White));
    ///
    /// // 15 cells is not a 4x4 board.
    /// assert!(Position::setup(BoardSize::FOUR, Rules::Othello, &cells[..15], Color::White).is_none());
    /// # Ok::<(), reversi_core::ParseSquareError>(())
    /// ```
    #[must_use]
    pub fn setup(
        size: BoardSize,
        rules: Rules,
        cells: &[Option<Color>],
        turn: Color,
    ) -> Option<Position> {
        if cells.len() != size.cells() {
            return None;
        }
        let mut p = Position {
            size,
            rules,
            turn,
            cells: [None; MAX_CELLS],
        };
        p.cells[..cells.len()].copy_from_slice(cells);
        Some(p)
    }

    /// The board size.
    #[must_use]
    pub const fn size(&self) -> BoardSize {
        self.size
    }

    /// The start rule, which decides whether the Reversi placement phase applies.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The side to move.
    #[must_use]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The same discs with the other side to move.
    #[must_use]
    pub fn with_turn(&self, turn: Color) -> Position {
        let mut p = self.clone();
        p.turn = turn;
        p
    }

    /// The disc on `sq`, if any. Squares off the board are empty.
    #[must_use]
    pub fn get(&self, sq: Square) -> Option<Color> {
        if sq.is_on(self.size) {
            self.cells[sq.index(self.size)]
        } else {
            None
        }
    }

    fn set(&mut self, sq: Square, disc: Option<Color>) {
        self.cells[sq.index(self.size)] = disc;
    }

    /// The board's cells row by row from `a1`.
    #[must_use]
    pub fn cells(&self) -> &[Option<Color>] {
        &self.cells[..self.size.cells()]
    }

    /// Every square of the board, row by row from `a1`.
    pub fn squares(&self) -> impl Iterator<Item = Square> {
        let size = self.size;
        (0..size.cells()).filter_map(move |i| Square::from_index(i, size))
    }

    /// Reads a square name for this board's size (see [`Square::parse`]).
    ///
    /// # Errors
    /// [`ParseSquareError`] when the name is malformed or off this board.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Position, Rules};
    ///
    /// let p8 = Position::start(BoardSize::EIGHT, Rules::Othello);
    /// let p10 = Position::start(BoardSize::new(10)?, Rules::Othello);
    /// assert_eq!(p10.parse_square("j10")?.to_string(), "j10");
    /// assert!(p8.parse_square("j10").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_square(&self, name: &str) -> Result<Square, ParseSquareError> {
        Square::parse(name, self.size)
    }

    /// Discs of `color` on the board.
    #[must_use]
    pub fn disc_count(&self, color: Color) -> usize {
        self.cells().iter().filter(|&&c| c == Some(color)).count()
    }

    /// Empty squares.
    #[must_use]
    pub fn empty_count(&self) -> usize {
        self.cells().iter().filter(|c| c.is_none()).count()
    }

    /// The four centre squares.
    #[must_use]
    pub fn centre(&self) -> [Square; 4] {
        let c = self.size.get() / 2;
        [
            Square::new(c - 1, c - 1),
            Square::new(c, c - 1),
            Square::new(c - 1, c),
            Square::new(c, c),
        ]
    }

    /// Whether the Reversi rule's centre-placement phase (the first four moves) is under way.
    #[must_use]
    pub fn in_placement_phase(&self) -> bool {
        self.rules == Rules::Reversi && self.size.cells() - self.empty_count() < 4
    }

    fn neighbour(&self, sq: Square, (dc, dr): (i8, i8)) -> Option<Square> {
        let n = self.size.get() as i16;
        let c = sq.col() as i16 + dc as i16;
        let r = sq.row() as i16 + dr as i16;
        ((0..n).contains(&c) && (0..n).contains(&r)).then(|| Square::new(c as u8, r as u8))
    }

    /// The discs a disc of the side to move on `sq` would flip, or why it cannot go there.
    ///
    /// In the Reversi placement phase a centre square flips nothing and is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] when the square is off the board, occupied, outside the centre during
    /// the placement phase, or flips nothing.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, IllegalMove, Position, Rules};
    ///
    /// let p = Position::start(BoardSize::EIGHT, Rules::Othello);
    /// let sq = |name| p.parse_square(name);
    /// // Black on f5 flanks e5 against d5.
    /// assert_eq!(p.flips(sq("f5")?), Ok(vec![sq("e5")?]));
    /// assert_eq!(p.flips(sq("d4")?), Err(IllegalMove::Occupied(sq("d4")?)));
    /// assert_eq!(p.flips(sq("a1")?), Err(IllegalMove::NoFlips(sq("a1")?)));
    /// # Ok::<(), reversi_core::ParseSquareError>(())
    /// ```
    pub fn flips(&self, sq: Square) -> Result<Vec<Square>, IllegalMove> {
        if !sq.is_on(self.size) {
            return Err(IllegalMove::OffBoard(sq));
        }
        if self.get(sq).is_some() {
            return Err(IllegalMove::Occupied(sq));
        }
        if self.in_placement_phase() {
            return if self.centre().contains(&sq) {
                Ok(Vec::new())
            } else {
                Err(IllegalMove::NotCentre(sq))
            };
        }
        let me = self.turn;
        let mut flipped = Vec::new();
        for dir in DIRECTIONS {
            let start = flipped.len();
            let mut cur = self.neighbour(sq, dir);
            while let Some(s) = cur {
                match self.get(s) {
                    Some(c) if c == me => break,
                    Some(_) => {
                        flipped.push(s);
                        cur = self.neighbour(s, dir);
                    }
                    None => {
                        cur = None;
                    }
                }
            }
            if cur.is_none() {
                flipped.truncate(start);
            }
        }
        if flipped.is_empty() {
            Err(IllegalMove::NoFlips(sq))
        } else {
            Ok(flipped)
        }
    }

    /// Whether the side to move may place a disc on `sq`.
    #[must_use]
    pub fn is_legal(&self, sq: Square) -> bool {
        if !sq.is_on(self.size) || self.get(sq).is_some() {
            return false;
        }
        if self.in_placement_phase() {
            return self.centre().contains(&sq);
        }
        DIRECTIONS.iter().any(|&dir| self.flanks(sq, dir))
    }

    /// Whether a disc of the side to move on `sq` would flip at least one disc along `dir`.
    fn flanks(&self, sq: Square, dir: (i8, i8)) -> bool {
        let mut seen = false;
        let mut cur = self.neighbour(sq, dir);
        while let Some(s) = cur {
            match self.get(s) {
                Some(c) if c == self.turn => return seen,
                Some(_) => seen = true,
                None => return false,
            }
            cur = self.neighbour(s, dir);
        }
        false
    }

    /// The squares the side to move may play, row by row from `a1`; empty when it must pass.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Position, Rules};
    ///
    /// let p = Position::start(BoardSize::EIGHT, Rules::Othello);
    /// let names: Vec<String> = p.legal_moves().iter().map(ToString::to_string).collect();
    /// assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    /// ```
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Square> {
        if self.in_placement_phase() {
            return self
                .squares()
                .filter(|&sq| self.get(sq).is_none() && self.centre().contains(&sq))
                .collect();
        }
        self.squares()
            .filter(|&sq| self.get(sq).is_none() && DIRECTIONS.iter().any(|&d| self.flanks(sq, d)))
            .collect()
    }

    /// Whether the side to move has at least one legal square.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        if self.in_placement_phase() {
            return true;
        }
        self.squares()
            .any(|sq| self.get(sq).is_none() && DIRECTIONS.iter().any(|&d| self.flanks(sq, d)))
    }

    /// Whether the side to move must pass: no legal square, but the opponent has one.
    #[must_use]
    pub fn must_pass(&self) -> bool {
        !self.has_legal_move() && self.with_turn(self.turn.opposite()).has_legal_move()
    }

    /// Whether the game is over: neither side can move (a full board is one case).
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        !self.has_legal_move() && !self.with_turn(self.turn.opposite()).has_legal_move()
    }

    /// The legal moves as [`Move`]s: the legal squares, or a single pass when the side to move
    /// must pass, or nothing when the game is over.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Color, Move, Position, Rules};
    ///
    /// // White's only disc, c3, can flank nothing: White must pass.
    /// let (x, o, e) = (Some(Color::Black), Some(Color::White), None);
    /// let cells = [
    ///     x, x, e, e,
    ///     x, x, e, e,
    ///     e, e, o, e,
    ///     e, e, e, e,
    /// ];
    /// let p = Position::setup(BoardSize::FOUR, Rules::Othello, &cells, Color::White)
    ///     .expect("16 cells for 4x4");
    /// assert!(p.legal_moves().is_empty());
    /// assert_eq!(p.moves(), [Move::Pass]);
    /// assert!(p.must_pass() && !p.is_game_over());
    ///
    /// let black = p.play(Move::Pass)?;
    /// assert_eq!(black.turn(), Color::Black);
    /// assert_eq!(black.moves(), [Move::Play(black.parse_square("d4")?)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn moves(&self) -> Vec<Move> {
        let squares = self.legal_moves();
        if !squares.is_empty() {
            squares.into_iter().map(Move::Play).collect()
        } else if self.with_turn(self.turn.opposite()).has_legal_move() {
            vec![Move::Pass]
        } else {
            Vec::new()
        }
    }

    /// The position after `mv`.
    ///
    /// # Errors
    /// [`IllegalMove`] naming why the move is not legal here; a pass is legal only when the side
    /// to move has no legal square and the game is not over.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Color, IllegalMove, Move, Position, Rules};
    ///
    /// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    /// let f5 = start.parse_square("f5")?;
    /// let next = start.play(Move::Play(f5))?;
    /// assert_eq!(next.turn(), Color::White);
    /// assert_eq!((next.disc_count(Color::Black), next.disc_count(Color::White)), (4, 1));
    /// assert_eq!(start.empty_count(), 60, "the position played from is unchanged");
    ///
    /// let a1 = start.parse_square("a1")?;
    /// assert_eq!(start.play(Move::Play(a1)), Err(IllegalMove::NoFlips(a1)));
    /// assert_eq!(start.play(Move::Pass), Err(IllegalMove::PassWithMoves(Color::Black)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        match mv {
            Move::Pass => {
                if self.has_legal_move() {
                    Err(IllegalMove::PassWithMoves(self.turn))
                } else if self.is_game_over() {
                    Err(IllegalMove::GameOver)
                } else {
                    Ok(self.with_turn(self.turn.opposite()))
                }
            }
            Move::Play(sq) => {
                let flipped = self.flips(sq)?;
                let mut next = self.clone();
                next.set(sq, Some(self.turn));
                for s in flipped {
                    next.set(s, Some(self.turn));
                }
                next.turn = self.turn.opposite();
                Ok(next)
            }
        }
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {} {} to move", self.size, self.rules, self.turn)?;
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Position {
    /// A text diagram: `X` Black, `O` White, `.` empty, with coordinates.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size.get();
        write!(f, "   ")?;
        for c in 0..n {
            write!(f, " {}", (b'a' + c) as char)?;
        }
        writeln!(f)?;
        for r in 0..n {
            write!(f, "{:>3}", r + 1)?;
            for c in 0..n {
                let ch = self.get(Square::new(c, r)).map_or('.', Color::symbol);
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
