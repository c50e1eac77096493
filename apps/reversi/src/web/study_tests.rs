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

const START: &str = "---------------------------OX------XO--------------------------- X";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_are_read_in_every_notation_and_checked() {
    let app = test_app();
    let read = |body: Value| {
        let app = app.clone();
        async move { call(&app, "POST", "/api/position", None, Some(body)).await }
    };
    let (s, v) = read(json!({"position": START})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["format"].clone(), v["turn"].clone()),
        (json!("board"), json!("black"))
    );
    assert_eq!(v["legal"], json!(["d3", "c4", "f5", "e6"]));
    assert_eq!(v["text"], START);
    let (_, t) = read(json!({"position": "f5 d6"})).await;
    assert_eq!(
        (t["format"].clone(), t["moves"].clone()),
        (json!("transcript"), json!(["f5", "d6"]))
    );
    assert_eq!(t["turn"], "black");
    assert_eq!(t["board"][5], "...O....");
    // GGF's BO and a 6x6 transcript.
    let bo = format!("BO[8 {} *]", START[..64].replace('X', "*"));
    let (_, g) = read(json!({"position": bo})).await;
    assert_eq!(
        (g["format"].clone(), g["text"].clone()),
        (json!("ggf"), json!(START))
    );
    let (_, six) = read(json!({"position": "b3", "size": 6})).await;
    assert_eq!(six["size"], 6);
    // Finished: accepted, and said so.
    let full = format!("{} O", "X".repeat(64));
    let (s, f) = read(json!({"position": full})).await;
    assert_eq!(s, StatusCode::OK, "{f}");
    assert_eq!(
        (f["over"].clone(), f["legal"].clone()),
        (json!(true), json!([]))
    );

    let hole = START.replacen("OX", "-X", 1);
    let cases = [
        (
            json!({"position": ""}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "no position",
        ),
        (
            json!({"position": &START[..64]}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "side",
        ),
        (
            json!({"position": hole}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "d4 is empty",
        ),
        (
            json!({"position": "f5 a1"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "a1",
        ),
        (
            json!({"position": "-Z- X"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "'Z'",
        ),
        (
            json!({"position": START, "rules": "go"}),
            StatusCode::BAD_REQUEST,
            "go",
        ),
        (
            json!({"position": "f5", "size": 7}),
            StatusCode::BAD_REQUEST,
            "7",
        ),
        (
            json!({"board": START}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "board",
        ),
    ];
    for (body, status, needle) in cases {
        let (s, v) = read(body.clone()).await;
        assert_eq!(s, status, "{body}: {v}");
        assert!(
            error_of(&v).to_lowercase().contains(&needle.to_lowercase()),
            "{body}: {v}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_up_position_is_analysed_and_played_from() {
    let app = test_app();
    let (s, a) = call(
        &app,
        "POST",
        "/api/position/analysis",
        None,
        Some(json!({"position": "f5", "level": 2})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let moves: Vec<&str> = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["square"].as_str().unwrap())
        .collect();
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["d6", "f4", "f6"]);
    assert_eq!(a["moves"][0]["line"][0], a["moves"][0]["square"]);
    assert_eq!(
        (a["level"].clone(), a["passed"].clone()),
        (json!(2), Value::Null)
    );
    let (s, v) = call(
        &app,
        "POST",
        "/api/position/analysis",
        None,
        Some(json!({"position": "f5", "level": 61})),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // Over: nothing to score.
    let full = format!("{} O", "X".repeat(64));
    let (_, over) = call(
        &app,
        "POST",
        "/api/position/analysis",
        None,
        Some(json!({"position": full, "level": 1})),
    )
    .await;
    assert_eq!(over["moves"], json!([]));

    // Play from a position: White to move after f5, the history keeps it as the start.
    let (s, c) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(json!({"position": "f5", "black": "ai:1", "white": "human"})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{c}");
    let id = c["game"]["id"].as_i64().unwrap();
    assert_eq!(
        (c["game"]["turn"].clone(), c["game"]["moves"].clone()),
        (json!("white"), json!([]))
    );
    assert_eq!(c["game"]["counts"], json!({"black": 4, "white": 1}));
    let token = c["token"].as_str().unwrap();
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        Some(json!({"square": "f6"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, h) = call(&app, "GET", &format!("/api/history/{id}"), None, None).await;
    assert_eq!(h["positions"][0]["board"][4], "...XXX..");
    assert_eq!(h["moves"][0], "f6");
    for (body, needle) in [
        (json!({"position": full}), "game is over"),
        (json!({"position": "f5 zz"}), "\"z\""),
    ] {
        let (s, v) = call(&app, "POST", "/api/games", None, Some(body.clone())).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
        assert!(error_of(&v).contains(needle), "{body}: {v}");
    }
}

#[tokio::test]
async fn the_picture_of_a_position_is_an_svg_of_its_discs() {
    let app = test_app();
    let get = |uri: String| {
        let app = app.clone();
        async move { send(&app, "GET", &uri, None, None, "").await }
    };
    let enc = |t: &str| t.replace(' ', "%20");
    let (s, _, svg) = get(format!("/api/position/svg?position={}&legal=1", enc(START))).await;
    assert_eq!(s, StatusCode::OK, "{svg}");
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert_eq!(svg.matches("class=\"disc black\"").count(), 2);
    assert_eq!(svg.matches("class=\"legal\"").count(), 4);
    // A transcript's last move is ringed by itself; a caption is written under the board.
    let (_, _, t) = get("/api/position/svg?position=f5d6&caption=Game%201".into()).await;
    assert_eq!(t.matches("class=\"last\"").count(), 1);
    assert!(t.contains("Game 1"), "{t}");
    assert_eq!(t.matches("class=\"legal\"").count(), 0);
    let long = "x".repeat(121);
    for (uri, needle) in [
        (
            format!("/api/position/svg?position={}&last=a1", enc(START)),
            "a1",
        ),
        (
            format!("/api/position/svg?position={}&legal=yes", enc(START)),
            "yes",
        ),
        (
            format!("/api/position/svg?position={}&caption={long}", enc(START)),
            "caption",
        ),
        ("/api/position/svg?position=f5zz".to_string(), "\"z\""),
        ("/api/position/svg".to_string(), "position"),
    ] {
        let (s, v, _) = get(uri.clone()).await;
        assert!(s.is_client_error(), "{uri}: {s} {v}");
        assert!(error_of(&v).contains(needle), "{uri}: {v}");
    }
}
