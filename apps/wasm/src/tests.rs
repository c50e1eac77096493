//! The call interface driven natively: a game against the computer through both instances,
//! the history written out and read back, errors with their statuses.

#![allow(clippy::unwrap_used)]

use reversi_engine::clock::SystemClock;
use serde_json::{json, Value};

use super::{Bridge, Host};

struct TestHost {
    reports: usize,
}

impl Host for TestHost {
    fn wall_ms(&self) -> f64 {
        1_795_369_417_000.0
    }

    fn report(&mut self, _: &str) {
        self.reports += 1;
    }
}

fn call(bridge: &mut Bridge, host: &mut TestHost, request: Value) -> Value {
    let answer: Value = serde_json::from_str(&bridge.call(&request.to_string(), host)).unwrap();
    answer
}

fn ok(bridge: &mut Bridge, host: &mut TestHost, request: Value) -> Value {
    let answer = call(bridge, host, request.clone());
    answer
        .get("ok")
        .cloned()
        .unwrap_or_else(|| panic!("{request} answered {answer}"))
}

fn status(answer: &Value) -> u64 {
    answer["error"]["status"].as_u64().unwrap_or(0)
}

#[test]
fn a_game_against_the_computer_is_played_stored_and_read_back() {
    let mut host = TestHost { reports: 0 };
    let mut game = Bridge::new(SystemClock::shared());
    let mut search = Bridge::new(SystemClock::shared());
    let created = ok(
        &mut game,
        &mut host,
        json!({"method": "createGame", "size": 6, "black": "human", "white": "ai:3"}),
    );
    let id = created["game"]["id"].as_i64().unwrap();
    let mut view = created["game"].clone();
    let mut plies = 0;
    while !view["over"].as_bool().unwrap() {
        plies += 1;
        assert!(plies < 80, "the game does not end: {view}");
        if view["human_turn"].as_bool().unwrap() {
            let square = view["legal"][0].as_str().unwrap().to_string();
            view = ok(
                &mut game,
                &mut host,
                json!({"method": "play", "id": id, "square": square}),
            );
        } else {
            let job = ok(
                &mut game,
                &mut host,
                json!({"method": "computerTurn", "id": id}),
            );
            assert!(!job.is_null(), "the computer is to move: {view}");
            let decision = ok(
                &mut search,
                &mut host,
                json!({"method": "chooseMove", "job": job}),
            );
            view = ok(
                &mut game,
                &mut host,
                json!({"method": "computerMove", "id": id, "job": job, "decision": decision}),
            );
        }
    }
    assert!(host.reports > 0, "the computer's thinking was reported");
    assert!(
        view["result"]["text"].as_str().unwrap().contains("wins")
            || view["result"]["text"].as_str().unwrap().contains("draw")
    );
    // A finished game takes no more moves.
    assert_eq!(
        status(&call(
            &mut game,
            &mut host,
            json!({"method": "play", "id": id, "square": "a1"})
        )),
        409
    );

    let changes = ok(&mut game, &mut host, json!({"method": "changes"}));
    let records = changes["put"].clone();
    assert_eq!(records.as_array().unwrap().len(), 1);
    assert_eq!(records[0]["status"], "finished");

    // A new page reads the records back.
    let mut again = Bridge::new(SystemClock::shared());
    let loaded = ok(
        &mut again,
        &mut host,
        json!({"method": "load", "records": records}),
    );
    assert_eq!(loaded["games"], 1);
    let list = ok(
        &mut again,
        &mut host,
        json!({"method": "listGames", "limit": 50}),
    );
    assert_eq!(list["total"], 1);
    assert_eq!(list["games"][0]["id"], id);
    let record = ok(
        &mut again,
        &mut host,
        json!({"method": "getRecord", "id": id}),
    );
    assert_eq!(
        record["moves"].as_array().unwrap().len(),
        view["moves"].as_array().unwrap().len()
    );
    let ggf = ok(
        &mut again,
        &mut host,
        json!({"method": "exportGame", "id": id, "format": "ggf"}),
    );
    let text = ggf["text"].as_str().unwrap().to_string();
    assert!(text.starts_with("(;"), "{text}");

    // Imported again, it is a duplicate; deleted, it is gone.
    let imported = ok(
        &mut again,
        &mut host,
        json!({"method": "importGames", "name": "g.ggf", "text": text}),
    );
    assert_eq!(
        (imported["added"].as_u64(), imported["skipped"].as_u64()),
        (Some(0), Some(1))
    );
    ok(
        &mut again,
        &mut host,
        json!({"method": "deleteGame", "id": id}),
    );
    let changes = ok(&mut again, &mut host, json!({"method": "changes"}));
    assert_eq!(changes["deleted"], json!([id]));
    let imported = ok(
        &mut again,
        &mut host,
        json!({"method": "importGames", "name": "g.ggf", "text": text}),
    );
    assert_eq!(imported["added"], 1);
}

