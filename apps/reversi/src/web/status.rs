//! `/api/server`: how busy the server is — games in memory, searches running and waiting,
//! event streams open — for operators and the load benchmark.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use super::state::AppState;

#[derive(Debug, Serialize)]
struct ServerStatus {
    games_loaded: usize,
    searches_running: usize,
    searches_waiting: usize,
    streams: usize,
}

pub fn router() -> Router<AppState> {
    Router::new().route("/", get(status))
}

async fn status(State(app): State<AppState>) -> Json<ServerStatus> {
    let (searches_running, searches_waiting) = app.backend().pool().load();
    Json(ServerStatus {
        games_loaded: app.loaded(),
        searches_running,
        searches_waiting,
        streams: app.open_streams(),
    })
}
