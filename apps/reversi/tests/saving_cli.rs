//! Games saved as they are played, through the real program: moves surviving a SIGKILL of
//! `reversi play`, a game quit half-way, listed, resumed to its end and replayed, and
//! `--no-save`.

#![allow(clippy::unwrap_used)]

use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use reversi_core::{parse_transcript, BoardSize, Color, Game, Move, Position, Rules, Square};
use reversi_engine::book::text::board_text;
use reversi_engine::Board;
use reversi_players::{Ai, Computer};
use reversi_store::{GameId, PlayerKind, Status, Store};
use reversi_testkit::{Output, TestCommand};

/// Runs `reversi ARGS…` on the game database `db`, with `stdin` as its standard input.
fn reversi(db: &Path, args: &[&str], stdin: &str) -> Output {
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .env("REVERSI_DB", db)
        .stdin(stdin)
        .run()
}

/// A whole 6x6 game of Black playing its first legal square against greedy White: Black's
/// squares, and the game.
fn game_against_greedy() -> (Vec<Square>, Game) {
    let stop = AtomicBool::new(false);
    let mut game = Game::new(Position::start(BoardSize::SIX, Rules::Othello));
    let mut black = Vec::new();
    while !game.is_over() {
        let pos = game.current().clone();
        let mv = if pos.must_pass() {
            Move::Pass
        } else if pos.turn() == Color::Black {
            let sq = pos.legal_moves()[0];
            black.push(sq);
            Move::Play(sq)
        } else {
            Computer::new(Ai::Greedy, 1)
                .choose(&pos, &stop, &mut |_| {})
                .unwrap()
                .mv
        };
        game.play(mv).unwrap();
    }
    (black, game)
}

fn lines(squares: &[Square]) -> String {
    squares.iter().map(|s| format!("{s}\n")).collect()
}

#[test]
fn a_game_quit_half_way_is_listed_resumed_finished_and_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let (black, full) = game_against_greedy();
    let play = [
        "play",
        "--plain",
        "--size",
        "6",
        "--black",
        "human",
        "--white",
        "ai:greedy",
    ];

    let Output {
        stdout: out,
        stderr: err,
        ..
    } = reversi(&db, &play, &format!("{}quit\n", lines(&black[..3]))).assert_success();
    assert!(out.ends_with("Game left unfinished.\n"), "{out}");
    assert!(
        err.contains("Saved as game 1; `reversi history resume 1` continues it."),
        "{err}"
    );
    let list = reversi(&db, &["history", "list"], "")
        .assert_success()
        .stdout;
    assert!(list.contains("6x6 othello  in progress"), "{list}");
    assert!(list.contains(" vs reversi"), "{list}");

    let Output {
        stdout: out,
        stderr: err,
        ..
    } = reversi(
        &db,
        &["history", "resume", "1", "--plain"],
        &lines(&black[3..]),
    )
    .assert_success();
    assert!(out.contains("against White (ai:greedy)"), "{out}");
    assert!(out.contains("Resuming game 1 after 6 moves."), "{out}");
    let score = full.score().unwrap();
    assert!(out.contains("Game over: "), "{out}");
    assert!(
        err.contains("Saved as game 1; `reversi history replay 1` replays it."),
        "{err}"
    );

    let store = Store::open(&db).unwrap();
    let stored = store.load_game(GameId(1)).unwrap();
    assert_eq!(stored.info.status, Status::Finished);
    assert_eq!(stored.info.score, Some(score));
    assert_eq!(stored.game, full, "every move in order, passes included");
    assert_eq!(stored.info.black.kind, PlayerKind::Human);
    assert_eq!(stored.info.white.level.as_deref(), Some("greedy"));
    assert!(stored.moves.iter().all(|m| m.time_ms.is_some()));
    assert!(stored.info.ended_at.is_some());
    drop(store);
    let list = reversi(&db, &["history", "list"], "").stdout;
    assert!(list.contains(&format!("6x6 othello  {score}")), "{list}");

    // A finished game does not resume.
    let err = reversi(&db, &["history", "resume", "1", "--plain"], "")
        .assert_failure()
        .stderr;
    assert!(err.contains("game 1 is finished"), "{err}");

    // The replay prints the start and the board after every move.
    let out = reversi(&db, &["history", "replay", "1", "--plain"], "")
        .assert_success()
        .stdout;
    let n = full.moves().len();
    assert_eq!(out.matches("    a b c d e f\n").count(), n + 1, "{out}");
    assert!(out.contains(&format!("\n1. Black {}", black[0])), "{out}");
    assert!(
        out.trim_end().ends_with(&format!(
            "After {n} moves: Black {}, White {}; {}",
            score.black,
            score.white,
            match score.outcome() {
                reversi_core::Outcome::Win(c) => format!("{c} wins {score}"),
                reversi_core::Outcome::Draw => format!("Draw {score}"),
            }
        )),
        "{out}"
    );

    // GGF out, into a fresh database.
    let ggf = dir.path().join("game.ggf");
    reversi(
        &db,
        &[
            "history",
            "export",
            "1",
            "--format",
            "ggf",
            "-o",
            ggf.to_str().unwrap(),
        ],
        "",
    )
    .assert_success();
    let fresh = dir.path().join("fresh.sqlite3");
    let out = reversi(&fresh, &["history", "import", ggf.to_str().unwrap()], "")
        .assert_success()
        .stdout;
    assert!(out.contains("1 added"), "{out}");
    let copy = Store::open(&fresh).unwrap().load_game(GameId(1)).unwrap();
    assert_eq!(copy.game, full);
}

