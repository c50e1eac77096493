//! `reversi history analyze`: a stored game's moves against the engine's best.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use reversi_testkit::{Output, TestCommand};

/// Runs `reversi history ARGS… --db DB`.
fn history(db: &Path, args: &[&str]) -> Output {
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("history")
        .args(args)
        .arg("--db")
        .arg(db)
        .run()
}

#[test]
fn analyze_lists_each_moves_loss_and_the_totals() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("games.sqlite3");
    // A whole 4x4 game with two forced passes (after a1 and after d1).
    let file = tmp.path().join("game.txt");
    std::fs::write(&file, "b1c1d3a1a3a2b4a4d2d1c4d4\n").unwrap();
    history(&db, &["import", file.to_str().unwrap(), "--size", "4"]).assert_success();
    let text = history(&db, &["analyze", "1", "--level", "20"])
        .assert_success()
        .stdout;
    assert!(
        text.starts_with("Game 1: ? vs ?, analysed at level 20\n"),
        "{text}"
    );
    // One line per move (the forced pass included), then the totals of each side.
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(moves.len(), 14, "{text}");
    assert!(moves[0].contains("b1"), "{text}");
    assert!(moves[4].contains("PA"), "{text}");
    assert!(text.contains("\nBlack: lost "), "{text}");
    assert!(text.contains("\nWhite: lost "), "{text}");
    let err = history(&db, &["analyze", "1", "--level", "99"])
        .assert_failure()
        .stderr;
    assert!(err.contains("unknown level \"99\""), "{err}");
    history(&db, &["analyze", "7"]).assert_failure();
}
