//! `reversi match`: internal levels against each other and against `reversi nboard` run as
//! an external process, `reversi gtp` as a GTP engine against `reversi nboard`, the saved
//! games, and engines of either protocol that crash, hang, refuse or cheat forfeiting without
//! stopping the match.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use reversi_core::Color;
use reversi_formats::ggf::{parse_ggf, GgfGame};
use reversi_store::{GameFilter, Status, Store};
use reversi_testkit::{Output, TestCommand};

const EXE: &str = env!("CARGO_BIN_EXE_reversi");

/// Three XOT openings in a file of their own.
fn openings(dir: &Path) -> PathBuf {
    let path = dir.join("xot.txt");
    std::fs::write(
        &path,
        "f5d6c4d3c2b3b4b5\nf5f4g3g6f3g4e3e2\nf5f6d3c5d6c7b5e3\n",
    )
    .unwrap();
    path
}

/// Runs `reversi match --openings (three of them) ARGS…` in `dir`.
fn run_match(dir: &Path, args: &[&str]) -> Output {
    TestCommand::new(EXE)
        .arg("match")
        .arg("--openings")
        .arg(openings(dir))
        .args(args)
        .current_dir(dir)
        .env_remove("REVERSI_DB")
        .run()
}

fn games(path: &Path) -> Vec<GgfGame> {
    parse_ggf(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The `+W =D -L` record of the report line starting with `who:`.
fn record(out: &str, who: &str) -> (usize, usize, usize) {
    let line = out
        .lines()
        .find(|l| l.starts_with(&format!("{who}: +")))
        .unwrap_or_else(|| panic!("no record line in {out}"));
    // After the name, which may hold spaces (an engine's command line).
    let f: Vec<usize> = line[who.len() + 1..]
        .split_whitespace()
        .take(3)
        .map(|t| t[1..].parse().unwrap())
        .collect();
    (f[0], f[1], f[2])
}

#[test]
fn equal_levels_give_mirrored_pairs_and_an_even_score() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.ggf");
    let stdout = run_match(
        dir.path(),
        &[
            "--a",
            "level:2",
            "--b",
            "2",
            "--games",
            "4",
            "--out",
            out.to_str().unwrap(),
        ],
    )
    .assert_success()
    .stdout;
    let games = games(&out);
    assert_eq!(games.len(), 4);
    for pair in games.chunks(2) {
        // The same opening, colours swapped; one engine on both sides of a deterministic
        // search plays the same game twice.
        assert_eq!(pair[0].tag("PB"), pair[1].tag("PW"));
        assert_eq!(pair[0].tag("PW"), pair[1].tag("PB"));
        assert_eq!(
            pair[0].moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
            pair[1].moves.iter().map(|m| m.mv).collect::<Vec<_>>()
        );
    }
    for g in &games {
        let game = g.game().unwrap();
        assert!(game.is_over());
        assert_eq!(
            g.result_margin(),
            Some(f64::from(game.score().unwrap().margin()))
        );
    }
    let (w, d, l) = record(&stdout, "level:2");
    assert_eq!(w + d + l, 4);
    assert_eq!(w, l);
    assert!(stdout.contains("score 50.0%"), "{stdout}");
    assert!(stdout.contains("Elo difference +0"), "{stdout}");
}

#[test]
fn games_are_saved_to_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let stdout = run_match(
        dir.path(),
        &[
            "--a",
            "level:1",
            "--b",
            "level:3",
            "--games",
            "3",
            "--db",
            db.to_str().unwrap(),
        ],
    )
    .assert_success()
    .stdout;
    assert!(
        stdout.contains("saved 3 games to the game database"),
        "{stdout}"
    );
    let store = Store::open(&db).unwrap();
    let mut infos = store.list_games(&GameFilter::default()).unwrap();
    infos.reverse();
    assert_eq!(infos.len(), 3);
    let mut a_points = 0.0;
    for (i, info) in infos.iter().enumerate() {
        assert_eq!(info.status, Status::Finished);
        let a_color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let (a, b) = match a_color {
            Color::Black => (&info.black, &info.white),
            Color::White => (&info.white, &info.black),
        };
        assert_eq!((a.name.as_str(), b.name.as_str()), ("level:1", "level:3"));
        assert_eq!(a.level.as_deref(), Some("1"));
        let stored = store.load_game(info.id).unwrap();
        assert!(stored.game.is_over());
        let score = stored.game.score().unwrap();
        assert_eq!(info.score, Some(score));
        let margin = match a_color {
            Color::Black => score.margin(),
            Color::White => -score.margin(),
        };
        a_points += match margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        // Engine moves carry their time and evaluation; the opening's eight do not.
        assert!(stored.moves[..8].iter().all(|m| m.eval.is_none()));
        assert!(stored.moves[8..].iter().any(|m| m.eval.is_some()));
    }
    assert!(
        stdout.contains(&format!("score {:.1}%", 100.0 * a_points / 3.0)),
        "{stdout}"
    );
}

