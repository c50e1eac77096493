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
    // The human scale is of 8x8 games: a 4x4 game is not rated.
    assert!(!text.contains("played like"), "{text}");
    let err = history(&db, &["analyze", "1", "--level", "99"])
        .assert_failure()
        .stderr;
    assert!(err.contains("unknown level \"99\""), "{err}");
    history(&db, &["analyze", "7"]).assert_failure();
}

#[test]
fn a_games_rating_is_reproducible() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("games.sqlite3");
    // A WTHOR game of 2004 (41-23).
    let file = tmp.path().join("game.txt");
    std::fs::write(
        &file,
        "f5f6e6f4e3c5g5g4g3d6e7f3e2d7c4d3f7c6c8f2b5b6c7d1a6b4a3h3b3a5c3a4d2e1c2h6g6e8f8g8h5\
         h4c1h7d8b8b7b1b2a1a2a8a7g7h8h2g2h1g1f1\n",
    )
    .unwrap();
    history(&db, &["import", file.to_str().unwrap()]).assert_success();
    // Without --level: the human scale's level, so each side is rated.
    let rated = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains("played like a"))
            .map(str::to_string)
            .collect()
    };
    let first = history(&db, &["analyze", "1"]).assert_success().stdout;
    let lines = rated(&first);
    assert_eq!(lines.len(), 2, "{first}");
    assert!(lines[0].starts_with("Black: played like a "), "{first}");
    assert!(lines[1].starts_with("White: played like a "), "{first}");
    assert!(lines[0].contains("90% range"), "{first}");
    assert!(first.contains("One game says little"), "{first}");
    let again = history(&db, &["analyze", "1"]).assert_success().stdout;
    assert_eq!(rated(&again), lines);
    // At another level than the scale's: the way to a rating instead.
    let other = history(&db, &["analyze", "1", "--level", "2"])
        .assert_success()
        .stdout;
    assert!(rated(&other).is_empty(), "{other}");
    assert!(other.contains("for each side's rating"), "{other}");
}
