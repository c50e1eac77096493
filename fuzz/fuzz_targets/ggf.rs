//! Fuzzes the GGF reader (`parse_ggf`) with any text, and asserts that every game it reads
//! replays legally, is written back (`write_ggf`) as text that reads as the same game, and
//! that a clock that reads is written back as the same clock.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_formats::ggf::{parse_clock, parse_ggf, write_clock, write_ggf};
use reversi_fuzz::assert_replays;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(games) = parse_ggf(&text) else {
        return;
    };
    for game in &games {
        let replayed = game
            .game()
            .unwrap_or_else(|(ply, e)| panic!("move {} of a game read is illegal: {e}", ply + 1));
        assert_replays(&replayed);
        assert_eq!(replayed.moves().len(), game.moves.len());
        let _ = game.result_margin();
        if let Ok(Some(clock)) = game.time_control() {
            assert_eq!(parse_clock(&write_clock(&clock)), Ok(clock));
        }
        let written = write_ggf(game);
        match parse_ggf(&written) {
            Ok(again) => assert_eq!(again, std::slice::from_ref(game), "written as {written:?}"),
            Err(e) => panic!("{written:?}, written from a game read, does not read: {e}"),
        }
    }
});