#[test]
fn a_level_against_reversi_nboard_as_an_external_process() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.ggf");
    let external = format!("{EXE} nboard --threads 1 --hash-mb 8");
    let stdout = run_match(
        dir.path(),
        &[
            "--a",
            "level:2",
            "--b",
            &external,
            "--depth",
            "2",
            "--games",
            "4",
            "--out",
            out.to_str().unwrap(),
        ],
    )
    .assert_success()
    .stdout;
    assert!(stdout.contains("forfeits: level:2 0, "), "{stdout}");
    assert!(
        stdout.ends_with(&format!(
            "{external} 0\nsaved 4 games to {}\n",
            out.display()
        )),
        "{stdout}"
    );
    let games = games(&out);
    assert_eq!(games.len(), 4);
    for (i, g) in games.iter().enumerate() {
        assert!(g.game().unwrap().is_over());
        let external_side = if i % 2 == 0 { "PW" } else { "PB" };
        // The engine's own name, from its `set myname` answer.
        assert!(
            g.tag(external_side).unwrap().starts_with("Reversi2 ("),
            "{:?}",
            g.tags
        );
    }
    let (w, d, l) = record(&stdout, "level:2");
    assert_eq!(w + d + l, 4);
}

/// An engine that answers pings, and does `on_go` when asked for a move.
fn fake_engine(on_go: &str) -> String {
    format!(
        "sh -c 'while read -r c n; do case \"$c\" in ping) echo \"pong $n\";; go) {on_go};; esac; done'"
    )
}

#[test]
fn failing_engines_forfeit_and_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    for (on_go, reason, suffix) in [
        ("exit 3", "the engine exited (exit status: 3)", ":r"),
        (":", "the engine gave no answer within 1.0 s", ":t"),
        ("echo \"=== A1/0/0\"", "illegal move a1", ":r"),
        ("echo \"=== Z9\"", "the engine answered \"=== Z9\"", ":r"),
    ] {
        let out = dir.path().join("games.ggf");
        let engine = fake_engine(on_go);
        let stdout = run_match(
            dir.path(),
            &[
                "--a",
                "level:1",
                "--b",
                &engine,
                "--games",
                "3",
                "--move-timeout",
                "1",
                "--out",
                out.to_str().unwrap(),
            ],
        )
        .assert_success()
        .stdout;
        assert_eq!(record(&stdout, "level:1"), (3, 0, 0), "{on_go}: {stdout}");
        assert_eq!(
            stdout.matches(&format!("forfeits: {reason}")).count(),
            3,
            "{on_go}: {stdout}"
        );
        assert!(
            stdout.contains(&format!("forfeits: level:1 0, {engine} 3")),
            "{stdout}"
        );
        let games = games(&out);
        assert_eq!(games.len(), 3);
        for (i, g) in games.iter().enumerate() {
            // The winner gets all 64 discs; the game stops where the engine failed.
            let re = if i % 2 == 0 { "+64" } else { "-64" };
            assert_eq!(g.tag("RE"), Some(format!("{re}{suffix}").as_str()));
            assert!(!g.game().unwrap().is_over());
        }
    }
}

