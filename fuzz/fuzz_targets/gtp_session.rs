//! Fuzzes whole GTP sessions: lines of controller commands (play, genmove, undo, clocks, …)
//! driving the engine at level 2 with a 1 MB table. Asserts that every line is answered
//! `=` or `?` and an empty line, that the session never answers an illegal move: every
//! `genmove` answer is legal for its colour where it was asked (a pass only when that side
//! has no square or the game is over) and is the move the session then plays, that a `play`
//! refused leaves the game as it was, and that the game always replays legally.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use reversi_core::{Color, Game, Move, Square};
use reversi_engine::engine::Engine;
use reversi_engine::levels::Level;
use reversi_fuzz::{assert_legal_answer, assert_replays};
use reversi_protocol::gtp::{Command, Flow, Request, Session};

/// Lines read from one input, and searches made, at most: a run stays quick.
const MAX_LINES: usize = 64;
const MAX_SEARCHES: usize = 8;
/// The longest a timed `genmove` may think in a run.
const MAX_BUDGET: Duration = Duration::from_millis(5);

/// Checks the answer `text` to `genmove color` asked in `before`, after which the session
/// holds `after`.
fn check_genmove(before: &Game, after: &Game, color: Color, text: &str) {
    let mut pos = before.current().clone();
    if pos.is_game_over() {
        assert_eq!(text, "pass", "an answer after the game's end");
        return;
    }
    // The side to move passes first when it has no move and `color` is the other side.
    if pos.turn() != color && pos.must_pass() {
        pos = pos
            .play(Move::Pass)
            .unwrap_or_else(|e| panic!("a side with no move cannot pass: {e}"));
    }
    assert_eq!(
        pos.turn(),
        color,
        "genmove answered for the side not to move"
    );
    let mv = if text == "pass" {
        Move::Pass
    } else {
        match Square::parse(text, pos.size()) {
            Ok(sq) => Move::Play(sq),
            Err(e) => panic!("genmove answered {text:?}: {e}"),
        }
    };
    assert_legal_answer(&pos, mv, "genmove");
    assert_eq!(
        after.moves().last(),
        Some(&mv),
        "the answer is not the move played"
    );
    assert_eq!(
        after.current(),
        &pos.play(mv).unwrap_or_else(|e| panic!("{e}"))
    );
}

/// One input: its checks.
fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let level = Level::new(2).unwrap_or(Level::DEFAULT);
    let mut session = Session::new(Engine::new(1, 1), level);
    let mut out = Vec::new();
    let mut searches = 0;
    for line in text.lines().take(MAX_LINES) {
        let request = Request::parse(line);
        let command = request.as_ref().and_then(|r| r.command.clone().ok());
        if let Some(Command::GenMove(color)) = command {
            searches += 1;
            let empties = session.game().current().empty_count();
            let budget = session.budget(color, u32::try_from(empties).unwrap_or(60));
            if searches > MAX_SEARCHES || budget.is_some_and(|b| b > MAX_BUDGET) {
                continue;
            }
        }
        out.clear();
        let before = session.game().clone();
        let flow = session
            .handle_line(line, &mut out)
            .unwrap_or_else(|e| panic!("writing to a Vec failed: {e}"));
        let reply = String::from_utf8_lossy(&out);
        let Some(request) = request else {
            assert!(
                reply.is_empty(),
                "{line:?} is no command but was answered {reply:?}"
            );
            continue;
        };
        let answer = reply
            .strip_suffix("\n\n")
            .unwrap_or_else(|| panic!("{reply:?} does not end with an empty line"));
        let id = request.id.map(|n| n.to_string()).unwrap_or_default();
        let ok = answer.starts_with(&format!("={id}"));
        assert!(
            ok || answer.starts_with(&format!("?{id}")),
            "{line:?} answered {reply:?}"
        );
        let result = answer[1 + id.len()..].trim_start_matches(' ');
        match command {
            Some(Command::GenMove(color)) if ok => {
                check_genmove(&before, session.game(), color, result);
            }
            Some(Command::Play(..) | Command::GenMove(_)) if !ok => {
                assert_eq!(
                    session.game(),
                    &before,
                    "{line:?} was refused but changed the game"
                );
            }
            _ => {}
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
