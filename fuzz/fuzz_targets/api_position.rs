//! Fuzzes the web API's position query (`/api/position/svg?position=…&size=…&rules=…&last=…
//! &legal=…&caption=…`, URL-encoded as browsers send it) through the handlers' parsing:
//! `read_position`, the editor's view of it, `after_forced_pass` and `position_image`.
//! Asserts that a position read can arise, that after a forced pass the side to move can
//! play or the game is over, and that every picture drawn is well-formed XML (so a caption
//! cannot break out of its text).
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_api::new_game::read_position;
use reversi_api::position::{after_forced_pass, position_image};
use reversi_api::view::PositionView;

fuzz_target!(|data: &[u8]| {
    let Ok(pairs) = serde_urlencoded::from_bytes::<Vec<(String, String)>>(data) else {
        return;
    };
    let field = |name: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let Some(position) = field("position") else {
        return;
    };
    // The server refuses a size that is not a number before reading the position.
    let size = match field("size").map(str::parse::<u8>) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => return,
    };
    let Ok(input) = read_position(position, size, field("rules")) else {
        return;
    };
    if let Err(e) = input.position().check() {
        panic!("{position:?} reads as a position that cannot arise: {e}");
    }
    let view = serde_json::to_string(&PositionView::of(&input));
    assert!(view.is_ok(), "{view:?}");
    let caption = field("caption").map(str::to_string);
    if let Ok(svg) = position_image(&input, field("last"), field("legal"), caption) {
        if let Err(e) = roxmltree::Document::parse(&svg) {
            panic!("the picture of {data:?} is not XML: {e}\n{svg}");
        }
    }
    let had_to_pass = input.position().must_pass();
    let (after, passed) = after_forced_pass(input);
    assert_eq!(passed.is_some(), had_to_pass, "{position:?}");
    let pos = after.position();
    assert!(pos.is_game_over() || !pos.must_pass(), "{position:?}");
});
