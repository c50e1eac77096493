//! WTHOR, the French Othello Federation's game database: `.wtb` games, `.JOU` player names and
//! `.TRN` tournament names; and the `.wtb` files of a folder.
//!
//! All integers are little-endian. A `.wtb` file is a 16-byte header then 68-byte games: u16
//! tournament, u16 black player, u16 white player, u8 Black's disc count, u8 Black's
//! theoretical disc count, then 60 moves as `10 * row + col` (1-based, `a1` = 11, `h8` = 88),
//! 0 once the game has ended. Passes are not stored.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use reversi_core::Square;

const HEADER_LEN: usize = 16;
const GAME_LEN: usize = 68;
const MOVES_PER_GAME: usize = 60;

/// The header of a `.wtb` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// When the file was written: year, month, day.
    pub created: (u16, u8, u8),
    /// The number of games the header announces.
    pub game_count: u32,
    /// The year the games were played.
    pub year: u16,
    /// The depth (empty squares) from which the theoretical scores were computed.
    pub theoretical_depth: u8,
}

/// One game of a `.wtb` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// Index into the tournament names (`.TRN`).
    pub tournament: u16,
    /// Black's index into the player names (`.JOU`).
    pub black: u16,
    /// White's index into the player names (`.JOU`).
    pub white: u16,
    /// Black's disc count at the end, empty squares given to the winner.
    pub black_score: u8,
    /// Black's disc count with perfect play from [`Header::theoretical_depth`] empties.
    pub theoretical_score: u8,
    /// The squares played in order; passes are implied.
    pub moves: Vec<Square>,
}

/// A whole `.wtb` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Database {
    /// The file's header.
    pub header: Header,
    /// The games in file order.
    pub games: Vec<Game>,
}

/// Why a WTHOR file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WthorError {
    /// Shorter than its 16-byte header.
    TooShort {
        /// The file's length in bytes.
        len: usize,
    },
    /// The file's board size is not 8x8 (byte 12 is neither 0 nor 8).
    BoardSize(u8),
    /// The body is not a whole number of 68-byte games, or disagrees with the header's count.
    Length {
        /// The game count in the header.
        announced: u32,
        /// The bytes after the header.
        bytes: usize,
    },
    /// A move byte that is not a square.
    BadMove {
        /// 0-based index of the game in the file.
        game: usize,
        /// 0-based index of the move in the game.
        ply: usize,
        /// The byte found.
        byte: u8,
    },
    /// A move after the 0 that ends a game's moves.
    MoveAfterEnd {
        /// 0-based index of the game in the file.
        game: usize,
        /// 0-based index of the move in the game.
        ply: usize,
    },
    /// A names file whose length is not the header plus whole records.
    NamesLength {
        /// The record length asked for ([`PLAYER_RECORD`] or [`TOURNAMENT_RECORD`]).
        record: usize,
        /// The file's length in bytes.
        bytes: usize,
    },
}

impl fmt::Display for WthorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WthorError::TooShort { len } => {
                write!(f, "{len} bytes is shorter than the 16-byte WTHOR header")
            }
            WthorError::BoardSize(b) => {
                write!(f, "board size byte {b}: only 8x8 WTHOR files are supported")
            }
            WthorError::Length { announced, bytes } => write!(
                f,
                "the header announces {announced} games of 68 bytes but {bytes} bytes follow it"
            ),
            WthorError::BadMove { game, ply, byte } => write!(
                f,
                "game {} move {}: byte {byte} is not a square (11..88)",
                game + 1,
                ply + 1
            ),
            WthorError::MoveAfterEnd { game, ply } => write!(
                f,
                "game {} move {}: a move follows the end of the game",
                game + 1,
                ply + 1
            ),
            WthorError::NamesLength { record, bytes } => write!(
                f,
                "{bytes} bytes is not a 16-byte header plus whole {record}-byte name records"
            ),
        }
    }
}

impl std::error::Error for WthorError {}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

/// Decodes a WTHOR move byte (`10 * row + col`, 1-based) to a square.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Square};
/// use reversi_formats::wthor::{square_from_byte, square_to_byte};
///
/// let f5 = Square::parse("f5", BoardSize::EIGHT)?;
/// assert_eq!(square_from_byte(56), Some(f5));
/// assert_eq!(square_to_byte(f5), 56);
/// assert_eq!(square_from_byte(0), None, "0 ends a game's moves");
/// assert_eq!(square_from_byte(19), None);
/// # Ok::<(), reversi_core::ParseSquareError>(())
/// ```
#[must_use]
pub fn square_from_byte(byte: u8) -> Option<Square> {
    let (row, col) = (byte / 10, byte % 10);
    ((1..=8).contains(&row) && (1..=8).contains(&col)).then(|| Square::new(col - 1, row - 1))
}

/// Encodes a square of an 8x8 board as a WTHOR move byte.
#[must_use]
pub fn square_to_byte(sq: Square) -> u8 {
    10 * (sq.row() + 1) + sq.col() + 1
}

