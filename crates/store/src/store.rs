//! The game store: open a database, record games move by move, read them back, list and
//! delete them.

use std::path::{Path, PathBuf};
use std::time::Duration;

use reversi_core::{BoardSize, Color, Game, Move, Position, Rules, Score, TimeControl};
use rusqlite::{params, Connection, OptionalExtension, Row, Transaction, TransactionBehavior};

use crate::codec::{
    kind_from_text, move_from_column, move_to_column, outcome_from_text, outcome_to_text,
    position_from_text, position_to_text, status_from_text, Fnv128,
};
use crate::explorer::index;
use crate::{
    now_utc, schema, GameFilter, GameId, GameInfo, MoveRecord, NewGame, Player, Status, StoreError,
    StoredGame, Termination,
};
use reversi_record::kept;

/// The game database. Every call that writes is one transaction, committed to disk before it
/// returns, so a crash loses at most the call under way.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Move, Rules};
/// use reversi_store::{MoveRecord, NewGame, Player, Store};
///
/// let mut store = Store::open_in_memory()?;
/// let new = NewGame::standard(BoardSize::EIGHT, Rules::Othello,
///     Player::human("Ann"), Player::computer("reversi", "5"));
/// let id = store.create_game(&new)?;
/// let f5 = new.start_position().parse_square("f5").unwrap();
/// store.append_move(id, &MoveRecord { mv: Move::Play(f5), time_ms: Some(1200), eval: None })?;
/// let loaded = store.load_game(id)?;
/// assert_eq!(loaded.game.moves(), &[Move::Play(f5)]);
/// # Ok::<(), reversi_store::StoreError>(())
/// ```
pub struct Store {
    pub(crate) conn: Connection,
    pub(crate) path: PathBuf,
}

const INFO_COLUMNS: &str = "id, board_size, rules, start_position, black_name, black_kind, \
    black_level, white_name, white_kind, white_level, started_at, ended_at, status, result, \
    black_score, white_score, event, source, move_count, time_base_ms, time_increment_ms, \
    termination";

