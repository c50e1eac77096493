//! Edax's opening book file (`book.dat` of Edax 4.x), read and written byte for byte, with
//! every field Edax keeps; [`Book::from_edax`](super::Book::from_edax) and
//! [`Book::to_edax`](super::Book::to_edax) turn it into this program's book and back.
//!
//! # Layout
//!
//! As Edax's `src/book.c` (`book_save`, `position_write`, `link_write`) and `src/book.h`
//! (`struct Book`) write it with a C compiler's native layout on a little-endian machine:
//! integers little-endian, a 42-byte header, then the positions one after another with no
//! padding between fields (Edax writes a position field by field).
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 4 | `u32` 0x45444158 ("EDAX"), the bytes `XADE` |
//! | 4 | 4 | `u32` 0x424F4F4B ("BOOK"), the bytes `KOOB` |
//! | 8 | 1 | version: 4 (Edax refuses any other) |
//! | 9 | 1 | release (4 for Edax 4.4, 5 for 4.5; not checked) |
//! | 10 | 8 | date saved: `i16` year, then month, day, hour, minute, second (a byte each) and one byte of C struct padding |
//! | 18 | 20 | options, five `i32`: level new positions are searched at, fewest empties to grow the book to, midgame error, endgame-cut error, verbosity |
//! | 38 | 4 | `i32` number of positions |
//!
//! A position is 42 bytes plus 2 a link:
//!
//! | offset | size | field |
//! |-------:|-----:|-------|
//! | 0 | 8 | `u64` discs of the side to move (bit 0 `a1`, bit 1 `b1`, …, bit 63 `h8`) |
//! | 8 | 8 | `u64` discs of the other side |
//! | 16 | 16 | four `u32`: wins, draws, losses (of the exactly solved lines below) and lines (leaves below) |
//! | 32 | 6 | three `i16`: the value and its lower and upper bounds, for the side to move |
//! | 38 | 1 | `u8` number of links |
//! | 39 | 1 | `u8` level of the leaf's search (0 to 60) |
//! | 40 | 2n | the links: each an `i8` score and a `u8` move, a move into another book position |
//! | 40+2n | 2 | the leaf: the best move out of the book, an `i8` score and a `u8` move |
//!
//! A move is a square 0–63 as above, 64 a pass, 65 none (a leaf with no move scores −127).
//! Edax stores a position in the orientation whose `(player, opponent)` pair is the least of
//! its 8 symmetric images, as this program's book keys it ([`Key`](super::Key)).
//!
//! # Examples
//! ```
//! use reversi_engine::book::edax::{EdaxBook, EdaxDate};
//! use reversi_engine::book::{Book, SHIPPED};
//!
//! let book = Book::from_bytes(SHIPPED).unwrap();
//! let bytes = book.to_edax(EdaxDate::from_unix_seconds(0)).to_bytes();
//! assert_eq!(&bytes[..8], b"XADEKOOB");
//! let edax = EdaxBook::from_bytes(&bytes).unwrap();
//! assert_eq!(edax.to_bytes(), bytes);
//! assert_eq!(Book::from_edax(&edax).unwrap().len(), book.len());
//! ```

mod convert;
mod level;
#[cfg(test)]
mod tests;

use std::fmt;

/// The first 8 bytes of an Edax book: "EDAX" and "BOOK" as little-endian `u32`s.
pub const MAGIC: &[u8; 8] = b"XADEKOOB";
/// The only format version Edax 4.x reads.
pub const VERSION: u8 = 4;
/// The release this program writes (Edax 4.4's).
pub const RELEASE: u8 = 4;
/// The header's length in bytes.
pub const HEADER_LEN: usize = 42;
/// A position's length in bytes before its links.
const POSITION_FIXED: usize = 40;
/// The move of a pass.
pub const PASS: u8 = 64;
/// The move of a leaf that has none.
pub const NO_MOVE: u8 = 65;
/// Edax's "no score": the score of a leaf with no move, the value of a position nothing values.
pub const SCORE_INF: i16 = 127;
/// The highest level Edax knows (its tables stop there).
pub const MAX_LEVEL: u8 = 60;
/// The centre squares d4, e4, d5, e5, which every position of a game has filled.
const CENTRE: u64 = (1 << 27) | (1 << 28) | (1 << 35) | (1 << 36);

/// When the book was saved, as Edax keeps it (Edax writes local time; this program UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EdaxDate {
    /// The year, e.g. 2024.
    pub year: i16,
    /// 1–12.
    pub month: u8,
    /// 1–31.
    pub day: u8,
    /// 0–23.
    pub hour: u8,
    /// 0–59.
    pub minute: u8,
    /// 0–59.
    pub second: u8,
    /// The byte the C compiler's alignment leaves after the date; Edax writes whatever its
    /// memory held there. Kept so that a file reads and writes back byte for byte.
    pub padding: u8,
}