#[test]
fn undo_hints_and_refusals() {
    let mut host = TestHost { reports: 0 };
    let mut game = Bridge::new(SystemClock::shared());
    let mut search = Bridge::new(SystemClock::shared());
    let created = ok(
        &mut game,
        &mut host,
        json!({"method": "createGame", "size": 8, "black": "human", "white": "human"}),
    );
    let id = created["game"]["id"].as_i64().unwrap();
    assert_eq!(
        status(&call(
            &mut game,
            &mut host,
            json!({"method": "play", "id": id, "square": "a1"})
        )),
        422
    );
    assert_eq!(
        status(&call(
            &mut game,
            &mut host,
            json!({"method": "play", "id": id, "square": "z9"})
        )),
        400
    );
    assert_eq!(
        status(&call(
            &mut game,
            &mut host,
            json!({"method": "undo", "id": id})
        )),
        409
    );
    assert_eq!(
        status(&call(
            &mut game,
            &mut host,
            json!({"method": "getGame", "id": 999})
        )),
        404
    );
    assert_eq!(
        status(&call(&mut game, &mut host, json!({"method": "nothing"}))),
        400
    );
    let after = ok(
        &mut game,
        &mut host,
        json!({"method": "play", "id": id, "square": "f5"}),
    );
    assert_eq!(after["moves"], json!(["f5"]));
    let back = ok(&mut game, &mut host, json!({"method": "undo", "id": id}));
    assert_eq!(back["moves"], json!([]));
    assert_eq!(back["can_redo"], true);
    let spec = ok(
        &mut game,
        &mut host,
        json!({"method": "gameSpec", "id": id}),
    );
    let hints = ok(
        &mut search,
        &mut host,
        json!({"method": "hints", "game": spec["game"], "level": 4}),
    );
    assert_eq!(hints["ply"], 0);
    assert_eq!(hints["candidates"].as_array().unwrap().len(), 4);
    let levels = ok(&mut game, &mut host, json!({"method": "levels"}));
    assert_eq!(levels.as_array().unwrap().len(), 60);
    let resigned = ok(&mut game, &mut host, json!({"method": "resign", "id": id}));
    assert_eq!(resigned["over"], true);
    assert_eq!(resigned["resigned"], "black");
}

#[test]
fn positions_are_read_analysed_and_drawn() {
    let mut host = TestHost { reports: 0 };
    let mut game = Bridge::new(SystemClock::shared());
    let mut search = Bridge::new(SystemClock::shared());
    let read = ok(
        &mut game,
        &mut host,
        json!({"method": "readPosition", "position": "f5d6c3"}),
    );
    assert_eq!(read["format"], "transcript");
    assert_eq!(read["turn"], "white");
    let bad = call(
        &mut game,
        &mut host,
        json!({"method": "readPosition", "position": "f5f5"}),
    );
    assert_eq!(status(&bad), 422);
    let image = ok(
        &mut game,
        &mut host,
        json!({"method": "positionImage", "position": "f5d6c3", "legal": true}),
    );
    assert!(image["text"].as_str().unwrap().starts_with("<svg"));
    let analysis = ok(
        &mut search,
        &mut host,
        json!({"method": "analyzePosition", "position": "f5d6c3", "level": 4}),
    );
    let moves = analysis["moves"].as_array().unwrap();
    assert_eq!(moves.len(), read["legal"].as_array().unwrap().len());
    assert!(moves.iter().all(|m| m["line"][0] == m["square"]));
}

