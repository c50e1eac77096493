//! The server as a service, against the router with no network: fair and bounded searches,
//! and (with small limits) the caps that keep one client from starving the others.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::Router;
use reversi_store::Store;
use serde_json::{json, Value};

use super::tests::{call, create, error_of, play, settled};
use super::{app, AppState, Config};

/// State over an in-memory history, with no opening book: these tests hold search slots with
/// long searches, which a book move would skip.
fn state_with(config: Config) -> AppState {
    let config = Config {
        book: None,
        ..config
    };
    AppState::new(Store::open_in_memory().unwrap(), config)
}

/// Waits (generously) until `check` holds.
async fn eventually(what: &str, mut check: impl FnMut() -> bool) {
    for _ in 0..3000 {
        if check() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("never: {what}");
}

/// Starts a level-59 hint for game `id` (at the start it runs for its level's whole 20 s
/// budget; perfect, level 60, would take only its short midgame time there).
fn deep_hint(app: &Router, id: i64) -> tokio::task::JoinHandle<(StatusCode, Value)> {
    let app = app.clone();
    tokio::spawn(async move {
        call(
            &app,
            "POST",
            &format!("/api/games/{id}/hints"),
            None,
            Some(json!({"level": 59})),
        )
        .await
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_weak_computer_answers_while_two_deep_hints_run() {
    let mut config = Config::for_cores(1);
    config.pool.slots = 2;
    // Without the kept slot the weak game would wait for a whole level-59 budget (20 s).
    config.search_cap = Duration::from_secs(600);
    let state = state_with(config);
    let app = app(state.clone());
    let (busy, _, _) = create(&app, json!({"white": "human"})).await;
    let first = deep_hint(&app, busy);
    let second = deep_hint(&app, busy);
    eventually("both hints admitted", || {
        state.backend().pool().load() == (1, 1)
    })
    .await;
    let asked = Instant::now();
    let (victim, _, _) = create(&app, json!({"black": "ai:1", "white": "human"})).await;
    let v = settled(&app, victim).await;
    let waited = asked.elapsed();
    assert_eq!(v["moves"].as_array().unwrap().len(), 1, "{v}");
    assert!(
        waited < Duration::from_secs(10),
        "level 1 took {waited:?} behind two level-59 hints"
    );
    // Deleting the game stops both hints, running and queued.
    let (s, _) = call(&app, "DELETE", &format!("/api/history/{busy}"), None, None).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    for hint in [first, second] {
        let (s, v) = hint.await.unwrap();
        assert!(
            s == StatusCode::CONFLICT || s == StatusCode::NOT_FOUND,
            "{s} {v}"
        );
    }
    eventually("the pool is empty", || {
        state.backend().pool().load() == (0, 0)
    })
    .await;
}

/// A regression test: a computer move cut by the server's cap (`--search-time`) was thrown
/// away as if cancelled, so the game said "thinking" forever with no search running and never
/// left memory. A cut search plays its best move so far, as a level's own deadline does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_move_cut_by_the_search_cap_is_played() {
    let mut config = Config::for_cores(1);
    // Cut after the grace alone (2 s), long before level 59's own 20 s.
    config.search_cap = Duration::ZERO;
    config.idle = Duration::ZERO;
    let state = state_with(config);
    let app = app(state.clone());
    let asked = Instant::now();
    let (id, _, _) = create(&app, json!({"black": "ai:59", "white": "human"})).await;
    let mut last = Value::Null;
    for _ in 0..1500 {
        let (s, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        if v["human_turn"] == json!(true) {
            last = v;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let waited = asked.elapsed();
    assert_eq!(
        last["moves"].as_array().map(Vec::len),
        Some(1),
        "the computer never moved after {waited:?}: {last}"
    );
    assert!(waited >= Duration::from_millis(1900), "not cut: {waited:?}");
    assert_eq!(last["thinking"], false);
    // The search slot is free and the game, idle with nobody watching, leaves memory.
    assert_eq!(state.backend().pool().load(), (0, 0));
    state.sweep();
    assert_eq!(state.loaded(), 0, "the game stayed in memory");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hints_past_the_queue_bounds_are_refused_with_429() {
    let mut config = Config::for_cores(1);
    config.pool.slots = 2;
    config.pool.per_client = 1;
    let state = state_with(config);
    let app = app(state.clone());
    let (id, token, _) = create(&app, json!({"white": "human"})).await;
    let running = deep_hint(&app, id);
    eventually("the hint runs", || state.backend().pool().load() == (1, 0)).await;
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/hints"),
        None,
        Some(json!({"level": 1})),
    )
    .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(error_of(&v).contains("waiting or running"), "{v}");
    // Resigning stops the running hint.
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, v) = running.await.unwrap();
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(error_of(&v).contains("ended"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_whose_client_went_away_frees_its_slot() {
    let state = state_with(Config::for_cores(1));
    let app = app(state.clone());
    let (id, _, _) = create(&app, json!({"white": "human"})).await;
    let hint = deep_hint(&app, id);
    eventually("the hint runs", || state.backend().pool().load().0 == 1).await;
    hint.abort();
    eventually("the search stopped", || {
        state.backend().pool().load() == (0, 0)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysing_a_game_twice_gives_the_same_result() {
    let app = app(state_with(Config::for_cores(1)));
    let (id, token, _) = create(&app, json!({"white": "human"})).await;
    for sq in ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"] {
        let (s, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&token),
            Some(json!({"square": sq})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    // At the level the human scale is measured at (8 when this was written).
    let level = reversi_api::levels::scale_level().map_or(8, |l| l.get());
    let analyse = || async {
        let (s, v) = call(
            &app,
            "POST",
            &format!("/api/history/{id}/analysis"),
            None,
            Some(json!({ "level": level })),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        v
    };
    let first = analyse().await;
    // At the human scale's level each side is rated (its moves after the opening's eight).
    let rated = first["performance"].as_array().unwrap();
    assert_eq!(rated.len(), 2, "{first}");
    assert!(rated[0]["low"].as_f64().unwrap() <= rated[0]["high"].as_f64().unwrap());
    // Other searches in between fill the shared table.
    let (s, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/hints"),
        None,
        Some(json!({"level": 14})),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(first, analyse().await);
}

#[tokio::test]
async fn classic_algorithms_have_no_budget_and_are_refused() {
    let app = app(state_with(Config::for_cores(1)));
    let (s, v) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"white": "ai:minimax:9"})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(error_of(&v).contains("no time budget"), "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_a_game_goes_on_with_its_seats_and_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let config = Config::for_cores(1);
    let (id, host, guest, code) = {
        let app = app(AppState::new(Store::open(&path).unwrap(), config.clone()));
        let (s, created) = call(
            &app,
            "POST",
            "/api/games",
            None,
            Some(json!({"white": "human", "remote": "white"})),
        )
        .await;
        assert_eq!(s, StatusCode::CREATED);
        let id = created["game"]["id"].as_i64().unwrap();
        let code = created["join_code"].as_str().unwrap().to_string();
        let (s, j) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/join"),
            None,
            Some(json!({ "code": code })),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{j}");
        let host = created["token"].as_str().unwrap().to_string();
        play(&app, id, &host, &["f5"]).await;
        (id, host, j["token"].as_str().unwrap().to_string(), code)
    };
    // A new server over the same database: the page asks for the game and gets it back.
    let app = app(AppState::new(Store::open(&path).unwrap(), config));
    let (s, v) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["live"], true, "the history offers to play on: {v}");
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["moves"], json!(["f5"]));
    assert_eq!(
        (v["remote"].clone(), v["joined"].clone()),
        (json!("white"), json!(true))
    );
    // Each seat's token still moves for its side only; the seat stays taken.
    let (s, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&host),
        Some(json!({"square": "d6"})),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT);
    let v = play(&app, id, &guest, &["d6"]).await;
    assert_eq!(v["moves"], json!(["f5", "d6"]));
    let (s, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(json!({ "code": code })),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT);
}

/// A regression test: a game reopened from the history (after a restart, or unloaded while
/// idle) counted its versions from 1 again, and an open page, which drops any state older than
/// the one it shows, ignored every update until reloaded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_keep_rising_across_a_restart_and_an_unload() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let mut config = Config::for_cores(1);
    config.idle = Duration::ZERO;
    let (id, token, before) = {
        let app = app(AppState::new(Store::open(&path).unwrap(), config.clone()));
        let (id, token, _) = create(&app, json!({"white": "human"})).await;
        let v = play(&app, id, &token, &["f5", "d6", "c3", "d3"]).await;
        (id, token, v["version"].as_u64().unwrap())
    };
    let state = AppState::new(Store::open(&path).unwrap(), config);
    let app = app(state.clone());
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let reopened = v["version"].as_u64().unwrap();
    assert!(
        reopened > before,
        "version {reopened} after the restart, {before} before"
    );
    let v = play(&app, id, &token, &["c4"]).await;
    let played = v["version"].as_u64().unwrap();
    assert!(played > reopened, "{played} after {reopened}");
    // Unloaded while idle and reopened by the next request: still rising.
    state.sweep();
    assert_eq!(state.loaded(), 0);
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    let again = v["version"].as_u64().unwrap();
    assert!(again > played, "{again} after {played}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ended_and_idle_games_leave_memory_and_come_back_from_the_history() {
    let mut config = Config::for_cores(1);
    config.ended_grace = Duration::ZERO;
    config.idle = Duration::ZERO;
    let state = state_with(config);
    let app = app(state.clone());
    let (idle, token, _) = create(&app, json!({"white": "human"})).await;
    play(&app, idle, &token, &["f5", "d6"]).await;
    let (done, done_token, _) = create(&app, json!({"size": 4, "white": "human"})).await;
    let (s, _) = call(
        &app,
        "POST",
        &format!("/api/games/{done}/resign"),
        Some(&done_token),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(state.loaded(), 2);
    state.sweep();
    assert_eq!(state.loaded(), 0, "both games left memory");
    // The ended game is shown from the history and stays out of memory.
    let (s, v) = call(&app, "GET", &format!("/api/games/{done}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["over"], true);
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{done}/moves"),
        Some(&done_token),
        Some(json!({"square": "b1"})),
    )
    .await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert_eq!(state.loaded(), 0);
    // The idle one is reopened by the next move, its token still good.
    let v = play(&app, idle, &token, &["c3"]).await;
    assert_eq!(v["moves"], json!(["f5", "d6", "c3"]));
    assert_eq!(state.loaded(), 1);
}

/// A regression test: a game shown from the history after its end said "Game over" with no
/// result when it had been resigned or lost on time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_reopened_after_a_resignation_or_a_loss_on_time_keeps_its_result() {
    let mut config = Config::for_cores(1);
    config.ended_grace = Duration::ZERO;
    let state = state_with(config);
    let app = app(state.clone());
    let ending = |v: &Value| {
        (
            v["over"].clone(),
            v["resigned"].clone(),
            v["lost_on_time"].clone(),
            v["result"].clone(),
        )
    };
    let (resigned, token, _) = create(&app, json!({"white": "human"})).await;
    play(&app, resigned, &token, &["f5", "d6"]).await;
    let uri = format!("/api/games/{resigned}/resign");
    let (s, live) = call(&app, "POST", &uri, Some(&token), None).await;
    assert_eq!(s, StatusCode::OK, "{live}");
    assert_eq!(live["resigned"], "black", "{live}");
    let (timed, _, _) = create(&app, json!({"white": "human", "clock": "300ms"})).await;
    let timed_uri = format!("/api/games/{timed}");
    eventually("Black loses on time", || {
        state
            .store()
            .game_info(reversi_store::GameId(timed))
            .is_ok_and(|i| i.status == reversi_store::Status::Finished)
    })
    .await;
    let (_, timed_live) = call(&app, "GET", &timed_uri, None, None).await;
    assert_eq!(timed_live["lost_on_time"], "black", "{timed_live}");
    assert_eq!(timed_live["result"]["text"], "White wins on time");
    state.sweep();
    assert_eq!(state.loaded(), 0, "both games left memory");
    let (s, back) = call(&app, "GET", &format!("/api/games/{resigned}"), None, None).await;
    assert_eq!(s, StatusCode::OK, "{back}");
    assert_eq!(ending(&back), ending(&live));
    let (s, back) = call(&app, "GET", &timed_uri, None, None).await;
    assert_eq!(s, StatusCode::OK, "{back}");
    assert_eq!(ending(&back), ending(&timed_live));
    assert_eq!(back["clock"]["black_ms"], 0, "{back}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_another_process_writes_is_not_opened() {
    let mut config = Config::for_cores(1);
    config.idle = Duration::ZERO;
    let state = state_with(config);
    let app = app(state.clone());
    let (id, token, _) = create(&app, json!({"white": "human"})).await;
    play(&app, id, &token, &["f5"]).await;
    let other = reversi_store::Writer {
        name: "reversi history resume".into(),
        host: "another-machine".into(),
        pid: 1,
    };
    let lease = Duration::from_secs(600);
    let game = reversi_store::GameId(id);
    // Not while the server holds it ...
    let e = state.store().take_lease(game, &other, lease).unwrap_err();
    assert!(e.to_string().contains("reversi serve"), "{e}");
    // ... but once it let go of the idle game.
    state.sweep();
    state.store().take_lease(game, &other, lease).unwrap();
    let (s, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(
        error_of(&v).contains("reversi history resume (pid 1 on another-machine)"),
        "{v}"
    );
}

#[tokio::test]
async fn deleting_and_importing_need_the_admin_token() {
    let mut config = Config::for_cores(1);
    config.admin_token = Some("s3cret".into());
    let app = app(state_with(config));
    let (id, _, _) = create(&app, json!({"white": "human"})).await;
    let uri = format!("/api/history/{id}");
    let (s, v) = call(&app, "DELETE", &uri, None, None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{v}");
    assert!(error_of(&v).contains("admin token"), "{v}");
    let with = |token: &'static str| {
        axum::http::Request::delete(uri.as_str())
            .header("x-admin-token", token)
            .body(axum::body::Body::empty())
            .unwrap()
    };
    use tower::ServiceExt;
    let resp = app.clone().oneshot(with("wrong")).await.unwrap();
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    let resp = app.clone().oneshot(with("s3cret")).await.unwrap();
    assert_eq!(resp.status(), StatusCode::NO_CONTENT);
    let (s, _, _) = super::tests::send(
        &app,
        "POST",
        "/api/history/import",
        None,
        Some(axum::body::Body::from("f5d6c3d3c4f4f6f3e6e7d7g6\n")),
        "text/plain",
    )
    .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn foreign_hosts_and_cross_site_changes_are_refused() {
    let mut config = Config::for_cores(1);
    config.allowed_hosts = Some(vec!["localhost".into(), "127.0.0.1".into()]);
    let app = app(state_with(config));
    use tower::ServiceExt;
    let request = |method: &str, host: &str, origin: Option<&str>| {
        let mut r = axum::http::Request::builder()
            .method(method)
            .uri("/api/games")
            .header("host", host)
            .header("content-type", "application/json");
        if let Some(o) = origin {
            r = r.header("origin", o);
        }
        r.body(axum::body::Body::from("{}")).unwrap()
    };
    // DNS rebinding: the page of evil.example resolving to 127.0.0.1.
    let resp = app
        .clone()
        .oneshot(request("POST", "evil.example:8080", None))
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    // A form or fetch posted from another site to the right host.
    let resp = app
        .clone()
        .oneshot(request(
            "POST",
            "127.0.0.1:8080",
            Some("http://evil.example"),
        ))
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
    let resp = app
        .clone()
        .oneshot(request(
            "POST",
            "localhost:8080",
            Some("http://localhost:8080"),
        ))
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn errors_quote_a_short_excerpt_and_refusals_are_json() {
    let app = app(state_with(Config::for_cores(1)));
    let long = "x".repeat(100_000);
    let (s, v) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({ "black": long })),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let e = error_of(&v);
    assert!(
        e.len() < 400 && e.contains("100") && e.contains("xxxx"),
        "{e}"
    );
    let (s, v) = call(&app, "PATCH", "/api/games", None, None).await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    assert!(error_of(&v).contains("method"), "{v}");
}

#[tokio::test]
async fn an_upload_of_a_fragment_is_not_imported() {
    let app = app(state_with(Config::for_cores(1)));
    let (s, v, _) = super::tests::send(
        &app,
        "POST",
        "/api/history/import",
        None,
        Some(axum::body::Body::from("f5d6c3\n")),
        "text/plain",
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(error_of(&v).contains("not a whole game"), "{v}");
    let (_, list) = call(&app, "GET", "/api/history", None, None).await;
    assert_eq!(list, json!([]));
}