impl EdaxDate {
    /// The UTC date and time `secs` seconds after 1970-01-01 00:00:00.
    #[must_use]
    pub fn from_unix_seconds(secs: u64) -> EdaxDate {
        let days = (secs / 86_400) as i64;
        let rem = secs % 86_400;
        // Days to a proleptic Gregorian date, counting 400-year eras from 0000-03-01 so that
        // the leap day ends each era's year.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let day_of_era = z - era * 146_097;
        let year_of_era =
            (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let month_from_march = (5 * day_of_year + 2) / 153;
        let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
        let month = if month_from_march < 10 {
            month_from_march + 3
        } else {
            month_from_march - 9
        };
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        EdaxDate {
            year: i16::try_from(year).unwrap_or(i16::MAX),
            month: month as u8,
            day: day as u8,
            hour: (rem / 3_600) as u8,
            minute: (rem / 60 % 60) as u8,
            second: (rem % 60) as u8,
            padding: 0,
        }
    }
}

impl fmt::Display for EdaxDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

/// The header of an Edax book (the version is always [`VERSION`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdaxHeader {
    /// The release of Edax 4 that wrote it.
    pub release: u8,
    /// When it was saved.
    pub date: EdaxDate,
    /// The level Edax searches new positions at.
    pub level: i32,
    /// The fewest empty squares Edax grows the book to.
    pub empties: i32,
    /// The error Edax allows a midgame search when it bounds a value, in discs.
    pub midgame_error: i32,
    /// The error Edax allows a selective endgame search, in discs.
    pub endcut_error: i32,
    /// A verbosity option Edax saves with the book and does not use.
    pub verbosity: i32,
    /// The number of positions, as the header says.
    pub count: i32,
}

/// A move with its score, as Edax stores links and leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EdaxLink {
    /// The score of the move for the side to move, in discs.
    pub score: i8,
    /// A square 0–63, [`PASS`] or [`NO_MOVE`].
    pub mv: u8,
}

impl EdaxLink {
    /// Edax's leaf with no move.
    pub const NONE: EdaxLink = EdaxLink {
        score: -(SCORE_INF as i8),
        mv: NO_MOVE,
    };
}

/// One position of an Edax book, every field as Edax keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdaxPosition {
    /// The discs of the side to move.
    pub player: u64,
    /// The discs of the other side.
    pub opponent: u64,
    /// Exactly solved lines below won for the side to move.
    pub wins: u32,
    /// Exactly solved lines below drawn.
    pub draws: u32,
    /// Exactly solved lines below lost.
    pub losses: u32,
    /// Leaves below (lines that leave the book).
    pub lines: u32,
    /// The value for the side to move ([`SCORE_INF`] negated when nothing values it).
    pub value: i16,
    /// The value's lower bound.
    pub lower: i16,
    /// The value's upper bound.
    pub upper: i16,
    /// The level of the leaf's search, 0–60.
    pub level: u8,
    /// The moves into other positions of the book (at most 255).
    pub links: Vec<EdaxLink>,
    /// The best move out of the book, or [`EdaxLink::NONE`].
    pub leaf: EdaxLink,
}

impl EdaxPosition {
    /// Its length in the file.
    #[must_use]
    pub fn len_bytes(&self) -> usize {
        POSITION_FIXED + 2 * self.links.len().min(255) + 2
    }
}

/// An Edax book: its header and its positions in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdaxBook {
    /// The header.
    pub header: EdaxHeader,
    /// The positions.
    pub positions: Vec<EdaxPosition>,
}

/// What is wrong with one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionProblem {
    /// The file ends inside it.
    Truncated,
    /// A square holds discs of both sides.
    Overlap,
    /// A centre square is empty, which no game allows.
    EmptyCenter,
    /// A level above 60.
    Level(u8),
    /// A link's move is no square (nor a pass).
    LinkOutOfRange(u8),
    /// The leaf's move is no square, pass or "none".
    LeafOutOfRange(u8),
    /// A link on a square the side to move cannot play.
    IllegalLink(u8),
    /// A leaf on a square the side to move cannot play.
    IllegalLeaf(u8),
    /// A move linked twice, or both linked and the leaf.
    DuplicateMove(u8),
    /// A pass where the side to move has moves, the game is over, or beside other moves.
    MisplacedPass,
    /// A leaf's score outside −64..=64.
    LeafScore(i8),
}

fn square_name(sq: u8) -> String {
    format!("{}{}", char::from(b'a' + sq % 8), sq / 8 + 1)
}

