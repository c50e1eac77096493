//! Where a match's games go: the history database, or a GGF file one game a line.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use reversi_core::{BoardSize, Color, Rules};
use reversi_formats::ggf::{parse_ggf, write_ggf, GgfGame, GgfMove};
use reversi_store::{NewGame, Store, StoreError};

use crate::play::Played;
use crate::series::Earlier;

/// Why the games could not be saved, naming the database or file.
#[derive(Debug)]
pub enum SinkError {
    /// The game database could not be opened (or is not this program's).
    Open(PathBuf, StoreError),
    /// The game database refused a game.
    Store(StoreError),
    /// The GGF file could not be created.
    Create(PathBuf, std::io::Error),
    /// The GGF file could not be written.
    Write(PathBuf, std::io::Error),
    /// The GGF file of a match to resume could not be read.
    Read(PathBuf, std::io::Error),
    /// A game of the GGF file of a match to resume is not a game this program wrote.
    Recorded(PathBuf, String),
}

impl fmt::Display for SinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SinkError::Open(path, _) => {
                write!(f, "cannot open the game database {}", path.display())
            }
            SinkError::Store(e) => e.fmt(f),
            SinkError::Create(path, _) => write!(f, "cannot create {}", path.display()),
            SinkError::Write(path, _) => write!(f, "cannot write {}", path.display()),
            SinkError::Read(path, _) => write!(f, "cannot read {}", path.display()),
            SinkError::Recorded(path, why) => write!(f, "{}: {why}", path.display()),
        }
    }
}

impl std::error::Error for SinkError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SinkError::Open(_, e) => Some(e),
            SinkError::Store(e) => e.source(),
            SinkError::Create(_, e) | SinkError::Write(_, e) | SinkError::Read(_, e) => Some(e),
            SinkError::Recorded(..) => None,
        }
    }
}

impl From<StoreError> for SinkError {
    fn from(e: StoreError) -> SinkError {
        SinkError::Store(e)
    }
}

/// The destination of the games.
pub enum Sink {
    /// The game history.
    Store(Store),
    /// A GGF file.
    Ggf {
        /// The file, for messages.
        path: PathBuf,
        /// Its writer.
        out: BufWriter<File>,
    },
}

impl Sink {
    /// The database at `path`.
    ///
    /// # Errors
    /// When it cannot be opened (or is not this program's database).
    pub fn store(path: &Path) -> Result<Sink, SinkError> {
        let store = Store::open(path).map_err(|e| SinkError::Open(path.to_path_buf(), e))?;
        Ok(Sink::Store(store))
    }

    /// A new GGF file at `path`, one game a line.
    ///
    /// # Errors
    /// When it cannot be created.
    pub fn ggf(path: &Path) -> Result<Sink, SinkError> {
        let file = File::create(path).map_err(|e| SinkError::Create(path.to_path_buf(), e))?;
        Ok(Sink::Ggf {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
        })
    }

    /// The GGF file at `path` of a match to resume, with the games already in it (none if
    /// it does not exist yet); new games are added after them. A last line cut short (the
    /// match was stopped while writing it) is dropped from the file.
    ///
    /// # Errors
    /// When the file cannot be read or written, or holds a line that is not a game of a
    /// match.
    pub fn ggf_resume(path: &Path) -> Result<(Sink, Vec<Earlier>), SinkError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(SinkError::Read(path.to_path_buf(), e)),
        };
        // Only whole lines: the last one may have been cut by an interruption.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let mut earlier = Vec::new();
        for (n, line) in text[..whole].lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = |why: String| {
                SinkError::Recorded(path.to_path_buf(), format!("line {}: {why}", n + 1))
            };
            let games = parse_ggf(line).map_err(|e| bad(e.to_string()))?;
            let [game] = games.as_slice() else {
                return Err(bad(format!("{} games on one line, not one", games.len())));
            };
            earlier.push(earlier_game(game).map_err(bad)?);
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| SinkError::Create(path.to_path_buf(), e))?;
        file.set_len(whole as u64)
            .map_err(|e| SinkError::Write(path.to_path_buf(), e))?;
        Ok((
            Sink::Ggf {
                path: path.to_path_buf(),
                out: BufWriter::new(file),
            },
            earlier,
        ))
    }

    /// Where the games go, for the report.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Sink::Store(s) => format!("the game database {}", s.path().display()),
            Sink::Ggf { path, .. } => path.display().to_string(),
        }
    }

    /// Saves one game; returns its database id, if it has one.
    ///
    /// # Errors
    /// When the database or the file cannot be written.
    pub fn save(&mut self, played: &Played) -> Result<Option<i64>, SinkError> {
        match self {
            Sink::Store(store) => {
                let new = NewGame {
                    clock: played.clock,
                    ..NewGame::standard(
                        BoardSize::EIGHT,
                        Rules::Othello,
                        played.black.clone(),
                        played.white.clone(),
                    )
                };
                let id = store.create_game(&new)?;
                for m in &played.moves {
                    store.append_move(id, m)?;
                }
                match &played.forfeit {
                    Some(f) if f.out_of_time => store.finish_on_time(id, f.color)?,
                    _ => store.finish_game(id, played.score)?,
                }
                Ok(Some(id.0))
            }
            Sink::Ggf { out, path } => {
                let line = write_ggf(&to_ggf(played));
                writeln!(out, "{line}")
                    .and_then(|()| out.flush())
                    .map_err(|e| SinkError::Write(path.clone(), e))?;
                Ok(None)
            }
        }
    }
}

/// A game as [`to_ggf`] wrote it, read back: its players, result and move times.
fn earlier_game(game: &GgfGame) -> Result<Earlier, String> {
    let tag = |name: &str| {
        game.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| format!("no {name} tag"))
    };
    let result = tag("RE")?;
    let (margin, off_board) = match result.split_once(':') {
        Some((m, _)) => (m, true),
        None => (result.as_str(), false),
    };
    let black_margin: i32 = margin
        .trim_start_matches('+')
        .parse()
        .map_err(|_| format!("the result {result:?} is not a disc margin"))?;
    let forfeit = off_board.then_some(if black_margin < 0 {
        Color::Black
    } else {
        Color::White
    });
    // Passes are in the moves as played, so the movers alternate.
    let mut mover = game.start.turn();
    let mut times = Vec::new();
    for m in &game.moves {
        if let Some(s) = m.seconds {
            times.push((mover, (s * 1000.0).round() as u64));
        }
        mover = mover.opposite();
    }
    Ok(Earlier {
        black: tag("PB")?,
        white: tag("PW")?,
        black_margin,
        times,
        forfeit,
    })
}

fn to_ggf(played: &Played) -> GgfGame {
    let margin = played.score.margin();
    // GGS marks a result decided off the board: `:t` for a timeout, `:r` for a resignation
    // (here every other failure of an engine).
    let suffix = match &played.forfeit {
        Some(f) if f.timeout => ":t",
        Some(_) => ":r",
        None => "",
    };
    let mut ggf = GgfGame {
        start: played.game.start().clone(),
        moves: played
            .moves
            .iter()
            .map(|m| GgfMove {
                mv: m.mv,
                eval: m.eval,
                seconds: m.time_ms.map(|t| t as f64 / 1000.0),
            })
            .collect(),
        tags: vec![
            ("PC".into(), "reversi match".into()),
            ("DT".into(), reversi_store::now_utc()),
            ("PB".into(), played.black.name.clone()),
            ("PW".into(), played.white.name.clone()),
            ("RE".into(), format!("{margin:+}{suffix}")),
        ],
    };
    ggf.set_time_control(played.clock);
    ggf
}
