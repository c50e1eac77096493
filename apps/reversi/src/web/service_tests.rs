//! The server as a service, against the router with no network: fair and bounded searches,
//! and (with small limits) the caps that keep one client from starving the others.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::Router;
use reversi_store::Store;
use serde_json::{json, Value};

use super::tests::{call, create, error_of, settled};
use super::{app, AppState, Config};

fn state_with(config: Config) -> AppState {
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

/// Starts a level-60 hint for game `id` (it runs for its level's whole budget).
fn deep_hint(app: &Router, id: i64) -> tokio::task::JoinHandle<(StatusCode, Value)> {
    let app = app.clone();
    tokio::spawn(async move {
        call(
            &app,
            "POST",
            &format!("/api/games/{id}/hints"),
            None,
            Some(json!({"level": 60})),
        )
        .await
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_weak_computer_answers_while_two_perfect_hints_run() {
    let mut config = Config::for_cores(1);
    config.pool.slots = 2;
    // Without the kept slot the weak game would wait for a whole level-60 budget (20 s).
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
        "level 1 took {waited:?} behind two level-60 hints"
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
    let analyse = || async {
        let (s, v) = call(
            &app,
            "POST",
            &format!("/api/history/{id}/analysis"),
            None,
            Some(json!({"level": 8})),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        v
    };
    let first = analyse().await;
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
