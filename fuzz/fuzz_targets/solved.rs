//! Fuzzes the solved-openings file reader (`SolvedOpenings::from_bytes`) on the bytes as
//! given, on the bytes with their checksum repaired, and on entries given raw (framed with a
//! true header here). Asserts that a table read is written back (`to_bytes`) as exactly the
//! bytes read, and that the values it gives positions of a game are within -64..=64 discs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::{BoardSize, Position, Rules};
use reversi_engine::pattern::crc32;
use reversi_engine::solved::SolvedOpenings;
use reversi_engine::{playable, Board};
use reversi_fuzz::{steer, walk, with_crc};

/// A file of `entries` (9 bytes each; a partial last one is dropped) for a board chosen by
/// `byte`.
fn framed(byte: u8, entries: &[u8]) -> Vec<u8> {
    let count = entries.len() / 9;
    let mut file = b"RVSOLVED".to_vec();
    file.extend_from_slice(&[1, 4 + 2 * (byte >> 7), byte & 0x0f]);
    file.extend_from_slice(&u32::try_from(count).unwrap_or(0).to_le_bytes());
    file.extend_from_slice(&entries[..count * 9]);
    let crc = crc32(&file);
    file.extend_from_slice(&crc.to_le_bytes());
    file
}

fuzz_target!(|data: &[u8]| {
    let Some((byte, rest)) = steer(data) else {
        return;
    };
    let bytes = match byte % 3 {
        0 => rest.to_vec(),
        1 => with_crc(rest),
        _ => framed(byte, rest),
    };
    let Ok(table) = SolvedOpenings::from_bytes(&bytes) else {
        return;
    };
    assert!(table.to_bytes() == bytes, "written back as other bytes");
    let n = bytes[9];
    let start = BoardSize::new(n)
        .ok()
        .and_then(|size| Board::from_position(&Position::start(size, Rules::Othello)).ok());
    let Some((board, mask)) = start else {
        panic!("a table for a {n}x{n} board was read");
    };
    assert_eq!(mask, playable(n));
    for b in walk(board, mask, rest.get(..32).unwrap_or(rest)) {
        if let Some(v) = table.value(b) {
            assert!((-64..=64).contains(&v), "{v} discs");
        }
    }
});
