//! Fuzzes the OBF reader (`parse_obf`, and `parse_obf_line` on each line), and asserts that
//! every position it reads is written back (`write_obf`) as a line that reads as the same
//! position with the same scores, and that an 8x8 one becomes an engine board and back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::BoardSize;
use reversi_engine::Board;
use reversi_formats::obf::{parse_obf, parse_obf_line, write_obf};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = parse_obf(&text);
    for (i, line) in text.lines().enumerate() {
        let Ok(p) = parse_obf_line(line, i + 1) else {
            continue;
        };
        let _ = p.position.check();
        if p.position.size() == BoardSize::EIGHT {
            let pos = &p.position;
            match Board::from_position(pos) {
                Ok((board, _)) => assert_eq!(
                    board
                        .to_position(pos.size(), pos.rules(), pos.turn())
                        .as_ref(),
                    Some(pos),
                    "{line:?}: the engine's board is another position"
                ),
                Err(e) => panic!("{line:?}: no engine board: {e}"),
            }
        }
        let written = write_obf(&p);
        match parse_obf_line(&written, 1) {
            Ok(again) => assert_eq!(again, p, "written as {written:?}"),
            Err(e) => panic!("{written:?}, written from {line:?}, does not read: {e}"),
        }
    }
});
