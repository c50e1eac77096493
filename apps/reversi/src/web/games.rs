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
use reversi_core::{BoardSize, Color, Position, Rules, TimeControl};
use reversi_engine::ai::hints;
use reversi_store::{GameId, NewGame};
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;

use super::backend::StopOnDrop;
use super::client::Client;
use super::error::{ApiJson, ApiPath, AppError};
use super::levels::parse_level;
use super::live::{Event, LiveGame};
use super::position::read_position;
use super::state::AppState;
use reversi_api::view::{color_name, CandidateView, GameView, ThinkingView};
use reversi_game::{clock_seed, LogHandle, Player, Seats, Session, Settings};
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

/// A new game: every field may be left out (8x8 Othello, a person as Black against the
/// default level).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGameRequest {
    size: Option<u8>,
    rules: Option<String>,
    /// `human`, `ai:LEVEL` (1-60 or a level name), `ai:greedy`, `ai:random`.
    black: Option<String>,
    white: Option<String>,
    /// The side a second person plays from another browser, joining by the game's link.
    remote: Option<String>,
    seed: Option<u64>,
    /// Each side's clock, `BASE[+INCREMENT]` (`5m+3s`); none for an untimed game.
    clock: Option<String>,
    /// A set-up start (any notation `/api/position` reads; its size and rule replace `size`
    /// and `rules`, which a transcript is played under).
    position: Option<String>,
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

fn parse_color(text: &str) -> Result<Color, AppError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "black" => Ok(Color::Black),
        "white" => Ok(Color::White),
        _ => Err(AppError::bad_request(format!(
            "unknown side {text:?}: expected black or white"
        ))),
    }
}

/// A side's player; the classic algorithms are refused, since their searches have no time
/// budget and a deep one would hold a search slot for minutes.
fn parse_player(text: Option<&str>, default: Player) -> Result<Player, AppError> {
    let player = match text {
        None => default,
        Some(t) => t
            .parse()
            .map_err(|e: reversi_game::ParsePlayerError| AppError::bad_request(e.to_string()))?,
    };
    if let Player::Computer(ai @ reversi_engine::ai::Ai::Classic { .. }) = player {
        return Err(AppError::bad_request(format!(
            "the web server's computer players are the levels, greedy and random: {ai} has no \
             time budget"
        )));
    }
    Ok(player)
}

fn stored_player(p: Player, guest: bool) -> reversi_store::Player {
    match p {
        Player::Human if guest => reversi_store::Player::human("Guest"),
        Player::Human => reversi_store::Player::human("Human"),
        Player::Computer(ai) => reversi_store::Player::computer("reversi", &ai.to_string()),
    }
}

async fn create(
    State(app): State<AppState>,
    ApiJson(req): ApiJson<NewGameRequest>,
) -> Result<impl IntoResponse, AppError> {
    let size =
        BoardSize::new(req.size.unwrap_or(8)).map_err(|e| AppError::bad_request(e.to_string()))?;
    let rules: Rules = req
        .rules
        .as_deref()
        .unwrap_or("othello")
        .parse()
        .map_err(|e: reversi_core::ParseRulesError| AppError::bad_request(e.to_string()))?;
    let black = parse_player(req.black.as_deref(), Player::Human)?;
    let white = parse_player(
        req.white.as_deref(),
        Player::Computer(reversi_engine::ai::Ai::default()),
    )?;
    let remote = req.remote.as_deref().map(parse_color).transpose()?;
    let start = match req.position.as_deref() {
        None => Position::start(size, rules),
        Some(text) => {
            let start = read_position(text, Some(size.get()), Some(rules.name()))?
                .position()
                .clone();
            if start.is_game_over() {
                return Err(AppError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "neither side can move in this position: the game is over before it starts",
                ));
            }
            start
        }
    };
    let (size, rules) = (start.size(), start.rules());
    let settings = Settings {
        size,
        rules,
        black,
        white,
        seed: req.seed.unwrap_or_else(clock_seed),
        clock: req
            .clock
            .as_deref()
            .filter(|c| !c.trim().is_empty())
            .map(str::parse::<TimeControl>)
            .transpose()
            .map_err(|e| AppError::bad_request(e.to_string()))?,
    };
    if let Some(side) = remote {
        if !settings.player(side).is_human() {
            return Err(AppError::bad_request(format!(
                "the remote side {side} must be played by a human"
            )));
        }
    }
    let standard = start == Position::start(size, rules);
    let record = NewGame {
        clock: settings.clock,
        start: (!standard).then(|| start.clone()),
        ..NewGame::standard(
            size,
            rules,
            stored_player(black, remote == Some(Color::Black)),
            stored_player(white, remote == Some(Color::White)),
        )
    };
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
    let session = Session::from_position(settings, start, log);
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
        .request(
            Some(game.id),
            ticket,
            &stop,
            app.backend().search_cap,
            move |flag| hints(&position, level, flag, &mut |_| {}),
        )
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