#[test]
fn reversi_gtp_as_a_gtp_engine_against_reversi_nboard() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.ggf");
    let gtp = format!("gtp:{EXE} gtp --threads 1 --hash-mb 8 --level 2");
    let nboard = format!("{EXE} nboard --threads 1 --hash-mb 8");
    let stdout = run_match(
        dir.path(),
        &[
            "--a",
            &gtp,
            "--b",
            &nboard,
            "--depth",
            "2",
            "--games",
            "4",
            "--out",
            out.to_str().unwrap(),
        ],
    )
    .assert_success()
    .stdout;
    assert!(
        stdout.contains(&format!("forfeits: {gtp} 0, {nboard} 0")),
        "{stdout}"
    );
    let games = games(&out);
    assert_eq!(games.len(), 4);
    for (i, g) in games.iter().enumerate() {
        // Played to the end with legal moves (the file is replayed when read), each engine
        // named as it named itself: `name` in GTP, `set myname` in NBoard.
        let game = g.game().unwrap();
        assert!(game.is_over(), "{:?}", g.tags);
        assert_eq!(
            g.result_margin(),
            Some(f64::from(game.score().unwrap().margin()))
        );
        let (gtp_side, nboard_side) = if i % 2 == 0 {
            ("PB", "PW")
        } else {
            ("PW", "PB")
        };
        assert_eq!(g.tag(gtp_side), Some(format!("reversi ({gtp})").as_str()));
        assert!(g.tag(nboard_side).unwrap().starts_with("Reversi2 ("));
    }
    let (w, d, l) = record(&stdout, &gtp);
    assert_eq!(w + d + l, 4);
}

/// A GTP engine that logs every command to `log`, accepts all but `genmove` and does
/// `on_genmove` for it (`$id` is the command's id).
fn fake_gtp_engine(log: &Path, on_genmove: &str) -> String {
    format!(
        "gtp:sh -c 'while read -r id cmd arg; do echo \"$id $cmd $arg\" >> \"{}\"; \
         case \"$cmd\" in genmove) {on_genmove};; \"\") exit 0;; *) echo \"=$id\"; echo;; \
         esac; done'",
        log.display()
    )
}

#[test]
fn failing_gtp_engines_forfeit_with_a_reason_and_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("gtp.log");
    for (on_genmove, reason) in [
        ("echo \"=$id a1\"; echo", "forfeits: illegal move a1"),
        (
            "echo \"?$id out of ideas\"; echo",
            "out of ideas\" to \"genmove ",
        ),
        ("echo \"= resign\"; echo", "forfeits: the engine resigned"),
        ("exit 3", "forfeits: the engine exited (exit status: 3)"),
        (":", "forfeits: the engine gave no answer to \"genmove "),
    ] {
        let out = dir.path().join("games.ggf");
        let engine = fake_gtp_engine(&log, on_genmove);
        let stdout = run_match(
            dir.path(),
            &[
                "--a",
                "level:1",
                "--b",
                &engine,
                "--games",
                "3",
                "--move-timeout",
                "1",
                "--time-per-move",
                "0.5",
                "--out",
                out.to_str().unwrap(),
            ],
        )
        .assert_success()
        .stdout;
        assert_eq!(
            record(&stdout, "level:1"),
            (3, 0, 0),
            "{on_genmove}: {stdout}"
        );
        assert_eq!(stdout.matches(reason).count(), 3, "{on_genmove}: {stdout}");
        assert!(
            stdout.contains(&format!("forfeits: level:1 0, {engine} 3")),
            "{stdout}"
        );
        assert_eq!(games(&out).len(), 3);
    }
    // The time per move went out as byo-yomi of one move, in whole seconds.
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains(" time_settings 0 1 1\n"), "{sent}");
    assert!(sent.contains(" boardsize 8\n"), "{sent}");
}

