//! OBF, Edax's one-line position format: the squares from `a1` row by row (`X` Black, `O`
//! White, `-` empty), a space, the side to move, `;`, then optionally each move's score for the
//! side to move (` A2:+38; C7:+36;`).
//!
//! The 8x8 files hold 64 squares; any supported size is read from the number of squares
//! (16, 36, 64, … 256) and written the same way.

use std::fmt;

use reversi_core::{BoardSize, Color, Move, Position, Rules, Square};

/// A position with the scores given for its moves, best first as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObfPosition {
    /// The position, under [`Rules::Othello`] (OBF has no field for the start rule).
    pub position: Position,
    /// Each move with its final disc difference for the side to move.
    pub scores: Vec<(Move, i32)>,
}

/// Why an OBF line could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObfErrorKind {
    /// A board character other than `X`, `O`, `-`.
    BadSquare(char),
    /// The number of squares is not that of a supported board.
    BadLength(usize),
    /// The side to move is missing or not `X`/`O`.
    BadTurn(String),
    /// The `;` after the side to move is missing.
    MissingSemicolon,
    /// A score entry that is not `MOVE:+N`.
    BadScore(String),
}

/// An OBF error: the 1-based line and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObfError {
    /// 1-based line number: in the file for [`parse_obf`], as given for [`parse_obf_line`].
    pub line: usize,
    /// What is wrong with the line.
    pub kind: ObfErrorKind,
}

impl fmt::Display for ObfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            ObfErrorKind::BadSquare(c) => write!(f, "{c:?} is not a square (X, O or -)"),
            ObfErrorKind::BadLength(n) => {
                write!(f, "{n} squares is not a board of 4x4 to 16x16 (64 for 8x8)")
            }
            ObfErrorKind::BadTurn(t) => write!(f, "side to move {t:?} is not X or O"),
            ObfErrorKind::MissingSemicolon => f.write_str("missing \";\" after the side to move"),
            ObfErrorKind::BadScore(t) => {
                write!(f, "{t:?} is not a move score like A2:+38")
            }
        }
    }
}

impl std::error::Error for ObfError {}

fn parse_score(entry: &str, size: BoardSize) -> Option<(Move, i32)> {
    let (mv, score) = entry.split_once(':')?;
    let mv = mv.trim();
    let mv = if mv.eq_ignore_ascii_case("pa") || mv == "--" {
        Move::Pass
    } else {
        Move::Play(Square::parse(mv, size).ok()?)
    };
    let score = score.trim();
    let score = score.strip_prefix('+').unwrap_or(score);
    Some((mv, score.parse().ok()?))
}

/// Reads one OBF line (its number is only for errors).
///
/// # Errors
/// [`ObfError`] naming the line and what is wrong.
///
/// # Examples
/// ```
/// use reversi_core::{Color, Move};
/// use reversi_formats::obf::{parse_obf_line, ObfErrorKind};
///
/// // An 8x8 endgame, Black to move with 14 empty squares, and two scored moves.
/// let line = concat!(
///     "--XXXXX-",
///     "-OOOXX-O",
///     "-OOOXXOX",
///     "-OXOXOXX",
///     "OXXXOXXX",
///     "--XOXOXX",
///     "-XXXOOO-",
///     "-OOOOO--",
///     " X; G8:+18; B1:-4;",
/// );
/// let p = parse_obf_line(line, 1)?;
/// assert_eq!(p.position.turn(), Color::Black);
/// assert_eq!(p.position.empty_count(), 14);
/// let g8 = p.position.parse_square("g8").expect("g8 is on 8x8");
/// assert_eq!(p.scores[0], (Move::Play(g8), 18));
/// assert_eq!(p.scores[1].1, -4);
///
/// let err = parse_obf_line(&line.replace(" X;", " Z;"), 7).unwrap_err();
/// assert_eq!((err.line, err.kind), (7, ObfErrorKind::BadTurn("Z".into())));
/// # Ok::<(), reversi_formats::obf::ObfError>(())
/// ```
pub fn parse_obf_line(text: &str, line: usize) -> Result<ObfPosition, ObfError> {
    let err = |kind| ObfError { line, kind };
    let text = text.trim();
    let board_len = text.find(char::is_whitespace).unwrap_or(text.len());
    let (board, rest) = text.split_at(board_len);
    let mut cells = Vec::with_capacity(board.len());
    for ch in board.chars() {
        cells.push(match ch {
            '-' | '.' => None,
            'X' | 'x' | '*' => Some(Color::Black),
            'O' | 'o' => Some(Color::White),
            _ => return Err(err(ObfErrorKind::BadSquare(ch))),
        });
    }
    let size = BoardSize::ALL
        .into_iter()
        .find(|s| s.cells() == cells.len())
        .ok_or_else(|| err(ObfErrorKind::BadLength(cells.len())))?;
    let rest = rest.trim_start();
    let (turn_text, scores) = rest
        .split_once(';')
        .ok_or_else(|| err(ObfErrorKind::MissingSemicolon))?;
    let turn = match turn_text.trim() {
        "X" | "x" | "*" => Color::Black,
        "O" | "o" => Color::White,
        other => return Err(err(ObfErrorKind::BadTurn(other.to_string()))),
    };
    let position = Position::setup(size, Rules::Othello, &cells, turn)
        .ok_or_else(|| err(ObfErrorKind::BadLength(cells.len())))?;
    let mut out = Vec::new();
    for entry in scores.split(';').map(str::trim).filter(|e| !e.is_empty()) {
        out.push(
            parse_score(entry, size)
                .ok_or_else(|| err(ObfErrorKind::BadScore(entry.to_string())))?,
        );
    }
    Ok(ObfPosition {
        position,
        scores: out,
    })
}

