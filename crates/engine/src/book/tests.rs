//! Tests of the opening book: keys, back-up, probing, the file and the text form, learning,
//! extending and shards.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::build::{self, SearchOptions};
use super::file::BookError;
use super::*;
use crate::shard::Shard;

fn sq(name: &str) -> Sq {
    let b = name.as_bytes();
    Sq::new(u32::from(b[1] - b'1') * 8 + u32::from(b[0] - b'a')).unwrap()
}

fn after(moves: &[&str]) -> Board {
    let mut b = Board::START;
    for m in moves {
        b = b.play(sq(m).index());
    }
    b
}

/// The start, f5 and its three answers, by hand: leaf values chosen so that the back-up is
/// easy to follow.
fn small_book() -> Book {
    let mut book = Book::new();
    book.insert_games(Board::START, 10);
    book.insert_games(after(&["f5"]), 10);
    book.insert_games(after(&["f5", "d6"]), 6);
    book.insert_games(after(&["f5", "f6"]), 3);
    book.insert_games(after(&["f5", "f4"]), 1);
    // Leaves for the side to move of each position.
    book.set_leaf(Board::START, None, 10, false); // every first move is f5's image: in the book
    book.set_leaf(after(&["f5"]), None, 10, false);
    book.set_leaf(after(&["f5", "d6"]), Some((sq("c3"), 2)), 10, false);
    book.set_leaf(after(&["f5", "f6"]), Some((sq("e6"), -1)), 10, false);
    book.set_leaf(after(&["f5", "f4"]), Some((sq("e3"), 5)), 10, false);
    book.back_up();
    book
}

#[test]
fn negamax_backs_values_up_the_graph() {
    let book = small_book();
    // White after f5 picks the answer worst for Black: f6 (Black then scores -1).
    assert_eq!(book.get(after(&["f5"])).unwrap().value, Some(1));
    assert_eq!(book.get(Board::START).unwrap().value, Some(-1));
    let moves = book.moves(after(&["f5"])).unwrap();
    let values: Vec<(Sq, i32)> = moves.iter().map(|m| (m.sq, m.value)).collect();
    assert_eq!(values, vec![(sq("f6"), 1), (sq("d6"), -2), (sq("f4"), -5)]);
    assert_eq!(moves[0].games, 3);
    // All four first moves are one position under symmetry.
    let first = book.moves(Board::START).unwrap();
    assert_eq!(first.len(), 4);
    assert!(first.iter().all(|m| m.value == -1 && m.games == 10));
}

#[test]
fn a_position_and_its_mirror_are_one_record() {
    let mut book = Book::new();
    assert!(book.insert_games(after(&["f5", "d6"]), 1));
    // e6 f4 is f5 d6 reflected in the a1-h8 diagonal... and c4 e3 in the other.
    assert!(!book.insert_games(after(&["e6", "f4"]), 1));
    assert!(!book.insert_games(after(&["c4", "e3"]), 1));
    assert!(!book.insert_games(after(&["d3", "c5"]), 1));
    assert_eq!(book.len(), 1);
    assert_eq!(book.get(after(&["d3", "c5"])).unwrap().games, 4);
}

#[test]
fn leaves_come_back_in_the_asked_orientation() {
    let book = small_book();
    // After d3 c5 (f5 d6 rotated), the leaf c3 of f5 d6 maps to its image.
    let b = after(&["d3", "c5"]);
    let moves = book.moves(b).unwrap();
    assert_eq!(moves.len(), 1);
    assert!(b.moves() & moves[0].sq.bit() != 0);
    assert_eq!(moves[0].value, 2);
    // Playing it gives an image of f5 d6 c3.
    let (k1, _) = Key::of(b.play(moves[0].sq.index()));
    let (k2, _) = Key::of(after(&["f5", "d6", "c3"]));
    assert_eq!(k1, k2);
}

