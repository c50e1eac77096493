//! XOT openings: a text file of 8x8 Othello openings (`xot-large.txt`), one transcript a line
//! from the standard start, read in file order. Matches, evaluation duels, self-play, the human
//! scale's level games and the classic algorithms' bench all start from them.

use std::fmt;
use std::io;
use std::ops::{Bound, RangeBounds};
use std::path::{Path, PathBuf};

use reversi_core::{BoardSize, Game, Position, Rules};

use crate::transcript::{is_blank_line, parse_transcript_line, TranscriptLineError};

/// Why a file of openings gave fewer openings than asked, naming the file (and the line).
#[derive(Debug)]
pub enum OpeningsError {
    /// The file could not be read.
    Read(PathBuf, io::Error),
    /// A line is not a transcript of legal moves from the start.
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1 (blank and comment lines counted).
        line: usize,
        /// What is wrong with it.
        error: TranscriptLineError,
    },
    /// The file holds fewer openings than asked.
    TooFew {
        /// The file.
        path: PathBuf,
        /// The openings it holds.
        found: usize,
        /// The openings it needed to hold: the end of the range asked for.
        needed: usize,
    },
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Read(path, _) => {
                write!(f, "cannot read the openings {}", path.display())
            }
            OpeningsError::Line { path, line, .. } => write!(f, "{}:{line}", path.display()),
            OpeningsError::TooFew {
                path,
                found,
                needed,
            } => write!(
                f,
                "{} holds only {found} openings, {needed} needed",
                path.display()
            ),
        }
    }
}

impl std::error::Error for OpeningsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpeningsError::Read(_, e) => Some(e),
            OpeningsError::Line { error, .. } => Some(error),
            OpeningsError::TooFew { .. } => None,
        }
    }
}

/// The openings numbered `range` (from 0, in file order) of the openings file at `path`, as
/// games from the 8x8 Othello start.
///
/// Blank lines, `#` and `%` comments and finished games are not openings and are skipped;
/// a line may number its moves or end with a result, as [`parse_transcript_line`] reads it.
/// Reading stops at the end of the range, so a bad line after it goes unnoticed.
///
/// # Errors
/// [`OpeningsError`] when the file cannot be read, a line up to the range's end is not a
/// transcript, or the file ends before the range does.
///
/// # Examples
/// ```
/// use reversi_formats::xot::read_openings;
///
/// # let path = &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/reference/xot-large.txt");
/// let first_ten = read_openings(path, ..10)?;
/// let next_ten = read_openings(path, 10..20)?;
/// let all = read_openings(path, ..)?;
/// assert_eq!(first_ten[..], all[..10]);
/// assert_eq!(next_ten[..], all[10..20]);
/// # Ok::<(), reversi_formats::xot::OpeningsError>(())
/// ```
pub fn read_openings(
    path: &Path,
    range: impl RangeBounds<usize>,
) -> Result<Vec<Game>, OpeningsError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| OpeningsError::Read(path.to_path_buf(), e))?;
    parse_openings(&text, path, range)
}

/// [`read_openings`] of a file's text already read; `path` names it in errors.
fn parse_openings(
    text: &str,
    path: &Path,
    range: impl RangeBounds<usize>,
) -> Result<Vec<Game>, OpeningsError> {
    let from = match range.start_bound() {
        Bound::Included(&n) => n,
        Bound::Excluded(&n) => n.saturating_add(1),
        Bound::Unbounded => 0,
    };
    let end = match range.end_bound() {
        Bound::Included(&n) => Some(n.saturating_add(1)),
        Bound::Excluded(&n) => Some(n),
        Bound::Unbounded => None,
    };
    let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    let mut found = 0;
    let mut out = Vec::with_capacity(end.map_or(0, |e| e.saturating_sub(from)));
    for (i, line) in text.lines().enumerate() {
        if end.is_some_and(|e| found >= e) {
            break;
        }
        if is_blank_line(line) {
            continue;
        }
        let game = parse_transcript_line(line, start.clone())
            .map_err(|error| OpeningsError::Line {
                path: path.to_path_buf(),
                line: i + 1,
                error,
            })?
            .game;
        if game.is_over() {
            continue;
        }
        if found >= from {
            out.push(game);
        }
        found += 1;
    }
    match end {
        Some(needed) if found < needed => Err(OpeningsError::TooFew {
            path: path.to_path_buf(),
            found,
            needed,
        }),
        _ => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENINGS: &str = "f5d6c4d3c2b3b4b5\n\n# a comment\nf5f4g3g6f3g4e3e2\nf5f6d3c5d6c7b5e3\n";

    fn parse(text: &str, range: impl RangeBounds<usize>) -> Result<Vec<Game>, OpeningsError> {
        parse_openings(text, Path::new("xot.txt"), range)
    }

    fn first_moves(games: &[Game]) -> Vec<String> {
        games
            .iter()
            .map(|g| crate::transcript::write_transcript(g, None)[..4].to_string())
            .collect()
    }

    #[test]
    fn ranges_of_openings_in_file_order() {
        assert_eq!(
            first_moves(&parse(OPENINGS, ..).unwrap()),
            ["f5d6", "f5f4", "f5f6"]
        );
        assert_eq!(
            first_moves(&parse(OPENINGS, ..2).unwrap()),
            ["f5d6", "f5f4"]
        );
        assert_eq!(
            first_moves(&parse(OPENINGS, 1..3).unwrap()),
            ["f5f4", "f5f6"]
        );
        assert_eq!(first_moves(&parse(OPENINGS, 2..).unwrap()), ["f5f6"]);
        assert!(parse(OPENINGS, ..0).unwrap().is_empty());
        assert!(parse("", ..).unwrap().is_empty());
    }

    #[test]
    fn too_few_openings_bad_lines_and_missing_files_are_named() {
        let e = parse(OPENINGS, ..4).unwrap_err();
        assert!(matches!(
            e,
            OpeningsError::TooFew {
                found: 3,
                needed: 4,
                ..
            }
        ));
        assert_eq!(e.to_string(), "xot.txt holds only 3 openings, 4 needed");
        assert!(matches!(
            parse(OPENINGS, 2..5).unwrap_err(),
            OpeningsError::TooFew { needed: 5, .. }
        ));

        let e = parse("f5d6\nf5f5\n", ..2).unwrap_err();
        assert_eq!(e.to_string(), "xot.txt:2");
        assert!(std::error::Error::source(&e).is_some());
        // A bad line after the range is not read.
        assert_eq!(parse("f5d6\nf5f5\n", ..1).unwrap().len(), 1);

        let e = read_openings(Path::new("no such openings.txt"), ..1).unwrap_err();
        assert!(
            e.to_string().starts_with("cannot read the openings "),
            "{e}"
        );
    }

    #[test]
    fn finished_games_are_not_openings() {
        // The shortest game there is: nine moves, Black wipes White out.
        let wipeout = "d3c3b3d2e1d6d7e3f4";
        let games = parse(&format!("{wipeout}\nf5d6\n"), ..).unwrap();
        assert_eq!(first_moves(&games), ["f5d6"]);
    }

    #[test]
    fn the_reference_file_reads_whole() {
        let path = reversi_testkit::data_file("xot-large.txt");
        let all = read_openings(&path, ..).unwrap();
        assert_eq!(all.len(), 10_784);
        assert!(all.iter().all(|g| g.moves().len() == 8));
        assert_eq!(read_openings(&path, 100..110).unwrap()[..], all[100..110]);
    }
}
