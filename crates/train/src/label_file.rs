//! A deep label file (`selfplay-N.labels` or `WTH_YYYY.labels`, made by `reversi train
//! deep`, deep.rs): its header and label lines, and reading it, checked against the games
//! file it was made for.
//! Its own module so that the readers of the data (data.rs, games.rs) need not depend on the
//! labelling job.

use std::path::Path;

use reversi_engine::pattern::crc32;

use crate::error::{Error, FileError};

/// The first line of a label file, before its options.
pub(crate) const MAGIC: &str = "# reversi deep labels 1:";

/// One label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeepLabel {
    /// The game's number in its run.
    pub game: usize,
    /// Moves before the position (passes not counted).
    pub ply: usize,
    /// The value for the side to move.
    pub score: i32,
    /// Whether the value is an exact solve.
    pub exact: bool,
}

impl DeepLabel {
    /// The label as a line of the file.
    pub(crate) fn line(&self) -> String {
        format!(
            "{} {} {} {}",
            self.game,
            self.ply,
            self.score,
            if self.exact { 'e' } else { 's' }
        )
    }

    /// A label line as [`DeepLabel::line`] writes it.
    pub(crate) fn parse(line: &str) -> Option<DeepLabel> {
        let mut parts = line.split_ascii_whitespace();
        let label = DeepLabel {
            game: parts.next()?.parse().ok()?,
            ply: parts.next()?.parse().ok()?,
            score: parts.next()?.parse().ok()?,
            exact: match parts.next()? {
                "e" => true,
                "s" => false,
                _ => return None,
            },
        };
        parts.next().is_none().then_some(label)
    }
}

/// The labels of a label file.
///
/// # Errors
/// A file that cannot be read or is not a label file.
pub fn read_labels(path: &Path) -> Result<Vec<DeepLabel>, Error> {
    read_labels_checked(path, None)
}

/// The labels of a label file made for the games file of bytes `games` (its header names
/// the games file's CRC-32).
///
/// # Errors
/// A file that cannot be read, is not a label file, or was made for other games.
pub fn read_labels_for(path: &Path, games: &[u8]) -> Result<Vec<DeepLabel>, Error> {
    read_labels_checked(path, Some(games_crc(games)))
}

/// What a label file's header names its games file by: the CRC-32 of the file's content,
/// the one it ends with. (Not the CRC-32 of the whole file: a message followed by its own
/// CRC-32 always has the same one, 2144df1c, which is what the first label files named.)
pub(crate) fn games_crc(bytes: &[u8]) -> u32 {
    crc32(&bytes[..bytes.len().saturating_sub(4)])
}

/// The labels of a label file made for the WTHOR file of bytes `wthor` (its header names
/// the CRC-32 of the whole file).
///
/// # Errors
/// A file that cannot be read, is not a label file, or was made for another file.
pub fn read_labels_for_wthor(path: &Path, wthor: &[u8]) -> Result<Vec<DeepLabel>, Error> {
    read_labels_checked(path, Some(wthor_crc(wthor)))
}

/// What a label file's header names a WTHOR file by: the CRC-32 of the whole file (WTHOR
/// files carry none of their own).
pub(crate) fn wthor_crc(bytes: &[u8]) -> u32 {
    crc32(bytes)
}

fn read_labels_checked(path: &Path, games_crc: Option<u32>) -> Result<Vec<DeepLabel>, Error> {
    let text = std::fs::read_to_string(path).map_err(FileError::on("reading", path))?;
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    if !header.starts_with(MAGIC) {
        return Err(Error::DeepLabels(
            path.to_path_buf(),
            "not a label file".into(),
        ));
    }
    if let Some(crc) = games_crc {
        let named = header
            .split_ascii_whitespace()
            .find_map(|w| w.strip_prefix("crc32:"))
            .and_then(|h| u32::from_str_radix(h, 16).ok());
        if named != Some(crc) {
            return Err(Error::DeepLabels(
                path.to_path_buf(),
                format!(
                    "made for other games: its header names {}, the games file beside it has crc32:{crc:08x}",
                    named.map_or("no crc32".to_string(), |c| format!("crc32:{c:08x}"))
                ),
            ));
        }
    }
    lines
        .enumerate()
        .map(|(i, line)| {
            DeepLabel::parse(line).ok_or_else(|| {
                Error::DeepLabels(path.to_path_buf(), format!("line {}: {line:?}", i + 2))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_lines_read_back() {
        for l in [
            DeepLabel {
                game: 0,
                ply: 31,
                score: -4,
                exact: false,
            },
            DeepLabel {
                game: 499,
                ply: 40,
                score: 64,
                exact: true,
            },
        ] {
            assert_eq!(DeepLabel::parse(&l.line()), Some(l));
        }
        assert_eq!(DeepLabel::parse("1 2 3"), None);
        assert_eq!(DeepLabel::parse("1 2 3 x"), None);
        assert_eq!(DeepLabel::parse("1 2 3 e 4"), None);
    }
}
