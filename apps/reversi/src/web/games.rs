//! `/api/games`: games being played — create, state, moves, undo/redo, resign, join by link,
//! hints, and the live event stream (server-sent events).

use std::convert::Infallible;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::{self, Stream, StreamExt};
use reversi_store::GameId;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;

use super::backend::StopOnDrop;
use super::client::Client;
use super::error::{ApiJson, ApiPath, AppError};
use super::levels::parse_level;
use super::live::{Event, LiveGame};
use super::state::AppState;
use reversi_api::new_game::{NewGamePlan, NewGameRequest, RequestError};
use reversi_api::view::{color_name, CandidateView, GameView, ThinkingView};
use reversi_game::{clock_seed, LogHandle, Seats, Session};
use reversi_store::StoreLog;

/// The header that carries a player's seat token.
pub const TOKEN_HEADER: &str = "x-player-token";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", post(create))
        .route("/{id}", get(state))
        .route("/{id}/moves", post(play))
        .route("/{id}/undo", post(undo))
        .route("/{id}/redo", post(redo))
        .route("/{id}/resign", post(resign))
        .route("/{id}/join", post(join))
        .route("/{id}/hints", post(hint))
        .route("/{id}/events", get(events))
}

fn token(headers: &HeaderMap) -> Option<&str> {
    headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok())
}

#[derive(Debug, Serialize)]
struct Created {
    game: GameView,
    /// The creator's seat token, for the `x-player-token` header.
    token: String,
    /// The code a second person joins with (the share link carries it), when there is a seat
    /// to join.
    join_code: Option<String>,
}

async fn create(
    State(app): State<AppState>,
    ApiJson(req): ApiJson<NewGameRequest>,
) -> Result<impl IntoResponse, AppError> {
    let NewGamePlan {
        settings,
        start,
        remote,
        record,
    } = req.plan(clock_seed).map_err(|e| match e {
        RequestError::BadRequest(m) => AppError::bad_request(m),
        RequestError::Unprocessable(m) => AppError::new(StatusCode::UNPROCESSABLE_ENTITY, m),
    })?;
    let seats = Seats::new(remote);
    let id = {
        let mut store = app.store();
        let id = store.create_game(&record)?;
        store.save_web_seats(id, &seats.stored())?;
        store.take_lease(id, app.writer(), app.config().lease)?;
        id
    };
    let log = StoreLog::shared(app.backend().shared_store()).with_record(id, record);
    let log = Some(LogHandle::new(Arc::new(Mutex::new(log))));
    let session = Session::in_context(settings, start, log, app.context());
    let game = LiveGame::new(id, session, seats);
    app.games().insert(id, Arc::clone(&game));
    game.begin(app.backend())?;
    let gs = game.lock();
    let created = Created {
        game: game.view(&gs),
        token: gs.table.seats.owner().to_string(),
        join_code: gs.table.seats.join_code().map(str::to_string),
    };
    Ok((StatusCode::CREATED, Json(created)))
}

async fn state(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<GameView>, AppError> {
    let game = app.open(GameId(id))?;
    game.check_time(app.backend());
    let gs = game.lock();
    Ok(Json(game.view(&gs)))
}

fn current(game: &LiveGame) -> Json<GameView> {
    let gs = game.lock();
    Json(game.view(&gs))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    square: String,
}

async fn play(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<MoveRequest>,
) -> Result<Json<GameView>, AppError> {
    let game = app.open(GameId(id))?;
    game.play(app.backend(), token(&headers), &req.square)?;
    Ok(current(&game))
}

async fn undo(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    headers: HeaderMap,
) -> Result<Json<GameView>, AppError> {
    let game = app.open(GameId(id))?;
    game.undo(app.backend(), token(&headers))?;
    Ok(current(&game))
}

async fn redo(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    headers: HeaderMap,
) -> Result<Json<GameView>, AppError> {
    let game = app.open(GameId(id))?;
    game.redo(app.backend(), token(&headers))?;
    Ok(current(&game))
}

async fn resign(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    headers: HeaderMap,
) -> Result<Json<GameView>, AppError> {
    let game = app.open(GameId(id))?;
    game.resign(app.backend(), token(&headers))?;
    Ok(current(&game))
}

#[derive(Debug, Serialize)]
struct Joined {
    game: GameView,
    token: String,
    color: &'static str,
}

/// A second person joins with the code of the creator's link.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    code: String,
}

async fn join(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    ApiJson(req): ApiJson<JoinRequest>,
) -> Result<Json<Joined>, AppError> {
    let game = app.open(GameId(id))?;
    let (color, token) = game.join(app.backend(), &req.code)?;
    let gs = game.lock();
    Ok(Json(Joined {
        game: game.view(&gs),
        token,
        color: color_name(color),
    }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    /// 1-60 [default: 6].
    level: Option<u8>,
}

#[derive(Debug, Serialize)]
struct Hints {
    ply: usize,
    candidates: Vec<CandidateView>,
}

async fn hint(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    client: Client,
    ApiJson(req): ApiJson<HintRequest>,
) -> Result<Json<Hints>, AppError> {
    let game = app.open(GameId(id))?;
    let level = parse_level(req.level, 6)?;
    let (position, ply) = {
        let gs = game.lock();
        if gs.ended() {
            return Err(AppError::conflict("the game is over"));
        }
        (
            gs.table.session.position().clone(),
            gs.table.session.game().moves().len(),
        )
    };
    let ticket = app.backend().pool().admit(&client.0)?;
    // Dropped with the request: a client that goes away stops its search.
    let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
    let scored = app
        .backend()
        .request(Some(game.id), ticket, &stop, app.backend().search_cap, {
            let advisor = app.advisor().clone();
            move |flag| advisor.hints(&position, level, flag, &mut |_| {})
        })
        .await?;
    if game.lock().ended() || app.live(game.id).is_none() {
        return Err(AppError::conflict(
            "the game ended or was deleted while the hint was searched",
        ));
    }
    Ok(Json(Hints {
        ply,
        candidates: scored.iter().map(CandidateView::of).collect(),
    }))
}

fn sse(event: &Event) -> SseEvent {
    let (name, data) = match event {
        Event::State(v) => ("state", serde_json::to_string(&**v)),
        Event::Thinking(t) => ("thinking", serde_json::to_string(&**t)),
    };
    SseEvent::default()
        .event(name)
        .data(data.unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}")))
}

async fn events(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, AppError> {
    let game = app.open(GameId(id))?;
    let slot = app.stream_slot()?;
    let rx = game.subscribe();
    let mut first = Vec::new();
    {
        let gs = game.lock();
        first.push(Ok(sse(&Event::State(Arc::new(game.view(&gs))))));
        if let Some(t) = &gs.thinking {
            first.push(Ok(sse(&Event::Thinking(Arc::<ThinkingView>::clone(t)))));
        }
    }
    // The slot goes with the stream: counted until the client goes away.
    let rest = stream::unfold((rx, slot), |(mut rx, slot)| async move {
        loop {
            match rx.recv().await {
                Ok(ev) => return Some((Ok(sse(&ev)), (rx, slot))),
                // A slow reader missed some reports; the next state brings it up to date.
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return None,
            }
        }
    });
    let stream = stream::iter(first).chain(rest).take_until(app.closing());
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
