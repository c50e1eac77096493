//! The saved games of one history database as a program's front ends use them: the players
//! as the history names them and back, listing, loading and deleting games, and resuming an
//! unfinished game as a [`Session`] that adds to the same record.

use std::fmt;
use std::path::{Path, PathBuf};

use reversi_core::Move;
use reversi_engine::ai::Ai;
use std::time::Duration;

use reversi_store::{
    GameFilter, GameId, GameInfo, PlayerKind, Status, Store, StoreError, VariationId, Writer,
};

use crate::log::{LogHandle, LogId, LoggedMove};
use crate::player::Player;
use crate::replay::{Replay, VariationError};
use crate::session::Session;
use crate::settings::Settings;

/// The name the history gives the program's computer players.
pub const COMPUTER_NAME: &str = "reversi";

/// The games of the database at a path, opened at first use. A database that does not exist
/// yet lists no games and is not created by looking.
///
/// # Examples
/// A game saved by a session into the database at a path, then listed, replayed, resumed and
/// deleted through the history of that path:
/// ```
/// use reversi_game::{History, Player, Session, Settings, StoreLog};
/// use reversi_store::{GameFilter, GameId};
///
/// let dir = std::env::temp_dir().join(format!("reversi-history-doc-{}", std::process::id()));
/// let path = dir.join("games.sqlite3");
/// let mut history = History::at(&path);
/// assert!(history.list(&GameFilter::default())?.is_empty());
/// assert!(!path.exists(), "looking creates no database");
///
/// let settings = Settings { white: Player::Human, ..Settings::default() };
/// let mut session = Session::with_log(settings, Some(StoreLog::handle(&path)));
/// for name in ["f5", "d6", "c3"] {
///     let square = session.position().parse_square(name)?;
///     session.play(square)?;
/// }
/// let id = GameId(session.log_id().expect("kept from the first move").0);
///
/// let games = history.list(&GameFilter::default())?;
/// assert_eq!((games.len(), games[0].id, games[0].move_count), (1, id, 3));
/// let mut replay = history.replay(id)?;
/// replay.jump(replay.len());
/// assert_eq!(replay.position(), session.position());
///
/// // The unfinished game goes on in the same record, with the same players.
/// let resumed = history.resume(id, 1, None)?;
/// assert_eq!(resumed.game(), session.game());
/// assert!(resumed.player(reversi_core::Color::White).is_human());
///
/// assert!(history.delete(id)?);
/// assert!(history.list(&GameFilter::default())?.is_empty());
/// # drop((history, session, resumed));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct History {
    path: PathBuf,
    store: Option<Store>,
}

impl History {
    /// The history kept at `path`.
    #[must_use]
    pub fn at(path: &Path) -> History {
        History {
            path: path.to_path_buf(),
            store: None,
        }
    }

