//! Inputs the fuzz targets (fuzz/, docs/fuzzing.md) found mishandled, each pinned by a test
//! named for what went wrong.

use reversi_formats::ggf::{parse_ggf, write_ggf, GgfErrorKind};
use reversi_formats::wthor::{parse_wtb, write_wtb};

/// A game with two `TY` tags naming different sizes was read (the last one checked against
/// `BO`), and written back with the other one, which then disagreed with `BO`.
#[test]
fn ggf_with_two_sizes_in_ty_is_refused() {
    let board = "BO[6 ------ ------ --O*-- --*O-- ------ ------ *]";
    let text = format!("(;GM[Othello]TY[05:00]TY[6]{board}B[c2];)");
    match parse_ggf(&text) {
        Err(e) => {
            assert!(matches!(e.kind, GgfErrorKind::BadSize(_)), "{e}");
            assert!(e.to_string().contains("one TY says 5, another 6"), "{e}");
        }
        Ok(games) => panic!("read as {games:?}"),
    }
    // Two that agree are both kept, and the game written reads back the same.
    let games = parse_ggf(&format!("(;GM[Othello]TY[6r]TY[s6]{board}B[c2];)"))
        .unwrap_or_else(|e| panic!("{e}"));
    let again = parse_ggf(&write_ggf(&games[0])).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again, games);
}

/// A header whose year-in-century byte is past 99 and whose century byte is 255 reads as a
/// year past 25,599, which the writer cut to a byte: the file written back read as another
/// year.
#[test]
fn wthor_creation_year_past_25599_is_written_back() {
    let mut bytes = vec![255, 200, 1, 2, 1, 0, 0, 0, 0, 0, 0xc1, 0x07, 8, 0, 24, 0];
    bytes.extend_from_slice(&[0, 0, 1, 0, 2, 0, 40, 36]);
    let mut moves = [0u8; 60];
    moves[..3].copy_from_slice(&[56, 64, 33]);
    bytes.extend_from_slice(&moves);
    let db = parse_wtb(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(db.header.created, (25_700, 1, 2));
    assert_eq!(parse_wtb(&write_wtb(&db)), Ok(db));
}
