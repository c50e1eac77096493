//! `/api/history`: the stored games — list, one game with every position for the replay,
//! delete, export (GGF or transcript), import (an uploaded file), and analysis.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use reversi_store::{GameFilter, GameId, ImportGame, Status};
use serde::{Deserialize, Serialize};

use super::backend::StopOnDrop;
use super::client::Client;
use super::error::{ApiBytes, ApiJson, ApiPath, ApiQuery, AppError};
use super::levels::parse_level;
use super::state::AppState;
use super::variations;
use reversi_api::levels::scale_level;
use reversi_api::lines::{lines_view, LineView};
use reversi_api::upload::{read_games, UploadError};
use reversi_api::view::{replay, AnalysisView, InfoView, ReplayStep};
use reversi_game::{analysis::analyze_alone, convert};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(list))
        .route("/import", post(import))
        .route("/{id}", get(show).delete(delete))
        .route("/{id}/export", get(export))
        .route("/{id}/analysis", post(analysis))
        .route("/{id}/variations", post(variations::play))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// At most this many games, newest first [default 100; 0 for all].
    limit: Option<usize>,
    /// Skip this many of the newest first (paging) [default 0].
    offset: Option<usize>,
    player: Option<String>,
    status: Option<String>,
}

/// The header that carries how many games match a list request, whatever its limit and
/// offset (for the page's "games 51-100 of 230").
pub const TOTAL_HEADER: &str = "x-total-count";

async fn list(
    State(app): State<AppState>,
    ApiQuery(q): ApiQuery<ListQuery>,
) -> Result<impl IntoResponse, AppError> {
    let status = q
        .status
        .as_deref()
        .map(str::parse::<Status>)
        .transpose()
        .map_err(|e| AppError::bad_request(e.to_string()))?;
    let limit = q.limit.unwrap_or(100);
    let filter = GameFilter {
        limit: (limit > 0).then_some(limit),
        offset: q.offset.unwrap_or(0),
        player: q.player,
        status,
    };
    let (games, total) = {
        let store = app.store();
        (store.list_games(&filter)?, store.count_games(&filter)?)
    };
    let views: Vec<InfoView> = games.iter().map(InfoView::of).collect();
    Ok(([(TOTAL_HEADER, total.to_string())], Json(views)))
}

#[derive(Debug, Serialize)]
struct GameRecord {
    info: InfoView,
    moves: Vec<String>,
    /// Every position from the start, for the replay.
    positions: Vec<ReplayStep>,
    /// Whether the game can be played on in the browser (then `/api/games/ID` has it).
    live: bool,
    /// The game's own moves, then its variations (see `POST /api/history/ID/variations`).
    lines: Vec<LineView>,
}

