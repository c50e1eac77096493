//! Transcript files: one game a line, read leniently (move numbers, spaces, any case, `PA`/`--`
//! passes, a trailing result such as `32-32` or `B+4`) and written in the plain run-together
//! form that every Othello program reads.

use std::fmt;

use reversi_core::{
    format_transcript, parse_transcript, Game, Move, Position, Score, TranscriptError,
};

/// A result written after a transcript's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeclaredResult {
    /// Disc counts, Black's first: `33-31`.
    Score(Score),
    /// Black's disc count minus White's: `B+4` is `4`, `W+2` is `-2`, `draw` is `0`.
    Margin(i32),
}

impl fmt::Display for DeclaredResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DeclaredResult::Score(s) => write!(f, "{}-{}", s.black, s.white),
            DeclaredResult::Margin(0) => f.write_str("draw"),
            DeclaredResult::Margin(m) if m > 0 => write!(f, "B+{m}"),
            DeclaredResult::Margin(m) => write!(f, "W+{}", m.unsigned_abs()),
        }
    }
}

/// One game read from a transcript line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptGame {
    /// The moves replayed from the start position, passes included where implied.
    pub game: Game,
    /// The result written after the moves, if any.
    pub result: Option<DeclaredResult>,
}

/// Why a transcript line could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TranscriptLineError {
    /// A move is malformed or illegal.
    Move(TranscriptError),
    /// Text follows the result.
    AfterResult(String),
}

impl fmt::Display for TranscriptLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptLineError::Move(e) => e.fmt(f),
            TranscriptLineError::AfterResult(t) => {
                write!(f, "{t:?} follows the result: a result ends the game")
            }
        }
    }
}

impl std::error::Error for TranscriptLineError {}

/// A transcript file's bad line: its 1-based number and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptFileError {
    /// 1-based line number in the file, blank and comment lines counted.
    pub line: usize,
    /// What is wrong with that line.
    pub error: TranscriptLineError,
}

impl fmt::Display for TranscriptFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.error)
    }
}

impl std::error::Error for TranscriptFileError {}

/// Reads a result word: `33-31`, `B+4`, `W+2`, `+4`, `-2`, `draw`, `B+4.00`.
fn parse_result(word: &str) -> Option<DeclaredResult> {
    let w = word.trim_end_matches(['.', ',', ';']);
    if w.eq_ignore_ascii_case("draw") || w == "=" || w == "½-½" {
        return Some(DeclaredResult::Margin(0));
    }
    if let Some((b, wh)) = w.split_once('-') {
        if let (Ok(black), Ok(white)) = (b.parse::<u16>(), wh.parse::<u16>()) {
            return Some(DeclaredResult::Score(Score { black, white }));
        }
    }
    let (sign, rest) = match w.as_bytes().first()? {
        b'B' | b'b' => (1, w.get(1..)?.strip_prefix('+')?),
        b'W' | b'w' => (-1, w.get(1..)?.strip_prefix('+')?),
        b'+' => (1, w.get(1..)?),
        b'-' => (-1, w.get(1..)?),
        _ => return None,
    };
    let digits = rest.split_once('.').map_or(rest, |(int, frac)| {
        if frac.bytes().all(|b| b == b'0') {
            int
        } else {
            ""
        }
    });
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits
        .parse::<i32>()
        .ok()
        .map(|m| DeclaredResult::Margin(sign * m))
}

/// Strips a move number (`12.`, `12...`) from the front of `word`.
fn strip_move_number(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return word;
    }
    let rest = &word[digits..];
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    if dots == 0 {
        word
    } else {
        &rest[dots..]
    }
}

/// Reads one game from a transcript line played from `start`.
///
/// Besides what [`parse_transcript`] reads, a line may number its moves (`1. f5 d6 2. c3`) and
/// end with a result (`33-31`, `B+4`, `W+2`, `draw`).
///
/// # Errors
/// [`TranscriptLineError`] naming the first bad move, or text after the result.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Position, Rules};
/// use reversi_formats::transcript::{parse_transcript_line, DeclaredResult, TranscriptLineError};
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let t = parse_transcript_line("1. f5 d6 2. c3 d3 3. c4 B+4", start.clone())?;
/// assert_eq!(t.game.moves().len(), 5);
/// assert_eq!(t.result, Some(DeclaredResult::Margin(4)));
///
/// // A result ends the line.
/// let err = parse_transcript_line("f5 d6 B+4 c3", start).unwrap_err();
/// assert_eq!(err, TranscriptLineError::AfterResult("c3".into()));
/// # Ok::<(), TranscriptLineError>(())
/// ```
pub fn parse_transcript_line(
    line: &str,
    start: Position,
) -> Result<TranscriptGame, TranscriptLineError> {
    let mut moves = String::with_capacity(line.len());
    let mut result = None;
    for word in line.split_whitespace() {
        if result.is_some() {
            return Err(TranscriptLineError::AfterResult(word.to_string()));
        }
        // A pass written `--` is a move, never a result.
        if word != "--" {
            if let Some(r) = parse_result(word) {
                result = Some(r);
                continue;
            }
        }
        moves.push_str(strip_move_number(word));
        moves.push(' ');
    }
    let game = parse_transcript(&moves, start).map_err(TranscriptLineError::Move)?;
    Ok(TranscriptGame { game, result })
}

