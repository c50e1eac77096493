//! The study routes against the router, with no network: variations played in a replay and
//! kept, and their bad requests.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use tower::ServiceExt;

use super::tests::{call, error_of, send, test_app};

/// Imports one finished game (`d3 e3 f6 …`); returns its id.
async fn imported(app: &Router) -> i64 {
    let (s, v, _) = send(
        app,
        "POST",
        "/api/history/import",
        None,
        Some(Body::from("d3e3f6c5b5b6f3f2e2d2c1d1c3b4e1g3 B+4")),
        "text/plain",
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (_, list) = call(app, "GET", "/api/history", None, None).await;
    list[0]["id"].as_i64().unwrap()
}

async fn vary(app: &Router, id: i64, body: Value) -> (StatusCode, Value) {
    let uri = format!("/api/history/{id}/variations");
    call(app, "POST", &uri, None, Some(body)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_played_in_a_replay_makes_a_variation_that_is_kept() {
    let app = test_app();
    let id = imported(&app).await;
    let (_, g) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    let lines = g["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["name"], "main line");
    assert_eq!(lines[0]["moves"], g["moves"]);
    assert_eq!(lines[0]["branches"], json!([]));
    // After d3, White may play c3, c5 or e3 (the game's own).
    let legal = &lines[0]["positions"][1]["legal"];
    assert_eq!(legal, &json!(["c3", "e3", "c5"]));

    // c5 instead of e3: a variation leaving the game after move 1, shown after its move.
    let (s, v) = vary(&app, id, json!({"line": null, "ply": 1, "move": "c5"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["shown"].clone(), v["ply"].clone()), (json!(1), json!(2)));
    let var = &v["lines"][1];
    assert_eq!(var["name"], "variation 1 from move 2");
    assert_eq!(
        (var["parent"].clone(), var["from_ply"].clone()),
        (json!(0), json!(1))
    );
    assert_eq!(var["moves"], json!(["d3", "c5"]));
    assert_eq!(var["positions"].as_array().unwrap().len(), 3);
    let vid = var["id"].as_i64().unwrap();

    // A move at its end extends it; the game's own move follows the game's line.
    let next = var["positions"][2]["legal"][0]
        .as_str()
        .unwrap()
        .to_string();
    let (s, v) = vary(&app, id, json!({"line": vid, "ply": 2, "move": next})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["shown"].clone(), v["ply"].clone()), (json!(1), json!(3)));
    assert_eq!(v["lines"][1]["moves"], json!(["d3", "c5", next]));
    let (s, v) = vary(&app, id, json!({"ply": 1, "move": "e3"})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["shown"].clone(), v["lines"].as_array().unwrap().len()),
        (json!(0), 2)
    );

    // Read again: the variation is kept, and the game's line says where it parts.
    let (_, g) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(g["lines"][1]["moves"], json!(["d3", "c5", next]));
    assert_eq!(
        g["lines"][0]["branches"],
        json!([{"ply": 1, "moves": [{"move": "e3", "line": 0}, {"move": "c5", "line": 1}]}])
    );
    assert_eq!(g["lines"][1]["branches"][0]["ply"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_variations_get_a_4xx_naming_the_problem() {
    let app = test_app();
    let id = imported(&app).await;
    let cases = [
        (
            json!({"ply": 1, "move": "a1"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "a1",
        ),
        (
            json!({"ply": 1, "move": "z9"}),
            StatusCode::BAD_REQUEST,
            "\"z9\"",
        ),
        (
            json!({"ply": 1, "move": "pass"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "pass",
        ),
        (
            json!({"ply": 99, "move": "c5"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "move 99 is past the end of the line (16 moves)",
        ),
        (
            json!({"line": 777, "ply": 1, "move": "c5"}),
            StatusCode::NOT_FOUND,
            "no variation 777",
        ),
        (json!({"ply": 1}), StatusCode::UNPROCESSABLE_ENTITY, "move"),
        (
            json!({"ply": 1, "move": "c5", "x": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "x",
        ),
    ];
    for (body, status, needle) in cases {
        let (s, v) = vary(&app, id, body.clone()).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(error_of(&v).contains(needle), "{body}: {v}");
    }
    let (s, v) = vary(&app, 999, json!({"ply": 1, "move": "c5"})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    // Nothing refused was kept.
    let (_, g) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(g["lines"].as_array().unwrap().len(), 1);
    // A change sent from another site's page is refused like every other.
    let req = Request::builder()
        .method("POST")
        .uri(format!("/api/history/{id}/variations"))
        .header("host", "127.0.0.1:8080")
        .header("origin", "http://evil.example")
        .header("content-type", "application/json")
        .body(Body::from(json!({"ply": 1, "move": "c5"}).to_string()))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
}