/// Reads a `.wtb` file.
///
/// # Errors
/// [`WthorError`] naming the game and move, or the header field, that is wrong.
///
/// # Examples
/// ```
/// use reversi_formats::wthor::{parse_wtb, WthorError};
///
/// let mut bytes = vec![
///     20, 24, 1, 2, // written 2024-01-02
///     1, 0, 0, 0, // one game
///     0, 0, // unused in .wtb files
///     0xe7, 0x07, // games of 2023
///     8, 0, 24, 0, // 8x8, theoretical scores from 24 empties
/// ];
/// // Tournament 3, Black player 1, White player 2, Black's score 40, theoretical 36.
/// bytes.extend_from_slice(&[3, 0, 1, 0, 2, 0, 40, 36]);
/// let mut moves = [0u8; 60];
/// moves[..3].copy_from_slice(&[56, 64, 33]); // f5 d6 c3
/// bytes.extend_from_slice(&moves);
///
/// let db = parse_wtb(&bytes)?;
/// assert_eq!(db.header.created, (2024, 1, 2));
/// assert_eq!(db.header.year, 2023);
/// let game = &db.games[0];
/// assert_eq!((game.tournament, game.black, game.white), (3, 1, 2));
/// let names: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
/// assert_eq!(names, ["f5", "d6", "c3"]);
///
/// // A header announcing two games over the bytes of one.
/// bytes[4] = 2;
/// assert_eq!(parse_wtb(&bytes), Err(WthorError::Length { announced: 2, bytes: 68 }));
/// # Ok::<(), WthorError>(())
/// ```
pub fn parse_wtb(bytes: &[u8]) -> Result<Database, WthorError> {
    if bytes.len() < HEADER_LEN {
        return Err(WthorError::TooShort { len: bytes.len() });
    }
    let h = &bytes[..HEADER_LEN];
    if h[12] != 0 && h[12] != 8 {
        return Err(WthorError::BoardSize(h[12]));
    }
    let header = Header {
        created: (u16::from(h[0]) * 100 + u16::from(h[1]), h[2], h[3]),
        game_count: u32::from_le_bytes([h[4], h[5], h[6], h[7]]),
        year: u16_at(h, 10),
        theoretical_depth: h[14],
    };
    let body = &bytes[HEADER_LEN..];
    if !body.len().is_multiple_of(GAME_LEN) || body.len() / GAME_LEN != header.game_count as usize {
        return Err(WthorError::Length {
            announced: header.game_count,
            bytes: body.len(),
        });
    }
    let mut games = Vec::with_capacity(body.len() / GAME_LEN);
    for (index, g) in body.chunks_exact(GAME_LEN).enumerate() {
        let mut moves = Vec::with_capacity(MOVES_PER_GAME);
        let mut ended = false;
        for (ply, &byte) in g[8..].iter().enumerate() {
            if byte == 0 {
                ended = true;
            } else if ended {
                return Err(WthorError::MoveAfterEnd { game: index, ply });
            } else {
                let sq = square_from_byte(byte).ok_or(WthorError::BadMove {
                    game: index,
                    ply,
                    byte,
                })?;
                moves.push(sq);
            }
        }
        games.push(Game {
            tournament: u16_at(g, 0),
            black: u16_at(g, 2),
            white: u16_at(g, 4),
            black_score: g[6],
            theoretical_score: g[7],
            moves,
        });
    }
    Ok(Database { header, games })
}

/// Writes a `.wtb` file: the inverse of [`parse_wtb`] for 8x8 games of at most 60 moves.
///
/// The header's game count is written from `db.games`, whatever [`Header::game_count`] says.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Square};
/// use reversi_formats::wthor::{parse_wtb, write_wtb, Database, Game, Header};
///
/// let sq = |name| Square::parse(name, BoardSize::EIGHT);
/// let db = Database {
///     header: Header { created: (2024, 1, 2), game_count: 1, year: 2023, theoretical_depth: 24 },
///     games: vec![Game {
///         tournament: 0,
///         black: 1,
///         white: 2,
///         black_score: 40,
///         theoretical_score: 36,
///         moves: vec![sq("f5")?, sq("d6")?, sq("c3")?],
///     }],
/// };
/// let bytes = write_wtb(&db);
/// assert_eq!(bytes.len(), 16 + 68);
/// assert_eq!(&bytes[16 + 8..16 + 11], &[56, 64, 33]);
/// assert_eq!(parse_wtb(&bytes)?, db);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn write_wtb(db: &Database) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + GAME_LEN * db.games.len());
    let (year, month, day) = db.header.created;
    // Century and year bytes; a year byte past 99 (which the reader takes as it is) keeps
    // every year the reader can give, up to 255 * 100 + 255, written back as it was read.
    let century = u8::try_from(year / 100).unwrap_or(u8::MAX);
    out.push(century);
    out.push(u8::try_from(year - u16::from(century) * 100).unwrap_or(u8::MAX));
    out.push(month);
    out.push(day);
    out.extend_from_slice(&(db.games.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&db.header.year.to_le_bytes());
    out.extend_from_slice(&[8, 0, db.header.theoretical_depth, 0]);
    for g in &db.games {
        out.extend_from_slice(&g.tournament.to_le_bytes());
        out.extend_from_slice(&g.black.to_le_bytes());
        out.extend_from_slice(&g.white.to_le_bytes());
        out.push(g.black_score);
        out.push(g.theoretical_score);
        let mut moves = [0u8; MOVES_PER_GAME];
        for (slot, &sq) in moves.iter_mut().zip(&g.moves) {
            *slot = square_to_byte(sq);
        }
        out.extend_from_slice(&moves);
    }
    out
}

