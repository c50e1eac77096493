//! Fuzzes the transcript reader (`parse_transcript_file`, and `parse_transcript_line` on each
//! line) on every board size and both rules, and asserts that every game it reads replays
//! legally and is written back (`write_transcript`) as a line that reads as the same game
//! with the same result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::Position;
use reversi_formats::transcript::{
    is_blank_line, parse_transcript_file, parse_transcript_line, write_transcript,
};
use reversi_fuzz::{assert_replays, size_and_rules, steer};

fuzz_target!(|data: &[u8]| {
    let Some((byte, rest)) = steer(data) else {
        return;
    };
    let (size, rules) = size_and_rules(byte);
    let start = Position::start(size, rules);
    let text = String::from_utf8_lossy(rest);
    let file = parse_transcript_file(&text, &start);
    let mut read = 0;
    for line in text.lines() {
        let Ok(t) = parse_transcript_line(line, start.clone()) else {
            continue;
        };
        read += usize::from(!is_blank_line(line));
        assert_replays(&t.game);
        assert_eq!(t.game.start(), &start);
        let written = write_transcript(&t.game, t.result);
        match parse_transcript_line(&written, start.clone()) {
            Ok(again) => assert_eq!(again, t, "written as {written:?}"),
            Err(e) => panic!("{written:?}, written from {line:?}, does not read: {e}"),
        }
    }
    // The file reads when every line that is not blank reads, and then holds those games.
    if let Ok(games) = file {
        assert_eq!(games.len(), read);
    }
});
