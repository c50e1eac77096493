//! Study commands end to end: `reversi play --position` (a game from a set-up position, kept
//! and replayed from it), `reversi analyze` and the SVG pictures.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use reversi_testkit::{Output, TestCommand};

/// White to move with e4, d5, e5, f5 Black's and d4 White's (after f5).
const BOARD_AFTER_F5: &str = "---------------------------OX------XXX-------------------------- O";

fn reversi(db: &Path, args: &[&str], stdin: &str) -> Output {
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .env("REVERSI_DB", db)
        .stdin(stdin)
        .run()
}

#[test]
fn play_from_a_position_keeps_the_start_and_replays_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let out = reversi(
        &db,
        &[
            "play",
            "--plain",
            "--white",
            "human",
            "--position",
            BOARD_AFTER_F5,
        ],
        "f4\nquit\n",
    )
    .assert_success();
    assert!(out.stdout.contains("White to move> f4"), "{}", out.stdout);
    assert!(out.stderr.contains("Saved as game 1"), "{}", out.stderr);
    let show = reversi(&db, &["history", "show", "1"], "").assert_success();
    assert!(show.stdout.contains("set-up start"), "{}", show.stdout);
    let export = reversi(&db, &["history", "export", "1", "--format", "ggf"], "").assert_success();
    let bo = "BO[8 -------- -------- -------- ---O*--- ---***-- -------- -------- -------- O]";
    assert!(export.stdout.contains(bo), "{}", export.stdout);
    assert!(export.stdout.contains("W[f4"), "{}", export.stdout);
    // Resumed, the game goes on from the set-up start and its move.
    let resumed = reversi(&db, &["history", "resume", "1", "--plain"], "quit\n").assert_success();
    assert!(
        resumed.stdout.contains("Black to move>"),
        "{}",
        resumed.stdout
    );
    assert!(
        resumed.stdout.contains("Black X 3  White O 3"),
        "{}",
        resumed.stdout
    );
}

#[test]
fn play_takes_every_position_format() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let obf = format!("{};", BOARD_AFTER_F5);
    let ggf = format!("(;GM[Othello]BO[8 {}];)", BOARD_AFTER_F5.replace('X', "*"));
    for position in [BOARD_AFTER_F5, "f5", obf.as_str(), ggf.as_str()] {
        let out = reversi(
            &db,
            &[
                "play",
                "--plain",
                "--no-save",
                "--white",
                "human",
                "--position",
                position,
            ],
            "quit\n",
        )
        .assert_success();
        assert!(
            out.stdout.contains("Black X 4  White O 1"),
            "{position}: {}",
            out.stdout
        );
        assert!(
            out.stdout.contains("White to move>"),
            "{position}: {}",
            out.stdout
        );
    }
    // A transcript follows --size and --rules.
    let out = reversi(
        &db,
        &[
            "play",
            "--plain",
            "--no-save",
            "--white",
            "human",
            "--size",
            "6",
            "--rules",
            "reversi",
            "--position",
            "c3d3",
        ],
        "quit\n",
    )
    .assert_success();
    assert!(out.stdout.contains("6x6 reversi"), "{}", out.stdout);
    assert!(
        out.stdout.contains("Black X 1  White O 1"),
        "{}",
        out.stdout
    );
}

#[test]
fn impossible_or_malformed_positions_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let hole = BOARD_AFTER_F5.replacen("OX", "-X", 1);
    let cases = [
        (hole.as_str(), "d4 is empty"),
        (&BOARD_AFTER_F5[..64], "the side to move is missing"),
        ("f5d6a1", "move 3 (\"a1\"): a1 flips no disc"),
        ("XO- X", "a board of 3 squares"),
    ];
    for (position, why) in cases {
        let out = reversi(&db, &["play", "--plain", "--position", position], "").assert_failure();
        assert!(out.stderr.contains(why), "{position}: {}", out.stderr);
    }
    assert!(!db.exists(), "nothing is saved for a refused position");
}

#[test]
fn a_finished_position_is_accepted_as_a_finished_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let full = format!("{}O X", "X".repeat(63));
    let out = reversi(&db, &["play", "--plain", "--position", &full], "").assert_success();
    assert!(out.stdout.contains("Black wins 63-1"), "{}", out.stdout);
}
