//! A stored game's variations for the page's replay: every line (the game's own moves, then
//! each variation) with its positions and where other lines part from it, and
//! `POST /api/history/ID/variations`, which plays a move at any point of a line and saves the
//! variation it makes or extends.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use reversi_core::{Move, Position};
use reversi_game::{Replay, VariationError};
use reversi_store::{GameId, Store, VariationId};
use serde::{Deserialize, Serialize};

use super::error::{ApiJson, ApiPath, AppError};
use super::state::AppState;
use super::view::{replay as replay_steps, ReplayStep};

/// One line of a replay.
#[derive(Debug, Serialize)]
pub struct LineView {
    /// Its place in the list (0: the game's own moves).
    pub index: usize,
    /// The variation's id, which `POST …/variations` names it by; `null` for the game's own
    /// moves.
    pub id: Option<i64>,
    /// `main line`, `variation 2 from move 12`.
    pub name: String,
    /// The index of the line it leaves.
    pub parent: Option<usize>,
    /// How many moves it shares with the line it leaves.
    pub from_ply: usize,
    /// The whole line from the game's start.
    pub moves: Vec<String>,
    /// Every position of the line, start first.
    pub positions: Vec<ReplayStep>,
    /// The points where another line goes on differently.
    pub branches: Vec<BranchView>,
}

/// A point of a line where other lines part from it.
#[derive(Debug, Serialize)]
pub struct BranchView {
    /// Moves before it (the position after `ply` moves).
    pub ply: usize,
    /// Every move played there, each with the line that goes on with it (this line's own
    /// move included when it has one).
    pub moves: Vec<Alternative>,
}

#[derive(Debug, Serialize)]
pub struct Alternative {
    #[serde(rename = "move")]
    pub mv: String,
    pub line: usize,
}

/// Game `id` with its variations.
pub fn load(store: &Store, id: GameId) -> Result<Replay, AppError> {
    let stored = store.load_game(id)?;
    let variations = store.variations(id)?;
    Ok(Replay::with_variations(stored, &variations)?)
}

/// Every line of `replay`, as the page draws them.
pub fn lines_view(replay: &Replay) -> Vec<LineView> {
    // Looking round moves the replay: a copy does, and the caller's stays as it was.
    let mut r = replay.clone();
    (0..replay.lines().len())
        .map(|index| {
            r.show(index);
            let branches = r
                .branch_plies()
                .into_iter()
                .map(|ply| {
                    r.jump(ply);
                    BranchView {
                        ply,
                        moves: r
                            .alternatives()
                            .into_iter()
                            .map(|(mv, line)| Alternative {
                                mv: mv.to_string(),
                                line,
                            })
                            .collect(),
                    }
                })
                .collect();
            let line = &replay.lines()[index];
            LineView {
                index,
                id: line.id.map(|v| v.0),
                name: replay.line_name(index),
                parent: line.parent,
                from_ply: line.from_ply,
                moves: line.game.moves().iter().map(ToString::to_string).collect(),
                positions: replay_steps(&line.game),
                branches,
            }
        })
        .collect()
}

/// A move played in a replay.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariationRequest {
    /// The line's variation id (`LineView::id`); `null` or left out for the game's own moves.
    line: Option<i64>,
    /// Moves of the line before the move played.
    ply: usize,
    /// A square (`f6`), or `pass`.
    #[serde(rename = "move")]
    mv: String,
}

/// The replay after a move: the line shown, how far into it, and every line.
#[derive(Debug, Serialize)]
pub struct Played {
    pub shown: usize,
    pub ply: usize,
    pub lines: Vec<LineView>,
}

/// `pass` (or `PA`, as the move lists write it), else a square of `pos`.
fn parse_move(text: &str, pos: &Position) -> Result<Move, AppError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("pa") {
        return Ok(Move::Pass);
    }
    pos.parse_square(t)
        .map(Move::Play)
        .map_err(|e| AppError::bad_request(format!("bad move {text:?}: {e}")))
}

impl From<VariationError> for AppError {
    fn from(e: VariationError) -> AppError {
        match e {
            VariationError::Store(e) => AppError::from(e),
            VariationError::NoSuchLine(_) => AppError::not_found(e.to_string()),
            VariationError::Illegal(_) | VariationError::NoSuchPly { .. } => {
                AppError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())
            }
        }
    }
}

/// Plays a move in a replay. No admin token: a variation only adds to a game's record (the
/// origin check still refuses one sent from another site's page).
pub async fn play(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<VariationRequest>,
) -> Result<Json<Played>, AppError> {
    let mut store = app.store();
    let mut replay = load(&store, GameId(id))?;
    // The square is read on the game's board (its size); the move's legality is the replay's.
    let mv = parse_move(&req.mv, replay.game.start())?;
    replay.play_after(req.line.map(VariationId), req.ply, mv, &mut *store)?;
    drop(store);
    Ok(Json(Played {
        shown: replay.shown(),
        ply: replay.ply(),
        lines: lines_view(&replay),
    }))
}
