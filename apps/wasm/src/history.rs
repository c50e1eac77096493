//! The browser's stored games: kept in memory while the page is open, written to IndexedDB by
//! the page after every change (the records [`LocalHistory::changes`] hands out) and read back
//! at the next visit ([`LocalHistory::load`]). It is the game layer's [`Archive`] and, through
//! [`LocalLog`], the [`GameLog`] its sessions save into. Its opening explorer counts the
//! moves of its finished 8x8 games under the SQLite index's keys (any of the eight
//! orientations, symmetric moves as one, up to 28 discs), by reading the games: a browser
//! holds hundreds of games, not millions.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use reversi_core::bit_symmetry::{image_square, inverse};
use reversi_core::{BoardSize, Color, Game, Move, Position, Score, Square};
use reversi_game::{stored_player, GameLog, LogError, LogId, LoggedMove, Settings, PERSON_NAME};
use reversi_record::explorer_keys::{counted_score, game_entries, lookup_key};
use reversi_record::{
    kept, Archive, ExplorerMove, GameFilter, GameId, GameInfo, ImportGame, MoveRecord, NewGame,
    Status, StoreError, StoredGame, Termination, Variation, VariationId, Writer,
};

use crate::record::{replay, LocalGame, StoredRecord};

/// The games of this browser, with what changed since the page last wrote them.
#[derive(Debug, Default)]
pub struct LocalHistory {
    games: BTreeMap<i64, LocalGame>,
    /// The id the next game gets: above every id this browser gave, deleted ones included.
    next_id: i64,
    next_variation: i64,
    changed: BTreeSet<i64>,
    deleted: BTreeSet<i64>,
    /// The time now as text (`2026-12-02T10:00:00Z`), from the page.
    now: String,
}

fn no_game(id: GameId) -> StoreError {
    StoreError::NoSuchGame(id)
}

impl LocalHistory {
    /// Sets the wall-clock time that new records and ends are stamped with.
    pub fn set_now(&mut self, now: String) {
        self.now = now;
    }

    /// Reads back the records the page kept; a record that does not read is skipped and
    /// named in the returned list.
    pub fn load(&mut self, records: Vec<StoredRecord>) -> Vec<String> {
        let mut refused = Vec::new();
        for record in records {
            let id = record.id;
            // Even a record that does not read keeps its id: a new game must not take it
            // and overwrite the record in the page's storage.
            self.next_id = self.next_id.max(id + 1);
            match record.to_game() {
                Ok(game) => {
                    for v in &game.variations {
                        self.next_variation = self.next_variation.max(v.id.0 + 1);
                    }
                    self.games.insert(id, game);
                }
                Err(e) => refused.push(format!("game {id}: {e}")),
            }
        }
        if let Some(max) = self.games.keys().next_back() {
            self.next_id = self.next_id.max(max + 1);
        }
        refused
    }

    /// The records changed since the last call, and the ids deleted.
    pub fn changes(&mut self) -> (Vec<StoredRecord>, Vec<i64>) {
        let put = std::mem::take(&mut self.changed)
            .into_iter()
            .filter_map(|id| self.games.get(&id).map(|g| StoredRecord::of(id, g)))
            .collect();
        (put, std::mem::take(&mut self.deleted).into_iter().collect())
    }

    /// How many games are stored.
    pub fn count(&self) -> usize {
        self.games.len()
    }

    fn game_mut(&mut self, id: GameId) -> Result<&mut LocalGame, StoreError> {
        self.changed.insert(id.0);
        self.games.get_mut(&id.0).ok_or(no_game(id))
    }

    fn in_progress(&mut self, id: GameId) -> Result<&mut LocalGame, StoreError> {
        let game = self.game_mut(id)?;
        if game.info.status != Status::InProgress {
            return Err(StoreError::NotInProgress(id));
        }
        Ok(game)
    }

    /// Stores a new game with no moves.
    pub fn create_game(&mut self, new: &NewGame) -> GameId {
        let id = self.next_id.max(1);
        self.next_id = id + 1;
        let info = GameInfo {
            id: GameId(id),
            size: new.size,
            rules: new.rules,
            start: new.start.clone(),
            black: new.black.kept(),
            white: new.white.kept(),
            started_at: Some(
                new.started_at
                    .as_deref()
                    .map_or_else(|| self.now.clone(), |s| kept(s).to_string()),
            ),
            ended_at: None,
            status: Status::InProgress,
            result: None,
            score: None,
            event: None,
            source: None,
            move_count: 0,
            clock: new.clock,
            termination: None,
        };
        self.games.insert(
            id,
            LocalGame {
                info,
                moves: Vec::new(),
                variations: Vec::new(),
            },
        );
        self.changed.insert(id);
        GameId(id)
    }

