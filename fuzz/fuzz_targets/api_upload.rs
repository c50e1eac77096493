//! Fuzzes the web API's upload of a file of games (`read_games`: GGF or transcripts, the
//! format, size and rule from the query) on every format, size and rule, and asserts that
//! every game to import replays legally from its start on its size and rule.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_api::upload::read_games;
use reversi_core::{Game, Move, Position};
use reversi_fuzz::size_and_rules;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the format and which of size and rule the query gives, the
    // second the size and rule.
    let [how, board, rest @ ..] = data else {
        return;
    };
    let format = [
        None,
        Some("auto"),
        Some("ggf"),
        Some("transcript"),
        Some("sgf"),
    ][usize::from(how & 0x0f) % 5];
    let (size, rules) = size_and_rules(*board);
    let size = (how & 0x10 != 0).then_some(size.get());
    let rules = (how & 0x20 != 0).then_some(rules.name());
    let text = String::from_utf8_lossy(rest);
    let Ok(games) = read_games(&text, format, size, rules, "fuzz") else {
        return;
    };
    for import in &games {
        let g = &import.game;
        let start = g
            .start
            .clone()
            .unwrap_or_else(|| Position::start(g.size, g.rules));
        assert_eq!((start.size(), start.rules()), (g.size, g.rules));
        let moves: Vec<Move> = import.moves.iter().map(|m| m.mv).collect();
        if let Err((ply, e)) = Game::from_moves(start, &moves) {
            panic!("move {} of a game to import is illegal: {e}", ply + 1);
        }
    }
});
