//! How NBoard writes moves (`F5`, `PA`), lines of play (`F5D6C3`), evaluations (discs, from
//! the side to move's view) and depths (`12`, `100%` exact, `100%W` win/loss/draw), and how a
//! move with its evaluation and time (`F5/-1.00/0.52`) is read back.

use std::fmt;

use reversi_core::{BoardSize, Move, ParseSquareError, Square};
use reversi_engine::ScoreKind;

/// A move as NBoard writes it: `F5`, or `PA` for a pass.
#[must_use]
pub fn move_text(mv: Move) -> String {
    mv.to_string().to_ascii_uppercase()
}

/// A line of play without spaces, as the `search` reply wants it: `F5D6C3`, `PAF5`.
#[must_use]
pub fn line_text(moves: &[Move]) -> String {
    moves.iter().map(|&m| move_text(m)).collect()
}

/// The depth field of a `search` reply for a score of `kind`: the midgame depth (`14@73%`
/// when probcut pruned), `100%` for an exact solve, `100%W` for a win/loss/draw solve. The
/// engine gives no other kind; a classic search's points would show their depth, a greedy
/// or random choice `1` and `0`.
#[must_use]
pub fn depth_text(kind: ScoreKind) -> String {
    match kind {
        ScoreKind::Exact => "100%".into(),
        ScoreKind::WinLossDraw => "100%W".into(),
        ScoreKind::Depth {
            depth,
            selectivity: 100,
        }
        | ScoreKind::Points(depth) => depth.to_string(),
        ScoreKind::Depth { depth, selectivity } => format!("{depth}@{selectivity}%"),
        ScoreKind::Flips => "1".into(),
        ScoreKind::Random | ScoreKind::Book => "0".into(),
    }
}

/// A score of `kind` as an NBoard evaluation in discs. A win/loss/draw solve proves only the
/// sign, which is all NBoard reads from it.
#[must_use]
pub fn eval_text(score: i32, kind: ScoreKind) -> String {
    let v = match kind {
        ScoreKind::WinLossDraw => score.signum(),
        _ => score,
    };
    format!("{:.2}", f64::from(v))
}

/// A move that is not a square of the board nor a pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The move as written (its first field, without evaluation and time).
    pub text: String,
    /// Why it is not a square of the board.
    pub reason: ParseSquareError,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a move: {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseMoveError {}

/// A move with what its player said about it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnnotatedMove {
    /// The square played, or a pass.
    pub mv: Move,
    /// The mover's evaluation in discs, when given.
    pub eval: Option<f64>,
    /// Seconds spent, when given.
    pub seconds: Option<f64>,
}

/// Reads `F5`, `f5/-1.00/0.52`, `PA`, `pass`, `--` (case-insensitive); the evaluation and time
/// may also follow separated by spaces (`d6 -1.00 0.0`, as Edax answers `go`). A field that is
/// not a number is left out rather than refused: only the move matters to the game.
///
/// # Errors
/// [`ParseMoveError`] when the move is neither a square of a board of `size` nor a pass.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Move};
/// use reversi_protocol::nboard::notation::{move_text, parse_annotated};
///
/// let m = parse_annotated("F5/-1.50/2.25", BoardSize::EIGHT)?;
/// assert_eq!((move_text(m.mv), m.eval, m.seconds), ("F5".to_string(), Some(-1.5), Some(2.25)));
/// // Edax answers `go` with spaces; a pass may be written `PA`, `pass` or `--`.
/// let m = parse_annotated("d6 -1.00 0.0", BoardSize::EIGHT)?;
/// assert_eq!((move_text(m.mv), m.eval), ("D6".to_string(), Some(-1.0)));
/// assert_eq!(parse_annotated("--", BoardSize::EIGHT)?.mv, Move::Pass);
/// // i1 is off an 8x8 board.
/// assert_eq!(parse_annotated("i1/0.5", BoardSize::EIGHT).unwrap_err().text, "i1");
/// # Ok::<(), reversi_protocol::nboard::notation::ParseMoveError>(())
/// ```
pub fn parse_annotated(text: &str, size: BoardSize) -> Result<AnnotatedMove, ParseMoveError> {
    let mut fields = text
        .split(|c: char| c == '/' || c.is_whitespace())
        .map(str::trim);
    let first = fields.next().unwrap_or_default();
    let mv = if ["pa", "pass", "--"]
        .iter()
        .any(|p| first.eq_ignore_ascii_case(p))
    {
        Move::Pass
    } else {
        Move::Play(Square::parse(first, size).map_err(|reason| ParseMoveError {
            text: first.to_string(),
            reason,
        })?)
    };
    let rest: Vec<&str> = fields
        .filter(|f| !f.is_empty() || text.contains('/'))
        .collect();
    let number = |i: usize| {
        rest.get(i)
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|v| v.is_finite())
    };
    Ok(AnnotatedMove {
        mv,
        eval: number(0),
        seconds: number(1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_lines_are_written_upper_case() {
        let play = |index| Move::from(reversi_engine::Sq::new(index).unwrap());
        assert_eq!(move_text(play(37)), "F5");
        assert_eq!(move_text(play(0)), "A1");
        assert_eq!(move_text(play(63)), "H8");
        assert_eq!(move_text(Move::Pass), "PA");
        assert_eq!(line_text(&[play(37), Move::Pass, play(43)]), "F5PAD6");
    }

    #[test]
    fn depths_and_evals() {
        assert_eq!(depth_text(ScoreKind::Exact), "100%");
        assert_eq!(depth_text(ScoreKind::WinLossDraw), "100%W");
        let depth = |depth, selectivity| ScoreKind::Depth { depth, selectivity };
        assert_eq!(depth_text(depth(7, 100)), "7");
        assert_eq!(depth_text(depth(14, 73)), "14@73%");
        assert_eq!(eval_text(-4, depth(3, 100)), "-4.00");
        assert_eq!(eval_text(12, ScoreKind::WinLossDraw), "1.00");
        assert_eq!(eval_text(0, ScoreKind::Exact), "0.00");
    }

    #[test]
    fn annotated_moves_parse() {
        let size = BoardSize::EIGHT;
        let f5 = Square::parse("f5", size).unwrap();
        let m = parse_annotated("F5/-1.50/2.25", size).unwrap();
        assert_eq!(
            m,
            AnnotatedMove {
                mv: Move::Play(f5),
                eval: Some(-1.5),
                seconds: Some(2.25)
            }
        );
        // Edax's `go` answer, with spaces.
        let m = parse_annotated("f5 -1.00 0.0", size).unwrap();
        assert_eq!(
            (m.mv, m.eval, m.seconds),
            (Move::Play(f5), Some(-1.0), Some(0.0))
        );
        // An empty evaluation (a forced move) keeps the time in its place.
        let m = parse_annotated("f5//0.5", size).unwrap();
        assert_eq!((m.eval, m.seconds), (None, Some(0.5)));
        for pass in ["PA", "pa", "pass", "--", "PA/0/0"] {
            assert_eq!(parse_annotated(pass, size).unwrap().mv, Move::Pass);
        }
        let e = parse_annotated("Z9/1", size).unwrap_err();
        assert_eq!(e.text, "Z9");
        assert!(e.to_string().contains("\"Z9\""));
        assert!(parse_annotated("", size).is_err());
        assert!(parse_annotated("i1", size).is_err());
    }
}