/// Whether a line holds no game: blank, or a comment starting with `#` or `%`.
#[must_use]
pub fn is_blank_line(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#') || t.starts_with('%')
}

/// Reads a transcript file: one game a line from `start`; blank lines and `#` comments are
/// skipped.
///
/// # Errors
/// [`TranscriptFileError`] naming the first bad line.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Position, Rules};
/// use reversi_formats::transcript::parse_transcript_file;
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let text = "# two openings\nf5d6c3d3c4\n\nf5f6e6f4 33-31\n";
/// let games = parse_transcript_file(text, &start)?;
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[1].game.moves().len(), 4);
///
/// let err = parse_transcript_file("f5d6\nf5 z9\n", &start).unwrap_err();
/// assert_eq!(err.line, 2);
/// # Ok::<(), reversi_formats::transcript::TranscriptFileError>(())
/// ```
pub fn parse_transcript_file(
    text: &str,
    start: &Position,
) -> Result<Vec<TranscriptGame>, TranscriptFileError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !is_blank_line(l))
        .map(|(i, l)| {
            parse_transcript_line(l, start.clone())
                .map_err(|error| TranscriptFileError { line: i + 1, error })
        })
        .collect()
}

/// Writes a game as a transcript line: lower-case square names run together (`a10` where the
/// board has ten rows or more), passes left out since a reader infers them (except a pass
/// that ends an unfinished game, written `PA`, which nothing after it would imply), then the
/// result if given, after a space.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Position, Rules, Score};
/// use reversi_formats::transcript::{parse_transcript_line, write_transcript, DeclaredResult};
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let t = parse_transcript_line("1. F5 D6 2. C3", start)?;
/// assert_eq!(write_transcript(&t.game, None), "f5d6c3");
/// let result = DeclaredResult::Score(Score { black: 33, white: 31 });
/// assert_eq!(write_transcript(&t.game, Some(result)), "f5d6c3 33-31");
/// assert_eq!(DeclaredResult::Margin(-2).to_string(), "W+2");
/// # Ok::<(), reversi_formats::transcript::TranscriptLineError>(())
/// ```
#[must_use]
pub fn write_transcript(game: &Game, result: Option<DeclaredResult>) -> String {
    let mut out = format_transcript(game.moves(), false);
    if game.moves().last() == Some(&Move::Pass) {
        out.push_str("PA");
    }
    if let Some(r) = result {
        out.push(' ');
        out.push_str(&r.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{BoardSize, Rules};
    use reversi_testkit::Rng;

    fn start8() -> Position {
        Position::start(BoardSize::EIGHT, Rules::Othello)
    }

    #[test]
    fn numbered_moves_and_results() {
        let t = parse_transcript_line("1. F5 d6 2. c3 D3 3.c4", start8()).unwrap();
        assert_eq!(write_transcript(&t.game, None), "f5d6c3d3c4");
        assert_eq!(t.result, None);

        let t = parse_transcript_line("f5 d6 c3 32-32", start8()).unwrap();
        assert_eq!(t.game.moves().len(), 3);
        assert_eq!(
            t.result,
            Some(DeclaredResult::Score(Score {
                black: 32,
                white: 32
            }))
        );
        let t = parse_transcript_line("f5d6 B+4", start8()).unwrap();
        assert_eq!(t.result, Some(DeclaredResult::Margin(4)));
        let t = parse_transcript_line("f5d6 W+2.00", start8()).unwrap();
        assert_eq!(t.result, Some(DeclaredResult::Margin(-2)));
        assert_eq!(
            write_transcript(&t.game, t.result),
            "f5d6 W+2",
            "results are written back"
        );
        let t = parse_transcript_line("", start8()).unwrap();
        assert!(t.game.moves().is_empty());
    }

    #[test]
    fn passes_and_errors() {
        // A random 4x4 game to its end, with a pass in it.
        let start = Position::start(BoardSize::FOUR, Rules::Othello);
        let mut game = Game::new(start.clone());
        let mut rng = Rng::new(7);
        while !game.is_over() {
            game.play(*rng.pick(&game.current().moves())).unwrap();
        }
        assert!(game.moves().contains(&Move::Pass), "{:?}", game.moves());
        let written = write_transcript(&game, None);
        let with_passes = format_transcript(game.moves(), true).replace("PA", " -- ");
        assert_eq!(
            parse_transcript_line(&with_passes, start.clone())
                .unwrap()
                .game,
            game
        );
        assert_eq!(parse_transcript_line(&written, start).unwrap().game, game);

        let err = parse_transcript_line("f5 d6 a1", start8()).unwrap_err();
        assert_eq!(err.to_string(), "move 3 (\"a1\"): a1 flips no disc");
        let err = parse_transcript_line("f5 B+4 d6", start8()).unwrap_err();
        assert_eq!(err, TranscriptLineError::AfterResult("d6".into()));
        let err = parse_transcript_file("f5d6\n\n# note\nf5 zz\n", &start8()).unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.to_string().starts_with("line 4: move 2"), "{err}");
        let games = parse_transcript_file("f5d6\n\n# note\nf5f6 e6\n", &start8()).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].game.moves()[2], Move::Play(Square::new(4, 5)));
    }

    use reversi_core::Square;
}
