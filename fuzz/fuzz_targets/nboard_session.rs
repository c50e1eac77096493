//! Fuzzes whole NBoard sessions: lines of GUI commands (set game, moves, go, hint, analyze,
//! ping, …) driving the engine at depth 1 or 2 with a 1 MB table. Asserts that the session
//! never answers an illegal move: every `===` answer and the first move of every `search`
//! line is legal in the session's game, `go`, `hint` and `analyze` leave the game as it was,
//! and the game always replays legally.
#![no_main]

use std::sync::atomic::AtomicBool;

use libfuzzer_sys::fuzz_target;
use reversi_core::Game;
use reversi_engine::engine::Engine;
use reversi_fuzz::{assert_legal_answer, assert_replays};
use reversi_protocol::nboard::notation::parse_annotated;
use reversi_protocol::nboard::{Command, Flow, Session};

/// Lines read from one input, and searches made, at most: a run stays quick.
const MAX_LINES: usize = 64;
const MAX_SEARCHES: usize = 8;

/// Checks the replies to one command given in `game` (the session's game before it).
fn check_replies(game: &Game, replies: &str) {
    let pos = game.current();
    let size = pos.size();
    for reply in replies.lines() {
        if let Some(answer) = reply.strip_prefix("=== ") {
            match parse_annotated(answer, size) {
                Ok(m) => assert_legal_answer(pos, m.mv, reply),
                Err(e) => panic!("{reply:?} is not a move: {e}"),
            }
        } else if let Some(rest) = reply.strip_prefix("search ") {
            // The line's first move: two characters on the boards the engine searches.
            let first = rest.get(..2).unwrap_or(rest);
            match parse_annotated(first, size) {
                Ok(m) => assert_legal_answer(pos, m.mv, reply),
                Err(e) => panic!("{reply:?} does not start with a move: {e}"),
            }
        }
    }
}

/// One input: its checks.
fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut session = Session::new(Engine::new(1, 1));
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    let shallow = session.handle(Command::SetDepth(1), &mut out, &stop);
    assert!(shallow.is_ok());
    let mut searches = 0;
    for line in text.lines().take(MAX_LINES) {
        let command = Command::parse(line);
        let searching = matches!(
            command,
            Ok(Command::Go | Command::Hint(_) | Command::Analyze)
        );
        if searching {
            searches += 1;
            if searches > MAX_SEARCHES {
                continue;
            }
        }
        out.clear();
        let before = session.game().clone();
        let flow = match command {
            // Deeper searches would make each run slow: depth 1 or 2 only.
            Ok(Command::SetDepth(d)) => {
                session.handle(Command::SetDepth(1 + d % 2), &mut out, &stop)
            }
            _ => session.handle_line(line, &mut out, &stop),
        };
        let flow = flow.unwrap_or_else(|e| panic!("writing to a Vec failed: {e}"));
        check_replies(&before, &String::from_utf8_lossy(&out));
        if searching {
            assert_eq!(session.game(), &before, "{line:?} changed the game");
        }
        assert_replays(session.game());
        if flow == Flow::Quit {
            break;
        }
    }
}

fuzz_target!(
    init: {
        // The shipped evaluation loads once a process, for seconds under the sanitizer:
        // before the first input, so that it does not count as that input's time.
        let _ = reversi_engine::pattern::default_evaluator(u64::MAX);
    },
    |data: &[u8]| run(data)
);
