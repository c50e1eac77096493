//! Bulk import: many games in one transaction, each checked by replay, duplicates skipped.

use reversi_core::Move;
use rusqlite::types::Value;
use rusqlite::{params, params_from_iter};

use crate::codec::{move_to_column, outcome_to_text};
use crate::explorer::index::{self, counted_score, Tally, EXPLORER_MAX_DISCS};
use crate::store::{checked_start, clock_ms, dedup_hash, in_transaction, LoadError};
use crate::{ImportGame, ImportReport, Store, StoreError};
use reversi_record::kept;

/// Moves inserted by one statement (5 parameters each, well under SQLite's limit of 32,766).
const MOVES_PER_INSERT: usize = 64;

/// `INSERT INTO moves … VALUES (?, ?, ?, ?, ?), …` for `rows` rows.
fn insert_moves_sql(rows: usize) -> String {
    let mut sql = String::from("INSERT INTO moves (game_id, ply, square, time_ms, eval) VALUES ");
    for i in 0..rows {
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push_str("(?, ?, ?, ?, ?)");
    }
    sql
}

impl Store {
    /// Adds `games` in one transaction: all of them or, on any error, none. A game already in
    /// the database (same size, rule, start, moves, players, date and event), or earlier in
    /// `games`, is skipped. `progress` is called now and then with the number of games done.
    ///
    /// # Errors
    /// [`StoreError::Rejected`] naming the first game (by index in `games`) whose moves do
    /// not replay or whose start does not fit its board, or an SQLite error.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{parse_transcript, BoardSize, Position, Rules};
    /// use reversi_store::{GameFilter, ImportGame, ImportReport, Player, Store};
    ///
    /// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    /// let opening = parse_transcript("f5d6c3d3c4", start)?;
    /// let game = ImportGame::from_game(&opening, Player::human("Ann"), Player::human("Ben"), None);
    ///
    /// let mut store = Store::open_in_memory()?;
    /// let mut done = 0;
    /// let report = store.import_games(&[game.clone(), game.clone()], &mut |n| done = n)?;
    /// assert_eq!(report, ImportReport { added: 1, skipped: 1 });
    /// assert_eq!(done, 2);
    ///
    /// // Importing the same file again adds nothing.
    /// let again = store.import_games(&[game], &mut |_| {})?;
    /// assert_eq!(again, ImportReport { added: 0, skipped: 1 });
    /// assert_eq!(store.count_games(&GameFilter::default())?, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn import_games(
        &mut self,
        games: &[ImportGame],
        progress: &mut dyn FnMut(usize),
    ) -> Result<ImportReport, StoreError> {
        // Each game's moves go in right after the game itself, so the foreign key cannot
        // fail; not checking it saves a lookup per move (the pragma only works outside a
        // transaction).
        self.conn
            .execute_batch("PRAGMA foreign_keys = OFF")
            .map_err(self.sql())?;
        // One cached statement per chunk length, and the game insert.
        self.conn
            .set_prepared_statement_cache_capacity(MOVES_PER_INSERT + 16);
        let result = self.import_in_transaction(games, progress);
        self.conn
            .execute_batch("PRAGMA foreign_keys = ON")
            .map_err(self.sql())?;
        result
    }

    fn import_in_transaction(
        &mut self,
        games: &[ImportGame],
        progress: &mut dyn FnMut(usize),
    ) -> Result<ImportReport, StoreError> {
        in_transaction(self, |tx| {
            let mut report = ImportReport::default();
            let mut tally = Tally::default();
            let mut insert_game = tx.prepare_cached(
                "INSERT INTO games (board_size, rules, start_position, black_name, black_kind, \
                 black_level, white_name, white_kind, white_level, started_at, ended_at, \
                 status, result, black_score, white_score, event, source, move_count, \
                 dedup_hash, time_base_ms, time_increment_ms, termination) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, \
                 ?16, ?17, ?18, ?19, ?20, ?21, ?22) ON CONFLICT (dedup_hash) DO NOTHING",
            )?;
            for (index, g) in games.iter().enumerate() {
                let rejected =
                    |reason: String| LoadError::Store(StoreError::Rejected { index, reason });
                let start = checked_start(&g.game).map_err(|e| match e {
                    StoreError::StartMismatch(reason) => rejected(reason),
                    other => LoadError::Store(other),
                })?;
                let mut pos = g.game.start_position();
                let counted = counted_score(g.game.size, g.status, g.score);
                let mut entries = Vec::new();
                for (ply, m) in g.moves.iter().enumerate() {
                    // No position within the explorer's depth lies further (see
                    // index::rebuild); stopping there saves a scan of every later one.
                    if counted.is_some() && ply <= 2 * EXPLORER_MAX_DISCS as usize + 1 {
                        entries.extend(index::entry(&pos, m.mv));
                    }
                    pos = pos
                        .play(m.mv)
                        .map_err(|e| rejected(format!("move {} ({}): {e}", ply + 1, m.mv)))?;
                }
                let moves: Vec<Move> = g.moves.iter().map(|m| m.mv).collect();
                // Hashed as stored, so that the game's export (which has the cut texts) is
                // known again when imported.
                let (black, white) = (g.game.black.kept(), g.game.white.kept());
                let started_at = g.game.started_at.as_deref().map(kept);
                let event = g.event.as_deref().map(kept);
                let hash = dedup_hash(
                    g.game.size,
                    g.game.rules,
                    g.game.start.as_ref(),
                    &moves,
                    (&black, &white),
                    started_at,
                    event,
                );
                let added = insert_game.execute(params![
                    g.game.size.get(),
                    g.game.rules.name(),
                    start,
                    black.name,
                    black.kind.name(),
                    black.level,
                    white.name,
                    white.kind.name(),
                    white.level,
                    started_at,
                    g.ended_at.as_deref().map(kept),
                    g.status.name(),
                    g.result.map(outcome_to_text),
                    g.score.map(|s| s.black),
                    g.score.map(|s| s.white),
                    event,
                    g.source.as_deref().map(kept),
                    g.moves.len() as i64,
                    &hash[..],
                    g.game.clock.map(|c| clock_ms(c.base)),
                    g.game.clock.map(|c| clock_ms(c.increment)),
                    g.termination.map(crate::Termination::name),
                ])?;
                if added == 0 {
                    report.skipped += 1;
                } else {
                    report.added += 1;
                    if let Some(score) = counted {
                        tally.add(&entries, score, 1);
                    }
                    let id = tx.last_insert_rowid();
                    // Many rows per statement: a third faster than one statement a move.
                    for (chunk_index, chunk) in g.moves.chunks(MOVES_PER_INSERT).enumerate() {
                        let mut stmt = tx.prepare_cached(&insert_moves_sql(chunk.len()))?;
                        let first_ply = chunk_index * MOVES_PER_INSERT;
                        let mut values: Vec<Value> = Vec::with_capacity(chunk.len() * 5);
                        for (i, m) in chunk.iter().enumerate() {
                            values.push(Value::Integer(id));
                            values.push(Value::Integer((first_ply + i) as i64));
                            values.push(
                                move_to_column(m.mv, g.game.size)
                                    .map_or(Value::Null, Value::Integer),
                            );
                            values.push(m.time_ms.map_or(Value::Null, |t| {
                                Value::Integer(i64::try_from(t).unwrap_or(i64::MAX))
                            }));
                            values.push(
                                m.eval
                                    .filter(|e| e.is_finite())
                                    .map_or(Value::Null, Value::Real),
                            );
                        }
                        stmt.execute(params_from_iter(values))?;
                    }
                }
                if index % 256 == 255 {
                    progress(index + 1);
                }
            }
            tally.write(tx)?;
            progress(games.len());
            Ok(report)
        })
    }
}
