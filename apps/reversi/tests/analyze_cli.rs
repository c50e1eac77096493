//! `reversi history analyze`: a stored game's moves against the engine's best.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;

fn reversi(db: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("history")
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .expect("run reversi")
}

#[test]
fn analyze_lists_each_moves_loss_and_the_totals() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("games.sqlite3");
    // A whole 4x4 game with two forced passes (after a1 and after d1).
    let file = tmp.path().join("game.txt");
    std::fs::write(&file, "b1c1d3a1a3a2b4a4d2d1c4d4\n").unwrap();
    let out = reversi(&db, &["import", file.to_str().unwrap(), "--size", "4"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = reversi(&db, &["analyze", "1", "--level", "20"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
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
    let bad = reversi(&db, &["analyze", "1", "--level", "99"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown level \"99\""));
    let missing = reversi(&db, &["analyze", "7"]);
    assert!(!missing.status.success());
}
