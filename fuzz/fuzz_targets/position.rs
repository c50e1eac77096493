//! Fuzzes the position reader of `reversi analyze`, the editor and the web API
//! (`parse_position`: a board string, OBF, GGF or a transcript) on every board size and both
//! rules, and asserts that a position read can arise in a game, is the end of the moves read
//! with it, and is written as a board string (`board_string`) that reads as the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_formats::position::{board_string, parse_position, PositionFormat};
use reversi_fuzz::{assert_replays, size_and_rules, steer};

fuzz_target!(|data: &[u8]| {
    let Some((byte, rest)) = steer(data) else {
        return;
    };
    let (size, rules) = size_and_rules(byte);
    let text = String::from_utf8_lossy(rest);
    let Ok(input) = parse_position(&text, size, rules) else {
        return;
    };
    let pos = input.position();
    if let Err(e) = pos.check() {
        panic!("{text:?} reads as a position that cannot arise: {e}");
    }
    assert_replays(&input.game);
    let board = board_string(pos);
    match parse_position(&board, pos.size(), pos.rules()) {
        Ok(again) => {
            assert_eq!(again.format, PositionFormat::Board);
            assert_eq!(again.position(), pos, "{text:?} written as {board:?}");
        }
        Err(e) => panic!("{board:?}, written from {text:?}, does not read: {e}"),
    }
});