/// Reads a names file: `.JOU` (20-byte player records) or `.TRN` (26-byte tournament
/// records), each NUL-padded after a 16-byte header. Bytes are read as ISO 8859-1.
///
/// # Errors
/// [`WthorError::NamesLength`] when the length is not the header plus whole records.
///
/// # Examples
/// ```
/// use reversi_formats::wthor::{parse_names, WthorError, PLAYER_RECORD};
///
/// let mut jou = vec![0u8; 16];
/// for name in [&b"Dupont Jos\xe9"[..], b"Martin Anne"] {
///     let mut record = [0u8; PLAYER_RECORD];
///     record[..name.len()].copy_from_slice(name);
///     jou.extend_from_slice(&record);
/// }
/// assert_eq!(parse_names(&jou, PLAYER_RECORD)?, ["Dupont José", "Martin Anne"]);
/// assert!(parse_names(&jou[..30], PLAYER_RECORD).is_err());
/// # Ok::<(), WthorError>(())
/// ```
pub fn parse_names(bytes: &[u8], record: usize) -> Result<Vec<String>, WthorError> {
    if bytes.len() < HEADER_LEN || !(bytes.len() - HEADER_LEN).is_multiple_of(record) {
        return Err(WthorError::NamesLength {
            record,
            bytes: bytes.len(),
        });
    }
    Ok(bytes[HEADER_LEN..]
        .chunks_exact(record)
        .map(|r| {
            let end = r.iter().position(|&b| b == 0).unwrap_or(r.len());
            r[..end].iter().map(|&b| char::from(b)).collect::<String>()
        })
        .map(|s| s.trim().to_string())
        .collect())
}

/// Record length of `.JOU` player names.
pub const PLAYER_RECORD: usize = 20;
/// Record length of `.TRN` tournament names.
pub const TOURNAMENT_RECORD: usize = 26;

/// The game files (`*.wtb`, the extension in any case) of the folder `dir`, sorted by name,
/// which puts WTHOR's `WTH_YYYY.wtb` in year order. Entries the system will not list are
/// left out.
///
/// # Errors
/// The folder cannot be read.
///
/// # Examples
/// ```
/// use reversi_formats::wthor::list_files;
///
/// # let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/reference/wthor");
/// let files = list_files(&dir)?;
/// assert!(files.iter().any(|f| f.ends_with("WTH_1990.wtb")));
/// assert!(files.is_sorted());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn list_files(dir: &Path) -> Result<Vec<PathBuf>, io::Error> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_testkit::Rng;

    #[test]
    fn round_trip_and_errors() {
        let db = Database {
            header: Header {
                created: (2024, 1, 2),
                game_count: 1,
                year: 2023,
                theoretical_depth: 24,
            },
            games: vec![Game {
                tournament: 3,
                black: 1,
                white: 2,
                black_score: 40,
                theoretical_score: 36,
                moves: vec![Square::new(5, 4), Square::new(3, 5)],
            }],
        };
        let bytes = write_wtb(&db);
        assert_eq!(bytes.len(), 16 + 68);
        assert_eq!(parse_wtb(&bytes), Ok(db));

        assert_eq!(
            parse_wtb(&bytes[..10]),
            Err(WthorError::TooShort { len: 10 })
        );
        assert!(matches!(
            parse_wtb(&bytes[..80]),
            Err(WthorError::Length { .. })
        ));
        let mut bad = bytes.clone();
        bad[16 + 8 + 2] = 99;
        assert_eq!(
            parse_wtb(&bad),
            Err(WthorError::BadMove {
                game: 0,
                ply: 2,
                byte: 99
            })
        );
        let mut bad = bytes.clone();
        bad[16 + 8 + 5] = 11;
        assert!(matches!(
            parse_wtb(&bad),
            Err(WthorError::MoveAfterEnd { game: 0, ply: 5 })
        ));
        let mut bad = bytes;
        bad[12] = 10;
        assert_eq!(parse_wtb(&bad), Err(WthorError::BoardSize(10)));
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let mut rng = Rng::new(0x1234_5678_9abc_def0);
        for len in 0..400usize {
            let mut bytes = vec![0u8; len];
            for b in &mut bytes {
                *b = rng.next_u64() as u8;
            }
            if len >= 16 {
                bytes[12] = 8;
                let games = ((len - 16) / 68) as u32;
                bytes[4..8].copy_from_slice(&games.to_le_bytes());
            }
            let _ = parse_wtb(&bytes);
            let _ = parse_names(&bytes, PLAYER_RECORD);
        }
    }
}
