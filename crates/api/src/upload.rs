//! An uploaded file of games: GGF (told by the format or by `(;` at its start) or
//! transcripts, one game a line, read into games to import.

use reversi_core::{BoardSize, Position, Rules};
use reversi_formats::{ggf, transcript};
use reversi_game::convert;
use reversi_record::ImportGame;

/// Why an upload was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UploadError {
    /// The request is malformed: an unknown format, size or rule.
    BadRequest(String),
    /// The file does not read: the game and move that does not, or what is wrong.
    Unreadable(String),
}

impl std::fmt::Display for UploadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UploadError::BadRequest(m) | UploadError::Unreadable(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for UploadError {}

/// The games of `text` read as `format` (`auto` when `None`: GGF when it starts with `(;`,
/// else transcripts of `size`/`rules`, 8x8 Othello by default), their source `source`.
///
/// # Errors
/// [`UploadError`] naming what is wrong.
pub fn read_games(
    text: &str,
    format: Option<&str>,
    size: Option<u8>,
    rules: Option<&str>,
    source: &str,
) -> Result<Vec<ImportGame>, UploadError> {
    let bad = UploadError::Unreadable;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let ggf = match format.unwrap_or("auto") {
        "ggf" => true,
        "transcript" => false,
        "auto" => text.trim_start().starts_with("(;"),
        other => {
            return Err(UploadError::BadRequest(format!(
                "unknown import format {other:?}: expected auto, ggf or transcript"
            )))
        }
    };
    if ggf {
        let games = ggf::parse_ggf(text).map_err(|e| bad(format!("not GGF: {e}")))?;
        games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let game = g
                    .game()
                    .map_err(|(ply, e)| bad(format!("game {} move {}: {e}", i + 1, ply + 1)))?;
                Ok(convert::from_ggf(g, &game, source))
            })
            .collect()
    } else {
        let size = BoardSize::new(size.unwrap_or(8))
            .map_err(|e| UploadError::BadRequest(e.to_string()))?;
        let rules: Rules = rules
            .unwrap_or("othello")
            .parse()
            .map_err(|e: reversi_core::ParseRulesError| UploadError::BadRequest(e.to_string()))?;
        let games = transcript::parse_transcript_file(text, &Position::start(size, rules))
            .map_err(|e| bad(e.to_string()))?;
        Ok(games
            .iter()
            .map(|t| convert::from_transcript(t, source))
            .collect())
    }
}