impl fmt::Display for PositionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PositionProblem::Truncated => f.write_str("the file ends inside it (truncated)"),
            PositionProblem::Overlap => {
                f.write_str("impossible board: both sides have a disc on one square (overlap)")
            }
            PositionProblem::EmptyCenter => {
                f.write_str("impossible board: a centre square is empty")
            }
            PositionProblem::Level(l) => write!(f, "level {l} is above Edax's highest, 60"),
            PositionProblem::LinkOutOfRange(m) => {
                write!(
                    f,
                    "a link's move {m} is out of range (0-63 or 64 for a pass)"
                )
            }
            PositionProblem::LeafOutOfRange(m) => write!(
                f,
                "the leaf's move {m} is out of range (0-63, 64 for a pass, 65 for none)"
            ),
            PositionProblem::IllegalLink(sq) => {
                write!(
                    f,
                    "a link plays {}, which is not a legal move",
                    square_name(sq)
                )
            }
            PositionProblem::IllegalLeaf(sq) => {
                write!(
                    f,
                    "the leaf plays {}, which is not a legal move",
                    square_name(sq)
                )
            }
            PositionProblem::DuplicateMove(sq) => {
                write!(f, "the move {} is given twice", square_name(sq))
            }
            PositionProblem::MisplacedPass => {
                f.write_str("a pass where the side to move has moves or the game is over")
            }
            PositionProblem::LeafScore(s) => {
                write!(f, "the leaf's score {s} is outside -64..=64")
            }
        }
    }
}

/// Why an Edax book was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EdaxBookError {
    /// Shorter than the 42-byte header.
    TruncatedHeader {
        /// The file's length.
        len: usize,
    },
    /// Does not start with `XADEKOOB`: not an Edax book (or one from a big-endian machine).
    BadMagic,
    /// A format version Edax 4 does not read.
    Version {
        /// The version byte.
        version: u8,
        /// The release byte.
        release: u8,
    },
    /// The header's count of positions is negative.
    BadCount(i32),
    /// The file ends after fewer positions than its header announces.
    MissingPositions {
        /// The header's count.
        announced: usize,
        /// The positions the file holds.
        found: usize,
    },
    /// A position Edax would not accept.
    Position {
        /// Its index in the file, from 0.
        index: usize,
        /// Its byte offset in the file.
        offset: usize,
        /// What is wrong with it.
        problem: PositionProblem,
    },
}

impl fmt::Display for EdaxBookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EdaxBookError::TruncatedHeader { len } => write!(
                f,
                "Edax book truncated: {len} bytes, shorter than its {HEADER_LEN}-byte header"
            ),
            EdaxBookError::BadMagic => {
                f.write_str("not an Edax book (it does not start with Edax's XADEKOOB)")
            }
            EdaxBookError::Version { version, release } => write!(
                f,
                "Edax book version {version}.{release} is not supported (Edax 4 writes version \
                 {VERSION})"
            ),
            EdaxBookError::BadCount(n) => {
                write!(f, "Edax book damaged: its header counts {n} positions")
            }
            EdaxBookError::MissingPositions { announced, found } => write!(
                f,
                "Edax book truncated: its header announces {announced} positions, the file \
                 holds {found}"
            ),
            EdaxBookError::Position {
                index,
                offset,
                problem,
            } => write!(f, "Edax book position {index} (byte {offset}): {problem}"),
        }
    }
}

impl std::error::Error for EdaxBookError {}

/// Reads the file front to back.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let end = self.at.checked_add(N)?;
        let mut out = [0; N];
        out.copy_from_slice(self.bytes.get(self.at..end)?);
        self.at = end;
        Some(out)
    }

    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|[b]| b)
    }

    fn i16(&mut self) -> Option<i16> {
        self.take().map(i16::from_le_bytes)
    }

    fn i32(&mut self) -> Option<i32> {
        self.take().map(i32::from_le_bytes)
    }

    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }

    fn link(&mut self) -> Option<EdaxLink> {
        let [score, mv] = self.take()?;
        Some(EdaxLink {
            score: score as i8,
            mv,
        })
    }

    fn position(&mut self) -> Option<EdaxPosition> {
        let player = self.u64()?;
        let opponent = self.u64()?;
        let wins = self.u32()?;
        let draws = self.u32()?;
        let losses = self.u32()?;
        let lines = self.u32()?;
        let value = self.i16()?;
        let lower = self.i16()?;
        let upper = self.i16()?;
        let n_links = self.u8()?;
        let level = self.u8()?;
        let links = (0..n_links)
            .map(|_| self.link())
            .collect::<Option<Vec<_>>>()?;
        let leaf = self.link()?;
        Some(EdaxPosition {
            player,
            opponent,
            wins,
            draws,
            losses,
            lines,
            value,
            lower,
            upper,
            level,
            links,
            leaf,
        })
    }
}

