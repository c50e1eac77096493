//! `reversi book`: building from WTHOR games, shards and merging, showing, stats, the text
//! form, learning, damaged files, and levels playing from a book.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use reversi_testkit::{data_file, Output, TestCommand};

fn reversi(args: &[&str]) -> Output {
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .run()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A folder holding one year of WTHOR games.
fn one_year(dir: &Path) -> PathBuf {
    let wthor = dir.join("wthor");
    std::fs::create_dir_all(&wthor).unwrap();
    std::fs::copy(data_file("wthor/WTH_2005.wtb"), wthor.join("WTH_2005.wtb")).unwrap();
    wthor
}

/// `book build` on one year's games, positions reached 40 times within 8 moves, depth 2.
fn build(wthor: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "book",
        "build",
        "--out",
        s(out),
        "--wthor",
        s(wthor),
        "--min-games",
        "40",
        "--max-ply",
        "8",
        "--depth",
        "2",
    ];
    args.extend_from_slice(extra);
    reversi(&args)
}

#[test]
fn a_book_builds_shows_and_round_trips() {
    let tmp = tempfile::tempdir().unwrap();
    let wthor = one_year(tmp.path());
    let book = tmp.path().join("book.bin");
    let out = build(&wthor, &book, &[]).assert_success();
    assert!(
        out.stderr.contains("positions reached by at least 40"),
        "{out}"
    );
    assert!(out.stderr.contains("saved to"), "{out}");

    // Stats: the start is there, every position searched at depth 2.
    let stats = reversi(&["book", "stats", s(&book)])
        .assert_success()
        .stdout;
    assert!(stats.contains("the start: "), "{stats}");
    assert!(stats.contains("depth  2"), "{stats}");
    assert!(!stats.contains("unsearched"), "{stats}");

    // Show: the four first moves are one position, so all four are book moves.
    let show = reversi(&["book", "show", "--file", s(&book)])
        .assert_success()
        .stdout;
    assert!(show.contains("After the start"), "{show}");
    for m in ["f5", "e6", "d3", "c4"] {
        assert!(show.lines().any(|l| l.starts_with(m)), "{m}: {show}");
    }
    let tiger = reversi(&["book", "show", "f5d6c3d3c4", "--file", s(&book)])
        .assert_success()
        .stdout;
    assert!(tiger.contains("Opening: Tiger"), "{tiger}");
    let err = reversi(&["book", "show", "f5f5", "--file", s(&book)])
        .assert_failure()
        .stderr;
    assert!(
        err.contains("move 2 (\"f5\"): f5 is already occupied"),
        "{err}"
    );

    // Check: book values beside fresh searches.
    let check = reversi(&[
        "book",
        "check",
        "--file",
        s(&book),
        "--positions",
        "3",
        "--depth",
        "3",
    ])
    .assert_success()
    .stdout;
    assert!(
        check.contains("3 positions: mean absolute difference"),
        "{check}"
    );

    // Export and import give back the same file.
    let text = tmp.path().join("book.txt");
    reversi(&["book", "export", s(&book), "--out", s(&text)]).assert_success();
    let again = tmp.path().join("again.bin");
    reversi(&["book", "import", s(&text), "--out", s(&again)]).assert_success();
    assert_eq!(
        std::fs::read(&book).unwrap(),
        std::fs::read(&again).unwrap()
    );

    // A second build on the finished file resumes with nothing to do.
    let out = build(&wthor, &book, &[]).assert_success();
    assert!(out.stderr.contains("resuming"), "{out}");
    assert!(out.stderr.contains("0 positions to search"), "{out}");

    // Damaged or foreign files are refused with the reason.
    let mut bytes = std::fs::read(&book).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    let damaged = tmp.path().join("damaged.bin");
    std::fs::write(&damaged, &bytes).unwrap();
    let err = reversi(&["book", "stats", s(&damaged)])
        .assert_failure()
        .stderr;
    assert!(err.contains("damaged"), "{err}");
    let err = reversi(&["book", "stats", s(&text)])
        .assert_failure()
        .stderr;
    assert!(err.contains("not a book file"), "{err}");
    let err = reversi(&["--book", s(&damaged), "levels"])
        .assert_failure()
        .stderr;
    assert!(err.contains("damaged"), "{err}");
}