impl Store {
    /// Opens the database at `path`, creating it (and its folder) if missing, and brings its
    /// schema up to date.
    ///
    /// # Errors
    /// [`StoreError::NotADatabase`], [`StoreError::Foreign`] or [`StoreError::TooNew`] for a
    /// file that is not ours (which is left untouched), or the I/O or SQLite error.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Rules, Score};
    /// use reversi_store::{GameFilter, NewGame, Player, Status, Store, StoreError};
    ///
    /// let dir = tempfile::tempdir().expect("a temporary folder");
    /// let path = dir.path().join("history/games.sqlite3");
    /// let id = {
    ///     let mut store = Store::open(&path)?;
    ///     let new = NewGame::standard(BoardSize::SIX, Rules::Othello,
    ///         Player::human("Ann"), Player::human("Ben"));
    ///     let id = store.create_game(&new)?;
    ///     store.finish_game(id, Score { black: 16, white: 20 })?;
    ///     id
    /// };
    ///
    /// // Reopened, as after a restart.
    /// let store = Store::open(&path)?;
    /// let games = store.list_games(&GameFilter::default())?;
    /// assert_eq!(games.len(), 1);
    /// assert_eq!((games[0].id, games[0].status), (id, Status::Finished));
    /// assert_eq!(games[0].score, Some(Score { black: 16, white: 20 }));
    ///
    /// // A file that is not a database is refused and left as it was.
    /// let notes = dir.path().join("notes.txt");
    /// std::fs::write(&notes, "f5d6c3").expect("a file in the temporary folder");
    /// assert!(matches!(Store::open(&notes), Err(StoreError::NotADatabase { .. })));
    /// assert_eq!(std::fs::read_to_string(&notes).ok().as_deref(), Some("f5d6c3"));
    /// # Ok::<(), StoreError>(())
    /// ```
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Ok(Store {
            conn: schema::open(path)?,
            path: path.to_path_buf(),
        })
    }

    /// A fresh database in memory.
    ///
    /// # Errors
    /// When SQLite cannot set it up.
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Ok(Store {
            conn: schema::open_in_memory()?,
            path: PathBuf::from(":memory:"),
        })
    }

    /// The file this store writes.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn sql(&self) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        move |source| StoreError::Database {
            path: self.path.clone(),
            source: Box::new(source),
        }
    }

    /// Records a new game, in progress with no moves yet.
    ///
    /// # Errors
    /// [`StoreError::StartMismatch`] when the set-up start is for another board size or rule,
    /// or an SQLite error.
    pub fn create_game(&mut self, game: &NewGame) -> Result<GameId, StoreError> {
        let start = checked_start(game)?;
        let started = game
            .started_at
            .as_deref()
            .map_or_else(now_utc, |d| kept(d).to_string());
        let (black, white) = (game.black.kept(), game.white.kept());
        self.conn
            .execute(
                "INSERT INTO games (board_size, rules, start_position, black_name, black_kind, \
                 black_level, white_name, white_kind, white_level, started_at, status, \
                 time_base_ms, time_increment_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'in_progress', ?11, ?12)",
                params![
                    game.size.get(),
                    game.rules.name(),
                    start,
                    black.name,
                    black.kind.name(),
                    black.level,
                    white.name,
                    white.kind.name(),
                    white.level,
                    started,
                    game.clock.map(|c| clock_ms(c.base)),
                    game.clock.map(|c| clock_ms(c.increment)),
                ],
            )
            .map_err(self.sql())?;
        Ok(GameId(self.conn.last_insert_rowid()))
    }

    /// Adds the next move of a game in progress, in its own transaction, after checking it is
    /// legal in the position the stored moves reach. Returns its 0-based ply.
    ///
    /// # Errors
    /// [`StoreError::NoSuchGame`], [`StoreError::NotInProgress`], [`StoreError::IllegalMove`],
    /// or an SQLite error; nothing is written then.
    pub fn append_move(&mut self, id: GameId, record: &MoveRecord) -> Result<usize, StoreError> {
        in_transaction(self, |tx| {
            let (info, moves) = load_in(tx, id)?;
            if info.status != Status::InProgress {
                return Err(StoreError::NotInProgress(id).into());
            }
            let game = replay(&info, &moves)?;
            let ply = moves.len();
            game.current()
                .play(record.mv)
                .map_err(|reason| StoreError::IllegalMove {
                    game: id,
                    ply,
                    reason,
                })?;
            tx.execute(
                "INSERT INTO moves (game_id, ply, square, time_ms, eval) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    id.0,
                    ply as i64,
                    move_to_column(record.mv, info.size),
                    record.time_ms.map(|t| i64::try_from(t).unwrap_or(i64::MAX)),
                    record.eval.filter(|e| e.is_finite()),
                ],
            )?;
            tx.execute(
                "UPDATE games SET move_count = ?2 WHERE id = ?1",
                params![id.0, ply as i64 + 1],
            )?;
            Ok(ply)
        })
    }

    /// Takes back the last move of a game in progress, returning it (`None` with no moves),
    /// with the variations that left the game after it.
    ///
    /// # Errors
    /// [`StoreError::NoSuchGame`], [`StoreError::NotInProgress`], or an SQLite error.
    pub fn undo_move(&mut self, id: GameId) -> Result<Option<MoveRecord>, StoreError> {
        in_transaction(self, |tx| {
            let (info, mut moves) = load_in(tx, id)?;
            if info.status != Status::InProgress {
                return Err(StoreError::NotInProgress(id).into());
            }
            let Some(last) = moves.pop() else {
                return Ok(None);
            };
            tx.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply = ?2",
                params![id.0, moves.len() as i64],
            )?;
            // Variations that left the game after the move taken back leave nothing now.
            tx.execute(
                "DELETE FROM variations WHERE game_id = ?1 AND parent_id IS NULL \
                 AND from_ply > ?2",
                params![id.0, moves.len() as i64],
            )?;
            tx.execute(
                "UPDATE games SET move_count = ?2 WHERE id = ?1",
                params![id.0, moves.len() as i64],
            )?;
            Ok(Some(last))
        })
    }

    /// Marks a game in progress as finished with `score`, now.
    ///
    /// # Errors
    /// [`StoreError::NoSuchGame`], [`StoreError::NotInProgress`], or an SQLite error.
    pub fn finish_game(&mut self, id: GameId, score: Score) -> Result<(), StoreError> {
        self.end_game(id, Status::Finished, Some(score), None)
    }

    /// Marks a game in progress as lost on time by `loser`, now: finished, the winner given
    /// every square (64-0 on 8x8), with [`Termination::Time`].
    ///
    /// # Errors
    /// As [`Store::finish_game`].
    pub fn finish_on_time(&mut self, id: GameId, loser: Color) -> Result<(), StoreError> {
        let size = self.load_game(id)?.info.size;
        let score = Score::forfeit(loser, size);
        self.end_game(id, Status::Finished, Some(score), Some(Termination::Time))
    }

    /// Marks a game in progress as abandoned, now.
    ///
    /// # Errors
    /// [`StoreError::NoSuchGame`], [`StoreError::NotInProgress`], or an SQLite error.
    pub fn abandon_game(&mut self, id: GameId) -> Result<(), StoreError> {
        self.end_game(id, Status::Abandoned, None, None)
    }

    fn end_game(
        &mut self,
        id: GameId,
        status: Status,
        score: Option<Score>,
        termination: Option<Termination>,
    ) -> Result<(), StoreError> {
        in_transaction(self, |tx| {
            let (info, moves) = load_in(tx, id)?;
            if info.status != Status::InProgress {
                return Err(StoreError::NotInProgress(id).into());
            }
            tx.execute(
                "UPDATE games SET status = ?2, ended_at = ?3, result = ?4, black_score = ?5, \
                 white_score = ?6, termination = ?7 WHERE id = ?1",
                params![
                    id.0,
                    status.name(),
                    now_utc(),
                    score.map(|s| outcome_to_text(s.outcome())),
                    score.map(|s| s.black),
                    score.map(|s| s.white),
                    termination.map(Termination::name),
                ],
            )?;
            // Once ended, the game no longer changes: give it the hash that tells a later
            // import of the same game (from an export) that it is already here. A game
            // identical in every hashed field keeps no hash rather than failing.
            let mv: Vec<Move> = moves.iter().map(|m| m.mv).collect();
            let hash = dedup_hash(
                info.size,
                info.rules,
                info.start.as_ref(),
                &mv,
                (&info.black, &info.white),
                info.started_at.as_deref(),
                info.event.as_deref(),
            );
            tx.execute(
                "UPDATE OR IGNORE games SET dedup_hash = ?2 WHERE id = ?1",
                params![id.0, &hash[..]],
            )?;
            count_in_explorer(tx, &info, status, score, &mv, 1)?;
            Ok(())
        })
    }

    /// What is known about a game, without its moves.
    ///
    /// # Errors
    /// [`StoreError::NoSuchGame`], [`StoreError::Corrupt`], or an SQLite error.
    pub fn game_info(&self, id: GameId) -> Result<GameInfo, StoreError> {
        let sql = format!("SELECT {INFO_COLUMNS} FROM games WHERE id = ?1");
        self.conn
            .query_row(&sql, [id.0], RawInfo::read)
            .optional()
            .map_err(self.sql())?
            .ok_or(StoreError::NoSuchGame(id))?
            .into_info()
    }

    /// A game with its moves, replayed from its start.
    ///
    /// # Errors
    /// [`StoreError::NoSuchGame`], [`StoreError::Corrupt`] when the stored moves do not
    /// replay, or an SQLite error.
    pub fn load_game(&self, id: GameId) -> Result<StoredGame, StoreError> {
        let err = self.sql();
        let (info, moves) = load_in(&self.conn, id).map_err(|e| e.or_sql(&err))?;
        let game = replay(&info, &moves)?;
        Ok(StoredGame { info, moves, game })
    }

    /// Games matching `filter`, newest first (by start date, then by id).
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] for a row that does not read back, or an SQLite error.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Rules};
    /// use reversi_store::{GameFilter, NewGame, Player, Status, Store};
    ///
    /// let mut store = Store::open_in_memory()?;
    /// for (date, white) in [("2026-01-01", "Ben"), ("2026-01-02", "Cleo")] {
    ///     let mut new = NewGame::standard(BoardSize::EIGHT, Rules::Othello,
    ///         Player::human("Ann"), Player::human(white));
    ///     new.started_at = Some(date.to_string());
    ///     store.create_game(&new)?;
    /// }
    ///
    /// let all = store.list_games(&GameFilter::default())?;
    /// let whites: Vec<&str> = all.iter().map(|g| g.white.name.as_str()).collect();
    /// assert_eq!(whites, ["Cleo", "Ben"], "newest first");
    ///
    /// let filter = GameFilter { player: Some("cle".into()), ..GameFilter::default() };
    /// assert_eq!(store.list_games(&filter)?.len(), 1);
    /// let filter = GameFilter { status: Some(Status::Finished), ..GameFilter::default() };
    /// assert!(store.list_games(&filter)?.is_empty());
    /// assert_eq!(store.count_games(&GameFilter { limit: Some(1), ..GameFilter::default() })?, 2);
    ///
    /// // Paging: the second newest alone.
    /// let page = GameFilter { limit: Some(1), offset: 1, ..GameFilter::default() };
    /// assert_eq!(store.list_games(&page)?[0].white.name, "Ben");
    /// # Ok::<(), reversi_store::StoreError>(())
    /// ```
    pub fn list_games(&self, filter: &GameFilter) -> Result<Vec<GameInfo>, StoreError> {
        let (clause, args) = where_clause(filter);
        let limit = filter
            .limit
            .map_or(-1, |l| i64::try_from(l).unwrap_or(i64::MAX));
        let offset = i64::try_from(filter.offset).unwrap_or(i64::MAX);
        let sql = format!(
            "SELECT {INFO_COLUMNS} FROM games{clause} \
             ORDER BY started_at DESC, id DESC LIMIT {limit} OFFSET {offset}"
        );
        let mut stmt = self.conn.prepare(&sql).map_err(self.sql())?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(args.iter()), RawInfo::read)
            .map_err(self.sql())?
            .collect::<Result<Vec<_>, _>>()
            .map_err(self.sql())?;
        rows.into_iter().map(RawInfo::into_info).collect()
    }

    /// How many games match `filter` (its limit and offset ignored).
    ///
    /// # Errors
    /// On an SQLite error.
    pub fn count_games(&self, filter: &GameFilter) -> Result<u64, StoreError> {
        let (clause, args) = where_clause(filter);
        let sql = format!("SELECT count(*) FROM games{clause}");
        self.conn
            .query_row(&sql, rusqlite::params_from_iter(args.iter()), |r| {
                r.get::<_, i64>(0)
            })
            .map(|n| n.max(0) as u64)
            .map_err(self.sql())
    }

    /// Deletes a game with its moves and variations. Returns whether it existed.
    ///
    /// # Errors
    /// On an SQLite error.
    pub fn delete_game(&mut self, id: GameId) -> Result<bool, StoreError> {
        in_transaction(self, |tx| {
            let (info, moves) = match load_in(tx, id) {
                Ok(found) => found,
                Err(LoadError::Store(StoreError::NoSuchGame(_))) => return Ok(false),
                Err(e) => return Err(e),
            };
            let mv: Vec<Move> = moves.iter().map(|m| m.mv).collect();
            count_in_explorer(tx, &info, info.status, info.score, &mv, -1)?;
            Ok(tx.execute("DELETE FROM games WHERE id = ?1", [id.0])? > 0)
        })
    }
}

