//! The saved games of one SQLite history at a path as the program's front ends use them:
//! listing, replaying (variations saved as they are played), deleting and resuming games.

use std::path::{Path, PathBuf};

use reversi_core::Move;
use reversi_game::{Context, LogHandle, Replay, ResumeError, Session, VariationError};

use crate::{GameFilter, GameId, GameInfo, Store, StoreError, VariationId};

/// The games of the database at a path, opened at first use. A database that does not exist
/// yet lists no games and is not created by looking.
///
/// # Examples
/// A game saved by a session into the database at a path, then listed, replayed, resumed and
/// deleted through the history of that path:
/// ```
/// use reversi_game::{Context, Player, Session, Settings};
/// use reversi_store::{GameFilter, GameId, History, StoreLog};
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
/// let resumed = history.resume(id, 1, None, Context::system())?;
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
    /// use reversi_game::{Context, Player, Session, Settings};
    /// use reversi_store::{GameId, History, StoreLog};
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
    /// same record through `log`, in `context` (see [`reversi_game::resume`]).
    ///
    /// # Errors
    /// As [`reversi_game::resume`].
    pub fn resume(
        &mut self,
        id: GameId,
        seed: u64,
        log: Option<LogHandle>,
        context: Context,
    ) -> Result<Session, ResumeError> {
        reversi_game::resume(self.store()?, id, seed, log, context)
    }
}
