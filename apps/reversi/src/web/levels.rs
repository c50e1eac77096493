//! `/api/levels`: the computer levels with their names, depths, time per move and tournament
//! rating, for the page's level pickers.

use axum::routing::get;
use axum::{Json, Router};
use reversi_api::levels::levels;
use reversi_engine::levels::Level;

use super::error::AppError;
use super::state::AppState;

/// The level a request asks for (`default` when it names none), or a 400 naming the range.
pub fn parse_level(level: Option<u8>, default: u8) -> Result<Level, AppError> {
    let n = level.unwrap_or(default);
    Level::new(n).ok_or_else(|| {
        AppError::bad_request(format!(
            "level {n} is out of range: expected {}-{}",
            Level::MIN,
            Level::MAX
        ))
    })
}

pub fn router() -> Router<AppState> {
    Router::new().route("/", get(|| async { Json(levels()) }))
}
