//! Inputs the fuzz targets (fuzz/, docs/fuzzing.md) found mishandled, each pinned by a test
//! named for what went wrong.

use reversi_core::Color;
use reversi_engine::engine::Engine;
use reversi_engine::levels::Level;
use reversi_protocol::gtp::{Command, Session};

fn session() -> Session {
    Session::new(Engine::new(1, 1), Level::new(2).unwrap_or(Level::DEFAULT))
}

/// `time_settings 1e20 0 0` (more seconds than a `Duration` holds) panicked in the session
/// instead of being answered with an error.
#[test]
fn gtp_time_settings_beyond_a_duration_is_refused() {
    let mut s = session();
    let mut out = Vec::new();
    for line in ["1 time_settings 1e20 0 0", "2 time_left b 1e300 0"] {
        let flow = s.handle_line(line, &mut out);
        assert!(flow.is_ok(), "{line}");
    }
    let replies = String::from_utf8_lossy(&out);
    assert!(
        replies.starts_with("?1 syntax error (main time"),
        "{replies}"
    );
    assert!(replies.contains("?2 syntax error (time left"), "{replies}");
    assert_eq!(s.time_settings(), None);
    // A command built by hand is refused the same way.
    let nan = Command::TimeSettings {
        main: f64::NAN,
        byo_yomi: 0.0,
        stones: 0,
    };
    assert!(s.handle(&nan).is_err_and(|e| e.contains("is not a time")));
}

/// A main time near the longest `Duration` with a byo-yomi (given as an increment to the
/// clock's budget) overflowed when the budget added them.
#[test]
fn gtp_clock_of_centuries_with_byo_yomi_gives_a_budget() {
    let mut s = session();
    let mut out = Vec::new();
    assert!(s
        .handle_line("time_settings 1.8e19 1e19 1", &mut out)
        .is_ok());
    assert!(String::from_utf8_lossy(&out).starts_with('='));
    for empties in [1, 20, 60] {
        let budget = s.budget(Color::Black, empties);
        assert!(
            budget.is_some_and(|b| !b.is_zero()),
            "{empties}: {budget:?}"
        );
    }
}
