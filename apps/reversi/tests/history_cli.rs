//! `reversi history` from the command line: import, list, show, export, delete, errors, and
//! moves surviving a SIGKILL mid-game.

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::path::Path;

use reversi_formats::wthor::list_files;
use reversi_store::{GameFilter, Status, Store};
use reversi_testkit::{data_file, Output, TestCommand};

/// Runs `reversi history --db DB ARGS…` with no terminal on standard input.
fn history(db: &Path, args: &[&str]) -> Output {
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("history")
        .arg("--db")
        .arg(db)
        .args(args)
        .env_remove("REVERSI_DB")
        .run()
}

/// The ids of `history list` lines.
fn ids(list: &str) -> Vec<String> {
    list.lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

fn wtb(year: u32) -> String {
    data_file(format!("wthor/WTH_{year}.wtb"))
        .display()
        .to_string()
}

#[test]
fn wthor_import_list_show_and_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let out = history(&db, &["import", &wtb(1977)])
        .assert_success()
        .stdout;
    assert!(out.contains("12 added, 0 skipped as duplicates"), "{out}");

    // The first game of 1977, with its names from WTH.JOU and WTH.TRN.
    let out = history(&db, &["list", "--limit", "0"])
        .assert_success()
        .stdout;
    assert_eq!(out.lines().count(), 12);
    let first = out.lines().last().unwrap();
    assert!(first.contains("Inoue Hiroshi vs Heiberg Thomas"), "{first}");
    assert!(first.contains("8x8 othello  34-30"), "{first}");
    let id = ids(first)[0].clone();
    let out = history(&db, &["show", &id]).assert_success().stdout;
    assert!(out.contains("Black:   Inoue Hiroshi"), "{out}");
    assert!(out.contains("Event:   World Championship"), "{out}");
    assert!(
        out.contains("Result:  Black wins 34-30\nOpening: Perpendicular Opening\nMoves:"),
        "{out}"
    );
    assert!(out.contains("Moves:   62 f5d6c3f3f4d3c4g6"), "{out}");
    assert!(out.contains("b2h7PAa7a8a1PAg1g2h2h1"), "{out}");
    assert!(out.contains("  8 O O O O O O O O"), "{out}");
    // The plain replay names the line under the move that reaches it, once.
    let replay = history(&db, &["replay", &id, "--plain"])
        .assert_success()
        .stdout;
    assert_eq!(replay.matches("Opening:").count(), 1, "{replay}");
    assert!(
        replay.contains("last: White d6 flipping d5\nOpening: Perpendicular Opening\n"),
        "{replay}"
    );
    // Every game of 1977 opens with a named line: Inoue's own, and the Cow reached by
    // transposition (f5f6e6f4e3), among them.
    let all = history(&db, &["list", "--limit", "0"]).stdout;
    let named: Vec<String> = ids(&all)
        .iter()
        .map(|id| {
            let out = history(&db, &["show", id]).assert_success().stdout;
            let line = out.lines().find(|l| l.starts_with("Opening: "));
            line.unwrap_or_else(|| panic!("{out}")).to_string()
        })
        .collect();
    assert!(named.contains(&"Opening: Inoue".to_string()), "{named:?}");
    assert!(named.contains(&"Opening: Cow".to_string()), "{named:?}");

    // Again: every game is a duplicate, and nothing changes.
    let out = history(&db, &["import", &wtb(1977)])
        .assert_success()
        .stdout;
    assert!(out.contains("0 added, 12 skipped as duplicates"), "{out}");

    // Filters.
    let out = history(&db, &["list", "--player", "heiberg"]).stdout;
    assert!(out.lines().count() >= 1);
    assert!(
        out.lines().all(|l| l.to_lowercase().contains("heiberg")),
        "{out}"
    );
    let Output {
        stdout: out,
        stderr: err,
        ..
    } = history(&db, &["list", "--limit", "2"]);
    assert_eq!(out.lines().count(), 2);
    assert!(err.contains("2 of 12 games shown"), "{err}");
    let out = history(&db, &["list", "--status", "in_progress"]).stdout;
    assert_eq!(out, "");
    let err = history(&db, &["list", "--status", "paused"])
        .assert_failure()
        .stderr;
    assert!(err.contains("unknown status"), "{err}");
}

