//! The labelled positions of the training data and the plain data file that holds them: the
//! magic `RVTRAIN1` then one 18-byte record a position, the player's and the opponent's
//! discs (u64 little-endian, side to move first), the label (i8, final disc difference for
//! the side to move) and how it was found ([`Kind`]). Shard files (shard.rs) hold the same
//! records behind a header.
//!
//! # Examples
//! ```
//! use reversi_engine::Board;
//! use reversi_train::{decode_file, encode, Kind, LabelledPosition};
//!
//! let records = [LabelledPosition { board: Board::START, label: 4, kind: Kind::Searched }];
//! let bytes = encode(&records);
//! assert_eq!(&bytes[..8], b"RVTRAIN1");
//! assert_eq!(bytes.len(), 8 + 18);
//! assert_eq!(decode_file(&bytes, "start.bin").unwrap(), records);
//! assert!(decode_file(&bytes[..20], "cut.bin").is_err());
//! ```

use std::fs;
use std::path::{Path, PathBuf};

use reversi_engine::Board;

use crate::error::{Error, FileError, FormatError, Problem};
use crate::fit::linear::Sample;

const MAGIC: &[u8; 8] = b"RVTRAIN1";
/// Bytes of a record.
pub const RECORD: usize = 18;

/// How a label was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Solved exactly by this program.
    Solved = 0,
    /// The game's theoretical score (perfect play from 24 empties): exact for the position
    /// at 24 empties, the best available value before it.
    Theoretical = 1,
    /// The theoretical score at exactly 24 empties, where WTHOR's solve started: exact.
    Exact24 = 2,
    /// A deeper search's value (self-play).
    Searched = 3,
}

impl Kind {
    fn from_byte(b: u8) -> Option<Kind> {
        [
            Kind::Solved,
            Kind::Theoretical,
            Kind::Exact24,
            Kind::Searched,
        ]
        .into_iter()
        .find(|k| *k as u8 == b)
    }

    /// Whether the label is the position's exact value.
    pub fn is_exact(self) -> bool {
        matches!(self, Kind::Solved | Kind::Exact24)
    }
}

/// A labelled position of a data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelledPosition {
    /// The position, side to move first.
    pub board: Board,
    /// The final disc difference for the side to move.
    pub label: i8,
    /// How the label was found.
    pub kind: Kind,
}

impl LabelledPosition {
    /// The record as the fit takes it.
    #[must_use]
    pub fn sample(&self) -> Sample {
        Sample {
            board: self.board,
            label: self.label,
        }
    }
}

/// A plain data file's bytes: the magic, then the records.
#[must_use]
pub fn encode(records: &[LabelledPosition]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + RECORD * records.len());
    out.extend_from_slice(MAGIC);
    encode_records(records, &mut out);
    out
}

/// Appends the records' bytes (as in a data file, without the magic).
pub fn encode_records(records: &[LabelledPosition], out: &mut Vec<u8>) {
    for r in records {
        out.extend_from_slice(&r.board.player.to_le_bytes());
        out.extend_from_slice(&r.board.opponent.to_le_bytes());
        out.push(r.label as u8);
        out.push(r.kind as u8);
    }
}

/// Records from their bytes; `Err(i)` when record `i` is damaged or cut short.
pub fn decode_records(bytes: &[u8]) -> Result<Vec<LabelledPosition>, usize> {
    let whole = bytes.len() / RECORD;
    let mut out = Vec::with_capacity(whole);
    for (i, c) in bytes.chunks(RECORD).enumerate() {
        if c.len() < RECORD {
            return Err(i);
        }
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&c[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let board = Board::new(word(0), word(8));
        let label = c[16] as i8;
        match Kind::from_byte(c[17]) {
            Some(kind) if board.player & board.opponent == 0 && label.abs() <= 64 => {
                out.push(LabelledPosition { board, label, kind });
            }
            _ => return Err(i),
        }
    }
    Ok(out)
}

/// The records of a plain data file's bytes; `name` names it in errors.
///
/// # Errors
/// Not a data file, records cut short or damaged.
pub fn decode_file(bytes: &[u8], name: &str) -> Result<Vec<LabelledPosition>, FormatError> {
    let err = |problem| FormatError {
        file: name.to_string(),
        problem,
    };
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(err(Problem::NotA("training data file")));
    }
    let body = &bytes[8..];
    if !body.len().is_multiple_of(RECORD) {
        return Err(err(Problem::PartRecord(body.len(), RECORD)));
    }
    decode_records(body).map_err(|i| err(Problem::Record(i)))
}

/// The data files of a folder (`.bin` data and shard files, `.games` self-play games):
/// (year or name, path), sorted by name.
///
/// # Errors
/// The folder cannot be read.
pub fn files(dir: &Path) -> Result<Vec<(String, PathBuf)>, Error> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).map_err(FileError::on("reading", dir))? {
        let path = e?.path();
        if path.extension().is_some_and(|x| x == "bin" || x == "games") {
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push((stem, path));
        }
    }
    out.sort();
    Ok(out)
}

/// Rewrites each game's theoretical labels between its last exact solve and its 24-empty
/// position as the mean of the theoretical score and the solved value carried up the game.
///
/// The records of a game are contiguous and end first (empties rising), as `train data`
/// writes them. A theoretical label is the game's value at 24 empties, off by what the moves
/// played since lost; the carried value is the last solve's, off by what the moves played
/// after the position lost. The carried value changes sign with the side to move, seen from
/// the boards: when the same side moves twice in a row (a pass between), its discs of the
/// earlier position are all still its own.
pub fn average_theoretical(records: &mut [LabelledPosition]) {
    let empties = |r: &LabelledPosition| r.board.empties().count_ones();
    let mut start = 0;
    while start < records.len() {
        let mut end = start + 1;
        while end < records.len() && empties(&records[end]) > empties(&records[end - 1]) {
            end += 1;
        }
        let game = &mut records[start..end];
        if let Some(solved) = game.iter().rposition(|r| r.kind == Kind::Solved) {
            let mut carried = i32::from(game[solved].label);
            for m in solved + 1..game.len() {
                if game[m].kind != Kind::Theoretical {
                    break;
                }
                let (later, earlier) = (game[m - 1].board, game[m].board);
                if later.player & earlier.player != earlier.player {
                    carried = -carried;
                }
                let sum = i32::from(game[m].label) + carried;
                game[m].label = (f64::from(sum) / 2.0).round() as i8;
            }
        }
        start = end;
    }
}