/// What Edax would refuse in a position by itself, before its moves are checked on the board.
fn check_position(p: &EdaxPosition) -> Result<(), PositionProblem> {
    if p.player & p.opponent != 0 {
        return Err(PositionProblem::Overlap);
    }
    if (p.player | p.opponent) & CENTRE != CENTRE {
        return Err(PositionProblem::EmptyCenter);
    }
    if p.level > MAX_LEVEL {
        return Err(PositionProblem::Level(p.level));
    }
    if let Some(l) = p.links.iter().find(|l| l.mv > PASS) {
        return Err(PositionProblem::LinkOutOfRange(l.mv));
    }
    if p.leaf.mv > NO_MOVE {
        return Err(PositionProblem::LeafOutOfRange(p.leaf.mv));
    }
    Ok(())
}

impl EdaxBook {
    /// Reads an Edax book file. The legality of the moves on each board is checked by
    /// [`Book::from_edax`](super::Book::from_edax), which has the move generator.
    ///
    /// # Errors
    /// An [`EdaxBookError`] naming what is wrong: a foreign file, another version, a
    /// truncated file (inside a position, or with fewer positions than the header counts),
    /// or a position with overlapping discs, an empty centre, a level or a move out of
    /// range. More positions than the header counts are read, as Edax reads them.
    pub fn from_bytes(bytes: &[u8]) -> Result<EdaxBook, EdaxBookError> {
        let prefix = &bytes[..bytes.len().min(MAGIC.len())];
        if prefix != &MAGIC[..prefix.len()] {
            return Err(EdaxBookError::BadMagic);
        }
        let mut r = Reader { bytes, at: 8 };
        let header = (|| {
            let version = r.u8()?;
            let release = r.u8()?;
            let date = EdaxDate {
                year: r.i16()?,
                month: r.u8()?,
                day: r.u8()?,
                hour: r.u8()?,
                minute: r.u8()?,
                second: r.u8()?,
                padding: r.u8()?,
            };
            let header = EdaxHeader {
                release,
                date,
                level: r.i32()?,
                empties: r.i32()?,
                midgame_error: r.i32()?,
                endcut_error: r.i32()?,
                verbosity: r.i32()?,
                count: r.i32()?,
            };
            Some((version, header))
        })();
        let Some((version, header)) = header else {
            return Err(EdaxBookError::TruncatedHeader { len: bytes.len() });
        };
        if version != VERSION {
            return Err(EdaxBookError::Version {
                version,
                release: header.release,
            });
        }
        let announced =
            usize::try_from(header.count).map_err(|_| EdaxBookError::BadCount(header.count))?;
        // Edax reads positions to the end of the file, whatever the header counts.
        let mut positions = Vec::with_capacity(announced.min(bytes.len() / POSITION_FIXED));
        while r.at < bytes.len() {
            let offset = r.at;
            let index = positions.len();
            let fail = |problem| EdaxBookError::Position {
                index,
                offset,
                problem,
            };
            let p = r.position().ok_or(fail(PositionProblem::Truncated))?;
            check_position(&p).map_err(fail)?;
            positions.push(p);
        }
        if positions.len() < announced {
            return Err(EdaxBookError::MissingPositions {
                announced,
                found: positions.len(),
            });
        }
        Ok(EdaxBook { header, positions })
    }

    /// The file's bytes: what [`EdaxBook::from_bytes`] read gives back the same bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = &self.header;
        let size = HEADER_LEN
            + self
                .positions
                .iter()
                .map(EdaxPosition::len_bytes)
                .sum::<usize>();
        let mut out = Vec::with_capacity(size);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(h.release);
        out.extend_from_slice(&h.date.year.to_le_bytes());
        out.extend_from_slice(&[
            h.date.month,
            h.date.day,
            h.date.hour,
            h.date.minute,
            h.date.second,
            h.date.padding,
        ]);
        for v in [
            h.level,
            h.empties,
            h.midgame_error,
            h.endcut_error,
            h.verbosity,
            h.count,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for p in &self.positions {
            out.extend_from_slice(&p.player.to_le_bytes());
            out.extend_from_slice(&p.opponent.to_le_bytes());
            for n in [p.wins, p.draws, p.losses, p.lines] {
                out.extend_from_slice(&n.to_le_bytes());
            }
            for s in [p.value, p.lower, p.upper] {
                out.extend_from_slice(&s.to_le_bytes());
            }
            let links = &p.links[..p.links.len().min(255)];
            out.push(links.len() as u8);
            out.push(p.level);
            for l in links.iter().chain(std::iter::once(&p.leaf)) {
                out.push(l.score as u8);
                out.push(l.mv);
            }
        }
        out
    }
}