/// Reads an OBF file, one position a line; blank lines and `%`/`#` comments are skipped.
///
/// # Errors
/// [`ObfError`] for the first bad line.
///
/// # Examples
/// ```
/// use reversi_formats::obf::parse_obf;
///
/// // Two 4x4 positions: the start, and the start with White to move.
/// let text = "% 4x4\n-----OX--XO----- X;\n\n-----OX--XO----- O;\n";
/// let positions = parse_obf(text)?;
/// assert_eq!(positions.len(), 2);
/// assert_eq!(positions[0].position.size().get(), 4);
/// assert_eq!(positions[1].position.legal_moves().len(), 4);
///
/// // 15 squares is no board.
/// let err = parse_obf("-----OX--XO---- X;").unwrap_err();
/// assert_eq!(err.to_string(), "line 1: 15 squares is not a board of 4x4 to 16x16 (64 for 8x8)");
/// # Ok::<(), reversi_formats::obf::ObfError>(())
/// ```
pub fn parse_obf(text: &str) -> Result<Vec<ObfPosition>, ObfError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !crate::transcript::is_blank_line(l))
        .map(|(i, l)| parse_obf_line(l, i + 1))
        .collect()
}

/// Writes a position as one OBF line, without a line break: upper-case moves, signed scores.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Move, Position, Rules};
/// use reversi_formats::obf::{write_obf, ObfPosition};
///
/// // The 4x4 start: with perfect play Black loses by 10 after b1 (3-13).
/// let start = Position::start(BoardSize::FOUR, Rules::Othello);
/// let b1 = start.parse_square("b1").expect("b1 is on 4x4");
/// let p = ObfPosition { position: start, scores: vec![(Move::Play(b1), -10)] };
/// assert_eq!(write_obf(&p), "-----OX--XO----- X; B1:-10;");
/// ```
#[must_use]
pub fn write_obf(p: &ObfPosition) -> String {
    let mut out: String = p
        .position
        .cells()
        .iter()
        .map(|c| c.map_or('-', Color::symbol))
        .collect();
    out.push(' ');
    out.push(p.position.turn().symbol());
    out.push(';');
    for (mv, score) in &p.scores {
        out.push_str(&format!(
            " {}:{score:+};",
            mv.to_string().to_ascii_uppercase()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    #[test]
    fn reads_and_writes_a_line() {
        let p = parse_obf_line(LINE, 1).unwrap();
        assert_eq!(p.position.turn(), Color::Black);
        assert_eq!(p.position.empty_count(), 14);
        assert_eq!(p.scores.len(), 8);
        assert_eq!(p.scores[0], (Move::Play(Square::new(6, 7)), 18));
        assert_eq!(p.scores[5].1, -4);
        assert_eq!(write_obf(&p), LINE);
        let bare = parse_obf_line(&LINE[..67], 1).unwrap();
        assert!(bare.scores.is_empty());
        assert_eq!(write_obf(&bare), &LINE[..67]);
    }

    #[test]
    fn errors() {
        let e = |t: &str| parse_obf(t).unwrap_err();
        assert_eq!(
            e(&LINE.replace(" X;", " Z;")).kind,
            ObfErrorKind::BadTurn("Z".into())
        );
        assert_eq!(e(&LINE[1..]).kind, ObfErrorKind::BadLength(63));
        assert_eq!(
            e(&LINE.replace("--XX", "--?X")).kind,
            ObfErrorKind::BadSquare('?')
        );
        assert_eq!(e(&LINE[..66]).kind, ObfErrorKind::MissingSemicolon);
        let err = e(&format!("{LINE}\n\n{}", LINE.replace("G8:+18", "G9:+18")));
        assert_eq!(err.line, 3);
        assert_eq!(
            err.to_string(),
            "line 3: \"G9:+18\" is not a move score like A2:+38"
        );
    }
}