    /// Adds the next move of a game in progress, checked against the rules.
    ///
    /// # Errors
    /// No such game, a game that has ended, or an illegal move.
    pub fn append_move(&mut self, id: GameId, record: &MoveRecord) -> Result<(), StoreError> {
        let game = self.in_progress(id)?;
        let mut replayed = replay(&game.info, &game.moves)?;
        let ply = game.moves.len();
        replayed
            .play(record.mv)
            .map_err(|reason| StoreError::IllegalMove {
                game: id,
                ply,
                reason,
            })?;
        game.moves.push(*record);
        game.info.move_count = game.moves.len();
        Ok(())
    }

    /// Takes back the last move of a game in progress.
    ///
    /// # Errors
    /// No such game, or a game that has ended.
    pub fn undo_move(&mut self, id: GameId) -> Result<(), StoreError> {
        let game = self.in_progress(id)?;
        game.moves.pop();
        game.info.move_count = game.moves.len();
        Ok(())
    }

    fn end(
        &mut self,
        id: GameId,
        status: Status,
        score: Option<Score>,
        termination: Option<Termination>,
    ) -> Result<(), StoreError> {
        let now = self.now.clone();
        let game = self.in_progress(id)?;
        game.info.status = status;
        game.info.score = score;
        game.info.result = score.map(|s| s.outcome());
        game.info.termination = termination;
        game.info.ended_at = Some(now);
        Ok(())
    }

    /// Marks a game finished with its final score.
    ///
    /// # Errors
    /// No such game, or a game that has ended.
    pub fn finish_game(&mut self, id: GameId, score: Score) -> Result<(), StoreError> {
        self.end(id, Status::Finished, Some(score), None)
    }

    /// Marks a game lost on time by `loser`.
    ///
    /// # Errors
    /// No such game, or a game that has ended.
    pub fn finish_on_time(&mut self, id: GameId, loser: Color) -> Result<(), StoreError> {
        let size = self.games.get(&id.0).ok_or(no_game(id))?.info.size;
        self.end(
            id,
            Status::Finished,
            Some(Score::forfeit(loser, size)),
            Some(Termination::Time),
        )
    }

    /// Marks a game abandoned (resigned, or left unfinished).
    ///
    /// # Errors
    /// No such game, or a game that has ended.
    pub fn abandon_game(&mut self, id: GameId) -> Result<(), StoreError> {
        self.end(id, Status::Abandoned, None, None)
    }

    /// The stored games newest first, as `filter` limits them, and how many there are.
    pub fn list_games(&self, filter: &GameFilter) -> (Vec<GameInfo>, usize) {
        let all: Vec<&LocalGame> = self
            .games
            .values()
            .rev()
            .filter(|g| filter.status.is_none_or(|s| g.info.status == s))
            .filter(|g| {
                filter.player.as_deref().is_none_or(|p| {
                    let p = p.to_lowercase();
                    g.info.black.name.to_lowercase().contains(&p)
                        || g.info.white.name.to_lowercase().contains(&p)
                })
            })
            .collect();
        let total = all.len();
        let page = all
            .into_iter()
            .skip(filter.offset)
            .take(filter.limit.unwrap_or(usize::MAX))
            .map(|g| g.info.clone())
            .collect();
        (page, total)
    }

    /// Deletes a game; whether there was one.
    pub fn delete_game(&mut self, id: GameId) -> bool {
        let found = self.games.remove(&id.0).is_some();
        if found {
            self.changed.remove(&id.0);
            self.deleted.insert(id.0);
        }
        found
    }

