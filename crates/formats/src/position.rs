//! A position given as text in any of the notations players paste: a board string with the
//! side to move, an OBF line, a GGF game (its `BO` start) or a transcript. One reader,
//! [`parse_position`], for every command and screen that takes a position.

use std::fmt;

use reversi_core::{
    parse_transcript, BoardSize, Color, Game, ImpossiblePosition, Position, Rules, TranscriptError,
};

use crate::ggf::{parse_ggf, GgfError};
use crate::obf::{parse_obf_line, ObfError};

/// The notation a position was given in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionFormat {
    /// The squares row by row from `a1` (`X` or `*` Black, `O` White, `-` or `.` empty), then
    /// the side to move.
    Board,
    /// An OBF line: the board, the side to move, `;` and optional move scores.
    Obf,
    /// A GGF game, or its `BO` tag alone: the game's start position.
    Ggf,
    /// Moves from the start of the board and rule asked for.
    Transcript,
}

/// A position read from text, with the moves that led to it when the text gave them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionInput {
    /// The position: `game.current()`.
    pub game: Game,
    /// How it was written.
    pub format: PositionFormat,
}

impl PositionInput {
    /// The position read.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.game.current()
    }
}

/// Why text could not be read as a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// Nothing was given.
    Empty,
    /// A board character that is not a disc or an empty square.
    BadSquare {
        /// 0-based place in the board string.
        index: usize,
        /// The character found.
        found: char,
    },
    /// The board string's length is not that of a supported board.
    BadLength(usize),
    /// The board string is not followed by the side to move.
    MissingSide,
    /// The side to move is not `X`/`*`/`B` or `O`/`W`.
    BadSide(String),
    /// An OBF line that does not read.
    Obf(ObfError),
    /// A GGF game that does not read.
    Ggf(GgfError),
    /// GGF text holding no game.
    NoGame,
    /// A transcript that does not read.
    Transcript(TranscriptError),
    /// The position reads but cannot arise in a game.
    Impossible(ImpossiblePosition),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => f.write_str(
                "no position given: expected a board and side (64 squares of X, O and -, then \
                 X or O), an OBF line, a GGF game or a transcript",
            ),
            PositionError::BadSquare { index, found } => write!(
                f,
                "board character {} is {found:?}, not a disc (X, *, O) or an empty square (-, .)",
                index + 1
            ),
            PositionError::BadLength(n) => write!(
                f,
                "a board of {n} squares is not a square board from 4x4 to 16x16 (64 for 8x8)"
            ),
            PositionError::MissingSide => f.write_str(
                "the side to move is missing: put X (Black) or O (White) after the board",
            ),
            PositionError::BadSide(s) => {
                write!(f, "side to move {s:?} is not X (or *, B) or O (or W)")
            }
            PositionError::Obf(e) => write!(f, "OBF {e}"),
            PositionError::Ggf(e) => write!(f, "GGF {e}"),
            PositionError::NoGame => f.write_str("the GGF text holds no game"),
            PositionError::Transcript(e) => write!(f, "transcript {e}"),
            PositionError::Impossible(e) => write!(f, "impossible position: {e}"),
        }
    }
}

impl std::error::Error for PositionError {}

fn cell(ch: char) -> Option<Option<Color>> {
    match ch {
        'X' | 'x' | '*' => Some(Some(Color::Black)),
        'O' | 'o' => Some(Some(Color::White)),
        '-' | '.' => Some(None),
        _ => None,
    }
}

fn side(text: &str) -> Result<Color, PositionError> {
    match text {
        "X" | "x" | "*" | "B" | "b" => Ok(Color::Black),
        "O" | "o" | "W" | "w" => Ok(Color::White),
        other => Err(PositionError::BadSide(other.to_string())),
    }
}

/// A board string, rows possibly apart, then the side to move: a last word of one
/// character, or the one character past a board's worth of squares.
fn parse_board(text: &str, rules: Rules) -> Result<Position, PositionError> {
    let squares: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let is_board = |n: usize| BoardSize::ALL.iter().any(|s| s.cells() == n);
    let lone_last = text
        .split_whitespace()
        .last()
        .is_some_and(|w| w.chars().count() == 1);
    let (board, turn) = match squares.split_last() {
        Some((&last, board))
            if lone_last || (!is_board(squares.len()) && is_board(board.len())) =>
        {
            (board, Some(last))
        }
        _ => (squares.as_slice(), None),
    };
    let mut cells = Vec::with_capacity(board.len());
    for (index, &found) in board.iter().enumerate() {
        cells.push(cell(found).ok_or(PositionError::BadSquare { index, found })?);
    }
    let size = BoardSize::ALL
        .into_iter()
        .find(|s| s.cells() == cells.len())
        .ok_or(PositionError::BadLength(cells.len()))?;
    let turn = side(&turn.ok_or(PositionError::MissingSide)?.to_string())?;
    Position::setup(size, rules, &cells, turn).ok_or(PositionError::BadLength(cells.len()))
}

