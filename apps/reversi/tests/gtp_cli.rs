//! `reversi gtp` as a match runner drives it: a separate process reading a script of
//! commands, answering each `=` or `?` and an empty line, and ending at `quit`.

#![allow(clippy::unwrap_used)]

use reversi_testkit::TestCommand;

#[test]
fn a_scripted_session_ending_in_quit() {
    let script = "\
# a game as a match runner starts it
1 protocol_version
2 name
3 boardsize 6
4 boardsize 8
5 clear_board
6 komi 0
7 play B F5
8 play b f5
9 genmove w
10 undo
11 genmove w
12 fly
13 final_score
14 quit
15 name
";
    let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["gtp", "--threads", "1", "--hash-mb", "8", "--level", "4"])
        .stdin(script)
        .run()
        .assert_success();
    let responses: Vec<&str> = out.stdout.split_terminator("\n\n").collect();
    assert_eq!(
        responses[..8],
        [
            "=1 2",
            "=2 reversi",
            "?3 unacceptable size",
            "=4",
            "=5",
            "=6",
            "=7",
            "?8 illegal move"
        ],
        "{out}"
    );
    // White's answers to f5, lowercase; undo takes the first back. Then 3 discs each.
    let white = ["=9 d6", "=9 f4", "=9 f6"];
    assert!(white.contains(&responses[8]), "{out}");
    assert_eq!(responses[9], "=10");
    assert!(
        white
            .map(|r| r.replace("=9", "=11"))
            .contains(&responses[10].to_string()),
        "{out}"
    );
    assert_eq!(
        responses[11..],
        ["?12 unknown command", "=13 0", "=14"],
        "{out}"
    );
    assert!(out.stdout.ends_with("=14\n\n"), "{out}");
}

#[test]
fn a_bad_level_is_refused_before_starting() {
    let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["gtp", "--level", "61"])
        .run()
        .assert_failure();
    assert!(out.stderr.contains("is not a level"), "{out}");
}