/// `reversi history resume` ignored `--book` and `--no-book`: the resumed game's computer
/// consulted the shipped book, as the library's default context does, not the program's.
#[test]
fn history_resume_consults_the_book_the_program_was_given() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    // A book of two positions that no other book plays so: White answers f5 with d6, and
    // f5 d6 c3 with g5 (the shipped book's best there is d3).
    let after = |moves: &str| {
        let start = Position::start(BoardSize::EIGHT, Rules::Othello);
        let pos = parse_transcript(moves, start).unwrap().current().clone();
        board_text(Board::from_position(&pos).unwrap().0)
    };
    let text = format!(
        "{}; games=0 depth=10 leaf=d6:+0\n{}; games=0 depth=10 leaf=g5:+30\n",
        after("f5"),
        after("f5d6c3")
    );
    let txt = dir.path().join("book.txt");
    let book = dir.path().join("book.bin");
    std::fs::write(&txt, text).unwrap();
    let (txt, book) = (txt.to_str().unwrap(), book.to_str().unwrap());
    reversi(&db, &["book", "import", txt, "--out", book], "").assert_success();

    let play = ["--book", book, "play", "--plain", "--black", "human"];
    let out = reversi(
        &db,
        &[&play[..], &["--white", "ai:master"]].concat(),
        "f5\nquit\n",
    )
    .assert_success()
    .stdout;
    assert!(out.contains("White (ai:master) plays d6"), "{out}");
    let resume = ["--book", book, "history", "resume", "1", "--plain"];
    let out = reversi(&db, &resume, "c3\nquit\n").assert_success().stdout;
    assert!(out.contains("Resuming game 1 after 2 moves."), "{out}");
    assert!(out.contains("White (ai:master) plays g5"), "{out}");
}

#[test]
fn no_save_plays_without_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let Output {
        stdout: out,
        stderr: err,
        ..
    } = reversi(&db, &["play", "--plain", "--no-save"], "f5\nquit\n").assert_success();
    assert!(out.contains("Game left unfinished."), "{out}");
    assert!(!err.contains("Saved as"), "{err}");
    assert!(!db.exists());
}

/// Reads the child's output until `prompt` has appeared `n` times.
fn wait_for(out: &mut impl Read, seen: &mut String, prompt: &str, n: usize) {
    let mut buf = [0u8; 4096];
    while seen.matches(prompt).count() < n {
        let got = out.read(&mut buf).unwrap();
        assert!(got > 0, "the program ended early:\n{seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..got]));
    }
}

#[test]
fn moves_of_reversi_play_survive_a_sigkill_mid_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    // Both sides people, each playing the first legal square: 8 moves, no pass.
    let mut game = Game::new(Position::start(BoardSize::EIGHT, Rules::Othello));
    let mut squares = Vec::new();
    for _ in 0..8 {
        let sq = game.current().legal_moves()[0];
        squares.push(sq);
        game.play(Move::Play(sq)).unwrap();
    }
    let mut child = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["play", "--plain", "--black", "human", "--white", "human"])
        .args(["--db", db.to_str().unwrap()])
        .spawn();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = String::new();
    wait_for(&mut stdout, &mut seen, " to move> ", 1);
    for (i, sq) in squares.iter().enumerate() {
        writeln!(stdin, "{sq}").unwrap();
        stdin.flush().unwrap();
        // The next prompt comes once the move is played, and so saved.
        wait_for(&mut stdout, &mut seen, " to move> ", i + 2);
    }
    // Child::kill sends SIGKILL on Unix: nothing of the program runs after it.
    child.kill().unwrap();
    child.wait().unwrap();

    let store = Store::open(&db).unwrap();
    let stored = store.load_game(GameId(1)).unwrap();
    assert_eq!(stored.info.status, Status::InProgress);
    assert_eq!(stored.game, game, "all 8 moves, in order");
}
