//! `/api/position`: a position given as text (a board string with the side to move, an OBF
//! line, a GGF `BO` or a transcript) read and checked, as the page's position editor needs it;
//! every legal move of it scored (within the level's time, through the search pool); and its
//! picture as SVG (the renderer `reversi history export --format svg` uses).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use reversi_core::Position;
use reversi_formats::position::PositionInput;
use serde::Deserialize;

use super::backend::StopOnDrop;
use super::client::Client;
use super::error::{ApiJson, ApiQuery, AppError};
use super::levels::parse_level;
use super::state::AppState;
use reversi_api::new_game::{self, RequestError};
use reversi_api::position::{after_forced_pass, position_image, PositionAnalysis};
use reversi_api::view::PositionView;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", post(read))
        .route("/analysis", post(analysis))
        .route("/svg", get(svg))
}

/// Reads `text` as a position: a transcript is played on `size` (default 8) from the start
/// of `rules` (default `othello`), which is also the rule of a board or OBF line.
pub fn read_position(
    text: &str,
    size: Option<u8>,
    rules: Option<&str>,
) -> Result<PositionInput, AppError> {
    new_game::read_position(text, size, rules).map_err(|e| match e {
        RequestError::BadRequest(m) => AppError::bad_request(m),
        RequestError::Unprocessable(m) => AppError::new(StatusCode::UNPROCESSABLE_ENTITY, m),
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The position, in any notation [`read_position`] reads.
    position: String,
    /// The board a transcript is played on (default 8).
    size: Option<u8>,
    /// `othello` (the default) or `reversi`.
    rules: Option<String>,
}

/// Reads and checks a position; 422 with the reason for one that cannot be read or cannot
/// arise in a game.
async fn read(ApiJson(req): ApiJson<PositionRequest>) -> Result<Json<PositionView>, AppError> {
    let input = read_position(&req.position, req.size, req.rules.as_deref())?;
    Ok(Json(PositionView::of(&input)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    position: String,
    size: Option<u8>,
    rules: Option<String>,
    /// 1-60 [default 10, as `reversi analyze`].
    level: Option<u8>,
}

/// Every legal move of a position scored, as `reversi analyze` does; a search within the
/// level's time (and the server's cap), waiting for a slot like a hint.
async fn analysis(
    State(app): State<AppState>,
    client: Client,
    ApiJson(req): ApiJson<AnalysisRequest>,
) -> Result<Json<reversi_api::position::PositionAnalysis>, AppError> {
    let level = parse_level(req.level, 10)?;
    let (input, passed) = after_forced_pass(read_position(
        &req.position,
        req.size,
        req.rules.as_deref(),
    )?);
    let position: Position = input.position().clone();
    let ticket = app.backend().pool().admit(&client.0)?;
    // Dropped with the request: a client that goes away stops the search.
    let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
    let advisor = app.advisor().clone();
    let lines = app
        .backend()
        .request(None, ticket, &stop, app.backend().search_cap, move |flag| {
            advisor.hint_lines(&position, level, flag, &mut |_| {})
        })
        .await?;
    Ok(Json(PositionAnalysis::of(level, &input, passed, &lines)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SvgQuery {
    position: String,
    size: Option<u8>,
    rules: Option<String>,
    /// The move that reached the position, ringed: a square, or `pass`; a transcript's own
    /// last move when left out.
    last: Option<String>,
    /// Mark the legal moves (`1` or `true`).
    legal: Option<String>,
    /// A line under the board (at most 120 characters).
    caption: Option<String>,
}

/// The position's picture, as a file to download.
async fn svg(ApiQuery(q): ApiQuery<SvgQuery>) -> Result<impl IntoResponse, AppError> {
    let input = read_position(&q.position, q.size, q.rules.as_deref())?;
    let svg = position_image(&input, q.last.as_deref(), q.legal.as_deref(), q.caption)
        .map_err(AppError::bad_request)?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"reversi-position.svg\"",
            ),
        ],
        svg,
    ))
}