    /// Adds imported games, all or none; a game already stored (same players, start and
    /// moves) is skipped. Returns (added, skipped).
    ///
    /// # Errors
    /// [`StoreError::Rejected`] naming the first game whose moves do not replay.
    pub fn import_games(&mut self, games: &[ImportGame]) -> Result<(usize, usize), StoreError> {
        let mut new = Vec::new();
        for (index, g) in games.iter().enumerate() {
            let start = g.game.start_position();
            let mut replayed = Game::new(start);
            for (ply, m) in g.moves.iter().enumerate() {
                replayed.play(m.mv).map_err(|e| StoreError::Rejected {
                    index,
                    reason: format!("move {}: {e}", ply + 1),
                })?;
            }
            let duplicate = self
                .games
                .values()
                .chain(new.iter())
                .any(|s| same_game(s, g));
            if duplicate {
                continue;
            }
            new.push(LocalGame {
                info: GameInfo {
                    id: GameId(0),
                    size: g.game.size,
                    rules: g.game.rules,
                    start: g.game.start.clone(),
                    black: g.game.black.kept(),
                    white: g.game.white.kept(),
                    started_at: g.game.started_at.as_deref().map(|s| kept(s).to_string()),
                    ended_at: g.ended_at.as_deref().map(|s| kept(s).to_string()),
                    status: g.status,
                    result: g.result,
                    score: g.score,
                    event: g.event.as_deref().map(|s| kept(s).to_string()),
                    source: g.source.as_deref().map(|s| kept(s).to_string()),
                    move_count: g.moves.len(),
                    clock: g.game.clock,
                    termination: g.termination,
                },
                moves: g.moves.clone(),
                variations: Vec::new(),
            });
        }
        let added = new.len();
        for mut game in new {
            let id = self.next_id.max(1);
            self.next_id = id + 1;
            game.info.id = GameId(id);
            self.games.insert(id, game);
            self.changed.insert(id);
        }
        Ok((added, games.len() - added))
    }

    /// The variations of a game, a parent before its children.
    ///
    /// # Errors
    /// No such game.
    pub fn variations(&self, id: GameId) -> Result<Vec<Variation>, StoreError> {
        Ok(self.games.get(&id.0).ok_or(no_game(id))?.variations.clone())
    }
}

/// Whether stored game `s` is imported game `g` again.
fn same_game(s: &LocalGame, g: &ImportGame) -> bool {
    s.info.size == g.game.size
        && s.info.rules == g.game.rules
        && s.info.start_position() == g.game.start_position()
        && s.info.black.name == kept(&g.game.black.name)
        && s.info.white.name == kept(&g.game.white.name)
        && s.moves
            .iter()
            .map(|m| m.mv)
            .eq(g.moves.iter().map(|m| m.mv))
}

/// The line a variation leaves, as moves from the start.
fn line_moves(game: &LocalGame, parent: Option<VariationId>) -> Result<Vec<Move>, StoreError> {
    match parent {
        None => Ok(game.moves.iter().map(|m| m.mv).collect()),
        Some(p) => {
            let v = game
                .variations
                .iter()
                .find(|v| v.id == p)
                .ok_or(StoreError::NoSuchVariation(p))?;
            let mut moves = line_moves(game, v.parent)?;
            moves.truncate(v.from_ply);
            moves.extend(&v.moves);
            Ok(moves)
        }
    }
}

impl Archive for LocalHistory {
    fn load_game(&self, id: GameId) -> Result<StoredGame, StoreError> {
        let g = self.games.get(&id.0).ok_or(no_game(id))?;
        Ok(StoredGame {
            info: g.info.clone(),
            moves: g.moves.clone(),
            game: replay(&g.info, &g.moves)?,
        })
    }

    fn take_lease(&self, id: GameId, _: &Writer, _: Duration) -> Result<(), StoreError> {
        // One page writes this browser's games.
        self.games.get(&id.0).map(drop).ok_or(no_game(id))
    }

    fn add_variation(
        &mut self,
        game: GameId,
        parent: Option<VariationId>,
        ply: usize,
        moves: &[Move],
    ) -> Result<VariationId, StoreError> {
        let now = self.now.clone();
        let vid = VariationId(self.next_variation.max(1));
        let g = self.game_mut(game)?;
        let line = line_moves(g, parent)?;
        let invalid = |reason: String| StoreError::InvalidVariation { game, reason };
        if moves.is_empty() {
            return Err(invalid("a variation needs a move".into()));
        }
        if ply > line.len() {
            return Err(invalid(format!(
                "it leaves its line after {ply} moves, but the line has {}",
                line.len()
            )));
        }
        let mut replayed = Game::new(g.info.start_position());
        for &mv in line[..ply].iter().chain(moves) {
            replayed
                .play(mv)
                .map_err(|e| invalid(format!("{mv}: {e}")))?;
        }
        g.variations.push(Variation {
            id: vid,
            parent,
            from_ply: ply,
            moves: moves.to_vec(),
            created_at: now,
        });
        self.next_variation = vid.0 + 1;
        Ok(vid)
    }

    fn append_variation_move(&mut self, id: VariationId, mv: Move) -> Result<(), StoreError> {
        let (game_id, index) = self
            .games
            .iter()
            .find_map(|(&gid, g)| {
                g.variations
                    .iter()
                    .position(|v| v.id == id)
                    .map(|i| (gid, i))
            })
            .ok_or(StoreError::NoSuchVariation(id))?;
        let g = self.game_mut(GameId(game_id))?;
        let mut moves = line_moves(g, Some(id))?;
        moves.push(mv);
        let mut replayed = Game::new(g.info.start_position());
        for (ply, &m) in moves.iter().enumerate() {
            replayed.play(m).map_err(|reason| StoreError::IllegalMove {
                game: GameId(game_id),
                ply,
                reason,
            })?;
        }
        g.variations[index].moves.push(mv);
        Ok(())
    }

