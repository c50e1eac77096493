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
use reversi_api::lines::{lines_view, LineView};

/// Game `id` with its variations.
pub fn load(store: &Store, id: GameId) -> Result<Replay, AppError> {
    let stored = store.load_game(id)?;
    let variations = store.variations(id)?;
    Ok(Replay::with_variations(stored, &variations)?)
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