#[test]
fn bad_arguments_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            vec!["--a", "level:1", "--b", "'unclosed", "--out", "x.ggf"],
            "--b",
        ),
        (
            vec![
                "--a", "level:1", "--b", "level:2", "--games", "0", "--out", "x.ggf",
            ],
            "--games",
        ),
        (
            vec![
                "--a",
                "level:1",
                "--b",
                "level:2",
                "--time-per-move",
                "0",
                "--out",
                "x.ggf",
            ],
            "--time-per-move",
        ),
        (
            vec![
                "--a", "level:1", "--b", "level:2", "--games", "10", "--out", "x.ggf",
            ],
            "holds only 3 openings",
        ),
    ] {
        let stderr = run_match(dir.path(), &args).assert_failure().stderr;
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn timed_matches_keep_the_clock_and_a_silent_engine_loses_on_time() {
    let dir = tempfile::tempdir().unwrap();
    // A level that would think for seconds a move plays a whole game on a 4-second clock,
    // against an NBoard engine told the clock through the game it is given, and neither
    // runs out.
    let out = dir.path().join("timed.ggf");
    let external = format!("{EXE} nboard --threads 1 --hash-mb 8");
    let stdout = run_match(
        dir.path(),
        &[
            "--a",
            "level:20",
            "--b",
            &external,
            "--depth",
            "20",
            "--clock",
            "4s+0.1s",
            "--games",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
    )
    .assert_success()
    .stdout;
    assert!(!stdout.contains("lost on time"), "{stdout}");
    assert!(stdout.contains("time per move: level:20 "), "{stdout}");
    for g in games(&out) {
        assert!(g.game().unwrap().is_over());
        assert_eq!(g.time_control(), Ok(Some("4s+0.1s".parse().unwrap())));
    }
    // An engine that never answers loses on time once its clock has run out (plus a grace
    // of 2 s), and the history records the loss on time.
    let db = dir.path().join("games.sqlite3");
    let engine = fake_engine(":");
    let stdout = run_match(
        dir.path(),
        &[
            "--a",
            "level:1",
            "--b",
            &engine,
            "--clock",
            "1s",
            "--games",
            "1",
            "--db",
            db.to_str().unwrap(),
        ],
    )
    .assert_success()
    .stdout;
    assert!(stdout.contains("forfeits: lost on time"), "{stdout}");
    let store = reversi_store::Store::open(&db).unwrap();
    let info = store
        .list_games(&reversi_store::GameFilter::default())
        .unwrap()
        .remove(0);
    assert_eq!(info.termination, Some(reversi_store::Termination::Time));
    assert_eq!(info.clock, Some("1s".parse().unwrap()));
}

/// The moves of each game, without the times (which vary from run to run).
fn move_lists(path: &Path) -> Vec<Vec<reversi_core::Move>> {
    games(path)
        .iter()
        .map(|g| g.moves.iter().map(|m| m.mv).collect())
        .collect()
}

#[test]
fn a_stopped_match_resumes_where_it_was_with_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.ggf");
    let args = |out: &Path| {
        vec![
            "--a".to_string(),
            "1".into(),
            "--b".into(),
            "3".into(),
            "--games".into(),
            "6".into(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let full = run_match(
        dir.path(),
        &args(&whole).iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .assert_success()
    .stdout;
    // A match stopped after two games, while writing the third.
    let part = dir.path().join("part.ggf");
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(
        &part,
        format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..40]),
    )
    .unwrap();
    let mut resume = args(&part);
    resume.push("--resume".into());
    let resumed = run_match(
        dir.path(),
        &resume.iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .assert_success()
    .stdout;
    assert!(
        resumed.contains("resuming after the 2 games already played"),
        "{resumed}"
    );
    assert!(resumed.contains("saved 4 games to"), "{resumed}");
    assert_eq!(move_lists(&part), move_lists(&whole));
    assert_eq!(record(&resumed, "1"), record(&full, "1"));
    // Another match's file is refused, and left as it was.
    let before = std::fs::read_to_string(&part).unwrap();
    let mut other = args(&part);
    other[3] = "2".into();
    other.push("--resume".into());
    let refused = run_match(
        dir.path(),
        &other.iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .assert_failure();
    assert!(
        refused.stderr.contains("game 1 was played by 1 (Black) and 3 (White), not by this match's 1 (Black) and 2 (White)"),
        "{}",
        refused.stderr
    );
    assert_eq!(std::fs::read_to_string(&part).unwrap(), before);
}
