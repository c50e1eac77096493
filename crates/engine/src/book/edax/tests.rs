//! Tests of Edax's book: the bytes of a tiny book checked field by field, reading and writing
//! back byte for byte, this program's book through Edax's and back, pass positions, and every
//! refusal.

#![allow(clippy::unwrap_used)]

use super::*;
use crate::book::{Book, Key, SHIPPED};
use crate::{Board, Sq};
use reversi_core::XorShift64;

/// A tiny Edax book written by [`Book::to_edax`] from [`tiny_book`] and checked by hand
/// against the layout (see [`the_tiny_book_has_edax_layout`]).
const TINY: &[u8] = include_bytes!("../../../tests/data/edax-tiny.dat");

/// The date the tiny book was saved at: 2024-05-06 07:08:09 UTC.
const TINY_DATE: u64 = 1_714_979_289;

fn sq(name: &str) -> u32 {
    let b = name.as_bytes();
    u32::from(b[1] - b'1') * 8 + u32::from(b[0] - b'a')
}

fn after(moves: &[&str]) -> Board {
    moves.iter().fold(Board::START, |b, m| b.play(sq(m)))
}

fn leaf(name: &str, v: i32) -> Option<(Sq, i32)> {
    Some((Sq::new(sq(name)).unwrap(), v))
}

/// The start, f5 and White's three answers; Black's leaves after them valued +2, -1, +5.
fn tiny_book() -> Book {
    let mut book = Book::new();
    for b in [
        Board::START,
        after(&["f5"]),
        after(&["f5", "d6"]),
        after(&["f5", "f6"]),
        after(&["f5", "f4"]),
    ] {
        book.insert_games(b, 0);
    }
    book.set_leaf(Board::START, None, 10, false);
    book.set_leaf(after(&["f5"]), None, 10, false);
    book.set_leaf(after(&["f5", "d6"]), leaf("c3", 2), 10, false);
    book.set_leaf(after(&["f5", "f6"]), leaf("e6", -1), 10, false);
    book.set_leaf(after(&["f5", "f4"]), leaf("e3", 5), 12, false);
    book.depth = 10;
    book.back_up();
    book
}

fn without_games(book: &Book) -> Book {
    let mut b = book.clone();
    for r in b.records.values_mut() {
        r.games = 0;
    }
    b
}