/// The same discs and side under `rules`.
fn under(p: &Position, rules: Rules) -> Position {
    Position::setup(p.size(), rules, p.cells(), p.turn()).unwrap_or_else(|| p.clone())
}

/// Reads a position in any of the notations of [`PositionFormat`], telling them apart by
/// their look: GGF starts with `(;` (or is a `BO[...]` tag), OBF has a `;`, a transcript
/// has digits, and a board has none. `size` and `rules` give the start a transcript is played
/// from; `rules` is also the rule of a board or OBF line (GGF says its own). The position
/// must pass [`Position::check`]; one where neither side can move is a finished game and
/// is accepted.
///
/// # Errors
/// [`PositionError`] naming the bad character, length, side, move or square.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Color, Rules};
/// use reversi_formats::position::{parse_position, PositionError, PositionFormat};
///
/// let (size, rules) = (BoardSize::EIGHT, Rules::Othello);
/// let board = "---------------------------OX------XXX-------------------------- O";
/// let p = parse_position(board, size, rules)?;
/// assert_eq!(p.format, PositionFormat::Board);
/// assert_eq!(p.position().turn(), Color::White);
///
/// // The same position as a transcript, GGF writes Black as `*`.
/// let t = parse_position("f5", size, rules)?;
/// assert_eq!((t.format, t.position()), (PositionFormat::Transcript, p.position()));
/// let ggf = parse_position(&format!("BO[8 {} O]", &board[..64].replace('X', "*")), size, rules)?;
/// assert_eq!(ggf.position(), p.position());
///
/// // A board without its side, and a centre left empty, are refused with the reason.
/// assert_eq!(parse_position(&board[..64], size, rules), Err(PositionError::MissingSide));
/// let hole = parse_position(&board.replacen("OX", "-X", 1), size, rules).unwrap_err();
/// assert_eq!(
///     hole.to_string(),
///     "impossible position: d4 is empty, but the four centre squares are never empty under \
///      the Othello rule (it starts with them filled)"
/// );
/// # Ok::<(), PositionError>(())
/// ```
pub fn parse_position(
    text: &str,
    size: BoardSize,
    rules: Rules,
) -> Result<PositionInput, PositionError> {
    let text = text.trim();
    let (game, format) = if text.is_empty() {
        return Err(PositionError::Empty);
    } else if text.starts_with("(;") || text.starts_with("BO[") {
        let wrapped;
        let ggf = if text.starts_with("BO[") {
            wrapped = format!("(;GM[Othello]{text};)");
            wrapped.as_str()
        } else {
            text
        };
        let games = parse_ggf(ggf).map_err(PositionError::Ggf)?;
        let start = games.into_iter().next().ok_or(PositionError::NoGame)?.start;
        (Game::new(start), PositionFormat::Ggf)
    } else if text.contains(';') {
        let obf = parse_obf_line(text, 1).map_err(PositionError::Obf)?;
        (Game::new(under(&obf.position, rules)), PositionFormat::Obf)
    } else if text.chars().any(|c| c.is_ascii_digit()) {
        let game = parse_transcript(text, Position::start(size, rules))
            .map_err(PositionError::Transcript)?;
        (game, PositionFormat::Transcript)
    } else {
        (Game::new(parse_board(text, rules)?), PositionFormat::Board)
    };
    game.current().check().map_err(PositionError::Impossible)?;
    Ok(PositionInput { game, format })
}

