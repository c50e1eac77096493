//! The top level on 6x6: it plays the solved openings the engine ships from the first move,
//! and perfectly to the end.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;

use reversi_core::{BoardSize, Move, Position, Rules, Score};
use reversi_engine::levels::Level;
use reversi_engine::ScoreKind;
use reversi_players::{Ai, Computer};

fn start() -> Position {
    Position::start(BoardSize::new(6).unwrap(), Rules::Othello)
}

#[test]
fn the_top_level_knows_every_opening_move_at_once() {
    let stop = AtomicBool::new(false);
    let mut perfect = Computer::new(Ai::Level(Level::new(60).unwrap()), 1);
    let d = perfect.choose(&start(), &stop, &mut |_| {}).unwrap();
    assert_eq!(d.thinking.nodes, 0, "answered from the table");
    assert_eq!(d.thinking.candidates.len(), 4);
    for c in &d.thinking.candidates {
        assert_eq!(c.kind, ScoreKind::Exact);
        assert_eq!(c.score, -4);
    }
}

#[test]
#[ignore = "slow: live solves of up to 29 empties (release mode, in CI)"]
fn perfect_play_on_6x6_ends_16_20() {
    // Both sides at the top level: the table for the opening, live solves after it.
    let stop = AtomicBool::new(false);
    let mut black = Computer::new(Ai::Level(Level::new(60).unwrap()), 1);
    let mut white = Computer::new(Ai::Level(Level::new(60).unwrap()), 2);
    let mut pos = start();
    while !pos.is_game_over() {
        let side = if pos.turn() == reversi_core::Color::Black {
            &mut black
        } else {
            &mut white
        };
        let mv = side.choose(&pos, &stop, &mut |_| {}).unwrap().mv;
        pos = pos.play(mv).unwrap();
        assert!(mv == Move::Pass || pos.empty_count() < 32);
    }
    let score = Score::of(&pos);
    assert_eq!((score.black, score.white), (16, 20), "{pos}");
}
