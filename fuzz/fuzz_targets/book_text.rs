//! Fuzzes the opening book's text reader (`Book::from_text`), and asserts that a book read
//! is written as text (`to_text`) that reads as the same book, and as a file (`to_bytes`)
//! that reads as the same book too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_engine::book::Book;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(book) = Book::from_text(&text) else {
        return;
    };
    let written = book.to_text();
    match Book::from_text(&written) {
        Ok(again) => assert!(
            again == book,
            "{text:?} written as {written:?} reads differently"
        ),
        Err(e) => panic!("{written:?}, written from {text:?}, does not read: {e}"),
    }
    match Book::from_bytes(&book.to_bytes()) {
        Ok(again) => assert!(again == book, "{text:?}: the book file reads differently"),
        Err(e) => panic!("the file of {text:?} does not read: {e}"),
    }
});