/// Adds a game that counts in the explorer's index (`sign` 1) or takes it out (-1).
fn count_in_explorer(
    tx: &Connection,
    info: &GameInfo,
    status: Status,
    score: Option<Score>,
    moves: &[Move],
    sign: i64,
) -> rusqlite::Result<()> {
    let Some(score) = index::counted_score(info.size, status, score) else {
        return Ok(());
    };
    let start = info
        .start
        .clone()
        .unwrap_or_else(|| Position::start(info.size, info.rules));
    let mut tally = index::Tally::default();
    tally.add(&index::game_entries(&start, moves), score, sign);
    tally.write(tx)
}

/// The set-up start as stored (`None` for the standard one), checked against size and rule.
pub(crate) fn checked_start(game: &NewGame) -> Result<Option<String>, StoreError> {
    match &game.start {
        None => Ok(None),
        Some(p) if p.size() != game.size || p.rules() != game.rules => {
            Err(StoreError::StartMismatch(format!(
                "the start position is {} {} but the game is {} {}",
                p.size(),
                p.rules(),
                game.size,
                game.rules
            )))
        }
        Some(p) if *p == Position::start(game.size, game.rules) => Ok(None),
        Some(p) => Ok(Some(position_to_text(p))),
    }
}

/// The hash that makes the same game imported twice one game.
pub(crate) fn dedup_hash(
    size: BoardSize,
    rules: Rules,
    start: Option<&Position>,
    moves: &[Move],
    players: (&Player, &Player),
    started_at: Option<&str>,
    event: Option<&str>,
) -> [u8; 16] {
    let mut h = Fnv128::new();
    h.field(&[size.get()]);
    h.field(rules.name().as_bytes());
    h.field(start.map(position_to_text).unwrap_or_default().as_bytes());
    let squares: Vec<u8> = moves
        .iter()
        .flat_map(|&m| {
            move_to_column(m, size)
                .map_or(u16::MAX, |i| i as u16)
                .to_le_bytes()
        })
        .collect();
    h.field(&squares);
    h.field(players.0.name.as_bytes());
    h.field(players.1.name.as_bytes());
    h.field(started_at.unwrap_or_default().as_bytes());
    h.field(event.unwrap_or_default().as_bytes());
    h.finish()
}