    fn explore(&self, pos: &Position) -> Result<Vec<ExplorerMove>, StoreError> {
        let Some((key, s)) = lookup_key(pos) else {
            return Ok(Vec::new());
        };
        // Every counted game's entries under the position's key, tallied by the move in the
        // least image's orientation, as the SQLite index keeps them.
        let mut tally: BTreeMap<u8, (u64, u64, u64, i64)> = BTreeMap::new();
        for g in self.games.values() {
            let Some(score) = counted_score(g.info.size, g.info.status, g.info.score) else {
                continue;
            };
            let moves: Vec<Move> = g.moves.iter().map(|m| m.mv).collect();
            let margin = i64::from(score.black) - i64::from(score.white);
            for (k, square) in game_entries(&g.info.start_position(), &moves) {
                if k == key {
                    let t = tally.entry(square).or_default();
                    t.0 += 1;
                    t.1 += u64::from(margin > 0);
                    t.2 += u64::from(margin == 0);
                    t.3 += margin;
                }
            }
        }
        let back = inverse(s);
        let mut moves: Vec<ExplorerMove> = tally
            .into_iter()
            .filter_map(|(square, (games, black_wins, draws, disc_sum))| {
                let index = image_square(u32::from(square), back) as usize;
                let sq = Square::from_index(index, BoardSize::EIGHT)?;
                // Another position with the same key shows as moves not legal here.
                pos.is_legal(sq).then_some(ExplorerMove {
                    square: sq,
                    games,
                    black_wins,
                    draws,
                    disc_sum,
                })
            })
            .collect();
        moves.sort_by(|a, b| b.games.cmp(&a.games).then(a.square.cmp(&b.square)));
        Ok(moves)
    }
}

/// A session's log over the browser's history: the record is made with the game (its id is
/// the page's address for it), and each move, take-back and end is kept at once.
pub struct LocalLog {
    history: Arc<Mutex<LocalHistory>>,
    /// The record made for the game before its session started, used by the first create.
    premade: Option<(GameId, NewGame)>,
}

impl LocalLog {
    /// A log into `history`, whose first game is the record `id` already made from `new`.
    pub fn with_record(history: Arc<Mutex<LocalHistory>>, id: GameId, new: NewGame) -> LocalLog {
        LocalLog {
            history,
            premade: Some((id, new)),
        }
    }

    /// A log into `history` for a resumed game (already stored).
    pub fn resumed(history: Arc<Mutex<LocalHistory>>) -> LocalLog {
        LocalLog {
            history,
            premade: None,
        }
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut LocalHistory) -> Result<T, StoreError>,
    ) -> Result<T, LogError> {
        let mut h = self.history.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut h).map_err(|e| LogError(e.to_string()))
    }
}

impl GameLog for LocalLog {
    fn create(&mut self, settings: &Settings, start: &Position) -> Result<LogId, LogError> {
        if let Some((id, _)) = self.premade.take() {
            return Ok(LogId(id.0));
        }
        // A rematch: a new record with the same players swapped as the settings say.
        let standard = Position::start(settings.size, settings.rules);
        let new = NewGame {
            start: (*start != standard).then(|| start.clone()),
            clock: settings.clock,
            ..NewGame::standard(
                settings.size,
                settings.rules,
                stored_player(settings.black, PERSON_NAME),
                stored_player(settings.white, PERSON_NAME),
            )
        };
        self.with(|h| Ok(LogId(h.create_game(&new).0)))
    }

    fn append(&mut self, id: LogId, mv: &LoggedMove) -> Result<(), LogError> {
        let record = MoveRecord {
            mv: mv.mv,
            time_ms: mv.time_ms,
            eval: mv.eval,
        };
        self.with(|h| h.append_move(GameId(id.0), &record))
    }

    fn undo(&mut self, id: LogId) -> Result<(), LogError> {
        self.with(|h| h.undo_move(GameId(id.0)))
    }

    fn finish(&mut self, id: LogId, score: Score) -> Result<(), LogError> {
        self.with(|h| h.finish_game(GameId(id.0), score))
    }

    fn lose_on_time(&mut self, id: LogId, loser: Color) -> Result<(), LogError> {
        self.with(|h| h.finish_on_time(GameId(id.0), loser))
    }
}
