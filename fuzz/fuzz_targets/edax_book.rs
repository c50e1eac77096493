//! Fuzzes the reader of Edax 4's `book.dat` (`EdaxBook::from_bytes`) and its conversion into
//! this program's book (`Book::from_edax`). Asserts that a file read is written back
//! (`to_bytes`) byte for byte, and that every move of the converted book is legal with a
//! value within -64..=64 discs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_engine::book::edax::EdaxBook;
use reversi_engine::book::Book;

fuzz_target!(|data: &[u8]| {
    let Ok(edax) = EdaxBook::from_bytes(data) else {
        return;
    };
    let bytes = edax.to_bytes();
    match EdaxBook::from_bytes(&bytes) {
        Ok(again) => assert!(again == edax, "the Edax book reads back differently"),
        Err(e) => panic!("an Edax book read does not read back: {e}"),
    }
    let Ok(book) = Book::from_edax(&edax) else {
        return;
    };
    for (key, _) in book.iter().take(64) {
        let board = key.board();
        for m in book.moves(board).unwrap_or_default() {
            assert!(
                board.moves() & m.sq.bit() != 0,
                "{m:?} is not legal in {key:?}"
            );
            assert!((-64..=64).contains(&m.value), "{m:?} is out of range");
        }
    }
});
