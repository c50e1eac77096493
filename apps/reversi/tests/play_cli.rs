//! `reversi play --plain` end to end: whole games scripted through standard input of the real
//! program, and the help and no-argument behaviour without a terminal.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::AtomicBool;

use reversi_core::{BoardSize, Color, Move, Position, Rules, Score, Square};
use reversi_players::{Ai, Computer};
use reversi_testkit::{Output, TestCommand};

/// Runs `reversi ARGS…` with `stdin` as its standard input.
fn reversi(args: &[&str], stdin: &str) -> Output {
    // Games are saved: into a database of this call's own, not the user's.
    let dir = tempfile::tempdir().unwrap();
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .env("REVERSI_DB", dir.path().join("games.sqlite3"))
        .stdin(stdin)
        .run()
}

/// Black's moves for a whole game against greedy White in which somebody passes, and the
/// final score; found by playing the games out with the rules and the same greedy player.
fn game_with_a_pass(size: BoardSize) -> (Vec<Square>, Score) {
    fn go(pos: Position, passed: bool, line: &mut Vec<Square>) -> Option<Score> {
        let stop = AtomicBool::new(false);
        if pos.is_game_over() {
            return passed.then(|| Score::of(&pos));
        }
        if pos.must_pass() {
            return go(pos.play(Move::Pass).unwrap(), true, line);
        }
        if pos.turn() == Color::White {
            let d = Computer::new(Ai::Greedy, 1)
                .choose(&pos, &stop, &mut |_| {})
                .unwrap();
            return go(pos.play(d.mv).unwrap(), passed, line);
        }
        for sq in pos.legal_moves() {
            line.push(sq);
            if let Some(score) = go(pos.play(Move::Play(sq)).unwrap(), passed, line) {
                return Some(score);
            }
            line.pop();
        }
        None
    }
    let mut line = Vec::new();
    let score = go(Position::start(size, Rules::Othello), false, &mut line).expect("a pass");
    (line, score)
}

#[test]
fn a_whole_scripted_game_with_mistakes_undo_redo_hint_and_a_pass() {
    let (line, score) = game_with_a_pass(BoardSize::SIX);
    let mut script = vec![
        "a1".to_string(), // no flips: a corner far from the centre discs
        "zz".to_string(), // not a square
        "g7".to_string(), // off a 6x6 board
    ];
    script.push(line[0].to_string());
    script.push("undo".into());
    script.push("redo".into());
    script.push("hint".into());
    script.extend(line[1..].iter().map(ToString::to_string));
    let out = reversi(
        &[
            "play",
            "--plain",
            "--size",
            "6",
            "--white",
            "ai:greedy",
            "--seed",
            "1",
        ],
        &(script.join("\n") + "\n"),
    )
    .assert_success()
    .stdout;
    assert!(
        out.starts_with("6x6 othello: Black (you) against White (ai:greedy)."),
        "{out}"
    );
    assert!(
        out.contains("Black (you) to move> a1\na1 flips no disc\n"),
        "{out}"
    );
    assert!(out.contains("\"zz\" is not a square name"), "{out}");
    assert!(out.contains("g7 is off the 6x6 board (a1 to f6)"), "{out}");
    assert!(out.contains("Took back 2 moves."), "{out}");
    assert!(out.contains("Replayed 2 moves."), "{out}");
    assert!(out.contains("Hints ("), "{out}");
    assert!(out.contains("White (ai:greedy) plays "), "{out}");
    assert!(out.contains("has no legal move and passes."), "{out}");
    let result = match score.outcome() {
        reversi_core::Outcome::Win(c) => format!("{c} wins {score}"),
        reversi_core::Outcome::Draw => format!("Draw {score}"),
    };
    assert!(out.ends_with(&format!("Game over: {result}\n")), "{out}");
    // Every prompt got one of the script's lines.
    assert_eq!(out.matches("Black (you) to move> ").count(), script.len());
}

#[test]
fn end_of_input_and_quit_end_the_game_cleanly() {
    let out = reversi(&["play", "--plain", "--white", "ai:random"], "f5\n")
        .assert_success()
        .stdout;
    assert!(out.contains("White (ai:random) plays "), "{out}");
    assert!(
        out.ends_with("End of input: the game is left unfinished.\n"),
        "{out}"
    );
    let out = reversi(&["play", "--plain"], "help\nquit\n")
        .assert_success()
        .stdout;
    assert!(out.contains("undo   take back your last move"), "{out}");
    assert!(out.ends_with("Game left unfinished.\n"), "{out}");
}

#[test]
fn two_computers_play_to_the_end_without_input() {
    let out = reversi(
        &[
            "play",
            "--size",
            "4",
            "--black",
            "ai:greedy",
            "--white",
            "ai:random",
            "--seed",
            "5",
        ],
        "",
    )
    .assert_success()
    .stdout;
    assert!(out.contains("Black (ai:greedy) plays "), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("Game over: "),
        "{out}"
    );
}

#[test]
fn bad_players_are_refused_with_the_reason() {
    let err = reversi(&["play", "--white", "ai:godlike"], "")
        .assert_failure()
        .stderr;
    assert!(
        err.contains("ai:godlike") && err.contains("level name"),
        "{err}"
    );
}

#[test]
fn play_help_lists_the_levels() {
    let out = reversi(&["play", "--help"], "").assert_success().stdout;
    for name in [
        "beginner", "novice", "easy", "medium", "club", "advanced", "hard", "strong", "expert",
        "master", "perfect",
    ] {
        assert!(
            out.contains(&format!("  {name:<11} level")),
            "{name}: {out}"
        );
    }
    assert!(out.contains("ai:ALGORITHM:DEPTH"));
}

#[test]
fn without_a_terminal_no_arguments_prints_help() {
    let out = reversi(&[], "").assert_success().stdout;
    assert!(out.contains("Usage: reversi"), "{out}");
    assert!(out.contains("play"), "{out}");
}

#[test]
fn plain_play_on_a_clock_shows_it_and_a_bad_clock_is_refused() {
    let out = reversi(
        &["play", "--plain", "--white", "human", "--clock", "5m+3s"],
        "f5\nquit\n",
    )
    .assert_success()
    .stdout;
    assert!(
        out.contains("[Black 5:00 | White 5:00] Black to move> "),
        "{out}"
    );
    // Black played at once and earned the increment.
    assert!(out.contains("[Black 5:0"), "{out}");
    assert!(out.contains("| White 5:00] White to move> "), "{out}");
    let err = reversi(&["play", "--plain", "--clock", "5m+"], "")
        .assert_failure()
        .stderr;
    assert!(err.contains("bad clock \"5m+\""), "{err}");
}
