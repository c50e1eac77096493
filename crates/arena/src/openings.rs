//! A match's openings: the first games of a file of transcripts (XOT's `xot-large.txt`, one
//! opening a line from the 8x8 Othello start).

use std::fmt;
use std::path::{Path, PathBuf};

use reversi_core::{parse_transcript, BoardSize, Game, Position, Rules, TranscriptError};

/// Why a file of openings gave fewer openings than asked, naming the file (and the line).
#[derive(Debug)]
pub enum OpeningsError {
    /// The file could not be read.
    Read(PathBuf, std::io::Error),
    /// A line is not a transcript of legal moves from the start.
    Line {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        error: TranscriptError,
    },
    /// The file holds fewer openings than asked.
    TooFew {
        /// The file.
        path: PathBuf,
        /// The openings it holds.
        found: usize,
        /// The openings asked for.
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

/// The first `count` openings of a file of transcripts (8x8 Othello), as games; blank lines
/// and finished games are skipped.
///
/// # Errors
/// When the file cannot be read, a line is not a transcript, or there are too few openings.
pub fn read_openings(path: &Path, count: usize) -> Result<Vec<Game>, OpeningsError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| OpeningsError::Read(path.to_path_buf(), e))?;
    let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    let mut out = Vec::with_capacity(count);
    for (i, line) in text.lines().enumerate() {
        if out.len() == count {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let game =
            parse_transcript(line.trim(), start.clone()).map_err(|error| OpeningsError::Line {
                path: path.to_path_buf(),
                line: i + 1,
                error,
            })?;
        if !game.is_over() {
            out.push(game);
        }
    }
    if out.len() < count {
        return Err(OpeningsError::TooFew {
            path: path.to_path_buf(),
            found: out.len(),
            needed: count,
        });
    }
    Ok(out)
}
