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

/// Runs `reversi analyze ARGS…`.
fn analyze(args: &[&str]) -> Output {
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("analyze")
        .args(args)
        .run()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

#[test]
fn analyze_scores_every_move_with_its_kind_and_line() {
    let out = analyze(&["f5d6c3d3c4", "--level", "4", "--no-book"]).assert_success();
    assert!(
        out.stdout.contains("White to move; level 4 (novice):"),
        "{}",
        out.stdout
    );
    let v = json(&analyze(&["f5d6c3d3c4", "--level", "4", "--json", "--no-book"]).assert_success());
    assert_eq!(v["to_move"], "white");
    let moves = v["moves"].as_array().unwrap();
    let mut names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["b3", "b5", "f3", "f4", "g5", "g6"]);
    for m in moves {
        assert_eq!(m["kind"]["name"], "depth", "{m}");
        assert_eq!(m["kind"]["depth"], 4, "{m}");
        let line = m["line"].as_array().unwrap();
        assert_eq!(line[0], m["move"], "the line starts with the move: {m}");
        assert!(line.len() > 1, "a depth-4 search knows the replies: {m}");
        // The text table shows the same move, score and line.
        let row = format!(
            "{:<4}  {:>5}  depth 4",
            m["move"].as_str().unwrap(),
            m["shown"].as_str().unwrap()
        );
        assert!(out.stdout.contains(&row), "{row:?} in {}", out.stdout);
    }
    let scores: Vec<i64> = moves.iter().map(|m| m["score"].as_i64().unwrap()).collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
}

#[test]
fn analyze_tags_exact_depth_and_book_scores() {
    // 14 empties, Black to move: level 10 solves it exactly; G8 is the best move (+18).
    let obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;";
    let v = json(&analyze(&[obf, "--level", "10", "--json"]).assert_success());
    assert_eq!(v["moves"][0]["move"], "g8");
    assert_eq!(v["moves"][0]["score"], 18);
    assert_eq!(v["moves"][0]["kind"]["name"], "exact");
    let line = v["moves"][0]["line"].as_array().unwrap();
    // The table keeps the line until the solver's last few empties.
    assert!(line.len() >= 4, "{line:?}");
    // Level 3 does not solve 14 empties: its scores are a depth's.
    let v = json(&analyze(&[obf, "--level", "3", "--json"]).assert_success());
    assert_eq!(v["moves"][0]["kind"]["name"], "depth");

    // A book with the start and f5: the start's moves are all the book's.
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("book.txt");
    let book = dir.path().join("book.bin");
    std::fs::write(
        &text,
        "---------------------------OX------XO--------------------------- X; games=10 depth=12 leaf=f5:+1\n\
         ---------------------------OX------XXX-------------------------- O; games=10 depth=12 leaf=f6:-1\n",
    )
    .unwrap();
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["book", "import"])
        .arg(&text)
        .arg("--out")
        .arg(&book)
        .run()
        .assert_success();
    let start = "---------------------------OX------XO--------------------------- X";
    let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["analyze", start, "--level", "2", "--json", "--book"])
        .arg(&book)
        .run()
        .assert_success();
    let v = json(&out);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    for m in moves {
        assert_eq!(m["kind"]["name"], "book", "{m}");
        assert_eq!(m["score"], 1, "{m}");
    }
    let f5 = moves.iter().find(|m| m["move"] == "f5").unwrap();
    assert_eq!(
        f5["line"],
        serde_json::json!(["f5", "f6"]),
        "the book's reply follows"
    );
}

#[test]
fn analyze_a_finished_position_a_pass_and_bad_input() {
    let full = format!("{}O", "X".repeat(63));
    let out = analyze(&[&full, "X"]).assert_success();
    assert!(
        out.stdout.contains("The game is over: Black wins 63-1"),
        "{}",
        out.stdout
    );
    let v = json(&analyze(&[&full, "X", "--json"]).assert_success());
    assert_eq!(v["result"], serde_json::json!({"black": 63, "white": 1}));
    assert_eq!(v["moves"], serde_json::json!([]));
    // White has no move on this board: it passes, and Black's one move is scored.
    let pass = format!("{}O- O", "X".repeat(62));
    let v = json(&analyze(&[&pass, "--json"]).assert_success());
    assert_eq!(
        (v["passed"].as_str(), v["to_move"].as_str()),
        (Some("white"), Some("black"))
    );
    assert_eq!(v["moves"][0]["move"], "h8");
    assert_eq!(v["moves"][0]["score"], 64);
    let out = analyze(&["f5f5"]).assert_failure();
    assert!(
        out.stderr
            .contains("move 2 (\"f5\"): f5 is already occupied"),
        "{}",
        out.stderr
    );
    let out = analyze(&["f5", "--level", "99"]).assert_failure();
    assert!(
        out.stderr.contains("unknown level \"99\""),
        "{}",
        out.stderr
    );
}

#[test]
fn pictures_of_a_stored_game_and_of_an_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    reversi(
        &db,
        &["play", "--plain", "--white", "human"],
        "f5\nd6\nc3\nquit\n",
    )
    .assert_success();
    let picture = |extra: &[&str]| {
        let mut args = vec!["history", "export", "1", "--format", "svg"];
        args.extend_from_slice(extra);
        reversi(&db, &args, "").assert_success().stdout
    };
    let svg = picture(&[]);
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert!(svg.trim_end().ends_with("</svg>"));
    // After f5 d6 c3: Black 5, White 2, with c3 ringed.
    assert_eq!(svg.matches("class=\"disc black\"").count(), 5);
    assert_eq!(svg.matches("class=\"disc white\"").count(), 2);
    assert_eq!(svg.matches("class=\"last\"").count(), 1);
    assert!(svg.contains("Game 1, human vs human, after 3. c3"), "{svg}");
    assert_eq!(svg.matches("class=\"legal\"").count(), 0);
    let start = picture(&["--move", "0", "--legal"]);
    assert_eq!(start.matches("class=\"disc black\"").count(), 2);
    assert_eq!(start.matches("class=\"legal\"").count(), 4);
    assert_eq!(start.matches("class=\"last\"").count(), 0);
    let file = dir.path().join("move1.svg");
    reversi(
        &db,
        &[
            "history",
            "export",
            "1",
            "--format",
            "svg",
            "--move",
            "1",
            "-o",
            file.to_str().unwrap(),
        ],
        "",
    )
    .assert_success();
    let one = std::fs::read_to_string(&file).unwrap();
    assert_eq!(one.matches("class=\"disc black\"").count(), 4);
    let out = reversi(
        &db,
        &["history", "export", "1", "--format", "svg", "--move", "4"],
        "",
    )
    .assert_failure();
    assert!(out.stderr.contains("game 1 has 3 moves"), "{}", out.stderr);

    let drawn = dir.path().join("analysis.svg");
    let out = analyze(&[
        "f5d6c3d3c4",
        "--level",
        "3",
        "--json",
        "--svg",
        drawn.to_str().unwrap(),
    ])
    .assert_success();
    let moves = json(&out)["moves"].as_array().unwrap().len();
    let svg = std::fs::read_to_string(&drawn).unwrap();
    assert_eq!(svg.matches("class=\"score\"").count(), moves);
    assert_eq!(svg.matches("class=\"disc black\"").count(), 6);
    assert_eq!(svg.matches("class=\"last\"").count(), 1, "c4 is ringed");
    assert!(svg.contains("level 3 (beginner)"), "{svg}");
}