async fn show(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<GameRecord>, AppError> {
    let (stored, seats) = {
        let store = app.store();
        (
            variations::load(&store, GameId(id))?,
            store.web_seats(GameId(id))?,
        )
    };
    let live = stored.info.status == Status::InProgress && seats.is_some();
    Ok(Json(GameRecord {
        info: InfoView::of(&stored.info),
        moves: stored
            .game
            .moves()
            .iter()
            .map(ToString::to_string)
            .collect(),
        positions: replay(&stored.game),
        live,
        lines: lines_view(&stored),
    }))
}

async fn delete(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    headers: HeaderMap,
) -> Result<StatusCode, AppError> {
    app.require_admin(&headers)?;
    let id = GameId(id);
    let live = app.games().remove(&id);
    if let Some(game) = live {
        game.abandon(None);
    }
    app.backend().cancel_game(id);
    if app.store().delete_game(id)? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(AppError::not_found(format!("no game {id} in the history")))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// `ggf` (the default) or `transcript`.
    format: Option<String>,
}

async fn export(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<ExportQuery>,
) -> Result<impl IntoResponse, AppError> {
    let ggf = match q.format.as_deref().unwrap_or("transcript") {
        "ggf" => true,
        "transcript" => false,
        other => {
            return Err(AppError::bad_request(format!(
                "unknown export format {other:?}: expected ggf or transcript"
            )))
        }
    };
    let stored = app.store().load_game(GameId(id))?;
    let (mut text, ext) = if ggf {
        (convert::to_ggf(&stored), "ggf")
    } else {
        (convert::to_transcript(&stored), "txt")
    };
    text.push('\n');
    let disposition = format!("attachment; filename=\"reversi-game-{id}.{ext}\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportQuery {
    /// `auto` (the default), `ggf` or `transcript`.
    format: Option<String>,
    /// Board size of transcript games [default 8].
    size: Option<u8>,
    /// Start rule of transcript games [default othello].
    rules: Option<String>,
    /// The file's name, kept as the games' source.
    name: Option<String>,
}

#[derive(Debug, Serialize)]
struct Imported {
    added: usize,
    skipped: usize,
}

/// Reads an uploaded file's games (see [`reversi_api::upload::read_games`]).
fn read_upload(body: &[u8], q: &ImportQuery) -> Result<Vec<ImportGame>, AppError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| AppError::bad_request("the file is not UTF-8 text"))?;
    read_games(
        text,
        q.format.as_deref(),
        q.size,
        q.rules.as_deref(),
        q.name.as_deref().unwrap_or("upload"),
    )
    .map_err(|e| match e {
        UploadError::BadRequest(m) => AppError::bad_request(m),
        UploadError::Unreadable(m) => AppError::new(StatusCode::UNPROCESSABLE_ENTITY, m),
    })
}

async fn import(
    State(app): State<AppState>,
    headers: HeaderMap,
    ApiQuery(q): ApiQuery<ImportQuery>,
    ApiBytes(body): ApiBytes,
) -> Result<(StatusCode, Json<Imported>), AppError> {
    app.require_admin(&headers)?;
    let games = read_upload(&body, &q)?;
    if games.is_empty() {
        return Err(AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "the file holds no games",
        ));
    }
    // A few moves with no end and no result are a fragment, not a game for the history.
    if let Some((i, g)) = games
        .iter()
        .enumerate()
        .find(|(_, g)| g.status == Status::Abandoned)
    {
        return Err(AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "game {} of the file ({} moves) neither ends nor gives a result: not a whole \
                 game, so nothing was imported",
                i + 1,
                g.moves.len()
            ),
        ));
    }
    let report = app.store().import_games(&games, &mut |_| {})?;
    Ok((
        StatusCode::CREATED,
        Json(Imported {
            added: report.added,
            skipped: report.skipped,
        }),
    ))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// 1-60 [default 4].
    level: Option<u8>,
}

async fn analysis(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    client: Client,
    ApiJson(req): ApiJson<AnalysisRequest>,
) -> Result<Json<AnalysisView>, AppError> {
    let level = parse_level(
        req.level,
        scale_level().map_or(4, reversi_engine::levels::Level::get),
    )?;
    let stored = app.store().load_game(GameId(id))?;
    let size = stored.game.current().size();
    let ticket = app.backend().pool().admit(&client.0)?;
    let time = app.config().analysis_time;
    // Past its budget the analysis's last search may still be finishing its iteration.
    let cap = time + app.backend().search_cap;
    // Dropped with the request: a client that goes away stops the analysis.
    let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
    let book = app.advisor().book().cloned();
    let result = app
        .backend()
        .request(Some(GameId(id)), ticket, &stop, cap, move |flag| {
            analyze_alone(book, &stored.game, level, time, flag, &mut |_, _| {})
        })
        .await?;
    let analysis = result.ok_or_else(|| {
        AppError::conflict(format!(
            "the analysis was stopped: the game was deleted meanwhile, or the analysis ran past \
             the server's cap of {} s",
            cap.as_secs()
        ))
    })?;
    Ok(Json(AnalysisView::of(&analysis, size)))
}
