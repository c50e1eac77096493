//! Fuzzes the web API's new-game request: the JSON body (`NewGameRequest`, as the server
//! and the in-browser engine read it) and its checks (`plan`). Asserts that a game planned
//! starts in a position that can arise and is not over, on the size and rule of its start,
//! with a remote side played by a person, a record that keeps a set-up start only, and
//! players and clock that are written as text reading back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_api::new_game::NewGameRequest;
use reversi_core::{Position, TimeControl};
use reversi_game::Player;

fuzz_target!(|data: &[u8]| {
    let Ok(request) = serde_json::from_slice::<NewGameRequest>(data) else {
        return;
    };
    let Ok(plan) = request.plan(|| 7) else {
        return;
    };
    let start = &plan.start;
    if let Err(e) = start.check() {
        panic!("{request:?} starts in a position that cannot arise: {e}");
    }
    assert!(!start.is_game_over(), "{request:?} starts a finished game");
    let settings = &plan.settings;
    assert_eq!(
        (settings.size, settings.rules),
        (start.size(), start.rules())
    );
    assert_eq!(settings.seed, request.seed.unwrap_or(7));
    if let Some(side) = plan.remote {
        assert!(settings.player(side).is_human(), "{request:?}");
    }
    let standard = *start == Position::start(start.size(), start.rules());
    assert_eq!(plan.record.start.is_none(), standard, "{request:?}");
    for player in [settings.black, settings.white] {
        assert_eq!(player.to_string().parse::<Player>(), Ok(player));
    }
    if let Some(clock) = settings.clock {
        assert_eq!(clock.to_string().parse::<TimeControl>(), Ok(clock));
    }
});