/// A position as a board string: the squares row by row from `a1` (`X`, `O`, `-`), a
/// space, the side to move; [`parse_position`] reads it back.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Position, Rules};
/// use reversi_formats::position::board_string;
///
/// let start = Position::start(BoardSize::FOUR, Rules::Othello);
/// assert_eq!(board_string(&start), "-----OX--XO----- X");
/// ```
#[must_use]
pub fn board_string(p: &Position) -> String {
    let mut s: String = p
        .cells()
        .iter()
        .map(|c| c.map_or('-', Color::symbol))
        .collect();
    s.push(' ');
    s.push(p.turn().symbol());
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::Move;

    const E: BoardSize = BoardSize::EIGHT;
    const START: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn every_format_reads_the_same_position() {
        let start = Position::start(E, Rules::Othello);
        let diagram =
            "--------\n--------\n--------\n---OX---\n---XO---\n--------\n--------\n--------\nX";
        let inputs = [
            (START, PositionFormat::Board),
            (&START.replace('X', "*"), PositionFormat::Board),
            (diagram, PositionFormat::Board),
            (&START.replace(' ', ""), PositionFormat::Board),
            (&format!("{START};"), PositionFormat::Obf),
            (&format!("{START}; F5:+0; D3:+0;"), PositionFormat::Obf),
            (
                "(;GM[Othello]PB[a]PW[b]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5];)",
                PositionFormat::Ggf,
            ),
            (
                "BO[8 ---------------------------O*------*O--------------------------- *]",
                PositionFormat::Ggf,
            ),
        ];
        for (text, format) in inputs {
            let p =
                parse_position(text, E, Rules::Othello).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(p.format, format, "{text:?}");
            assert_eq!(p.position(), &start, "{text:?}");
        }
        let t = parse_position("f5d6 c3", E, Rules::Othello).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(t.format, PositionFormat::Transcript);
        assert_eq!(t.game.moves().len(), 3);
        assert_eq!(t.position().turn(), Color::White);
        let back = parse_position(&board_string(t.position()), E, Rules::Othello);
        assert_eq!(back.map(|b| b.position().clone()), Ok(t.position().clone()));
    }

    #[test]
    fn other_sizes_and_rules() {
        let six = "--------------OX----XO-------------- O";
        let p = parse_position(six, E, Rules::Othello).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.position().size().get(), 6);
        let r = parse_position("d4e4", E, Rules::Reversi).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.position().rules(), Rules::Reversi);
        assert_eq!(r.position().empty_count(), 62);
        let ten = parse_position("d5", BoardSize::new(10).unwrap_or(E), Rules::Othello);
        assert_eq!(ten.map(|p| p.position().size().get()), Ok(10));
    }

    #[test]
    fn finished_positions_are_accepted() {
        let full = format!("{} X", "X".repeat(63) + "O");
        let p = parse_position(&full, E, Rules::Othello).unwrap_or_else(|e| panic!("{e}"));
        assert!(p.position().is_game_over());
        assert!(p.position().moves().is_empty());
        // White has no disc left: over with empty squares.
        let wiped = START.replace('O', "X");
        let w = parse_position(&wiped, E, Rules::Othello).unwrap_or_else(|e| panic!("{e}"));
        assert!(w.position().is_game_over());
        // A side that must pass is not finished.
        let pass = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- O";
        let p = parse_position(pass, E, Rules::Othello).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.position().moves(), [Move::Pass]);
    }

    #[test]
    fn bad_input_is_named() {
        let o = Rules::Othello;
        let cases: [(&str, PositionError); 6] = [
            ("   ", PositionError::Empty),
            (&START[..64], PositionError::MissingSide),
            (
                &START.replace(" X", " Z"),
                PositionError::BadSide("Z".into()),
            ),
            (
                &START.replacen('-', "Q", 1),
                PositionError::BadSquare {
                    index: 0,
                    found: 'Q',
                },
            ),
            (&format!("{} X", &START[..63]), PositionError::BadLength(63)),
            ("(;GM[Go];)", PositionError::NoGame),
        ];
        for (text, want) in cases {
            let got = parse_position(text, E, o);
            match (&got, &want) {
                (Err(PositionError::Ggf(_)), PositionError::NoGame) => {}
                _ => assert_eq!(got, Err(want), "{text:?}"),
            }
        }
        let err = |text: &str| match parse_position(text, E, o) {
            Ok(_) => panic!("{text:?} was accepted"),
            Err(e) => e.to_string(),
        };
        assert!(err("f5d6a1").contains("move 3 (\"a1\"): a1 flips no disc"));
        assert!(err(&START.replace(" X", " X; Z9:+1;")).starts_with("OBF line 1"));
        assert!(err("(;GM[Othello]BO[8 bad *];)").starts_with("GGF line 1"));
        assert!(err(&format!("X{} X", &START[1..64])).contains("a1 is cut off"));
        // The Reversi rule's placement: two Black discs and no White one cannot be.
        let two = "---------------------------X--------X--------------------------- O";
        let e = parse_position(two, E, Rules::Reversi).map_err(|e| e.to_string());
        assert!(e.is_err_and(|e| e.contains("take turns")));
    }
}
