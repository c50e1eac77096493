//! Fuzzes the opening-book file reader (`Book::from_bytes`) on the bytes as given, on the
//! bytes with their checksum repaired, and on records given raw (deflated and framed with a
//! true header here, so that mutations reach the records' checks). Asserts that a book read
//! is written back (`to_bytes`) as a file that reads as the same book, and that every move
//! the book gives for its positions is legal with a value within -64..=64 discs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_engine::book::Book;
use reversi_engine::pattern::crc32;
use reversi_fuzz::{steer, with_crc};

/// A book file around `records` (25 bytes each; a partial last one is dropped).
fn framed(depth: u8, records: &[u8]) -> Vec<u8> {
    let count = records.len() / 25;
    let packed = miniz_oxide::deflate::compress_to_vec(&records[..count * 25], 1);
    let mut file = b"RVRSBOOK".to_vec();
    file.extend_from_slice(&[1, depth, 0, 0]);
    file.extend_from_slice(&u32::try_from(count).unwrap_or(0).to_le_bytes());
    file.extend_from_slice(&u32::try_from(packed.len()).unwrap_or(0).to_le_bytes());
    file.extend_from_slice(&packed);
    let crc = crc32(&file);
    file.extend_from_slice(&crc.to_le_bytes());
    file
}

fuzz_target!(|data: &[u8]| {
    let Some((byte, rest)) = steer(data) else {
        return;
    };
    let read = match byte % 3 {
        0 => Book::from_bytes(rest),
        1 => Book::from_bytes(&with_crc(rest)),
        _ => Book::from_bytes(&framed(byte, rest)),
    };
    let Ok(book) = read else {
        return;
    };
    match Book::from_bytes(&book.to_bytes()) {
        Ok(again) => assert!(again == book, "the book reads back differently"),
        Err(e) => panic!("a book read does not read back: {e}"),
    }
    for (key, _) in book.iter().take(64) {
        let board = key.board();
        assert!(board.moves() == 0 || book.get(board).is_some());
        for m in book.moves(board).unwrap_or_default() {
            assert!(
                board.moves() & m.sq.bit() != 0,
                "{m:?} is not legal in {key:?}"
            );
            assert!((-64..=64).contains(&m.value), "{m:?}");
        }
    }
    let _ = Book::from_text(&book.to_text());
});
