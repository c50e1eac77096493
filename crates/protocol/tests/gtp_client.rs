//! The GTP client against scripted engines (`sh` loops that log what they read): the commands
//! it sends, the answers it accepts, and each way an engine can fail it.

#![cfg(unix)]
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use reversi_core::{parse_transcript, BoardSize, Game, Move, Position, Rules, Square};
use reversi_protocol::gtp::{Client, ClientError, TimeSettings};

const TIMEOUT: Duration = Duration::from_secs(5);

/// A log file of this test's own, removed when dropped.
struct Log(PathBuf);

impl Log {
    fn new(name: &str) -> Log {
        let path = std::env::temp_dir().join(format!(
            "reversi-gtp-client-{}-{name}.log",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        Log(path)
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.0)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

impl Drop for Log {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// An engine that logs each command line, answers `name` with `fake`, does `on_genmove` for
/// `genmove` (with `$id` the command's id) and accepts everything else.
fn engine(log: &Log, on_genmove: &str) -> Vec<String> {
    let script = format!(
        "while read -r id cmd arg; do \
           echo \"$id $cmd $arg\" >> '{}'; \
           case \"$id\" in quit) exit 0;; esac; \
           case \"$cmd\" in \
             name) printf '=%s fake\\n\\n' \"$id\";; \
             genmove) {on_genmove};; \
             *) printf '=%s\\n\\n' \"$id\";; \
           esac; \
         done",
        log.0.display()
    );
    vec!["sh".into(), "-c".into(), script]
}

fn game(moves: &str) -> Game {
    parse_transcript(moves, Position::start(BoardSize::EIGHT, Rules::Othello)).unwrap()
}

fn square(name: &str) -> Move {
    Move::Play(Square::parse(name, BoardSize::EIGHT).unwrap())
}

#[test]
fn a_game_set_up_replayed_and_asked_for_moves() {
    let log = Log::new("flow");
    let mut client =
        Client::spawn(&engine(&log, "printf '=%s D6\\n\\n' \"$id\""), TIMEOUT).unwrap();
    assert_eq!(client.name(), Some("fake"));
    client.set_time_settings(Some(TimeSettings {
        main: Duration::ZERO,
        byo_yomi: Duration::from_millis(1500),
        stones: 1,
    }));
    let mut g = game("f5");
    client.set_game(&g).unwrap();
    let mv = client.go(&g, TIMEOUT).unwrap();
    assert_eq!(mv, square("d6"));
    g.play(mv).unwrap();
    // The engine played d6 itself: not sent back. Black's c3 is.
    client.play(mv).unwrap();
    client.play(square("c3")).unwrap();
    drop(client);
    assert_eq!(
        log.lines(),
        [
            "1 protocol_version ",
            "2 name ",
            "3 boardsize 8",
            "4 clear_board ",
            "5 time_settings 0 2 1",
            "6 play black f5",
            "7 genmove white",
            "8 play black c3",
            "quit  ",
        ]
    );
}

#[test]
fn passes_are_played_and_a_move_other_than_the_engines_is_undone_first() {
    let log = Log::new("pass");
    let mut client = Client::spawn(&engine(&log, "printf '= f4\\n\\n'"), TIMEOUT).unwrap();
    let g = game("f5");
    client.set_game(&g).unwrap();
    // An unnumbered answer is this command's.
    assert_eq!(client.go(&g, TIMEOUT).unwrap(), square("f4"));
    client.play(square("f6")).unwrap();
    drop(client);
    let lines = log.lines();
    assert_eq!(
        lines[4..],
        [
            "5 play black f5",
            "6 genmove white",
            "7 undo ",
            "8 play white f6",
            "quit  "
        ]
    );

    // A game with a pass in it, replayed.
    let log = Log::new("pass2");
    let mut client = Client::spawn(&engine(&log, ":"), TIMEOUT).unwrap();
    let with_pass = game_with_a_pass();
    client.set_game(&with_pass).unwrap();
    drop(client);
    let lines = log.lines();
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("play white pass") || l.ends_with("play black pass")),
        "{lines:?}"
    );
    assert_eq!(lines.len(), 4 + with_pass.moves().len() + 1);
}

/// A random game that holds a pass.
fn game_with_a_pass() -> Game {
    for seed in 1u64.. {
        let mut g = Game::new(Position::start(BoardSize::EIGHT, Rules::Othello));
        let mut state = seed;
        while !g.is_over() {
            let moves = g.current().moves();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let i = usize::try_from(state >> 33).unwrap() % moves.len();
            g.play(moves[i]).unwrap();
        }
        if g.moves().contains(&Move::Pass) {
            return g;
        }
    }
    unreachable!()
}

/// What an error must be.
type Check = fn(&ClientError) -> bool;

#[test]
fn failures_are_errors_that_name_the_command_and_the_answer() {
    let log = Log::new("fail");
    let g = game("f5");
    let cases: [(&str, Check); 5] = [
        ("printf '?%s cannot move\\n\\n' \"$id\"", |e| {
            e.to_string() == "the engine answered \"?6 cannot move\" to \"genmove white\""
        }),
        (
            "printf '=%s z9\\n\\n' \"$id\"",
            |e| matches!(e, ClientError::BadMove { line, .. } if line == "=6 z9"),
        ),
        ("printf '=%s resign\\n\\n' \"$id\"", |e| {
            matches!(e, ClientError::Resigned)
        }),
        ("exit 3", |e| {
            e.to_string() == "the engine exited (exit status: 3)"
        }),
        (":", |e| {
            e.to_string() == "the engine gave no answer to \"genmove white\" within 0.3 s"
        }),
    ];
    for (on_genmove, expected) in cases {
        let mut client = Client::spawn(&engine(&log, on_genmove), TIMEOUT).unwrap();
        client.set_game(&g).unwrap();
        let started = Instant::now();
        let e = client.go(&g, Duration::from_millis(300)).unwrap_err();
        assert!(expected(&e), "{on_genmove}: {e}");
        assert!(started.elapsed() < Duration::from_secs(3), "{on_genmove}");
    }
}

#[test]
fn engines_that_cannot_play_othello_are_refused_at_the_start() {
    let refuses_8x8 = vec![
        "sh".to_string(),
        "-c".to_string(),
        "while read -r id cmd arg; do case \"$cmd\" in boardsize) printf '?%s unacceptable size\\n\\n' \"$id\";; *) printf '=%s\\n\\n' \"$id\";; esac; done".to_string(),
    ];
    let e = Client::spawn(&refuses_8x8, TIMEOUT).err().unwrap();
    assert_eq!(
        e.to_string(),
        "the engine answered \"?3 unacceptable size\" to \"boardsize 8\""
    );
    let e = Client::spawn(&["no-such-engine-here".to_string()], TIMEOUT)
        .err()
        .unwrap();
    assert!(matches!(e, ClientError::Spawn { .. }), "{e}");
    // An NBoard engine says nothing GTP can read.
    let silent = vec![
        "sh".to_string(),
        "-c".to_string(),
        "cat > /dev/null".to_string(),
    ];
    let e = Client::spawn(&silent, Duration::from_millis(200))
        .err()
        .unwrap();
    assert!(matches!(e, ClientError::Timeout { .. }), "{e}");
}

#[test]
fn games_from_other_starts_are_not_sent() {
    let log = Log::new("start");
    let mut client = Client::spawn(&engine(&log, ":"), TIMEOUT).unwrap();
    let reversi = Game::new(Position::start(BoardSize::EIGHT, Rules::Reversi));
    let e = client.set_game(&reversi).unwrap_err();
    assert!(matches!(e, ClientError::Unplayable(_)), "{e}");
}