/// Replays stored moves from the game's start.
pub(crate) fn replay(info: &GameInfo, moves: &[MoveRecord]) -> Result<Game, StoreError> {
    let mv: Vec<Move> = moves.iter().map(|m| m.mv).collect();
    Game::from_moves(info.start_position(), &mv).map_err(|(ply, e)| StoreError::Corrupt {
        game: info.id,
        reason: format!("move {} ({}) does not replay: {e}", ply + 1, mv[ply]),
    })
}

/// An error while loading inside a transaction: ours, or SQLite's (mapped by the caller).
pub(crate) enum LoadError {
    Store(StoreError),
    Sql(rusqlite::Error),
}

impl LoadError {
    pub(crate) fn or_sql(self, f: &impl Fn(rusqlite::Error) -> StoreError) -> StoreError {
        match self {
            LoadError::Store(e) => e,
            LoadError::Sql(e) => f(e),
        }
    }
}

impl From<rusqlite::Error> for LoadError {
    fn from(e: rusqlite::Error) -> Self {
        LoadError::Sql(e)
    }
}

impl From<StoreError> for LoadError {
    fn from(e: StoreError) -> Self {
        LoadError::Store(e)
    }
}

pub(crate) fn load_in(
    conn: &Connection,
    id: GameId,
) -> Result<(GameInfo, Vec<MoveRecord>), LoadError> {
    let sql = format!("SELECT {INFO_COLUMNS} FROM games WHERE id = ?1");
    let info = conn
        .query_row(&sql, [id.0], RawInfo::read)
        .optional()?
        .ok_or(StoreError::NoSuchGame(id))?
        .into_info()?;
    let mut stmt = conn.prepare_cached(
        "SELECT ply, square, time_ms, eval FROM moves WHERE game_id = ?1 ORDER BY ply",
    )?;
    let rows = stmt
        .query_map([id.0], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<i64>>(1)?,
                r.get::<_, Option<i64>>(2)?,
                r.get::<_, Option<f64>>(3)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut moves = Vec::with_capacity(rows.len());
    for (i, (ply, square, time_ms, eval)) in rows.into_iter().enumerate() {
        let corrupt = |reason: String| StoreError::Corrupt { game: id, reason };
        if ply != i as i64 {
            return Err(corrupt(format!("move {} is missing", i + 1)).into());
        }
        let mv = move_from_column(square, info.size).ok_or_else(|| {
            corrupt(format!(
                "move {}: square index {square:?} is off the {} board",
                i + 1,
                info.size
            ))
        })?;
        moves.push(MoveRecord {
            mv,
            time_ms: time_ms.and_then(|t| u64::try_from(t).ok()),
            eval,
        });
    }
    Ok((info, moves))
}

/// The WHERE clause and its parameters for a filter.
fn where_clause(filter: &GameFilter) -> (String, Vec<String>) {
    let mut conds = Vec::new();
    let mut args = Vec::new();
    if let Some(name) = &filter.player {
        let escaped = name
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        args.push(format!("%{escaped}%"));
        let n = args.len();
        conds.push(format!(
            "(black_name LIKE ?{n} ESCAPE '\\' OR white_name LIKE ?{n} ESCAPE '\\')"
        ));
    }
    if let Some(status) = filter.status {
        args.push(status.name().to_string());
        conds.push(format!("status = ?{}", args.len()));
    }
    if conds.is_empty() {
        (String::new(), args)
    } else {
        (format!(" WHERE {}", conds.join(" AND ")), args)
    }
}

/// A games row as SQLite gives it, before its values are checked.
struct RawInfo {
    id: i64,
    size: i64,
    rules: String,
    start: Option<String>,
    players: [(String, String, Option<String>); 2],
    started_at: Option<String>,
    ended_at: Option<String>,
    status: String,
    result: Option<String>,
    score: (Option<i64>, Option<i64>),
    event: Option<String>,
    source: Option<String>,
    move_count: i64,
    clock: (Option<i64>, Option<i64>),
    termination: Option<String>,
}

impl RawInfo {
    fn read(r: &Row<'_>) -> rusqlite::Result<RawInfo> {
        Ok(RawInfo {
            id: r.get(0)?,
            size: r.get(1)?,
            rules: r.get(2)?,
            start: r.get(3)?,
            players: [
                (r.get(4)?, r.get(5)?, r.get(6)?),
                (r.get(7)?, r.get(8)?, r.get(9)?),
            ],
            started_at: r.get(10)?,
            ended_at: r.get(11)?,
            status: r.get(12)?,
            result: r.get(13)?,
            score: (r.get(14)?, r.get(15)?),
            event: r.get(16)?,
            source: r.get(17)?,
            move_count: r.get(18)?,
            clock: (r.get(19)?, r.get(20)?),
            termination: r.get(21)?,
        })
    }

    fn into_info(self) -> Result<GameInfo, StoreError> {
        let id = GameId(self.id);
        let corrupt = |reason: String| StoreError::Corrupt { game: id, reason };
        let size = u8::try_from(self.size)
            .ok()
            .and_then(|n| BoardSize::new(n).ok())
            .ok_or_else(|| corrupt(format!("board size {}", self.size)))?;
        let rules: Rules = self.rules.parse().map_err(|e| corrupt(format!("{e}")))?;
        let start = match &self.start {
            None => None,
            Some(text) => Some(
                position_from_text(text, size, rules)
                    .ok_or_else(|| corrupt(format!("start position {text:?}")))?,
            ),
        };
        let [b, w] = self.players;
        let player = |(name, kind, level): (String, String, Option<String>)| {
            let kind =
                kind_from_text(&kind).ok_or_else(|| corrupt(format!("player kind {kind:?}")))?;
            Ok::<_, StoreError>(Player { name, kind, level })
        };
        let status = status_from_text(&self.status)
            .ok_or_else(|| corrupt(format!("status {:?}", self.status)))?;
        let result = match &self.result {
            None => None,
            Some(t) => Some(outcome_from_text(t).ok_or_else(|| corrupt(format!("result {t:?}")))?),
        };
        let score = match self.score {
            (Some(b), Some(w)) => Some(Score {
                black: u16::try_from(b).map_err(|_| corrupt(format!("score {b}")))?,
                white: u16::try_from(w).map_err(|_| corrupt(format!("score {w}")))?,
            }),
            _ => None,
        };
        Ok(GameInfo {
            id,
            size,
            rules,
            start,
            black: player(b)?,
            white: player(w)?,
            started_at: self.started_at,
            ended_at: self.ended_at,
            status,
            result,
            score,
            event: self.event,
            source: self.source,
            move_count: usize::try_from(self.move_count).unwrap_or(0),
            clock: match self.clock {
                (Some(base), increment) => Some(TimeControl {
                    base: clock_from_ms(base).ok_or_else(|| corrupt(format!("clock {base} ms")))?,
                    increment: clock_from_ms(increment.unwrap_or(0))
                        .ok_or_else(|| corrupt(format!("increment {increment:?} ms")))?,
                }),
                (None, _) => None,
            },
            termination: match &self.termination {
                None => None,
                Some(t) => Some(
                    Termination::from_name(t)
                        .ok_or_else(|| corrupt(format!("termination {t:?}")))?,
                ),
            },
        })
    }
}

/// A clock time as stored, in ms.
pub(crate) fn clock_ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// A stored clock time; `None` if negative.
fn clock_from_ms(ms: i64) -> Option<Duration> {
    u64::try_from(ms).ok().map(Duration::from_millis)
}

/// Runs `f` in one immediate transaction: committed if it returns `Ok`, rolled back otherwise.
pub(crate) fn in_transaction<T>(
    store: &mut Store,
    f: impl FnOnce(&Transaction<'_>) -> Result<T, LoadError>,
) -> Result<T, StoreError> {
    let path = store.path.clone();
    let err = move |source: rusqlite::Error| StoreError::Database {
        path: path.clone(),
        source: Box::new(source),
    };
    let tx = store
        .conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(&err)?;
    let out = f(&tx).map_err(|e| e.or_sql(&err))?;
    tx.commit().map_err(&err)?;
    Ok(out)
}

impl reversi_record::Archive for Store {
    fn load_game(&self, id: GameId) -> Result<StoredGame, StoreError> {
        Store::load_game(self, id)
    }

    fn take_lease(
        &self,
        id: GameId,
        writer: &crate::Writer,
        ttl: std::time::Duration,
    ) -> Result<(), StoreError> {
        Store::take_lease(self, id, writer, ttl)
    }

    fn add_variation(
        &mut self,
        game: GameId,
        parent: Option<crate::VariationId>,
        ply: usize,
        moves: &[reversi_core::Move],
    ) -> Result<crate::VariationId, StoreError> {
        Store::add_variation(self, game, parent, ply, moves)
    }

    fn append_variation_move(
        &mut self,
        id: crate::VariationId,
        mv: reversi_core::Move,
    ) -> Result<(), StoreError> {
        Store::append_variation_move(self, id, mv).map(drop)
    }

    fn explore(
        &self,
        pos: &reversi_core::Position,
    ) -> Result<Vec<crate::ExplorerMove>, StoreError> {
        Store::explore(self, pos)
    }
}
