//! `reversi history explore` and `reindex` from the command line: the moves of imported games
//! from a position in any orientation, with counts, Black's results and the engine's values,
//! as a table and JSON; bad positions named.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use reversi_testkit::{Output, TestCommand};
use serde_json::Value;

fn history(db: &Path, args: &[&str]) -> Output {
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("history")
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("REVERSI_DB")
        .run()
}

/// A database of four finished games and one unfinished, imported from transcripts: three
/// Tigers (one turned half round: c4e3f6e6f5) and a game going f5f6.
fn database(dir: &Path) -> std::path::PathBuf {
    let db = dir.join("games.sqlite3");
    let games = dir.join("games.txt");
    std::fs::write(
        &games,
        "f5d6c3d3c4 40-24\nc4e3f6e6f5 30-34\nf5d6c3d3c4f4 32-32\nf5f6e6f4 14-50\nf5d6c5\n",
    )
    .unwrap();
    let out = history(&db, &["import", games.to_str().unwrap()])
        .assert_success()
        .stdout;
    assert!(out.contains("5 added"), "{out}");
    db
}

#[test]
fn explore_shows_the_moves_played_with_their_results() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path());
    let out = history(&db, &["explore", "f5", "--no-values"])
        .assert_success()
        .stdout;
    assert!(
        out.contains("White to move; 4 games reached this position"),
        "{out}"
    );
    // d6: 40-24, 30-34 and 32-32: a win each and a draw, Black +4 on average.
    assert!(
        out.contains("  d6         3       33.3%   33.3%       33.3%     +4.0\n"),
        "{out}"
    );
    assert!(
        out.contains("  f6         1        0.0%    0.0%      100.0%    -36.0\n"),
        "{out}"
    );
    // The unfinished game (f5d6c5) does not count: after f5d6 only the Tigers' c3.
    let out = history(&db, &["explore", "f5d6", "--no-values"])
        .assert_success()
        .stdout;
    assert!(out.contains("  c3         3"), "{out}");
    assert!(!out.contains("  c5 "), "{out}");
}

#[test]
fn explore_json_gives_moves_in_the_asked_orientation_with_values() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path());
    // After f5d6c3 and after its half turn c4e3f6: the same three games.
    let out = history(&db, &["explore", "f5d6c3", "--json"])
        .assert_success()
        .stdout;
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["games"], 3);
    let m = &v["moves"][0];
    assert_eq!(m["move"], "d3");
    assert_eq!(
        (m["games"].as_u64(), m["black_wins"].as_u64()),
        (Some(3), Some(1))
    );
    assert_eq!(m["draws"], 1);
    assert_eq!(m["white_wins"], 1);
    assert!((m["mean_disc_margin"].as_f64().unwrap() - 4.0).abs() < 1e-9);
    // The Tiger's d3 is in the shipped book.
    assert_eq!(m["value"]["kind"]["name"], "book", "{out}");
    let turned = history(&db, &["explore", "c4e3f6", "--json"])
        .assert_success()
        .stdout;
    let t: Value = serde_json::from_str(&turned).unwrap();
    assert_eq!(t["moves"][0]["move"], "e6");
    assert_eq!(t["moves"][0]["games"], 3);
    // A board and side to move are read as `analyze` reads them; no game reached this one.
    let board = "---------------------------OX------XXX-------------------------- O";
    let out = history(&db, &["explore", board, "--no-values", "--json"])
        .assert_success()
        .stdout;
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 4, "{out}");
}

#[test]
fn explore_refuses_bad_positions_and_reindex_rebuilds() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(dir.path());
    let err = history(&db, &["explore", "f5f5"]).assert_failure().stderr;
    assert!(err.contains("f5f5"), "{err}");
    assert!(err.contains("move 2"), "{err}");
    let six = "--------------OX----XO-------------- X";
    let err = history(&db, &["explore", six]).assert_failure().stderr;
    assert!(err.contains("the explorer covers 8x8 games"), "{err}");
    let err = history(&db, &["explore", "--level", "99"])
        .assert_failure()
        .stderr;
    assert!(err.contains("unknown level \"99\""), "{err}");
    let out = history(&db, &["reindex"]).assert_success().stdout;
    assert!(out.starts_with("explorer index: 4 games, "), "{out}");
    let out = history(&db, &["explore", "--no-values"])
        .assert_success()
        .stdout;
    assert!(out.contains("4 games reached this position"), "{out}");
}
