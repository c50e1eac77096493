//! Variations of stored games: lines that leave the game's own moves (or another variation)
//! at some move, kept as a tree, added to move by move and read back checked.

use std::collections::HashMap;

use reversi_core::{Game, Move};
use rusqlite::{params, Connection, OptionalExtension};

use crate::codec::{move_from_column, move_to_column};
use crate::store::{in_transaction, load_in, LoadError};
use crate::{now_utc, GameId, GameInfo, MoveRecord, Store, StoreError, Variation, VariationId};

impl Store {
    /// The variations of game `id`, oldest first (a parent before its children), each checked
    /// to replay.
    ///
    /// # Errors
    /// [`StoreError::NoSuchGame`], [`StoreError::Corrupt`] when a variation does not replay,
    /// or an SQLite error.
    ///
    /// # Examples
    /// Two moves of a game, a variation leaving it after the first, and a variation of that
    /// variation:
    /// ```
    /// use reversi_core::{BoardSize, Move, Rules};
    /// use reversi_store::{MoveRecord, NewGame, Player, Store};
    ///
    /// let mut store = Store::open_in_memory()?;
    /// let new = NewGame::standard(BoardSize::EIGHT, Rules::Othello,
    ///     Player::human("Ann"), Player::human("Ben"));
    /// let id = store.create_game(&new)?;
    /// let sq = |name: &str| new.start_position().parse_square(name).map(Move::Play);
    /// for name in ["f5", "d6"] {
    ///     store.append_move(id, &MoveRecord::bare(sq(name)?))?;
    /// }
    /// let v = store.add_variation(id, None, 1, &[sq("f6")?])?;
    /// store.append_variation_move(v, sq("e6")?)?;
    /// let w = store.add_variation(id, Some(v), 2, &[sq("d3")?])?;
    ///
    /// let found = store.variations(id)?;
    /// assert_eq!(found.len(), 2);
    /// assert_eq!((found[0].id, found[0].from_ply, found[0].moves.len()), (v, 1, 2));
    /// assert_eq!((found[1].id, found[1].parent, found[1].from_ply), (w, Some(v), 2));
    ///
    /// // A move that is not legal there is refused.
    /// assert!(store.add_variation(id, None, 0, &[sq("a1")?]).is_err());
    /// // Deleting a variation deletes the variations of it.
    /// assert!(store.delete_variation(v)?);
    /// assert!(store.variations(id)?.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn variations(&self, id: GameId) -> Result<Vec<Variation>, StoreError> {
        let err = self.sql();
        let (info, main) = load_in(&self.conn, id).map_err(|e| e.or_sql(&err))?;
        let found = rows_of(&self.conn, &info).map_err(|e| e.or_sql(&err))?;
        lines_of(&info, &main, &found)?;
        Ok(found)
    }

    /// Adds a variation of game `id` that leaves `parent` (`None`: the game's own moves) after
    /// `from_ply` of its moves and goes on with `moves` (at least one). Returns its id.
    ///
    /// # Errors
    /// [`StoreError::NoSuchGame`], [`StoreError::NoSuchVariation`] for a parent not of this
    /// game, [`StoreError::InvalidVariation`] for no moves, a branch point past the parent
    /// line's end or a move that is not legal; nothing is written then.
    pub fn add_variation(
        &mut self,
        id: GameId,
        parent: Option<VariationId>,
        from_ply: usize,
        moves: &[Move],
    ) -> Result<VariationId, StoreError> {
        in_transaction(self, |tx| {
            let (info, main) = load_in(tx, id)?;
            let found = rows_of(tx, &info)?;
            let lines = lines_of(&info, &main, &found)?;
            let base = match parent {
                None => main.iter().map(|m| m.mv).collect(),
                Some(p) => lines
                    .get(&p)
                    .cloned()
                    .ok_or(StoreError::NoSuchVariation(p))?,
            };
            let refuse = |reason: String| StoreError::InvalidVariation { game: id, reason };
            if moves.is_empty() {
                return Err(refuse("a variation needs at least one move".into()).into());
            }
            if from_ply > base.len() {
                return Err(refuse(format!(
                    "it leaves a line of {} moves after move {from_ply}",
                    base.len()
                ))
                .into());
            }
            let mut line = base[..from_ply].to_vec();
            line.extend_from_slice(moves);
            check_line(&info, &line, from_ply).map_err(refuse)?;
            tx.execute(
                "INSERT INTO variations (game_id, parent_id, from_ply, created_at) \
                 VALUES (?1, ?2, ?3, ?4)",
                params![id.0, parent.map(|p| p.0), from_ply as i64, now_utc()],
            )?;
            let vid = VariationId(tx.last_insert_rowid());
            for (ply, &mv) in moves.iter().enumerate() {
                insert_move(tx, vid, ply, mv, &info)?;
            }
            Ok(vid)
        })
    }

    /// Adds a move at the end of variation `id`. Returns its 0-based place among the
    /// variation's own moves.
    ///
    /// # Errors
    /// [`StoreError::NoSuchVariation`], [`StoreError::InvalidVariation`] for a move that is
    /// not legal there (nothing is written), or an SQLite error.
    pub fn append_variation_move(
        &mut self,
        id: VariationId,
        mv: Move,
    ) -> Result<usize, StoreError> {
        in_transaction(self, |tx| {
            let game = game_of(tx, id)?;
            let (info, main) = load_in(tx, game)?;
            let found = rows_of(tx, &info)?;
            let lines = lines_of(&info, &main, &found)?;
            let mut line = lines
                .get(&id)
                .cloned()
                .ok_or(StoreError::NoSuchVariation(id))?;
            let own = found
                .iter()
                .find(|v| v.id == id)
                .map_or(0, |v| v.moves.len());
            line.push(mv);
            check_line(&info, &line, line.len() - 1)
                .map_err(|reason| StoreError::InvalidVariation { game, reason })?;
            insert_move(tx, id, own, mv, &info)?;
            Ok(own)
        })
    }

    /// Deletes variation `id` and the variations of it. Returns whether it existed.
    ///
    /// # Errors
    /// On an SQLite error.
    pub fn delete_variation(&mut self, id: VariationId) -> Result<bool, StoreError> {
        let n = self
            .conn
            .execute("DELETE FROM variations WHERE id = ?1", [id.0])
            .map_err(self.sql())?;
        Ok(n > 0)
    }
}

