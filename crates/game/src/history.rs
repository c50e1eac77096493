//! Stored games and the game being played: the players as the history names them and back,
//! and resuming an unfinished game from an [`Archive`] as a [`Session`] that adds to the same
//! record.

use std::fmt;
use std::time::Duration;

use reversi_players::Ai;

use reversi_record::{Archive, GameId, GameInfo, PlayerKind, Status, StoreError, Writer};

use crate::log::{LogHandle, LogId, LoggedMove};
use crate::player::Player;
use crate::session::{Context, Session};
use crate::settings::Settings;

/// The name the history gives the program's computer players.
pub const COMPUTER_NAME: &str = "reversi";

/// The name a person gets in the history when the program knows none.
pub const PERSON_NAME: &str = "human";

/// A side's player as the history records it: a person as `person` (the program passes the
/// login name), or the computer `reversi` with its level as `--black`/`--white` name it after
/// `ai:` (`hard`, `greedy`).
#[must_use]
pub fn stored_player(player: Player, person: &str) -> reversi_record::Player {
    match player {
        Player::Human => reversi_record::Player::human(person),
        Player::Computer(ai) => reversi_record::Player::computer(COMPUTER_NAME, &ai.to_string()),
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
fn player_of(id: GameId, p: &reversi_record::Player) -> Result<Player, ResumeError> {
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
/// moves to the same record through `log`, in `context` (the program's clock, and its
/// engine and book for the computer players: a resumed game consults what a new one would).
///
/// # Errors
/// No such game, a game that has ended, a computer player that is not known, or a database
/// error.
pub fn resume(
    store: &dyn Archive,
    id: GameId,
    seed: u64,
    log: Option<LogHandle>,
    context: Context,
) -> Result<Session, ResumeError> {
    resume_as(
        store,
        id,
        seed,
        log,
        context,
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
    store: &dyn Archive,
    id: GameId,
    seed: u64,
    log: Option<LogHandle>,
    context: Context,
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
    Ok(Session::resume_in_context(
        stored_settings(id, info, seed)?,
        stored.game,
        stored_records(&stored.moves),
        log,
        LogId(id.0),
        context,
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
pub fn stored_records(moves: &[reversi_record::MoveRecord]) -> Vec<LoggedMove> {
    moves
        .iter()
        .map(|m| LoggedMove {
            mv: m.mv,
            time_ms: m.time_ms,
            eval: m.eval,
        })
        .collect()
}