#[test]
fn ggf_export_imports_into_a_fresh_database_with_the_same_moves() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.sqlite3");
    history(&db, &["import", &wtb(1980)]).assert_success();
    let out = history(&db, &["list", "--limit", "5"]).stdout;
    let chosen = ids(&out);
    assert_eq!(chosen.len(), 5);

    let ggf = dir.path().join("five.ggf");
    let mut args = vec!["export", "--format", "ggf", "-o", ggf.to_str().unwrap()];
    args.extend(chosen.iter().map(String::as_str));
    history(&db, &args).assert_success();
    assert_eq!(std::fs::read_to_string(&ggf).unwrap().lines().count(), 5);

    let fresh = dir.path().join("b.sqlite3");
    let out = history(&fresh, &["import", ggf.to_str().unwrap()])
        .assert_success()
        .stdout;
    assert!(out.contains("5 added, 0 skipped"), "{out}");

    let a = Store::open(&db).unwrap();
    let b = Store::open(&fresh).unwrap();
    let mut originals: Vec<_> = chosen
        .iter()
        .map(|id| a.load_game(id.parse().unwrap()).unwrap())
        .collect();
    let mut copies: Vec<_> = b
        .list_games(&GameFilter::default())
        .unwrap()
        .iter()
        .map(|g| b.load_game(g.id).unwrap())
        .collect();
    let key = |g: &reversi_store::StoredGame| format!("{:?}", g.game.moves());
    originals.sort_by_key(key);
    copies.sort_by_key(key);
    for (o, c) in originals.iter().zip(&copies) {
        assert_eq!(o.game, c.game);
        assert_eq!(o.info.black.name, c.info.black.name);
        assert_eq!(o.info.white.name, c.info.white.name);
        assert_eq!(o.info.score, c.info.score);
        assert_eq!(o.info.event, c.info.event);
        assert_eq!(o.info.started_at, c.info.started_at);
    }
    // The export names the same games: importing it into the first database adds nothing.
    let out = history(&db, &["import", ggf.to_str().unwrap()])
        .assert_success()
        .stdout;
    assert!(out.contains("0 added, 5 skipped as duplicates"), "{out}");

    // Transcript export: one line per game, the moves then the score.
    let out = history(&db, &["export", &chosen[0]])
        .assert_success()
        .stdout;
    let line = out.trim();
    let (moves, score) = line.split_once(' ').unwrap();
    assert!(moves.starts_with("f5"), "{line}");
    let s = originals
        .iter()
        .find(|o| o.info.id.to_string() == chosen[0])
        .unwrap()
        .info
        .score
        .unwrap();
    assert_eq!(score, s.to_string());
}

#[test]
fn transcript_import_names_the_bad_line_and_adds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let good = dir.path().join("good.txt");
    std::fs::write(&good, "1. f5 d6 2. c3 d3\n\nF5F6E6F4 B+4\nf5d6c3d3\n").unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "f5d6\nf5 d6 c3 a1\n").unwrap();
    let Output {
        stdout: out,
        stderr: err,
        ..
    } = history(
        &db,
        &["import", good.to_str().unwrap(), bad.to_str().unwrap()],
    )
    .assert_failure();
    assert!(
        out.contains("good.txt: 2 added, 1 skipped as duplicates"),
        "{out}"
    );
    assert!(
        err.contains("bad.txt: line 2: move 4 (\"a1\"): a1 flips no disc; nothing imported"),
        "{err}"
    );
    let out = history(&db, &["list"]).stdout;
    assert_eq!(out.lines().count(), 2, "nothing of bad.txt: {out}");

    // A byte-order mark and Windows line ends, in a GGF file without the extension.
    let windows = dir.path().join("windows.txt");
    std::fs::write(
        &windows,
        "\u{feff}(;GM[Othello]PB[x]PW[y]TY[8]B[f5]W[f6];)\r\n(;GM[Othello]PB[x]PW[y]B[f5]W[d6];)\r\n",
    )
    .unwrap();
    let out = history(&db, &["import", windows.to_str().unwrap()])
        .assert_success()
        .stdout;
    assert!(out.contains("2 added"), "{out}");

    // 10x10 transcripts, with two-digit rows.
    let big = dir.path().join("ten.txt");
    std::fs::write(&big, "e5 f5\n").unwrap();
    let out = history(
        &db,
        &[
            "import",
            "--size",
            "10",
            "--rules",
            "reversi",
            big.to_str().unwrap(),
        ],
    )
    .assert_success()
    .stdout;
    assert!(out.contains("1 added"), "{out}");
    let out = history(&db, &["list", "--limit", "1"]).stdout;
    assert!(out.contains("10x10 reversi  abandoned"), "{out}");
    let out = history(&db, &["list"]).stdout;
    assert_eq!(out.lines().count(), 5, "{out}");
}

