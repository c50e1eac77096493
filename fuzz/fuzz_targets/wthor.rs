//! Fuzzes the WTHOR readers (`parse_wtb`, `parse_names` for both record lengths) and the
//! import of a WTHOR game (`convert::from_wthor`), and asserts that a database read is
//! written back (`write_wtb`) as bytes that read as the same database, that a game imported
//! plays the file's squares in order with only passes put between them, and that a names
//! file gives one trimmed name a record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::Move;
use reversi_formats::wthor::{parse_names, parse_wtb, write_wtb, PLAYER_RECORD, TOURNAMENT_RECORD};
use reversi_game::convert::from_wthor;

fuzz_target!(|data: &[u8]| {
    for record in [PLAYER_RECORD, TOURNAMENT_RECORD] {
        if let Ok(names) = parse_names(data, record) {
            assert_eq!(names.len(), (data.len() - 16) / record);
            assert!(names.iter().all(|n| n.trim() == n && !n.contains('\0')));
        }
    }
    let Ok(db) = parse_wtb(data) else {
        return;
    };
    let written = write_wtb(&db);
    assert_eq!(written.len(), data.len());
    assert_eq!(
        parse_wtb(&written).as_ref(),
        Ok(&db),
        "written back differently"
    );
    let players = vec!["Black".to_string(); 4];
    for game in db.games.iter().take(64) {
        assert!(game.moves.len() <= 60);
        let Ok(import) = from_wthor(game, db.header.year, &players, &[], "fuzz") else {
            continue;
        };
        let squares: Vec<Move> = import
            .moves
            .iter()
            .map(|m| m.mv)
            .filter(|&m| m != Move::Pass)
            .collect();
        let played: Vec<Move> = game.moves.iter().map(|&sq| Move::Play(sq)).collect();
        assert_eq!(squares, played, "the import plays other squares");
    }
});