/// The game a variation belongs to.
fn game_of(conn: &Connection, id: VariationId) -> Result<GameId, LoadError> {
    conn.query_row(
        "SELECT game_id FROM variations WHERE id = ?1",
        [id.0],
        |r| r.get(0),
    )
    .optional()?
    .map(GameId)
    .ok_or_else(|| StoreError::NoSuchVariation(id).into())
}

fn insert_move(
    conn: &Connection,
    id: VariationId,
    ply: usize,
    mv: Move,
    info: &GameInfo,
) -> Result<(), LoadError> {
    conn.execute(
        "INSERT INTO variation_moves (variation_id, ply, square) VALUES (?1, ?2, ?3)",
        params![id.0, ply as i64, move_to_column(mv, info.size)],
    )?;
    Ok(())
}

/// Replays `line` from the game's start; the moves before `checked_from` are known to replay.
fn check_line(info: &GameInfo, line: &[Move], checked_from: usize) -> Result<(), String> {
    Game::from_moves(info.start_position(), line)
        .map(|_| ())
        .map_err(|(ply, e)| {
            let own = ply.saturating_sub(checked_from) + 1;
            format!(
                "its move {own} ({}, move {} of the line): {e}",
                line[ply],
                ply + 1
            )
        })
}

/// The variations rows of a game, oldest first, with their own moves.
fn rows_of(conn: &Connection, info: &GameInfo) -> Result<Vec<Variation>, LoadError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, parent_id, from_ply, created_at FROM variations WHERE game_id = ?1 \
         ORDER BY id",
    )?;
    let heads = stmt
        .query_map([info.id.0], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, Option<i64>>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?;
    let mut moves_stmt = conn.prepare_cached(
        "SELECT ply, square FROM variation_moves WHERE variation_id = ?1 ORDER BY ply",
    )?;
    let mut out = Vec::with_capacity(heads.len());
    for (id, parent, from_ply, created_at) in heads {
        let corrupt = |reason: String| StoreError::Corrupt {
            game: info.id,
            reason: format!("variation {id}: {reason}"),
        };
        let rows = moves_stmt
            .query_map([id], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut moves = Vec::with_capacity(rows.len());
        for (i, (ply, square)) in rows.into_iter().enumerate() {
            if ply != i as i64 {
                return Err(corrupt(format!("move {} is missing", i + 1)).into());
            }
            let mv = move_from_column(square, info.size).ok_or_else(|| {
                corrupt(format!(
                    "move {}: square index {square:?} is off the board",
                    i + 1
                ))
            })?;
            moves.push(mv);
        }
        out.push(Variation {
            id: VariationId(id),
            parent: parent.map(VariationId),
            from_ply: usize::try_from(from_ply)
                .map_err(|_| corrupt(format!("from move {from_ply}")))?,
            moves,
            created_at,
        });
    }
    Ok(out)
}

/// Every variation's whole line from the game's start, checked to replay.
fn lines_of(
    info: &GameInfo,
    main: &[MoveRecord],
    found: &[Variation],
) -> Result<HashMap<VariationId, Vec<Move>>, StoreError> {
    let main: Vec<Move> = main.iter().map(|m| m.mv).collect();
    let mut lines: HashMap<VariationId, Vec<Move>> = HashMap::with_capacity(found.len());
    for v in found {
        let corrupt = |reason: String| StoreError::Corrupt {
            game: info.id,
            reason: format!("variation {}: {reason}", v.id),
        };
        // Parents come first: a variation is made after the line it leaves.
        let base = match v.parent {
            None => &main,
            Some(p) => lines
                .get(&p)
                .ok_or_else(|| corrupt(format!("it leaves variation {p}, not an earlier one")))?,
        };
        if v.from_ply > base.len() {
            return Err(corrupt(format!(
                "it leaves a line of {} moves after move {}",
                base.len(),
                v.from_ply
            )));
        }
        let mut line = base[..v.from_ply].to_vec();
        line.extend_from_slice(&v.moves);
        check_line(info, &line, v.from_ply).map_err(corrupt)?;
        lines.insert(v.id, line);
    }
    Ok(lines)
}