#[test]
fn delete_asks_for_yes_without_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let file = dir.path().join("g.txt");
    std::fs::write(&file, "f5d6\nf5f6\nf5f4\n").unwrap();
    history(&db, &["import", file.to_str().unwrap()]).assert_success();
    let out = history(&db, &["list"]).stdout;
    let all = ids(&out);
    assert_eq!(all.len(), 3);

    let err = history(&db, &["delete", &all[0]]).assert_failure().stderr;
    assert!(err.contains("pass --yes"), "{err}");
    let err = history(&db, &["delete", &all[0], "999999", "--yes"])
        .assert_failure()
        .stderr;
    assert!(err.contains("no game with id 999999"), "{err}");
    assert_eq!(
        ids(&history(&db, &["list"]).stdout).len(),
        3,
        "nothing deleted"
    );

    let out = history(&db, &["delete", &all[0], &all[1], "--yes"])
        .assert_success()
        .stdout;
    assert!(out.contains("deleted 2 games"), "{out}");
    assert_eq!(ids(&history(&db, &["list"]).stdout), [all[2].clone()]);
    let err = history(&db, &["show", &all[0]]).assert_failure().stderr;
    assert!(
        err.contains(&format!("no game with id {}", all[0])),
        "{err}"
    );
}

#[test]
fn a_file_that_is_not_our_database_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("precious.sqlite3");
    std::fs::write(&db, "my thesis, not a database").unwrap();
    for args in [&["list"][..], &["show", "1"], &["import", &wtb(1977)]] {
        let err = history(&db, args).assert_failure().stderr;
        assert!(
            err.contains("precious.sqlite3: not an SQLite database"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(&db).unwrap(),
        "my thesis, not a database"
    );
    // REVERSI_DB is used when --db is not given.
    let err = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["history", "list"])
        .env("REVERSI_DB", &db)
        .run()
        .assert_failure()
        .stderr;
    assert!(err.contains("precious.sqlite3"), "{err}");
}

#[test]
fn moves_survive_a_sigkill_mid_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut child = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["history", "--db", db.to_str().unwrap(), "stress-append"])
        .args(["--seconds", "60"])
        .spawn();
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    // Each line is "GAME PLY TOTAL", printed once the move is committed.
    let mut last = (0i64, 0usize, 0u64);
    for line in lines.by_ref() {
        let line = line.unwrap();
        let f: Vec<&str> = line.split_whitespace().collect();
        last = (
            f[0].parse().unwrap(),
            f[1].parse().unwrap(),
            f[2].parse().unwrap(),
        );
        if last.2 >= 150 {
            break;
        }
    }
    // Child::kill sends SIGKILL on Unix: no destructor, no rollback, no checkpoint runs.
    child.kill().unwrap();
    child.wait().unwrap();
    // Moves reported after the one we read may also have landed; none may be missing.
    let store = Store::open(&db).unwrap();
    let games = store.list_games(&GameFilter::default()).unwrap();
    let stored: usize = games.iter().map(|g| g.move_count).sum();
    assert!(
        stored as u64 >= last.2,
        "{stored} stored < {} reported",
        last.2
    );
    let current = store.load_game(reversi_store::GameId(last.0)).unwrap();
    assert!(current.game.moves().len() >= last.1);
    for g in &games {
        let loaded = store.load_game(g.id).unwrap();
        assert_eq!(loaded.game.moves().len(), g.move_count);
        if g.status == Status::Finished {
            assert!(loaded.game.is_over());
        }
    }
    assert!(games.len() >= 2, "150 moves span several games");
}