#[test]
fn the_file_round_trips_and_refuses_damage() {
    let book = small_book();
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
    let mut bad = bytes.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x10;
    assert!(matches!(
        Book::from_bytes(&bad),
        Err(BookError::Checksum { .. })
    ));
    assert_eq!(
        Book::from_bytes(&bytes[..bytes.len() - 3]).unwrap_err(),
        BookError::Truncated {
            len: bytes.len() - 3,
            expected: bytes.len()
        }
    );
    assert_eq!(
        Book::from_bytes(b"RVSOLVED\x01\x06").unwrap_err(),
        BookError::BadMagic
    );
    let mut v2 = bytes.clone();
    v2[8] = 2;
    assert_eq!(Book::from_bytes(&v2).unwrap_err(), BookError::Version(2));
    assert!(Book::from_bytes(&bytes[..5]).is_err());
    for e in [
        BookError::BadMagic,
        BookError::Version(2),
        BookError::Inflate,
    ] {
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn the_text_form_round_trips() {
    let book = small_book();
    let text = book.to_text();
    assert_eq!(text.lines().count(), book.len() + 1);
    assert_eq!(Book::from_text(&text).unwrap(), book);
    let e = Book::from_text("XX ZZ; games=1").unwrap_err();
    assert_eq!(e.line, 1);
    let line = text.lines().nth(1).unwrap();
    let e = Book::from_text(&format!("# c\n{}", line.replace("games=", "games=x"))).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.to_string().contains("games=x"), "{e}");
}

#[test]
fn the_shipped_book_reads() {
    let book = Book::from_bytes(SHIPPED).unwrap();
    if let Some(r) = book.get(Board::START) {
        assert!(r.games > 0);
    }
}

#[test]
fn games_are_counted_and_filtered() {
    let g1: Vec<Sq> = ["f5", "d6", "c3"].iter().map(|m| sq(m)).collect();
    let g2: Vec<Sq> = ["e6", "f4", "e3"].iter().map(|m| sq(m)).collect();
    let g3: Vec<Sq> = ["f5", "f6"].iter().map(|m| sq(m)).collect();
    let book = build::from_games([&g1[..], &g2[..], &g3[..]], 2, 2);
    // The start (3), f5 (3), f5 d6 (2); f5 f6 once and ply 3 is beyond the limit.
    assert_eq!(book.len(), 3);
    assert_eq!(book.get(Board::START).unwrap().games, 3);
    assert_eq!(book.get(after(&["f5", "d6"])).unwrap().games, 2);
    assert!(book.get(after(&["f5", "f6"])).is_none());
}

fn searched(book: &mut Book, shard: Shard) -> usize {
    let opts = SearchOptions::new(3, 2);
    let keys = build::pending(book, opts, shard);
    let stop = AtomicBool::new(false);
    build::search(
        book,
        &keys,
        opts,
        &stop,
        &mut |_| {},
        Duration::MAX,
        &mut |_| {},
    )
}

#[test]
fn shards_merge_into_the_single_build() {
    let games: Vec<Vec<Sq>> = [
        "f5d6c3d3c4f4",
        "f5f6e6f4e3c5",
        "f5d6c5f4e3f6",
        "f5f4e3f6d3e6",
        "e6f4c3c4d3d6",
        "d3c5f6f5e6e3",
    ]
    .iter()
    .map(|t| {
        t.as_bytes()
            .chunks(2)
            .map(|c| sq(std::str::from_utf8(c).unwrap()))
            .collect()
    })
    .collect();
    let base = build::from_games(games.iter().map(|g| &g[..]), 6, 1);
    let mut single = base.clone();
    assert_eq!(searched(&mut single, Shard::ALL), base.len());
    for n in [2, 7] {
        let mut merged = base.clone();
        for i in (0..n).rev() {
            let mut part = base.clone();
            searched(&mut part, Shard { index: i, count: n });
            merged.merge(&part);
        }
        assert_eq!(merged.to_bytes(), single.to_bytes(), "{n} shards");
    }
    // Every position is valued; nothing is left to search.
    assert!(single
        .iter()
        .all(|(_, r)| r.value.is_some() && r.depth == 3));
    assert!(build::pending(&single, SearchOptions::new(3, 1), Shard::ALL).is_empty());
}

#[test]
fn learning_a_game_adds_it_and_extending_follows_the_best_leaf() {
    let mut book = small_book();
    let before = book.len();
    let game: Vec<Sq> = ["f5", "d6", "c3", "d3", "c4"]
        .iter()
        .map(|m| sq(m))
        .collect();
    assert_eq!(build::learn(&mut book, &game, 60), 3);
    assert_eq!(book.len(), before + 3);
    assert_eq!(book.get(after(&["f5", "d6"])).unwrap().games, 7);
    // f5 d6's leaf c3 is now a book move: that position waits for a new search.
    assert_eq!(book.get(after(&["f5", "d6"])).unwrap().depth, 0);
    searched(&mut book, Shard::ALL);
    assert!(book.iter().all(|(_, r)| r.value.is_some()));
    let n = book.len();
    let added = build::extend(&mut book, 2, 0);
    assert_eq!(added, 2);
    assert_eq!(book.len(), n + 2);
    assert_eq!(
        build::pending(&book, SearchOptions::new(3, 1), Shard::ALL).len(),
        4
    );
}

/// A hand-made book: the start, whose leaf is f5 at +1, backs up to f5 at +1.
#[test]
fn a_hand_made_book_backs_up_its_leaf() {
    let f5 = Sq::new(37).unwrap();
    let mut book = Book::new();
    book.insert_games(Board::START, 10);
    book.set_leaf(Board::START, Some((f5, 1)), 12, false);
    book.back_up();
    let moves = book.moves(Board::START).unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!((moves[0].sq, moves[0].value), (f5, 1));
}
