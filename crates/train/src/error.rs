//! The training crate's errors: a file that could not be read or written ([`FileError`]), a
//! file that is not what it claims or is damaged ([`FormatError`]), shards that do not make
//! one run ([`JoinError`]), and [`Error`], what a training job can fail with.

use std::fmt;
use std::io;
use std::num::ParseIntError;
use std::path::PathBuf;

use reversi_engine::pattern::WeightsError;
use reversi_engine::FromPositionError;
use reversi_formats::obf::ObfError;
use reversi_formats::wthor::WthorError;
use reversi_formats::xot::OpeningsError;

use reversi_engine::shard::{ParseShardError, Shard};

/// A file or folder the system would not read, write, create or rename.
#[derive(Debug)]
pub struct FileError {
    /// What was being done: `reading`, `writing`, `creating`, `renaming`.
    pub action: &'static str,
    /// The file or folder.
    pub path: PathBuf,
    /// The system's reason.
    pub source: io::Error,
}

impl FileError {
    /// A closure for `map_err`: `action` on `path` failed.
    pub(crate) fn on(
        action: &'static str,
        path: &std::path::Path,
    ) -> impl FnOnce(io::Error) -> Self {
        let path = path.to_path_buf();
        move |source| FileError {
            action,
            path,
            source,
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.action, self.path.display())
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// A data, shard or games file that is not one, or is damaged: the file's name and what is
/// wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// The file as the reader named it.
    pub file: String,
    /// What is wrong.
    pub problem: Problem,
}

/// What is wrong with a file of [`FormatError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// It does not start with the magic of a file of this kind (`training data file`,
    /// `shard file`, `self-play games file`).
    NotA(&'static str),
    /// Shorter than its fixed parts.
    CutShort,
    /// A data file whose records after the magic are not whole: this many bytes, records of
    /// this many bytes.
    PartRecord(usize, usize),
    /// Record `.0` of a data file is damaged.
    Record(usize),
    /// The checksum does not match (the words say how, by file kind).
    Damaged(&'static str),
    /// The named part is missing (`header`, `game count`).
    No(&'static str),
    /// The header is not UTF-8 text (games files).
    HeaderDamaged,
    /// The header is not UTF-8 text (shard files).
    HeaderNotText(std::str::Utf8Error),
    /// The header has no such key.
    NoField(&'static str),
    /// The target named in the header is not a file name of the kind (`games`, `data`).
    TargetName(String, &'static str),
    /// A header number (`exact`, `games`, `the unit count`) does not read.
    NotANumber(&'static str, ParseIntError),
    /// A games file's shard field does not read.
    ShardField(ParseShardError),
    /// A shard file's shard field does not read.
    Shard(ParseShardError),
    /// Game record `.0` is damaged.
    Game(usize),
    /// A game numbered outside the file's shard or run.
    NotInShard {
        /// The game's number.
        game: usize,
        /// The file's shard.
        shard: Shard,
        /// Games of the run.
        games: usize,
    },
    /// A game numbered below the one before it.
    OutOfOrder(usize),
    /// Bytes after the last game.
    AfterGames(usize),
    /// Bytes after a shard file's records.
    AfterRecords,
    /// Record `record` of unit `unit` of a shard file is damaged.
    UnitRecord {
        /// The record's index in its unit.
        record: usize,
        /// The unit's number.
        unit: usize,
    },
    /// A shard file holds other units than its shard's.
    WrongUnits {
        /// The file's shard.
        shard: Shard,
        /// Units of the job.
        units: usize,
        /// The units it should hold, as a short list.
        expected: String,
        /// The units it holds, as a short list.
        held: String,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.file;
        match &self.problem {
            Problem::NotA(kind) => write!(f, "{name} is not a {kind}"),
            Problem::CutShort => write!(f, "{name} is cut short"),
            Problem::PartRecord(bytes, record) => write!(
                f,
                "{name} is cut short: {bytes} bytes after the magic is not a whole number of {record}-byte records"
            ),
            Problem::Record(i) => write!(f, "{name}: record {i} is damaged"),
            Problem::Damaged(how) => write!(f, "{name} is damaged ({how})"),
            Problem::No(what) => write!(f, "{name}: no {what}"),
            Problem::HeaderDamaged => write!(f, "{name}: the header is damaged"),
            Problem::HeaderNotText(_) => write!(f, "{name}: the header is not text"),
            Problem::NoField(key) => write!(f, "{name}: the header has no {key}"),
            Problem::TargetName(target, kind) => {
                write!(f, "{name}: {target:?} is not a {kind} file name")
            }
            Problem::NotANumber(what, _) => write!(f, "{name}: {what} is not a number"),
            Problem::ShardField(e) => write!(f, "{name}: shard: {e}"),
            Problem::Shard(e) => write!(f, "{name}: {e}"),
            Problem::Game(i) => write!(f, "{name}: game record {i} is damaged"),
            Problem::NotInShard { game, shard, games } => write!(
                f,
                "{name}: game {game} does not belong to shard {shard} of {games} games"
            ),
            Problem::OutOfOrder(game) => write!(f, "{name}: game {game} is out of order"),
            Problem::AfterGames(n) => write!(f, "{name}: {n} bytes after the last game"),
            Problem::AfterRecords => write!(f, "{name} has bytes after its records"),
            Problem::UnitRecord { record, unit } => {
                write!(f, "{name}: record {record} of unit {unit} is damaged")
            }
            Problem::WrongUnits {
                shard,
                units,
                expected,
                held,
            } => write!(
                f,
                "{name}: shard {shard} of {units} units should hold units {expected}, holds {held}"
            ),
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            Problem::HeaderNotText(e) => Some(e),
            Problem::NotANumber(_, e) => Some(e),
            _ => None,
        }
    }
}

/// Shard files (or games files) that do not join into the file of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JoinError {
    /// No shard files were given.
    NoShards,
    /// No games files were given.
    NoGames,
    /// Two shard files of different jobs (each: name, job, units, shard count).
    DifferentJobs(Box<[(String, String, usize, usize); 2]>),
    /// Two games files of different runs (their names).
    DifferentRuns(String, String),
    /// Two different files are the same shard (their names and the shard).
    Differ(String, String, Shard),
    /// Two games files are the same shard (their names and the shard).
    Twice(String, String, Shard),
    /// Shards missing: the target, the missing indices as a short list, the shard count.
    Missing(String, String, usize),
    /// A games shard missing: its index, the count, and a file of the run.
    GamesShardMissing(usize, usize, String),
    /// The shards hold this many of the run's games.
    GamesMissing(usize, usize),
    /// Among the inputs of a merge there is no shard file.
    NoInputs,
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JoinError::NoShards => write!(f, "no shard files to merge"),
            JoinError::NoGames => write!(f, "no shards to join"),
            JoinError::DifferentJobs(pair) => {
                let [a, b] = pair.as_ref();
                write!(
                f,
                "{} and {} are shards of different jobs ({}, {} units, {} shards; {}, {} units, {} shards)",
                a.0, b.0, a.1, a.2, a.3, b.1, b.2, b.3
            )
            }
            JoinError::DifferentRuns(a, b) => write!(f, "{a} and {b} are shards of different runs"),
            JoinError::Differ(a, b, shard) => {
                write!(f, "{a} and {b} are both shard {shard} but differ")
            }
            JoinError::Twice(a, b, shard) => write!(f, "{a} and {b} are both shard {shard}"),
            JoinError::Missing(target, list, count) => {
                write!(f, "{target}: shards {list} of {count} are missing")
            }
            JoinError::GamesShardMissing(k, count, name) => {
                write!(f, "shard {k}/{count} of {name}'s run is missing")
            }
            JoinError::GamesMissing(held, games) => {
                write!(f, "the shards hold {held} of the run's {games} games")
            }
            JoinError::NoInputs => write!(f, "no shard files among the inputs"),
        }
    }
}

impl std::error::Error for JoinError {}

/// What a training job can fail with.
#[derive(Debug)]
pub enum Error {
    /// A file or folder the system refused.
    File(FileError),
    /// A folder's entry the system would not read.
    Io(io::Error),
    /// A data, shard or games file that is not one or is damaged.
    Format(Box<FormatError>),
    /// Shards that do not make one run.
    Join(Box<JoinError>),
    /// A WTHOR file that does not read (`reading` or `parsing` it).
    Wthor(&'static str, PathBuf, WthorError),
    /// An OBF file that does not read.
    Obf(PathBuf, ObfError),
    /// An openings file that does not give the openings asked for.
    Openings(OpeningsError),
    /// An opening (of `FILE`) that is not an 8x8 position.
    Position(String, FromPositionError),
    /// A weights file that does not load (`None`: the shipped weights).
    Weights(Option<PathBuf>, WeightsError),
    /// An openings file with no openings.
    NoOpenings(PathBuf),
    /// Without random moves, a self-play run plays each opening once (and there are too few).
    OpeningsOnce(Box<Error>),
    /// A folder without WTHOR files.
    NoWthorFiles(PathBuf),
    /// The input of `label` is not named `NAME.bin`.
    NotADataFileName(PathBuf),
    /// `label` would overwrite its input: the output folder and the input.
    WouldOverwrite(PathBuf, PathBuf),
    /// A data folder without validation files: the first validation year, the folder.
    NoValidation(u16, PathBuf),
    /// A self-play game with an illegal move: the game, the move's number, the square.
    IllegalMove(usize, usize, reversi_engine::Sq),
    /// A games file with more than 2³² games or header bytes.
    TooLarge(std::num::TryFromIntError),
    /// A deep label file that cannot be used, and why.
    DeepLabels(PathBuf, String),
    /// Probcut's deviations have no single linear fit (`the midgame`, `the endgame`).
    Singular(&'static str),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::File(e) => e.fmt(f),
            Error::Io(e) => e.fmt(f),
            Error::Format(e) => e.fmt(f),
            Error::Join(e) => e.fmt(f),
            Error::Wthor(action, path, _) => write!(f, "{action} {}", path.display()),
            Error::Obf(path, _) => write!(f, "reading {}", path.display()),
            Error::Openings(e) => e.fmt(f),
            Error::Position(at, _) => f.write_str(at),
            Error::Weights(Some(path), _) => write!(f, "loading {}", path.display()),
            Error::Weights(None, _) => write!(f, "loading the shipped weights"),
            Error::NoOpenings(path) => write!(f, "{} holds no openings", path.display()),
            Error::OpeningsOnce(_) => {
                write!(f, "without --random-moves each opening is played once")
            }
            Error::NoWthorFiles(dir) => write!(f, "no .wtb files in {}", dir.display()),
            Error::NotADataFileName(path) => {
                write!(f, "{} is not a data file (NAME.bin)", path.display())
            }
            Error::WouldOverwrite(out, input) => write!(
                f,
                "--out {} would overwrite the input {}; give another folder",
                out.display(),
                input.display()
            ),
            Error::NoValidation(year, dir) => write!(
                f,
                "no validation files (wthor-{year}.bin or later) in {}",
                dir.display()
            ),
            Error::IllegalMove(game, ply, square) => {
                write!(f, "game {game}: move {} ({square}) is illegal", ply + 1)
            }
            Error::TooLarge(_) => write!(f, "too large for a games file"),
            Error::Singular(what) => write!(f, "fitting {what} deviations"),
            Error::DeepLabels(path, why) => write!(f, "{}: {why}", path.display()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::File(e) => e.source(),
            Error::Io(e) => e.source(),
            Error::Format(e) => std::error::Error::source(e.as_ref()),
            Error::Join(_) => None,
            Error::Wthor(_, _, e) => Some(e),
            Error::Obf(_, e) => Some(e),
            Error::Openings(e) => e.source(),
            Error::Position(_, e) => Some(e),
            Error::Weights(_, e) => Some(e),
            Error::OpeningsOnce(e) => Some(e.as_ref()),
            Error::TooLarge(e) => Some(e),
            _ => None,
        }
    }
}

impl From<FileError> for Error {
    fn from(e: FileError) -> Self {
        Error::File(e)
    }
}

impl From<FormatError> for Error {
    fn from(e: FormatError) -> Self {
        Error::Format(Box::new(e))
    }
}

impl From<JoinError> for Error {
    fn from(e: JoinError) -> Self {
        Error::Join(Box::new(e))
    }
}

impl From<OpeningsError> for Error {
    fn from(e: OpeningsError) -> Self {
        Error::Openings(e)
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}