fn le16(b: &[u8], at: usize) -> i16 {
    i16::from_le_bytes([b[at], b[at + 1]])
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn le64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

#[test]
fn dates_are_utc_civil_dates() {
    assert_eq!(
        EdaxDate::from_unix_seconds(0).to_string(),
        "1970-01-01 00:00:00"
    );
    assert_eq!(
        EdaxDate::from_unix_seconds(951_782_400).to_string(),
        "2000-02-29 00:00:00"
    );
    assert_eq!(
        EdaxDate::from_unix_seconds(TINY_DATE).to_string(),
        "2024-05-06 07:08:09"
    );
    assert_eq!(
        EdaxDate::from_unix_seconds(4_102_444_799).to_string(),
        "2099-12-31 23:59:59"
    );
}

#[test]
fn the_tiny_book_is_what_the_exporter_writes() {
    let bytes = tiny_book()
        .to_edax(EdaxDate::from_unix_seconds(TINY_DATE))
        .to_bytes();
    assert_eq!(bytes, TINY);
}

/// The fixture read by hand, offset by offset, against the layout of the module documentation.
#[test]
fn the_tiny_book_has_edax_layout() {
    let b = TINY;
    // Header: "EDAX" and "BOOK" as little-endian u32s, version 4, release 4.
    assert_eq!(le32(b, 0), 0x4544_4158);
    assert_eq!(le32(b, 4), 0x424F_4F4B);
    assert_eq!((b[8], b[9]), (4, 4));
    // The date: 2024, 5, 6, 7:08:09, a padding byte.
    assert_eq!(le16(b, 10), 2024);
    assert_eq!(&b[12..18], &[5, 6, 7, 8, 9, 0]);
    // Options: level 10, fewest empties 58 (after f5 d6), errors 2 and 1, verbosity 0; then
    // 5 positions.
    let options: Vec<u32> = (0..6).map(|i| le32(b, 18 + 4 * i)).collect();
    assert_eq!(options, [10, 58, 2, 1, 0, 5]);
    // Positions sorted by their boards; 42 bytes each plus 2 a link: 5 positions, 4 + 3 links.
    assert_eq!(b.len(), 42 + 5 * 42 + 2 * 7);

    let mut at = 42;
    let mut seen = Vec::new();
    while at < b.len() {
        let (player, opponent) = (le64(b, at), le64(b, at + 8));
        let counts: Vec<u32> = (0..4).map(|i| le32(b, at + 16 + 4 * i)).collect();
        let scores = [le16(b, at + 32), le16(b, at + 34), le16(b, at + 36)];
        let (n_links, level) = (usize::from(b[at + 38]), b[at + 39]);
        let links: Vec<(i8, u8)> = (0..=n_links)
            .map(|i| (b[at + 40 + 2 * i] as i8, b[at + 41 + 2 * i]))
            .collect();
        // Every board is in the book's (and Edax's) orientation: the least of its images.
        let key = Key { player, opponent };
        assert_eq!(Key::of(key.board()).0, key);
        seen.push((key.board(), counts, scores, level, links));
        at += 42 + 2 * n_links;
    }
    assert_eq!(at, b.len());
    let find = |board: Board| {
        let key = Key::of(board).0;
        seen.iter().find(|s| s.0 == key.board()).cloned().unwrap()
    };
    let name = |board: Board, mv: u8| {
        // The square of `mv` in `board`'s own orientation, named.
        let (_, s) = Key::of(board);
        let back = crate::book::image_square(u32::from(mv), crate::book::inverse(s));
        format!("{}{}", char::from(b'a' + (back % 8) as u8), back / 8 + 1)
    };

    // After f5 d6, Black's leaf c3 at +2 from a depth-10 search (level 10, 58 empties):
    // bounds +2 -+ 2 (Edax's midgame error; no parity bias at even depth and empties), one
    // line, no link.
    let board = after(&["f5", "d6"]);
    let (_, counts, scores, level, links) = find(board);
    assert_eq!((counts, scores, level), (vec![0, 0, 0, 1], [2, 0, 4], 10));
    assert_eq!(links.len(), 1);
    assert_eq!((links[0].0, name(board, links[0].1)), (2, "c3".into()));
    // After f5 f4, e3 at +5 at level 12.
    let board = after(&["f5", "f4"]);
    let (_, _, scores, level, links) = find(board);
    assert_eq!((scores, level), ([5, 3, 7], 12));
    assert_eq!((links[0].0, name(board, links[0].1)), (5, "e3".into()));
    // After f5 f6, e6 at -1.
    let (_, _, scores, _, _) = find(after(&["f5", "f6"]));
    assert_eq!(scores, [-1, -3, 1]);

    // After f5, White links its three moves, each scored minus the value after it, and has
    // no leaf (65, scored -127). Its value is the best link, f6's +1; its bounds the best
    // of the children's flipped bounds; three lines below.
    let board = after(&["f5"]);
    let (_, counts, scores, level, links) = find(board);
    assert_eq!((counts, scores, level), (vec![0, 0, 0, 3], [1, -1, 3], 10));
    let mut named: Vec<(String, i8)> = links[..3]
        .iter()
        .map(|&(score, mv)| (name(board, mv), score))
        .collect();
    named.sort();
    assert_eq!(
        named,
        [("d6".into(), -2), ("f4".into(), -5), ("f6".into(), 1)]
    );
    assert_eq!(links[3], (-127, 65));

    // The start links its four moves (all one position under symmetry), each -1; 4 x 3 lines.
    let board = Board::START;
    let (_, counts, scores, _, links) = find(board);
    assert_eq!((counts, scores), (vec![0, 0, 0, 12], [-1, -3, 1]));
    let mut named: Vec<String> = links[..4].iter().map(|&(_, mv)| name(board, mv)).collect();
    named.sort();
    assert_eq!(named, ["c4", "d3", "e6", "f5"]);
    assert!(links[..4].iter().all(|l| l.0 == -1));
}

#[test]
fn a_file_reads_and_writes_back_byte_for_byte() {
    let edax = EdaxBook::from_bytes(TINY).unwrap();
    assert_eq!(edax.header.date.to_string(), "2024-05-06 07:08:09");
    assert_eq!(edax.to_bytes(), TINY);
    // Fields this program does not use survive too: padding, verbosity, counts, bounds.
    let mut odd = edax.clone();
    odd.header.date.padding = 0xA5;
    odd.header.verbosity = 3;
    odd.header.release = 5;
    odd.positions[0].wins = 7;
    odd.positions[0].lower = -100;
    let bytes = odd.to_bytes();
    assert_eq!(EdaxBook::from_bytes(&bytes).unwrap(), odd);
    assert_eq!(EdaxBook::from_bytes(&bytes).unwrap().to_bytes(), bytes);
}

#[test]
fn the_tiny_book_reads_into_this_programs_book() {
    let book = Book::from_edax(&EdaxBook::from_bytes(TINY).unwrap()).unwrap();
    assert_eq!(book, tiny_book());
    let moves = book.moves(after(&["f5"])).unwrap();
    let values: Vec<(String, i32, u8)> = moves
        .iter()
        .map(|m| (m.sq.to_string(), m.value, m.depth))
        .collect();
    assert_eq!(
        values,
        [
            ("f6".to_string(), 1, 10),
            ("d6".to_string(), -2, 10),
            ("f4".to_string(), -5, 12)
        ]
    );
}

#[test]
fn the_shipped_book_goes_through_edax_and_back() {
    let book = Book::from_bytes(SHIPPED).unwrap();
    let date = EdaxDate::from_unix_seconds(TINY_DATE);
    let edax = book.to_edax(date);
    let bytes = edax.to_bytes();
    let read = EdaxBook::from_bytes(&bytes).unwrap();
    assert_eq!(read, edax);
    let again = Book::from_edax(&read).unwrap();
    // Identical but for the game counts, which Edax's format does not keep.
    assert_eq!(again, without_games(&book));
    assert_eq!(again.to_edax(date).to_bytes(), bytes);
}

/// Whether no move of `board` ends the game.
fn no_move_ends(board: Board) -> bool {
    (0..64).all(|s| {
        let next = board.play(s);
        board.moves() & (1 << s) == 0 || next.moves() != 0 || next.pass().moves() != 0
    })
}

/// A position reached by random games from the start whose side to move must pass, with the
/// position before it; no move of either ends the game.
fn a_pass() -> (Board, u32, Board) {
    let mut rng = XorShift64::new(11);
    loop {
        let mut board = Board::START;
        while board.moves() != 0 {
            let moves = board.moves();
            let pick = rng.below(u64::from(moves.count_ones())) as usize;
            let sq = (0..64)
                .filter(|&s| moves & (1 << s) != 0)
                .nth(pick)
                .unwrap();
            let next = board.play(sq);
            if next.moves() == 0
                && next.pass().moves() != 0
                && no_move_ends(board)
                && no_move_ends(next.pass())
            {
                return (board, sq, next);
            }
            board = next;
        }
    }
}

#[test]
fn pass_positions_are_written_for_edax_and_folded_on_reading() {
    let (before, sq, must_pass) = a_pass();
    let after_pass = must_pass.pass();
    let mut book = Book::new();
    book.insert_games(before, 0);
    book.insert_games(after_pass, 0);
    // Solved, as a build solves positions this near the end.
    let first = after_pass.moves().trailing_zeros();
    let empties = |b: Board| b.empties().count_ones() as u8;
    book.set_leaf(
        after_pass,
        Some((Sq::new(first).unwrap(), 6)),
        empties(after_pass),
        true,
    );
    book.set_leaf(before, None, empties(before), true);
    book.depth = 8;
    book.back_up();
    // The mover plays on after the pass: the move is worth what the position after it is.
    let moves = book.moves(before).unwrap();
    assert!(moves.iter().any(|m| m.sq.index() == sq && m.value == 6));

    let edax = book.to_edax(EdaxDate::default());
    assert_eq!(edax.positions.len(), 3);
    let pass_key = Key::of(must_pass).0;
    let pass = edax
        .positions
        .iter()
        .find(|p| p.player == pass_key.player && p.opponent == pass_key.opponent)
        .unwrap();
    assert_eq!(
        pass.links,
        [EdaxLink {
            score: -6,
            mv: PASS
        }]
    );
    assert_eq!(pass.leaf, EdaxLink::NONE);
    assert_eq!(pass.value, -6);
    let before_key = Key::of(before);
    let parent = edax
        .positions
        .iter()
        .find(|p| p.player == before_key.0.player && p.opponent == before_key.0.opponent)
        .unwrap();
    assert_eq!(parent.links.len(), 1);
    assert_eq!(
        u32::from(parent.links[0].mv),
        crate::book::image_square(sq, before_key.1)
    );
    assert_eq!(parent.links[0].score, 6);

    let back = Book::from_edax(&EdaxBook::from_bytes(&edax.to_bytes()).unwrap()).unwrap();
    assert_eq!(back, book);
}

#[test]
fn a_board_in_another_orientation_and_a_lost_link_are_taken_in() {
    // After f5 d6 written in its own orientation (not Edax's), with a leaf and a link to a
    // position the file lacks that scores better: the link becomes the leaf.
    let board = after(&["f5", "d6"]);
    assert_ne!(Key::of(board).0.board(), board);
    let edax = EdaxBook {
        header: EdaxBook::from_bytes(TINY).unwrap().header,
        positions: vec![EdaxPosition {
            player: board.player,
            opponent: board.opponent,
            wins: 0,
            draws: 0,
            losses: 0,
            lines: 1,
            value: 3,
            lower: 1,
            upper: 5,
            level: 10,
            links: vec![EdaxLink {
                score: 3,
                mv: sq("c5") as u8,
            }],
            leaf: EdaxLink {
                score: 2,
                mv: sq("c3") as u8,
            },
        }],
    };
    let book = Book::from_edax(&edax).unwrap();
    let moves = book.moves(board).unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!((moves[0].sq.to_string(), moves[0].value), ("c5".into(), 3));
}

fn refused(bytes: &[u8]) -> EdaxBookError {
    match EdaxBook::from_bytes(bytes) {
        Ok(edax) => Book::from_edax(&edax).unwrap_err(),
        Err(e) => e,
    }
}

/// The tiny book with its first position changed by `change`.
fn with_first(change: impl Fn(&mut EdaxPosition)) -> Vec<u8> {
    let mut edax = EdaxBook::from_bytes(TINY).unwrap();
    change(&mut edax.positions[0]);
    edax.to_bytes()
}

fn problem(e: EdaxBookError) -> PositionProblem {
    match e {
        EdaxBookError::Position {
            index: 0,
            offset: 42,
            problem,
        } => problem,
        other => panic!("{other}"),
    }
}

#[test]
fn damaged_and_foreign_files_are_refused_with_the_reason() {
    assert_eq!(
        refused(&TINY[..30]),
        EdaxBookError::TruncatedHeader { len: 30 }
    );
    assert_eq!(
        refused(&TINY[..5]),
        EdaxBookError::TruncatedHeader { len: 5 }
    );
    assert_eq!(refused(SHIPPED), EdaxBookError::BadMagic);
    assert_eq!(refused(b"EDAXBOOK and so on"), EdaxBookError::BadMagic);
    let mut v3 = TINY.to_vec();
    v3[8] = 3;
    assert_eq!(
        refused(&v3),
        EdaxBookError::Version {
            version: 3,
            release: 4
        }
    );
    let mut negative = TINY.to_vec();
    negative[38..42].copy_from_slice(&(-1i32).to_le_bytes());
    assert_eq!(refused(&negative), EdaxBookError::BadCount(-1));
    // Cut inside the last position, and at the end of one.
    let cut = refused(&TINY[..TINY.len() - 1]);
    assert!(matches!(
        cut,
        EdaxBookError::Position {
            index: 4,
            problem: PositionProblem::Truncated,
            ..
        }
    ));
    assert!(cut.to_string().contains("truncated"), "{cut}");
    assert_eq!(
        refused(&TINY[..TINY.len() - 42]),
        EdaxBookError::MissingPositions {
            announced: 5,
            found: 4
        }
    );

    let e = refused(&with_first(|p| {
        p.opponent |= p.player & p.player.wrapping_neg()
    }));
    assert!(e.to_string().contains("overlap"), "{e}");
    assert_eq!(problem(e), PositionProblem::Overlap);
    let centre = 1u64 << 27;
    assert_eq!(
        problem(refused(&with_first(|p| {
            p.player &= !centre;
            p.opponent &= !centre;
        }))),
        PositionProblem::EmptyCenter
    );
    assert_eq!(
        problem(refused(&with_first(|p| p.level = 61))),
        PositionProblem::Level(61)
    );
    assert_eq!(
        problem(refused(&with_first(|p| p
            .links
            .push(EdaxLink { score: 0, mv: 70 })))),
        PositionProblem::LinkOutOfRange(70)
    );
    assert_eq!(
        problem(refused(&with_first(|p| p.leaf.mv = 66))),
        PositionProblem::LeafOutOfRange(66)
    );
    // Moves the board does not allow.
    let occupied = |p: &EdaxPosition| (p.player | p.opponent).trailing_zeros() as u8;
    let e = refused(&with_first(|p| {
        p.leaf = EdaxLink {
            score: 0,
            mv: occupied(p),
        }
    }));
    assert!(e.to_string().contains("not a legal move"), "{e}");
    assert!(matches!(problem(e), PositionProblem::IllegalLeaf(_)));
    let e = refused(&with_first(|p| {
        p.links.push(EdaxLink {
            score: 0,
            mv: occupied(p),
        })
    }));
    assert!(matches!(problem(e), PositionProblem::IllegalLink(_)));
    let e = refused(&with_first(|p| {
        let again = p.links.first().copied().unwrap_or(p.leaf);
        p.links.push(again);
    }));
    assert!(matches!(problem(e), PositionProblem::DuplicateMove(_)));
    let e = refused(&with_first(|p| {
        p.links.push(EdaxLink { score: 0, mv: PASS })
    }));
    assert_eq!(problem(e), PositionProblem::MisplacedPass);
    let e = refused(&with_first(|p| p.leaf = EdaxLink { score: 0, mv: PASS }));
    assert_eq!(problem(e), PositionProblem::MisplacedPass);
}

#[test]
fn a_leaf_score_out_of_range_is_refused() {
    // The first position in file order is one with a leaf or not; find one with a leaf.
    let mut edax = EdaxBook::from_bytes(TINY).unwrap();
    let (index, p) = edax
        .positions
        .iter_mut()
        .enumerate()
        .find(|(_, p)| p.leaf.mv != NO_MOVE)
        .unwrap();
    p.leaf.score = 100;
    let e = Book::from_edax(&edax).unwrap_err();
    assert!(matches!(
        e,
        EdaxBookError::Position {
            index: i,
            problem: PositionProblem::LeafScore(100),
            ..
        } if i == index
    ));
}

#[test]
fn random_books_go_through_edax_and_back() {
    // Books of random lines from the start, searched at random depths; some solved.
    let mut rng = XorShift64::new(5);
    for _ in 0..20 {
        let mut book = Book::new();
        for _ in 0..6 {
            let mut board = Board::START;
            for _ in 0..rng.below(20) {
                let moves = board.moves();
                if moves == 0 {
                    break;
                }
                book.insert_games(board, 0);
                let pick = rng.below(u64::from(moves.count_ones())) as usize;
                let sq = (0..64)
                    .filter(|&s| moves & (1 << s) != 0)
                    .nth(pick)
                    .unwrap();
                board = board.play(sq);
                if board.moves() == 0 {
                    board = board.pass();
                }
            }
        }
        let keys: Vec<Key> = book.iter().map(|(k, _)| *k).collect();
        for key in keys {
            let board = key.board();
            let outside: Vec<u32> = (0..64)
                .filter(|&s| {
                    board.moves() & (1 << s) != 0
                        && !matches!(book.child(board, s), crate::book::Child::Book(..))
                })
                .collect();
            let depth = 1 + rng.below(30) as u8;
            let leaf = outside
                .first()
                .map(|&s| (Sq::new(s).unwrap(), rng.below(129) as i32 - 64));
            // About one position in five unsearched, as a build stopped midway leaves it.
            if rng.below(5) > 0 {
                book.set_leaf(board, leaf, depth, false);
            }
        }
        book.depth = 1 + rng.below(30) as u8;
        book.back_up();
        let edax = book.to_edax(EdaxDate::default());
        let back = Book::from_edax(&EdaxBook::from_bytes(&edax.to_bytes()).unwrap()).unwrap();
        // Far from the end every depth is an Edax level: the book comes back whole.
        assert_eq!(back, book);
    }
}
