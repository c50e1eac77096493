//! Where a match's games go: the history database, or a GGF file given with `--out`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use reversi_core::{BoardSize, Color, Game, Rules, Score, TimeControl};
use reversi_formats::ggf::{write_ggf, GgfGame, GgfMove};
use reversi_store::{MoveRecord, NewGame, Player, PlayerKind, Store};

/// A finished match game.
pub struct Played {
    pub game: Game,
    /// One record per move of `game` (the opening's moves bare).
    pub moves: Vec<MoveRecord>,
    pub black: Player,
    pub white: Player,
    /// The final score, or the forfeit's 64-0.
    pub score: Score,
    pub forfeit: Option<Forfeit>,
    /// The match's clock, if timed.
    pub clock: Option<TimeControl>,
}

/// A game lost off the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forfeit {
    pub color: Color,
    pub reason: String,
    /// The engine stopped answering (rather than crashing or answering nonsense).
    pub timeout: bool,
    /// The engine's clock ran out.
    pub out_of_time: bool,
}

/// A match player as the history names it.
#[must_use]
pub fn player(name: &str, level: Option<String>) -> Player {
    Player {
        name: name.to_string(),
        kind: PlayerKind::Computer,
        level,
    }
}

/// The destination of the games.
pub enum Sink {
    Store(Store),
    Ggf { path: PathBuf, out: BufWriter<File> },
}

impl Sink {
    /// The database at `path`.
    ///
    /// # Errors
    /// When it cannot be opened (or is not this program's database).
    pub fn store(path: &Path) -> anyhow::Result<Sink> {
        let store = Store::open(path)
            .with_context(|| format!("cannot open the game database {}", path.display()))?;
        Ok(Sink::Store(store))
    }

    /// A new GGF file at `path`, one game a line.
    ///
    /// # Errors
    /// When it cannot be created.
    pub fn ggf(path: &Path) -> anyhow::Result<Sink> {
        let file =
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(Sink::Ggf {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
        })
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
    pub fn save(&mut self, played: &Played) -> anyhow::Result<Option<i64>> {
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
                    .with_context(|| format!("cannot write {}", path.display()))?;
                Ok(None)
            }
        }
    }
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
