//! The API against the router, with no network: games against the computer and between two
//! people, the history, and every kind of bad request.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use reversi_store::Store;
use serde_json::{json, Value};
use tower::ServiceExt;

use super::pool::Work;
use super::{app, AppState, Config, MAX_BODY};

/// The app over an in-memory history, with no opening book: these tests watch the computer
/// search (thinking events, analysis kinds), which a book move would skip.
pub(super) fn test_app() -> Router {
    app(test_state())
}

/// The state behind [`test_app`]: an in-memory history and no opening book.
pub(super) fn test_state() -> AppState {
    let config = Config {
        book: None,
        ..Config::for_cores(1)
    };
    AppState::new(Store::open_in_memory().unwrap(), config)
}

pub(super) async fn send(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Body>,
    content_type: &str,
) -> (StatusCode, Value, String) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("x-player-token", t);
    }
    if body.is_some() {
        req = req.header("content-type", content_type);
    }
    let req = req.body(body.unwrap_or_else(Body::empty)).unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let value = serde_json::from_str(&text).unwrap_or(Value::Null);
    (status, value, text)
}

pub(super) async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let body = body.map(|b| Body::from(b.to_string()));
    let (s, v, _) = send(app, method, uri, token, body, "application/json").await;
    (s, v)
}

/// Creates a game; returns its id and the creator's token.
pub(super) async fn create(app: &Router, body: Value) -> (i64, String, Value) {
    let (s, v) = call(app, "POST", "/api/games", None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    (
        v["game"]["id"].as_i64().unwrap(),
        v["token"].as_str().unwrap().to_string(),
        v["game"].clone(),
    )
}

/// Polls the game until the computer has moved (a person is to move or the game ended).
/// Plays `squares` for the side to move with `token`.
pub(super) async fn play(app: &Router, id: i64, token: &str, squares: &[&str]) -> Value {
    let mut last = Value::Null;
    for sq in squares {
        let (s, v) = call(
            app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(token),
            Some(json!({ "square": sq })),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{sq}: {v}");
        last = v;
    }
    last
}

pub(super) async fn settled(app: &Router, id: i64) -> Value {
    for _ in 0..500 {
        let (s, v) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(s, StatusCode::OK);
        if v["human_turn"] == json!(true) || v["over"] == json!(true) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the computer never moved");
}

pub(super) fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {v}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_against_the_computer_is_saved_move_by_move() {
    let app = test_app();
    let (id, token, g) = create(&app, json!({"size": 6, "white": "ai:1", "seed": 5})).await;
    assert_eq!(g["legal"].as_array().unwrap().len(), 4);
    assert_eq!(g["turn"], "black");
    let mut state = g;
    while state["over"] != json!(true) {
        let sq = state["legal"][0].as_str().unwrap().to_string();
        let (s, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&token),
            Some(json!({"square": sq})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        state = settled(&app, id).await;
        // Saved after every move: the history holds what the board shows.
        let (_, h) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
        assert_eq!(h["moves"], state["moves"]);
    }
    let result = &state["result"];
    assert_eq!(
        result["black"].as_u64().unwrap() + result["white"].as_u64().unwrap(),
        36
    );
    let (_, list) = call(&app, "GET", "/api/history", None, None).await;
    assert_eq!(list[0]["id"], id);
    assert_eq!(list[0]["status"], "finished");
    assert_eq!(list[0]["white"]["kind"], "computer");
    // Opening names are for 8x8 Othello: always null here, but always there.
    assert_eq!(state.get("opening"), Some(&Value::Null));
    // The game is over: no more moves, undo or hints.
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(error_of(&v), "the game is over");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_and_redo_take_back_and_replay_the_computers_reply_too() {
    let app = test_app();
    let (id, token, _) = create(&app, json!({"white": "ai:1", "seed": 1})).await;
    let (s, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&token),
        Some(json!({"square": "f5"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let after = settled(&app, id).await;
    assert_eq!(after["moves"].as_array().unwrap().len(), 2);
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!([]));
    assert_eq!(v["can_redo"], true);
    let (_, h) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(h["moves"], json!([]));
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/redo"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["moves"], after["moves"]);
    let (_, h) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(h["moves"], after["moves"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_cancels_the_computers_search() {
    let app = test_app();
    // A level deep enough to be still searching when the undo arrives.
    let (id, token, _) = create(&app, json!({"white": "ai:20"})).await;
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&token),
        Some(json!({"square": "f5"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["thinking"], true);
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["thinking"], false);
    assert_eq!(v["moves"], json!([]));
    // The stopped search's move is never played.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(v["moves"], json!([]));
    assert_eq!(v["human_turn"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forced_pass_is_played_and_announced() {
    let app = test_app();
    let (id, token, _) = create(&app, json!({"size": 4, "white": "human"})).await;
    let mut v = Value::Null;
    for sq in ["b1", "c1", "d3", "a1"] {
        let (s, r) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&token),
            Some(json!({ "square": sq })),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{r}");
        v = r;
    }
    assert_eq!(v["passed"], "black");
    assert_eq!(v["moves"].as_array().unwrap().last().unwrap(), "PA");
    assert_eq!(v["turn"], "white");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_score_every_legal_move() {
    let app = test_app();
    let (id, _, _) = create(&app, json!({"size": 4, "white": "human"})).await;
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/hints"),
        None,
        Some(json!({"level": 20})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let c = v["candidates"].as_array().unwrap();
    assert_eq!(c.len(), 4);
    // 4x4 is solved from the start at this level: exact scores (White wins by 8 with best
    // play, whatever Black opens with).
    assert!(c.iter().all(|m| m["exact"] == true && m["kind"] == "exact"));
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/hints"),
        None,
        Some(json!({"level": 61})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("level 61"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_game_shows_its_clocks_and_ends_on_time_by_itself() {
    let app = test_app();
    let (s, v) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"white": "human", "clock": "5x"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("bad clock \"5x\""), "{v}");
    let (id, _, v) = create(&app, json!({"white": "human", "clock": "300ms"})).await;
    assert_eq!(v["clock"]["setting"], "0.3s");
    assert_eq!(v["clock"]["running"], "black");
    // Nobody asks: the server's own timer ends the game when Black's time is out.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let (_, h) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(h["info"]["status"], "finished", "{h}");
    assert_eq!(h["info"]["termination"], "time");
    assert_eq!(h["info"]["clock"], "0.3s");
    let (_, live) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(live["over"], true, "{live}");
    assert_eq!(live["lost_on_time"], "black");
    assert_eq!(live["result"]["text"], "White wins on time");
    assert_eq!(live["clock"]["black_ms"], 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_levels_come_with_their_names_and_time_per_move() {
    let app = test_app();
    let (s, v) = call(&app, "GET", "/api/levels", None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let levels = v.as_array().unwrap();
    assert_eq!(levels.len(), 60);
    let perfect = &levels[59];
    assert_eq!(perfect["name"], "perfect");
    assert_eq!(perfect["time_s"], 25.0);
    assert!(
        levels[0]["name"].is_null(),
        "level 1 is below the named ladder"
    );
    let beginner = &levels[2];
    assert_eq!(beginner["level"], 3);
    assert_eq!(beginner["name"], "beginner");
    assert!(beginner["stray_percent"].as_u64().unwrap() > 0);
    assert!(levels.iter().all(|l| l["time_s"].as_f64().unwrap() > 0.0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_through_a_shared_link_each_on_their_side() {
    let app = test_app();
    let (s, created) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"white": "human", "remote": "white"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let g = &created["game"];
    let id = g["id"].as_i64().unwrap();
    let host = created["token"].as_str().unwrap().to_string();
    let code = created["join_code"].as_str().unwrap().to_string();
    assert_eq!(code.len(), 32, "an unguessable code: {code}");
    assert_eq!(g["remote"], "white");
    assert_eq!(g["joined"], false);
    let mut events = {
        let req = Request::get(format!("/api/games/{id}/events"))
            .body(Body::empty())
            .unwrap();
        let resp = app.clone().oneshot(req).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        assert_eq!(
            resp.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        resp.into_body().into_data_stream()
    };
    // The game's id alone does not take the seat: the link's code does.
    let join = format!("/api/games/{id}/join");
    let (s, v) = call(&app, "POST", &join, None, Some(json!({"code": "0"}))).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{v}");
    assert!(error_of(&v).contains("wrong join code"), "{v}");
    let (s, v) = call(&app, "POST", &join, None, None).await;
    assert!(s.is_client_error(), "{s} {v}");
    let (s, j) = call(&app, "POST", &join, None, Some(json!({ "code": code }))).await;
    assert_eq!(s, StatusCode::OK, "{j}");
    assert_eq!(j["color"], "white");
    let guest = j["token"].as_str().unwrap().to_string();
    assert_ne!(guest, host);
    let (s, v) = call(&app, "POST", &join, None, Some(json!({ "code": code }))).await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert!(error_of(&v).contains("already taken"));
    // The guest cannot move for Black, nor the host for White.
    let play = |token: String, sq: &'static str| {
        let app = app.clone();
        async move {
            call(
                &app,
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&token),
                Some(json!({ "square": sq })),
            )
            .await
        }
    };
    let (s, v) = play(guest.clone(), "f5").await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(error_of(&v), "it is Black's turn, not yours");
    let (s, v) = play(host.clone(), "f5").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["opening"], Value::Null, "f5 alone is not a named line");
    assert_eq!(play(host.clone(), "d6").await.0, StatusCode::CONFLICT);
    let (s, v) = play(guest.clone(), "d6").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["opening"], "Perpendicular Opening");
    // Between two browsers every move is final: neither side takes back the other's.
    assert_eq!(v["can_undo"], false);
    for token in [&host, &guest] {
        let (s, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/undo"),
            Some(token),
            None,
        )
        .await;
        assert_eq!(s, StatusCode::CONFLICT, "{v}");
        assert!(error_of(&v).contains("every move is final"), "{v}");
    }
    // The watchers heard every change: the start, the join and both moves.
    use futures_util::StreamExt;
    let mut text = String::new();
    while text.matches("event: state").count() < 4 {
        let chunk = tokio::time::timeout(Duration::from_secs(5), events.next())
            .await
            .expect("an event")
            .unwrap()
            .unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(text.contains(r#""moves":["f5","d6"]"#), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computers_thinking_is_streamed_and_a_resignation_stops_it() {
    let app = test_app();
    // The computer plays White at a level deep enough to report several iterations; it
    // starts thinking only when Black has moved, after the watcher is listening (a search
    // started at creation could end before the watcher came).
    let (id, token, _) = create(&app, json!({"black": "human", "white": "ai:12"})).await;
    let req = Request::get(format!("/api/games/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let mut events = app
        .clone()
        .oneshot(req)
        .await
        .unwrap()
        .into_body()
        .into_data_stream();
    play(&app, id, &token, &["f5"]).await;
    use futures_util::StreamExt;
    let mut text = String::new();
    while !text.contains("event: thinking") {
        let chunk = tokio::time::timeout(Duration::from_secs(10), events.next())
            .await
            .expect("thinking")
            .unwrap()
            .unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(text.contains(r#""depth":"#) && text.contains(r#""nodes":"#));
    assert!(text.contains(r#""pv":["#));
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["resigned"], "black");
    assert_eq!(v["over"], true);
    assert_eq!(v["thinking"], false);
    let (_, h) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(h["info"]["status"], "abandoned");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_export_import_analysis_and_delete() {
    let app = test_app();
    let transcript = "d3e3f6c5b5b6f3f2e2d2c1d1c3b4e1g3";
    // Unfinished, so it needs its result (adjudicated) to be a game.
    let (s, v, _) = send(
        &app,
        "POST",
        "/api/history/import?name=mine.txt",
        None,
        Some(Body::from(format!("{transcript} B+4"))),
        "text/plain",
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v, json!({"added": 1, "skipped": 0}));
    let (_, list) = call(&app, "GET", "/api/history", None, None).await;
    let id = list[0]["id"].as_i64().unwrap();
    let (s, g) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["positions"].as_array().unwrap().len(), 17);
    assert_eq!(g["positions"][1]["mv"], "d3");
    // d3e3 is f5f4 reflected in the h1-a8 diagonal: each step names the line up to it.
    let names: Vec<&Value> = (0..4).map(|i| &g["positions"][i]["opening"]).collect();
    assert_eq!(
        names,
        [
            &Value::Null,
            &Value::Null,
            &json!("Parallel Opening"),
            &json!("Parallel Opening")
        ]
    );
    let (s, _, text) = send(
        &app,
        "GET",
        &format!("/api/history/{id}/export"),
        None,
        None,
        "",
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert!(text.trim().starts_with(transcript), "{text}");
    let (s, _, ggf) = send(
        &app,
        "GET",
        &format!("/api/history/{id}/export?format=ggf"),
        None,
        None,
        "",
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert!(ggf.starts_with("(;GM[Othello]"), "{ggf}");
    // The same game again is a duplicate.
    let (s, v, _) = send(
        &app,
        "POST",
        "/api/history/import",
        None,
        Some(Body::from(ggf)),
        "text/plain",
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, a) = call(
        &app,
        "POST",
        &format!("/api/history/{id}/analysis"),
        None,
        Some(json!({"level": 2})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{a}");
    assert_eq!(a["moves"].as_array().unwrap().len(), 16);
    assert_eq!(a["evals"].as_array().unwrap().len(), 17);
    assert!(a["moves"][0]["best"]["kind"]
        .as_str()
        .unwrap()
        .starts_with("depth"));
    let (s, _) = call(&app, "DELETE", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, v) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(error_of(&v), format!("no game {id} in the history"));
}

/// Method, path, token, body, the status expected, and text the error must contain.
type Case<'a> = (
    &'a str,
    String,
    Option<&'a str>,
    Option<&'a str>,
    StatusCode,
    &'a str,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_a_4xx_naming_the_problem() {
    let state = test_state();
    let app = app(state.clone());
    let (id, token, _) = create(&app, json!({"white": "human"})).await;
    let moves = format!("/api/games/{id}/moves");
    let cases: Vec<Case> = vec![
        // Malformed JSON, wrong shapes and unknown fields.
        (
            "POST",
            "/api/games".into(),
            None,
            Some("{"),
            StatusCode::BAD_REQUEST,
            "bad JSON body",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"size": "big"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad JSON body",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"colour": "red"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown field",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"size": 7}"#),
            StatusCode::BAD_REQUEST,
            "7",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"rules": "chess"}"#),
            StatusCode::BAD_REQUEST,
            "unknown start rule \"chess\"",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"white": "ai:99"}"#),
            StatusCode::BAD_REQUEST,
            "ai:99",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"remote": "white", "white": "ai:3"}"#),
            StatusCode::BAD_REQUEST,
            "must be played by a human",
        ),
        (
            "POST",
            "/api/games".into(),
            None,
            Some(r#"{"remote": "green", "white": "human"}"#),
            StatusCode::BAD_REQUEST,
            "unknown side",
        ),
        // Unknown games and routes, and bad ids.
        (
            "GET",
            "/api/games/999".into(),
            None,
            None,
            StatusCode::NOT_FOUND,
            "no game 999",
        ),
        (
            "GET",
            "/api/games/abc".into(),
            None,
            None,
            StatusCode::BAD_REQUEST,
            "bad path",
        ),
        (
            "POST",
            "/api/games/999/moves".into(),
            Some(&token),
            Some(r#"{"square": "f5"}"#),
            StatusCode::NOT_FOUND,
            "no game 999",
        ),
        (
            "GET",
            "/api/history/999".into(),
            None,
            None,
            StatusCode::NOT_FOUND,
            "no game 999 in the history",
        ),
        (
            "DELETE",
            "/api/history/999".into(),
            None,
            None,
            StatusCode::NOT_FOUND,
            "no game 999",
        ),
        (
            "GET",
            "/api/nothing".into(),
            None,
            None,
            StatusCode::NOT_FOUND,
            "no such page",
        ),
        // Moves: malformed, off the board, illegal, without or with a wrong token.
        (
            "POST",
            moves.clone(),
            Some(&token),
            Some(r#"{"square": 5}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "bad JSON body",
        ),
        (
            "POST",
            moves.clone(),
            Some(&token),
            Some(r#"{"square": "zz"}"#),
            StatusCode::BAD_REQUEST,
            "\"zz\" is not a square name",
        ),
        (
            "POST",
            moves.clone(),
            Some(&token),
            Some(r#"{"square": "j9"}"#),
            StatusCode::BAD_REQUEST,
            "j9 is off the 8x8 board",
        ),
        (
            "POST",
            moves.clone(),
            Some(&token),
            Some(r#"{"square": "a1"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal move: a1 flips no disc",
        ),
        (
            "POST",
            moves.clone(),
            Some(&token),
            Some(r#"{"square": "d4"}"#),
            StatusCode::UNPROCESSABLE_ENTITY,
            "d4 is already occupied",
        ),
        (
            "POST",
            moves.clone(),
            None,
            Some(r#"{"square": "f5"}"#),
            StatusCode::FORBIDDEN,
            "no player token",
        ),
        (
            "POST",
            moves.clone(),
            Some("forged"),
            Some(r#"{"square": "f5"}"#),
            StatusCode::FORBIDDEN,
            "unknown player token",
        ),
        (
            "POST",
            format!("/api/games/{id}/undo"),
            Some(&token),
            None,
            StatusCode::CONFLICT,
            "nothing to undo",
        ),
        (
            "POST",
            format!("/api/games/{id}/redo"),
            Some(&token),
            None,
            StatusCode::CONFLICT,
            "nothing to redo",
        ),
        (
            "POST",
            format!("/api/games/{id}/join"),
            None,
            Some(r#"{"code": "x"}"#),
            StatusCode::CONFLICT,
            "no seat to join",
        ),
        // History queries and uploads.
        (
            "GET",
            "/api/history?status=lost".into(),
            None,
            None,
            StatusCode::BAD_REQUEST,
            "lost",
        ),
        (
            "GET",
            "/api/history?limit=-1".into(),
            None,
            None,
            StatusCode::BAD_REQUEST,
            "bad query",
        ),
        (
            "GET",
            format!("/api/history/{id}/export?format=pdf"),
            None,
            None,
            StatusCode::BAD_REQUEST,
            "unknown export format \"pdf\"",
        ),
        (
            "POST",
            "/api/history/import".into(),
            None,
            Some("f5d6z9"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "z9",
        ),
        (
            "POST",
            "/api/history/import".into(),
            None,
            Some("f5f5"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "f5",
        ),
        (
            "POST",
            "/api/history/import".into(),
            None,
            Some("(;GM[Othello]SZ[8]"),
            StatusCode::UNPROCESSABLE_ENTITY,
            "not GGF",
        ),
        (
            "POST",
            "/api/history/import".into(),
            None,
            Some(""),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no games",
        ),
        (
            "POST",
            format!("/api/history/{id}/analysis"),
            None,
            Some(r#"{"level": 0}"#),
            StatusCode::BAD_REQUEST,
            "level 0 is out of range",
        ),
    ];
    for (method, uri, tok, body, status, needle) in cases {
        let (s, v, text) = send(
            &app,
            method,
            &uri,
            tok,
            body.map(|b| Body::from(b.to_string())),
            "application/json",
        )
        .await;
        assert_eq!(s, status, "{method} {uri} {body:?}: {text}");
        let msg = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {uri}: not a JSON error: {text}"));
        assert!(
            msg.contains(needle),
            "{method} {uri} {body:?}: {msg:?} lacks {needle:?}"
        );
    }
    // JSON sent as something else.
    let (s, v, _) = send(
        &app,
        "POST",
        "/api/games",
        None,
        Some(Body::from("{}")),
        "text/plain",
    )
    .await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(error_of(&v).contains("Content-Type"));
    // Oversized bodies, JSON or a file.
    let big = format!(r#"{{"square": "{}"}}"#, "a".repeat(MAX_BODY));
    let (s, v, _) = send(
        &app,
        "POST",
        &moves,
        Some(&token),
        Some(Body::from(big.clone())),
        "application/json",
    )
    .await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(error_of(&v).contains("bad JSON body"));
    let (s, v, _) = send(
        &app,
        "POST",
        "/api/history/import",
        None,
        Some(Body::from(big)),
        "text/plain",
    )
    .await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(error_of(&v), "request body too large");
    // Moves out of turn: the computer's, and after the end.
    let (cid, ctoken, _) =
        create(&app, json!({"black": "ai:1", "white": "human", "size": 4})).await;
    let shown = settled(&app, cid).await;
    assert_eq!(shown["turn"], "white");
    // Every search slot is held, so the computer cannot have moved when the person tries to.
    let pool = state.backend().pool().clone();
    let mut held = Vec::new();
    for _ in 0..Config::for_cores(1).pool.slots {
        held.push(pool.slot(Work::QuickMove).await);
    }
    let (g2, t2, _) = create(&app, json!({"black": "ai:12", "white": "human"})).await;
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{g2}/moves"),
        Some(&t2),
        Some(json!({"square": "f5"})),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert_eq!(
        error_of(&v),
        "it is Black's turn, and the computer plays Black"
    );
    drop(held);
    // Resigning stops the computer's search.
    let (s, _) = call(
        &app,
        "POST",
        &format!("/api/games/{g2}/resign"),
        Some(&t2),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    call(
        &app,
        "POST",
        &format!("/api/games/{cid}/resign"),
        Some(&ctoken),
        None,
    )
    .await;
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{cid}/moves"),
        Some(&ctoken),
        Some(json!({"square": "a1"})),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT);
    assert_eq!(error_of(&v), "the game is over");
    // The page itself is served.
    let (s, _, html) = send(&app, "GET", "/", None, None, "").await;
    assert_eq!(s, StatusCode::OK);
    assert!(html.contains("<title>Reversi</title>"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_pages_with_offset_and_a_total_header() {
    let app = test_app();
    let mut ids = Vec::new();
    for _ in 0..5 {
        let (id, _, _) = create(&app, json!({"black": "human", "white": "human"})).await;
        ids.push(id);
    }
    let page = |uri: &'static str| {
        let app = app.clone();
        async move {
            let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
            let resp = app.oneshot(req).await.unwrap();
            assert_eq!(resp.status(), StatusCode::OK);
            let total = resp.headers()["x-total-count"]
                .to_str()
                .unwrap()
                .to_string();
            let bytes = resp.into_body().collect().await.unwrap().to_bytes();
            let list: Value = serde_json::from_slice(&bytes).unwrap();
            let listed: Vec<i64> = list
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_i64().unwrap())
                .collect();
            (total, listed)
        }
    };
    // Newest first: ids were given in order, and games started in the same second sort by id.
    let newest: Vec<i64> = ids.iter().rev().copied().collect();
    assert_eq!(
        page("/api/history?limit=2").await,
        ("5".into(), newest[..2].to_vec())
    );
    assert_eq!(
        page("/api/history?limit=2&offset=2").await,
        ("5".into(), newest[2..4].to_vec())
    );
    assert_eq!(
        page("/api/history?limit=2&offset=4").await,
        ("5".into(), newest[4..].to_vec())
    );
    assert_eq!(
        page("/api/history?offset=9").await,
        ("5".into(), Vec::new())
    );
    let (s, v) = call(&app, "GET", "/api/history?offset=-1", None, None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn the_site_route_names_the_address_the_browser_used() {
    let app = test_app();
    let req = Request::builder()
        .uri("/api/site")
        .header("host", "192.168.1.5:8080")
        .body(Body::empty())
        .unwrap();
    let resp = app.oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(
        v,
        json!({"base": "http://192.168.1.5:8080/", "public": false, "warning": null})
    );
}

#[tokio::test]
async fn the_explorer_lists_the_moves_played_in_any_orientation() {
    use reversi_core::{parse_transcript, BoardSize, Position, Rules, Score};
    use reversi_store::{ImportGame, Player};

    let mut store = Store::open_in_memory().unwrap();
    let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    // Two Tigers (one turned half round) and f5f6.
    for (i, (moves, black)) in [("f5d6c3d3c4", 40), ("c4e3f6e6f5", 30), ("f5f6e6f4", 14)]
        .into_iter()
        .enumerate()
    {
        let game = parse_transcript(moves, start.clone()).unwrap();
        let score = Score {
            black,
            white: 64 - black,
        };
        let import = ImportGame::from_game(
            &game,
            Player::human(&format!("p{i}")),
            Player::human("q"),
            Some(score),
        );
        store.import_games(&[import], &mut |_| {}).unwrap();
    }
    let config = Config {
        book: None,
        ..Config::for_cores(1)
    };
    let app = app(AppState::new(store, config));

    let (s, v) = call(&app, "GET", "/api/explore?position=f5", None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["games"].clone(), v["to_move"].clone()),
        (json!(3), json!("white"))
    );
    let d6 = &v["moves"][0];
    assert_eq!(
        (d6["square"].clone(), d6["games"].clone()),
        (json!("d6"), json!(2))
    );
    assert_eq!(
        (d6["black_wins"].clone(), d6["white_wins"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(d6["mean_disc_margin"], json!(6.0));
    // No book in these tests: a level-6 search values the moves.
    assert_eq!(d6["value"]["depth"], json!(6), "{v}");
    assert_eq!(v["moves"][1]["square"], json!("f6"));

    // The half-turned position: the same games, the moves turned; level 0: no search.
    let (s, v) = call(&app, "GET", "/api/explore?position=c4&level=0", None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"][0]["square"], json!("e3"));
    assert_eq!(v["moves"][0]["games"], json!(2));
    assert_eq!(v["moves"][0]["value"], Value::Null);
    // Without a position: the start.
    let (_, v) = call(&app, "GET", "/api/explore?level=0", None, None).await;
    assert_eq!(v["games"], json!(3));

    for (uri, needle) in [
        ("/api/explore?position=f5f5", "f5f5"),
        ("/api/explore?level=99", "level 99 is out of range"),
        (
            "/api/explore?position=--------------OX----XO--------------%20X",
            "the explorer covers 8x8 games",
        ),
        ("/api/explore?rules=chess", "chess"),
        ("/api/explore?depth=3", "depth"),
    ] {
        let (s, v) = call(&app, "GET", uri, None, None).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri}: {v}");
        assert!(error_of(&v).contains(needle), "{uri}: {v}");
    }
}
