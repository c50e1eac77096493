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

/// The tiny Edax book of the engine's tests (written by its exporter, read by hand against
/// Edax's layout): the start, f5 and White's three answers.
fn edax_tiny() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../crates/engine/tests/data/edax-tiny.dat")
}

/// The rows of a `book show` table: move, value and depth (the games column aside).
fn book_rows(show: &str) -> Vec<String> {
    show.lines()
        .skip_while(|l| !l.starts_with("move"))
        .skip(1)
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn an_edax_book_goes_in_and_comes_out() {
    let tmp = tempfile::tempdir().unwrap();
    let wthor = one_year(tmp.path());
    let book = tmp.path().join("book.bin");
    build(&wthor, &book, &[]).assert_success();

    // Out as Edax's book, in again, and out again: the same Edax book (but its date).
    let dat = tmp.path().join("book.dat");
    let out = reversi(&[
        "book",
        "export",
        s(&book),
        "--format",
        "edax",
        "--out",
        s(&dat),
    ])
    .assert_success();
    assert!(out.stderr.contains("as an Edax book"), "{out}");
    let bytes = std::fs::read(&dat).unwrap();
    assert_eq!(&bytes[..8], b"XADEKOOB");
    let imported = tmp.path().join("imported.bin");
    let out = reversi(&[
        "book",
        "import",
        s(&dat),
        "--format",
        "edax",
        "--out",
        s(&imported),
    ])
    .assert_success();
    assert!(out.stderr.contains("Edax positions read"), "{out}");
    let again = tmp.path().join("again.dat");
    reversi(&[
        "book",
        "export",
        s(&imported),
        "--format",
        "edax",
        "--out",
        s(&again),
    ])
    .assert_success();
    let again = std::fs::read(&again).unwrap();
    assert_eq!(bytes.len(), again.len());
    assert_eq!((&bytes[..10], &bytes[18..]), (&again[..10], &again[18..]));

    // `book show`: the same moves, values and depths as the book it came from.
    let show = |file: &Path| {
        reversi(&["book", "show", "f5d6", "--file", s(file)])
            .assert_success()
            .stdout
    };
    let (ours, theirs) = (show(&book), show(&imported));
    assert!(!book_rows(&ours).is_empty(), "{ours}");
    assert_eq!(book_rows(&ours), book_rows(&theirs), "{ours}\n{theirs}");

    // NBoard's hint streams the imported book's moves.
    let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "--book",
            s(&imported),
            "nboard",
            "--threads",
            "1",
            "--hash-mb",
            "8",
        ])
        .stdin("nboard 2\nset game (;GM[Othello]TY[8];)\nhint 4\n")
        .run()
        .assert_success();
    for m in ["F5", "E6", "D3", "C4"] {
        assert!(
            out.stdout
                .lines()
                .any(|l| l.starts_with(&format!("book {m} "))),
            "{m}: {out}"
        );
    }
    // A level plays from it, and the terminal's hints say so.
    let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["--book", s(&imported), "play", "--plain", "--no-save"])
        .args(["--black", "human", "--white", "ai:master"])
        .stdin("hint\nf5\nquit\n")
        .run();
    assert!(out.stdout.contains("Hints (book)"), "{out}");

    // A binary file is not written to the terminal: --out is needed.
    let err = reversi(&["book", "export", s(&book), "--format", "edax"])
        .assert_failure()
        .stderr;
    assert!(err.contains("--out"), "{err}");
}

#[test]
fn a_real_edax_book_reads_and_damaged_ones_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let tiny = edax_tiny();
    let book = tmp.path().join("tiny.bin");
    let out = reversi(&[
        "book",
        "import",
        s(&tiny),
        "--format",
        "edax",
        "--out",
        s(&book),
    ])
    .assert_success();
    assert!(out.stderr.contains("saved 2024-05-06 07:08:09"), "{out}");
    assert!(out.stderr.contains("5 positions written"), "{out}");
    // After f5, White's answers as the tiny book values them, best first.
    let show = reversi(&["book", "show", "f5", "--file", s(&book)])
        .assert_success()
        .stdout;
    assert_eq!(
        book_rows(&show),
        ["f6 +1 10", "d6 -2 10", "f4 -5 12"],
        "{show}"
    );
    // Back out, it is the same book (but its date).
    let dat = tmp.path().join("tiny.dat");
    reversi(&[
        "book",
        "export",
        s(&book),
        "--format",
        "edax",
        "--out",
        s(&dat),
    ])
    .assert_success();
    let (a, b) = (std::fs::read(&tiny).unwrap(), std::fs::read(&dat).unwrap());
    assert_eq!((&a[..10], &a[18..]), (&b[..10], &b[18..]));

    // Damaged or foreign files: the reason, no panic.
    let import = |bytes: &[u8]| {
        let path = tmp.path().join("bad.dat");
        std::fs::write(&path, bytes).unwrap();
        reversi(&[
            "book",
            "import",
            s(&path),
            "--format",
            "edax",
            "--out",
            s(&book),
        ])
        .assert_failure()
        .stderr
    };
    let err = import(&a[..a.len() - 3]);
    assert!(err.contains("truncated"), "{err}");
    let err = import(&a[..20]);
    assert!(err.contains("truncated"), "{err}");
    let mut v3 = a.clone();
    v3[8] = 3;
    let err = import(&v3);
    assert!(err.contains("version 3"), "{err}");
    // The first position's opponent takes one of the player's discs.
    let mut overlap = a.clone();
    overlap[50..58].copy_from_slice(&a[42..50]);
    let err = import(&overlap);
    assert!(
        err.contains("position 0") && err.contains("overlap"),
        "{err}"
    );
    let err = import(&std::fs::read(&book).unwrap());
    assert!(err.contains("not an Edax book"), "{err}");
}