#[test]
fn a_job_names_the_computers_colour_and_keeps_its_seed_exact() {
    let mut host = TestHost { reports: 0 };
    let mut game = Bridge::new(SystemClock::shared());
    let created = ok(
        &mut game,
        &mut host,
        json!({"method": "createGame", "black": "ai:2", "white": "human", "seed": u64::MAX}),
    );
    let id = created["game"]["id"].as_i64().unwrap();
    let job = ok(
        &mut game,
        &mut host,
        json!({"method": "computerTurn", "id": id}),
    );
    assert_eq!(job["color"], "black");
    // Past 2^53 a JSON number loses digits in JavaScript: the seed travels as text.
    assert!(job["seed"].is_string(), "{job}");
}

#[test]
fn a_record_that_does_not_read_keeps_its_id() {
    let mut host = TestHost { reports: 0 };
    let mut game = Bridge::new(SystemClock::shared());
    let broken = json!({
        "id": 7, "size": 8, "rules": "othello", "start": null,
        "black": {"name": "a", "kind": "human", "level": null},
        "white": {"name": "b", "kind": "human", "level": null},
        "started_at": null, "ended_at": null, "status": "in_progress", "score": null,
        "event": null, "source": null, "clock": null, "termination": null,
        "moves": [{"mv": "a1", "time_ms": null, "eval": null}], "variations": []
    });
    let loaded = ok(
        &mut game,
        &mut host,
        json!({"method": "load", "records": [broken]}),
    );
    assert_eq!(loaded["games"], 0);
    assert_eq!(loaded["refused"].as_array().unwrap().len(), 1);
    let created = ok(&mut game, &mut host, json!({"method": "createGame"}));
    assert_eq!(created["game"]["id"], 8);
}

#[test]
fn the_explorer_counts_this_browsers_finished_games_in_every_orientation() {
    let mut host = TestHost { reports: 0 };
    let mut game = Bridge::new(SystemClock::shared());
    let mut search = Bridge::new(SystemClock::shared());
    // Two finished games: f5 d6 … and its half-turned twin c4 e3 …, and one after f5 f6.
    let text = "f5d6c3d3c4 37-27\nc4e3f6e6f5 30-34\nf5f6 32-32\n";
    let imported = ok(
        &mut game,
        &mut host,
        json!({"method": "importGames", "name": "three.txt", "text": text}),
    );
    assert_eq!(imported["added"], 3);
    // From the start, the four first moves are one up to symmetry: counted as one, as the
    // SQLite index counts them.
    let start = ok(&mut game, &mut host, json!({"method": "explore"}));
    assert_eq!(start["moves"].as_array().unwrap().len(), 1, "{start}");
    assert_eq!(start["moves"][0]["games"], 3);
    let view = ok(
        &mut game,
        &mut host,
        json!({"method": "explore", "position": "f5"}),
    );
    assert_eq!(view["to_move"], "white");
    let moves = view["moves"].as_array().unwrap();
    // After f5, d6 was played twice (once as e3 after c4), f6 once.
    assert_eq!(moves[0]["square"], "d6");
    assert_eq!(moves[0]["games"], 2);
    assert_eq!(moves[0]["black_wins"], 1);
    assert_eq!(moves[1]["square"], "f6");
    assert_eq!(moves[1]["draws"], 1);
    let hints = ok(
        &mut search,
        &mut host,
        json!({"method": "positionHints", "position": "f5", "level": 2}),
    );
    assert_eq!(hints["candidates"].as_array().unwrap().len(), 3);
}