    /// Where the database is.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn store(&mut self) -> Result<&mut Store, StoreError> {
        let store = match self.store.take() {
            Some(store) => store,
            None => Store::open(&self.path)?,
        };
        Ok(self.store.insert(store))
    }

    /// The games `filter` selects, newest first (none when the database does not exist).
    ///
    /// # Errors
    /// The file is not this program's database, or reading it failed.
    pub fn list(&mut self, filter: &GameFilter) -> Result<Vec<GameInfo>, StoreError> {
        if self.store.is_none() && !self.path.exists() {
            return Ok(Vec::new());
        }
        self.store()?.list_games(filter)
    }

    /// Game `id` with its variations, ready to replay from its start.
    ///
    /// # Errors
    /// No such game, or the database failed.
    pub fn replay(&mut self, id: GameId) -> Result<Replay, StoreError> {
        let store = self.store()?;
        let stored = store.load_game(id)?;
        let variations = store.variations(id)?;
        Replay::with_variations(stored, &variations)
    }

    /// Plays `mv` in the position `replay` shows, saving the variation it makes or extends
    /// here (see [`Replay::play`]); returns the index of the line now shown.
    ///
    /// # Errors
    /// As [`Replay::play`], or the database could not be opened.
    pub fn play(&mut self, replay: &mut Replay, mv: Move) -> Result<usize, VariationError> {
        replay.play(mv, self.store()?)
    }

    /// Plays `mv` in game `id` after the first `ply` moves of `line` (`None`: the game's own
    /// moves), as a request that keeps no replay between calls would: the variation it makes
    /// or extends is saved, and the replay returned shows the position after the move.
    ///
    /// # Errors
    /// [`VariationError::NoSuchLine`] for a line the game does not have,
    /// [`VariationError::NoSuchPly`] past its end, the move refused in that position, or the
    /// store's error.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::Move;
    /// use reversi_game::{History, Player, Session, Settings, StoreLog};
    /// use reversi_store::GameId;
    ///
    /// let dir = std::env::temp_dir().join(format!("reversi-variation-doc-{}", std::process::id()));
    /// let path = dir.join("games.sqlite3");
    /// let settings = Settings { white: Player::Human, ..Settings::default() };
    /// let mut session = Session::with_log(settings, Some(StoreLog::handle(&path)));
    /// for name in ["f5", "d6", "c3"] {
    ///     let square = session.position().parse_square(name)?;
    ///     session.play(square)?;
    /// }
    /// let id = GameId(session.log_id().expect("kept from the first move").0);
    /// let sq = |name: &str| session.position().parse_square(name).map(Move::Play);
    ///
    /// let mut history = History::at(&path);
    /// // f6 instead of d6, then e6 at its end: one variation of two moves.
    /// let replay = history.play_variation(id, None, 1, sq("f6")?)?;
    /// let line = replay.line().id;
    /// assert!(line.is_some());
    /// let replay = history.play_variation(id, line, 2, sq("e6")?)?;
    /// assert_eq!(replay.line().id, line);
    /// assert_eq!(replay.line().own_moves(), &[sq("f6")?, sq("e6")?]);
    /// // d6 there is the game's own move: no variation.
    /// assert!(history.play_variation(id, None, 1, sq("d6")?)?.line().is_main());
    /// assert_eq!(history.replay(id)?.lines().len(), 2);
    /// # drop((history, session));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play_variation(
        &mut self,
        id: GameId,
        line: Option<VariationId>,
        ply: usize,
        mv: Move,
    ) -> Result<Replay, VariationError> {
        let mut replay = self.replay(id)?;
        replay.play_after(line, ply, mv, self.store()?)?;
        Ok(replay)
    }

    /// Deletes game `id`; whether there was one.
    ///
    /// # Errors
    /// The database failed.
    pub fn delete(&mut self, id: GameId) -> Result<bool, StoreError> {
        self.store()?.delete_game(id)
    }

    /// Game `id`, in progress, as a session with the same players that adds its moves to the
    /// same record through `log` (see [`resume`]).
    ///
    /// # Errors
    /// As [`resume`].
    pub fn resume(
        &mut self,
        id: GameId,
        seed: u64,
        log: Option<LogHandle>,
    ) -> Result<Session, ResumeError> {
        resume(self.store()?, id, seed, log)
    }
}

/// The person's name in the history: the login name, or `human`.
fn human_name() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .ok()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "human".to_string())
}

/// A side's player as the history records it: a person by login name, or the computer
/// `reversi` with its level as `--black`/`--white` name it after `ai:` (`hard`, `greedy`).
#[must_use]
pub fn stored_player(player: Player) -> reversi_store::Player {
    match player {
        Player::Human => reversi_store::Player::human(&human_name()),
        Player::Computer(ai) => reversi_store::Player::computer(COMPUTER_NAME, &ai.to_string()),
    }
}