/// Every WTHOR game goes in (about 131,737 games; games identical in moves, players, year and
/// tournament count once), and a filtered listing reads them. The time is printed, not
/// asserted: speed belongs to benchmarks, and this test shares the machine with others.
#[test]
#[ignore = "imports the whole WTHOR database; run in release mode"]
fn the_whole_wthor_database_imports() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wthor.sqlite3");
    let files: Vec<String> = list_files(&data_file("wthor"))
        .unwrap()
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    assert_eq!(files.len(), 47);
    let mut args = vec!["import"];
    args.extend(files.iter().map(String::as_str));
    let t = std::time::Instant::now();
    let out = history(&db, &args);
    let secs = t.elapsed().as_secs_f64();
    let out = out.assert_success().stdout;
    let total = out.lines().last().unwrap();
    let added: usize = total
        .strip_prefix("total: ")
        .and_then(|t| t.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    let skipped: usize = total
        .split(", ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(added + skipped, 131_737, "{total}");
    let t = std::time::Instant::now();
    let out = history(&db, &["list", "--player", "Tastet", "--limit", "20"])
        .assert_success()
        .stdout;
    assert_eq!(out.lines().count(), 20);
    eprintln!(
        "import {secs:.1} s, filtered listing {:.2} s",
        t.elapsed().as_secs_f64()
    );
}

#[test]
fn a_played_game_shows_and_exports_its_times_and_evaluations() {
    use reversi_core::{BoardSize, Game, Position, Rules};
    use reversi_store::{MoveRecord, NewGame, Player};

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut store = Store::open(&db).unwrap();
    let new = NewGame::standard(
        BoardSize::SIX,
        Rules::Othello,
        Player::human("Ann"),
        Player::computer("reversi", "7"),
    );
    let id = store.create_game(&new).unwrap();
    let mut game = Game::new(Position::start(BoardSize::SIX, Rules::Othello));
    for i in 0..6u32 {
        let mv = game.current().moves()[0];
        game.play(mv).unwrap();
        let rec = MoveRecord {
            mv,
            time_ms: Some(u64::from(i) * 250 + 500),
            eval: (i % 2 == 1).then_some(f64::from(i) - 2.5),
        };
        store.append_move(id, &rec).unwrap();
    }
    drop(store);

    let out = history(&db, &["show", &id.to_string()])
        .assert_success()
        .stdout;
    assert!(out.contains("Game 1  (in_progress)"), "{out}");
    assert!(
        out.contains("White:   reversi (computer, level 7)"),
        "{out}"
    );
    assert!(out.contains("Board:   6x6 othello"), "{out}");
    assert!(out.contains("Result:  in progress"), "{out}");
    assert!(
        !out.contains("Opening:"),
        "names are for 8x8 Othello only: {out}"
    );
    assert!(out.contains("    1. B "), "{out}");
    assert!(out.contains("0.5s"), "{out}");
    assert!(out.contains("eval -1.50"), "{out}");
    assert!(out.contains("to move"), "{out}");

    let ggf = history(&db, &["export", "1", "--format", "ggf"])
        .assert_success()
        .stdout;
    assert!(ggf.contains("TY[6]") && ggf.contains("RE[?]"), "{ggf}");
    assert!(ggf.contains("/-1.5/0.75]"), "{ggf}");
    let file = dir.path().join("g.ggf");
    std::fs::write(&file, &ggf).unwrap();
    let fresh = dir.path().join("fresh.sqlite3");
    history(&fresh, &["import", file.to_str().unwrap()]).assert_success();
    let copy = Store::open(&fresh)
        .unwrap()
        .load_game(reversi_store::GameId(1))
        .unwrap();
    let original = Store::open(&db)
        .unwrap()
        .load_game(reversi_store::GameId(1))
        .unwrap();
    assert_eq!(copy.game, original.game);
    assert_eq!(
        copy.moves, original.moves,
        "times and evaluations survive GGF"
    );
    assert_eq!(copy.info.status, Status::Abandoned, "an unfinished import");
}

#[test]
fn show_and_the_transcript_export_list_the_variations_and_ggf_keeps_the_main_line() {
    use reversi_core::{BoardSize, Move, Rules};
    use reversi_store::{MoveRecord, NewGame, Player};

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let id = {
        let mut store = Store::open(&db).unwrap();
        let new = NewGame::standard(
            BoardSize::EIGHT,
            Rules::Othello,
            Player::human("Ann"),
            Player::human("Ben"),
        );
        let id = store.create_game(&new).unwrap();
        let sq = |name: &str| Move::Play(new.start_position().parse_square(name).unwrap());
        for name in ["f5", "d6", "c3", "d3", "c4"] {
            store.append_move(id, &MoveRecord::bare(sq(name))).unwrap();
        }
        let v = store
            .add_variation(id, None, 1, &[sq("f6"), sq("e6"), sq("f4")])
            .unwrap();
        store.add_variation(id, Some(v), 3, &[sq("d6")]).unwrap();
        id.to_string()
    };

    let out = history(&db, &["show", &id]).assert_success().stdout;
    assert!(
        out.contains(
            "Variations:\n  variation 1 from move 2: f6e6f4\n  \
             variation 2 from move 4 of variation 1: d6\n"
        ),
        "{out}"
    );

    let out = history(&db, &["export", &id]).assert_success().stdout;
    assert_eq!(
        out,
        "f5d6c3d3c4\n# variation 1 from move 2: f6e6f4\n\
         # variation 2 from move 4 of variation 1: d6\n"
    );
    let done = history(&db, &["export", &id, "--format", "ggf"]).assert_success();
    assert!(
        done.stdout.contains("B[f5]W[d6]B[c3]W[d3]B[c4];)"),
        "the main line only: {}",
        done.stdout
    );
    assert!(
        done.stderr.contains("2 variation(s) are left out"),
        "{}",
        done.stderr
    );

    // The transcript with its comments still reads as the one game it holds.
    let file = dir.path().join("game.txt");
    std::fs::write(&file, &out).unwrap();
    let fresh = dir.path().join("fresh.sqlite3");
    let done = history(&fresh, &["import", &file.display().to_string()]).assert_success();
    assert!(done.stdout.contains("1 added"), "{}", done.stdout);
}

/// A regression test: names, events and dates from an imported file (and its file name) went
/// to the terminal as they were, so a GGF `PB[ESC[31m…]` recoloured it, a BEL rang and a
/// newline faked a line of output. They are kept as given and shown escaped.
#[test]
fn control_characters_from_an_imported_file_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let ggf = dir.path().join("club\u{1b}[5m.ggf");
    std::fs::write(
        &ggf,
        "(;GM[Othello]PC[Club\u{7}\nResult: forged]DT[2001\u{1b}[2J]PB[\u{1b}[31mEve]\
         PW[Ann\u{202e}nnA]RE[+4.000]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- \
         -------- -------- -------- *]B[f5]W[d6];)\n",
    )
    .unwrap();
    history(&db, &["import", ggf.to_str().unwrap()]).assert_success();
    let list = history(&db, &["list"]).assert_success().stdout;
    let show = history(&db, &["show", "1"]).assert_success().stdout;
    let analysed = history(&db, &["analyze", "1", "--level", "1"])
        .assert_success()
        .stdout;
    for out in [&list, &show, &analysed] {
        assert!(
            !out.contains(['\u{1b}', '\u{7}', '\u{202e}']),
            "raw control characters: {out:?}"
        );
    }
    for out in [&list, &analysed] {
        assert!(out.contains(r"\u{1b}[31mEve vs Ann\u{202e}nnA"), "{out}");
    }
    assert!(show.contains("Black:   \\u{1b}[31mEve\n"), "{show}");
    assert!(list.contains(r"2001\u{1b}"), "{list}");
    assert!(
        show.contains("Event:   Club\\u{7}\\nResult: forged\n"),
        "{show}"
    );
    assert!(show.contains(r"Source:  club\u{1b}[5m.ggf"), "{show}");
    assert!(show.contains(r"Started: 2001\u{1b}[2J"), "{show}");
    // The history keeps them as they came.
    let store = Store::open(&db).unwrap();
    let info = &store.list_games(&GameFilter::default()).unwrap()[0];
    assert_eq!(info.black.name, "\u{1b}[31mEve");
    assert_eq!(info.event.as_deref(), Some("Club\u{7}\nResult: forged"));
}