#[test]
fn shards_merge_into_the_single_build() {
    let tmp = tempfile::tempdir().unwrap();
    let wthor = one_year(tmp.path());
    let single = tmp.path().join("single.bin");
    build(&wthor, &single, &[]).assert_success();
    let mut parts = Vec::new();
    // Shards in reverse order, to show the order does not matter.
    for k in (0..3).rev() {
        let part = tmp.path().join(format!("part{k}.bin"));
        build(&wthor, &part, &["--shard", &format!("{k}/3")]).assert_success();
        parts.push(part);
    }
    let merged = tmp.path().join("merged.bin");
    let mut args = vec!["book", "merge", "--out", s(&merged)];
    args.extend(parts.iter().map(|p| s(p)));
    reversi(&args).assert_success();
    assert_eq!(
        std::fs::read(&single).unwrap(),
        std::fs::read(&merged).unwrap()
    );
    let err = build(&wthor, &tmp.path().join("x.bin"), &["--shard", "3/3"])
        .assert_failure()
        .stderr;
    assert!(err.contains("not a shard"), "{err}");

    // Deepening in shards: each shard deepens its part of a copy of the book, and their
    // merge is the book one deepening run makes.
    let deepen = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "book",
            "deepen",
            s(&single),
            "--out",
            s(out),
            "--depth",
            "4",
        ];
        args.extend_from_slice(extra);
        reversi(&args).assert_success()
    };
    let deep = tmp.path().join("deep.bin");
    deepen(&deep, &[]);
    assert_ne!(
        std::fs::read(&deep).unwrap(),
        std::fs::read(&single).unwrap()
    );
    let mut args = vec!["book", "merge", "--out", s(&merged)];
    let parts: Vec<PathBuf> = (0..2)
        .map(|k| tmp.path().join(format!("deep{k}.bin")))
        .collect();
    for (k, part) in parts.iter().enumerate().rev() {
        let out = deepen(part, &["--shard", &format!("{k}/2")]);
        assert!(out.stderr.contains(&format!("shard {k}/2")), "{out}");
    }
    args.extend(parts.iter().map(|p| s(p)));
    reversi(&args).assert_success();
    assert_eq!(
        std::fs::read(&deep).unwrap(),
        std::fs::read(&merged).unwrap()
    );
}

#[test]
fn learning_and_extending_grow_the_book() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book.bin");
    let games = tmp.path().join("games.txt");
    std::fs::write(&games, "f5d6c3d3c4f4\nf5f6e6f4e3\n").unwrap();
    let out = reversi(&[
        "book",
        "learn",
        s(&book),
        s(&games),
        "--max-ply",
        "4",
        "--depth",
        "2",
    ])
    .assert_success();
    assert!(
        out.stderr.contains("2 games learned, 8 new positions"),
        "{out}"
    );
    let out = reversi(&[
        "book",
        "extend",
        s(&book),
        "--positions",
        "3",
        "--margin",
        "64",
        "--depth",
        "2",
    ])
    .assert_success();
    assert!(out.stderr.contains("3 positions added"), "{out}");
    let stats = reversi(&["book", "stats", s(&book)])
        .assert_success()
        .stdout;
    assert!(stats.starts_with("11 positions"), "{stats}");
    let bad = tmp.path().join("bad.txt");
    std::fs::write(&bad, "f5f5\n").unwrap();
    let err = reversi(&["book", "learn", s(&book), s(&bad)])
        .assert_failure()
        .stderr;
    assert!(err.contains("line 1"), "{err}");
}

#[test]
fn levels_play_and_hint_from_the_book() {
    let tmp = tempfile::tempdir().unwrap();
    let book = tmp.path().join("book.bin");
    let games = tmp.path().join("games.txt");
    std::fs::write(&games, "f5d6c3d3c4f4\n").unwrap();
    reversi(&["book", "learn", s(&book), s(&games), "--depth", "2"]).assert_success();
    // A hard game (plain mode) whose first computer move comes from the book: hints say so.
    let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["--book", s(&book), "play", "--plain", "--no-save"])
        .args(["--black", "human", "--white", "ai:master"])
        .stdin("hint\nf5\nquit\n")
        .run();
    assert!(out.stdout.contains("Hints (book)"), "{out}");
    // Without the book, the same hint is searched.
    let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["--no-book", "play", "--plain", "--no-save"])
        .args(["--black", "human", "--white", "ai:easy"])
        .stdin("hint\nquit\n")
        .run();
    assert!(out.stdout.contains("Hints (depth"), "{out}");
}
