//! Transcripts: a game as run-together square names (`f5d6c3d3c4`), passes as `PA` or `--`.

use std::fmt;

use crate::{Game, IllegalMove, Move, ParseSquareError, Position};

/// Why a transcript could not be read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptError {
    /// 1-based number of the offending move, counting passes.
    pub move_number: usize,
    /// The text of the offending move.
    pub text: String,
    /// Why the move was refused.
    pub kind: TranscriptErrorKind,
}

/// Why a transcript's move was refused: a name that is not a square, or a square that is not
/// legal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TranscriptErrorKind {
    /// The text is not a square name or a pass.
    BadSquare(ParseSquareError),
    /// The move is not legal in the position reached.
    Illegal(IllegalMove),
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ({:?}): ", self.move_number, self.text)?;
        match &self.kind {
            TranscriptErrorKind::BadSquare(e) => e.fmt(f),
            TranscriptErrorKind::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TranscriptError {}

/// Splits a transcript into move tokens: a letter with its digits, `PA`, or `--`. Whitespace
/// between moves is skipped. Anything else becomes a token of its own, reported as malformed.
fn tokens(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let pair = bytes.get(i..i + 2);
        if pair == Some(b"--") || pair.is_some_and(|p| p.eq_ignore_ascii_case(b"pa")) {
            i += 2;
        } else if b.is_ascii_alphabetic() {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() && i - start <= 2 {
                i += 1;
            }
        } else {
            // One whole character, so a multi-byte character is never split.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
        out.push(&text[start..i]);
    }
    out
}

fn is_pass(token: &str) -> bool {
    token == "--" || token.eq_ignore_ascii_case("pa")
}

/// Reads a transcript played from `start`. Case-insensitive; whitespace between moves is
/// allowed; passes may be written (`PA` or `--`) or left out, in which case they are implied
/// where the side to move has no legal move.
///
/// # Errors
/// [`TranscriptError`] naming the first bad move, its number and why.
///
/// # Examples
/// ```
/// use reversi_core::{parse_transcript, BoardSize, Color, Position, Rules, TranscriptErrorKind};
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let game = parse_transcript("F5d6 c3D3c4", start.clone())?;
/// assert_eq!(game.moves().len(), 5);
/// assert_eq!(game.current().turn(), Color::White);
///
/// // The third move, a1, flanks nothing.
/// let err = parse_transcript("f5d6a1", start).unwrap_err();
/// assert_eq!((err.move_number, err.text.as_str()), (3, "a1"));
/// assert!(matches!(err.kind, TranscriptErrorKind::Illegal(_)));
/// assert_eq!(err.to_string(), "move 3 (\"a1\"): a1 flips no disc");
/// # Ok::<(), reversi_core::TranscriptError>(())
/// ```
pub fn parse_transcript(text: &str, start: Position) -> Result<Game, TranscriptError> {
    let mut game = Game::new(start);
    for token in tokens(text) {
        let number = game.moves().len() + 1;
        let err = |kind| TranscriptError {
            move_number: number,
            text: token.to_string(),
            kind,
        };
        if is_pass(token) {
            game.play(Move::Pass)
                .map_err(|e| err(TranscriptErrorKind::Illegal(e)))?;
            continue;
        }
        let sq = game
            .current()
            .parse_square(token)
            .map_err(|e| err(TranscriptErrorKind::BadSquare(e)))?;
        if game.current().must_pass() {
            game.play(Move::Pass)
                .map_err(|e| err(TranscriptErrorKind::Illegal(e)))?;
        }
        let number = game.moves().len() + 1;
        game.play(Move::Play(sq)).map_err(|e| TranscriptError {
            move_number: number,
            text: token.to_string(),
            kind: TranscriptErrorKind::Illegal(e),
        })?;
    }
    Ok(game)
}

/// Writes moves as a transcript: lower-case square names run together, passes as `PA` when
/// `with_passes`, left out otherwise.
///
/// Without passes the text is what most Othello programs read; [`parse_transcript`] puts the
/// passes back where the side to move has no legal move.
///
/// # Examples
/// ```
/// use reversi_core::{format_transcript, parse_transcript, BoardSize, Move, Position, Rules};
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let game = parse_transcript("F5 D6 C3", start)?;
/// assert_eq!(format_transcript(game.moves(), true), "f5d6c3");
/// assert_eq!(format_transcript(&[Move::Pass], true), "PA");
/// assert_eq!(format_transcript(&[Move::Pass], false), "");
/// # Ok::<(), reversi_core::TranscriptError>(())
/// ```
#[must_use]
pub fn format_transcript(moves: &[Move], with_passes: bool) -> String {
    let mut out = String::with_capacity(moves.len() * 2);
    for mv in moves {
        match mv {
            Move::Play(sq) => out.push_str(&sq.to_string()),
            Move::Pass if with_passes => out.push_str("PA"),
            Move::Pass => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardSize, Rules};

    fn start8() -> Position {
        Position::start(BoardSize::EIGHT, Rules::Othello)
    }

    #[test]
    fn reads_and_writes_a_transcript() {
        let game = parse_transcript("F5d6C3 d3c4", start8()).unwrap();
        assert_eq!(game.moves().len(), 5);
        assert_eq!(format_transcript(game.moves(), true), "f5d6c3d3c4");
    }

    #[test]
    fn first_bad_move_is_named() {
        let err = parse_transcript("f5d6a1", start8()).unwrap_err();
        assert_eq!(err.move_number, 3);
        assert_eq!(err.text, "a1");
        assert!(matches!(
            err.kind,
            TranscriptErrorKind::Illegal(IllegalMove::NoFlips(_))
        ));
        assert_eq!(err.to_string(), "move 3 (\"a1\"): a1 flips no disc");

        let err = parse_transcript("f5z9", start8()).unwrap_err();
        assert_eq!(err.move_number, 2);
        assert!(matches!(err.kind, TranscriptErrorKind::BadSquare(_)));

        let err = parse_transcript("f5d6 x! ", start8()).unwrap_err();
        assert_eq!(err.move_number, 3);

        let err = parse_transcript("f5PA", start8()).unwrap_err();
        assert!(matches!(
            err.kind,
            TranscriptErrorKind::Illegal(IllegalMove::PassWithMoves(_))
        ));
        assert!(parse_transcript("f5d5", start8()).is_err());
        assert!(parse_transcript("é", start8()).is_err());
    }

    #[test]
    fn two_digit_rows() {
        let size = BoardSize::new(10).unwrap();
        let start = Position::start(size, Rules::Othello);
        let first = start.legal_moves()[0];
        let game = parse_transcript(&first.to_string(), start.clone()).unwrap();
        assert_eq!(game.moves(), &[Move::Play(first)]);
        // e4 on 10x10 is not legal, and "a10" parses as a square, not "a1" then "0".
        let err = parse_transcript("a10", start).unwrap_err();
        assert_eq!(err.text, "a10");
    }
}