/// Why a stored game cannot be resumed.
#[derive(Debug)]
pub enum ResumeError {
    /// No such game, or the database failed.
    Store(StoreError),
    /// The game has ended (finished or abandoned).
    Ended {
        /// The game asked for.
        id: GameId,
        /// How it ended.
        status: Status,
    },
    /// A computer player whose level this program does not know.
    UnknownLevel {
        /// The game asked for.
        id: GameId,
        /// The player as stored: its name and the level that does not parse.
        player: String,
    },
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Store(e) => e.fmt(f),
            ResumeError::Ended { id, status } => write!(
                f,
                "game {id} is {}: only games in progress can be resumed (`reversi history \
                 replay {id}` replays it)",
                match status {
                    Status::Finished => "finished",
                    Status::Abandoned => "abandoned",
                    Status::InProgress => "in progress",
                }
            ),
            ResumeError::UnknownLevel { id, player } => write!(
                f,
                "game {id}: cannot tell which computer player {player:?} was, so it cannot be \
                 resumed"
            ),
        }
    }
}

impl std::error::Error for ResumeError {}

impl From<StoreError> for ResumeError {
    fn from(e: StoreError) -> Self {
        ResumeError::Store(e)
    }
}

/// The player of a stored side: a person, or a computer whose level parses back.
fn player_of(id: GameId, p: &reversi_store::Player) -> Result<Player, ResumeError> {
    match p.kind {
        PlayerKind::Human => Ok(Player::Human),
        PlayerKind::Computer => p
            .level
            .as_deref()
            .and_then(|l| l.parse::<Ai>().ok())
            .map(Player::Computer)
            .ok_or_else(|| ResumeError::UnknownLevel {
                id,
                player: match &p.level {
                    Some(l) => format!("{} level {l}", p.name),
                    None => p.name.clone(),
                },
            }),
    }
}

/// The game `id` of `store`, in progress, as a session with the same players that adds its
/// moves to the same record through `log`.
///
/// # Errors
/// No such game, a game that has ended, a computer player that is not known, or a database
/// error.
pub fn resume(
    store: &Store,
    id: GameId,
    seed: u64,
    log: Option<LogHandle>,
) -> Result<Session, ResumeError> {
    resume_as(
        store,
        id,
        seed,
        log,
        &Writer::this_process(RESUME_WRITER),
        RESUME_LEASE,
    )
}

/// How a process resuming a game names itself to another that asks for the game.
pub const RESUME_WRITER: &str = "reversi history resume";

/// How long a resumed game stays this process's: a long time, since the lease is also let go
/// when the process ends (another process of the same machine sees it has stopped).
const RESUME_LEASE: Duration = Duration::from_secs(12 * 3600);

/// [`resume`] by `writer`, which holds the game's lease for `lease` (one process writes a game
/// at a time): refused with [`StoreError::Held`] while another process holds it.
///
/// # Errors
/// As [`resume`], and the game being held by another process.
pub fn resume_as(
    store: &Store,
    id: GameId,
    seed: u64,
    log: Option<LogHandle>,
    writer: &Writer,
    lease: Duration,
) -> Result<Session, ResumeError> {
    let stored = store.load_game(id)?;
    let info = &stored.info;
    if info.status != Status::InProgress {
        return Err(ResumeError::Ended {
            id,
            status: info.status,
        });
    }
    store.take_lease(id, writer, lease)?;
    Ok(Session::resume(
        stored_settings(id, info, seed)?,
        stored.game,
        stored_records(&stored.moves),
        log,
        LogId(id.0),
    ))
}

/// The settings game `id` was played with (its players, board and clock), with `seed`.
///
/// # Errors
/// A computer player whose level this program does not know.
pub fn stored_settings(id: GameId, info: &GameInfo, seed: u64) -> Result<Settings, ResumeError> {
    Ok(Settings {
        size: info.size,
        rules: info.rules,
        black: player_of(id, &info.black)?,
        white: player_of(id, &info.white)?,
        seed,
        clock: info.clock,
    })
}

/// The stored moves as a session keeps them.
#[must_use]
pub fn stored_records(moves: &[reversi_store::MoveRecord]) -> Vec<LoggedMove> {
    moves
        .iter()
        .map(|m| LoggedMove {
            mv: m.mv,
            time_ms: m.time_ms,
            eval: m.eval,
        })
        .collect()
}

#[cfg(test)]
mod tests;
