//! `/api/explore`: the opening explorer over the history, for the table beside the page's
//! board: the moves the stored games played from a position (in any orientation), with their
//! games, Black's results and the engine's value.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use reversi_core::{BoardSize, Rules};
use reversi_formats::position::parse_position;
use reversi_game::{explore, search_values, Valuation, EXPLORER_LEVEL};
use serde::Deserialize;

use super::backend::{Backend, StopOnDrop};
use super::client::Client;
use super::error::{ApiQuery, AppError};
use super::levels::parse_level;
use super::state::AppState;
use reversi_api::explore::ExploreView;

pub fn router() -> Router<AppState> {
    Router::new().route("/", get(explore_position))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExploreQuery {
    /// A board and side to move, an OBF line, a GGF game or a transcript [default: the start].
    position: Option<String>,
    /// Start rule of a transcript or board [default othello].
    rules: Option<String>,
    /// The level whose search values the moves the book lacks [default 6]; 0 for the book's
    /// values alone.
    level: Option<u8>,
}

/// One move played from the position.
async fn explore_position(
    State(app): State<AppState>,
    client: Client,
    ApiQuery(q): ApiQuery<ExploreQuery>,
) -> Result<Json<ExploreView>, AppError> {
    let rules = match q.rules.as_deref() {
        None => Rules::Othello,
        Some(r) => r
            .parse::<Rules>()
            .map_err(|e| AppError::bad_request(e.to_string()))?,
    };
    let position = match q.position.as_deref().map(str::trim) {
        None | Some("") => reversi_core::Position::start(BoardSize::EIGHT, rules),
        Some(text) => parse_position(text, BoardSize::EIGHT, rules)
            .map_err(|e| AppError::bad_request(format!("{text:?}: {e}")))?
            .position()
            .clone(),
    };
    if position.size() != BoardSize::EIGHT {
        return Err(AppError::bad_request(format!(
            "the explorer covers 8x8 games; this position is {}",
            position.size()
        )));
    }
    let level = match q.level {
        Some(0) => None,
        other => Some(parse_level(other, EXPLORER_LEVEL)?),
    };
    // The database answers at once; a search for the moves the book lacks waits for a slot
    // of the search pool, as hints do.
    let mut explored = explore(&*app.store(), app.advisor(), &position, Valuation::Book)?;
    if let Some(level) = level {
        if explored.lines.iter().any(|l| l.value.is_none()) {
            let ticket = app.backend().pool().admit(&client.0)?;
            // Dropped with the request: a client that goes away stops the search.
            let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
            let cap = level.spec().time + app.backend().search_cap;
            let advisor = app.advisor().clone();
            explored = Backend::run(ticket, &stop, cap, move |flag| {
                search_values(&mut explored, &advisor, level, flag);
                explored
            })
            .await?;
        }
    }
    Ok(Json(ExploreView::of(&explored)))
}
