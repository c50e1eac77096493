//! A stored game as the page keeps it in IndexedDB: plain JSON (players, dates, result, the
//! start as a board string, the moves with their times and evaluations, the variations),
//! written from and read back into the game layer's records.

use reversi_core::{BoardSize, Game, Move, Rules, Score, Square, TimeControl};
use reversi_formats::position::{board_string, parse_position};
use reversi_record::{
    GameId, GameInfo, MoveRecord, Player, PlayerKind, Status, StoreError, Termination, Variation,
    VariationId,
};
use serde::{Deserialize, Serialize};

/// One stored game.
#[derive(Debug, Clone)]
pub(crate) struct LocalGame {
    pub info: GameInfo,
    pub moves: Vec<MoveRecord>,
    pub variations: Vec<Variation>,
}

/// The game of `info` after `moves`.
pub(crate) fn replay(info: &GameInfo, moves: &[MoveRecord]) -> Result<Game, StoreError> {
    let mut game = Game::new(info.start_position());
    for (ply, m) in moves.iter().enumerate() {
        game.play(m.mv).map_err(|e| StoreError::Corrupt {
            game: info.id,
            reason: format!("move {} does not replay: {e}", ply + 1),
        })?;
    }
    Ok(game)
}

/// One game, as IndexedDB keeps it (keyed by `id`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredRecord {
    pub id: i64,
    pub size: u8,
    pub rules: String,
    /// A set-up start as a board string (`---…OX… X`); `null` for the standard start.
    pub start: Option<String>,
    pub black: PlayerRecord,
    pub white: PlayerRecord,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub status: String,
    /// Black's and White's discs at the end.
    pub score: Option<[u16; 2]>,
    pub event: Option<String>,
    pub source: Option<String>,
    pub clock: Option<String>,
    pub termination: Option<String>,
    pub moves: Vec<MoveEntry>,
    pub variations: Vec<VariationRecord>,
}

/// A side's player.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub name: String,
    pub kind: String,
    pub level: Option<String>,
}

/// A move with what is known of it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MoveEntry {
    /// A square (`f5`) or `PA`.
    pub mv: String,
    pub time_ms: Option<u64>,
    pub eval: Option<f64>,
}

/// A variation of the game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VariationRecord {
    pub id: i64,
    pub parent: Option<i64>,
    pub from_ply: usize,
    pub moves: Vec<String>,
    pub created_at: String,
}

/// A move's name as the page writes it: the square, or `PA` for a pass.
pub fn move_name(mv: Move) -> String {
    mv.to_string()
}

/// A move named as [`move_name`] writes it (also `pass`), on a board of `size`.
///
/// # Errors
/// The name is neither a square of the board nor a pass.
pub fn parse_move(text: &str, size: BoardSize) -> Result<Move, String> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pa") || t.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    Square::parse(t, size)
        .map(Move::Play)
        .map_err(|e| e.to_string())
}

impl PlayerRecord {
    fn of(p: &Player) -> PlayerRecord {
        PlayerRecord {
            name: p.name.clone(),
            kind: p.kind.name().to_string(),
            level: p.level.clone(),
        }
    }

    fn to_player(&self) -> Player {
        Player {
            name: self.name.clone(),
            kind: if self.kind == "computer" {
                PlayerKind::Computer
            } else {
                PlayerKind::Human
            },
            level: self.level.clone(),
        }
    }
}

impl StoredRecord {
    pub(crate) fn of(id: i64, g: &LocalGame) -> StoredRecord {
        let info = &g.info;
        StoredRecord {
            id,
            size: info.size.get(),
            rules: info.rules.name().to_string(),
            start: info.start.as_ref().map(board_string),
            black: PlayerRecord::of(&info.black),
            white: PlayerRecord::of(&info.white),
            started_at: info.started_at.clone(),
            ended_at: info.ended_at.clone(),
            status: info.status.name().to_string(),
            score: info.score.map(|s| [s.black, s.white]),
            event: info.event.clone(),
            source: info.source.clone(),
            clock: info.clock.map(|c| c.to_string()),
            termination: info.termination.map(|t| t.name().to_string()),
            moves: g
                .moves
                .iter()
                .map(|m| MoveEntry {
                    mv: move_name(m.mv),
                    time_ms: m.time_ms,
                    eval: m.eval,
                })
                .collect(),
            variations: g
                .variations
                .iter()
                .map(|v| VariationRecord {
                    id: v.id.0,
                    parent: v.parent.map(|p| p.0),
                    from_ply: v.from_ply,
                    moves: v.moves.iter().map(|&m| move_name(m)).collect(),
                    created_at: v.created_at.clone(),
                })
                .collect(),
        }
    }

    /// The game this record keeps, its moves checked to replay.
    ///
    /// # Errors
    /// A field out of range, or moves that do not replay.
    pub(crate) fn to_game(&self) -> Result<LocalGame, String> {
        let size = BoardSize::new(self.size).map_err(|e| e.to_string())?;
        let rules: Rules = self.rules.parse().map_err(|e| format!("{e}"))?;
        let start = match &self.start {
            None => None,
            Some(text) => Some(
                parse_position(text, size, rules)
                    .map_err(|e| e.to_string())?
                    .position()
                    .clone(),
            ),
        };
        let status: Status = self.status.parse().map_err(|e| format!("{e}"))?;
        let score = self.score.map(|[black, white]| Score { black, white });
        let clock = match &self.clock {
            None => None,
            Some(c) => Some(c.parse::<TimeControl>().map_err(|e| e.to_string())?),
        };
        let moves = self
            .moves
            .iter()
            .map(|m| {
                Ok(MoveRecord {
                    mv: parse_move(&m.mv, size)?,
                    time_ms: m.time_ms,
                    eval: m.eval,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let variations = self
            .variations
            .iter()
            .map(|v| {
                Ok(Variation {
                    id: VariationId(v.id),
                    parent: v.parent.map(VariationId),
                    from_ply: v.from_ply,
                    moves: v
                        .moves
                        .iter()
                        .map(|m| parse_move(m, size))
                        .collect::<Result<_, _>>()?,
                    created_at: v.created_at.clone(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let info = GameInfo {
            id: GameId(self.id),
            size,
            rules,
            start,
            black: self.black.to_player(),
            white: self.white.to_player(),
            started_at: self.started_at.clone(),
            ended_at: self.ended_at.clone(),
            status,
            result: score.map(|s| s.outcome()),
            score,
            event: self.event.clone(),
            source: self.source.clone(),
            move_count: moves.len(),
            clock,
            termination: self.termination.as_deref().and_then(Termination::from_name),
        };
        replay(&info, &moves).map_err(|e| e.to_string())?;
        Ok(LocalGame {
            info,
            moves,
            variations,
        })
    }
}
