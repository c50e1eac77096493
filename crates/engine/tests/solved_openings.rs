//! The solved 6x6 openings the program ships: they load, agree with themselves and with the
//! solver, and let the top level play perfectly from the first move.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;

use reversi_core::{BoardSize, Move, Position, Rules, Score};
use reversi_engine::ai::{Ai, Computer};
use reversi_engine::levels::Level;
use reversi_engine::solved::{shipped, SolvedOpenings, SHIPPED_6X6};
use reversi_engine::ScoreKind;
use reversi_engine::{playable, Board};

fn start() -> Position {
    Position::start(BoardSize::new(6).unwrap(), Rules::Othello)
}

/// Every position within `plies` plies of `b`, passes applied.
fn positions(b: Board, mask: u64, plies: u32, out: &mut Vec<(Board, u32)>, ply: u32) {
    out.push((b, ply));
    if ply == plies {
        return;
    }
    let mut m = b.moves() & mask;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        let mut c = b.play(sq);
        if c.moves() & mask == 0 {
            if c.pass().moves() & mask == 0 {
                continue;
            }
            c = c.pass();
        }
        positions(c, mask, plies, out, ply + 1);
    }
}

#[test]
fn the_table_loads_and_is_consistent() {
    let table = shipped(6).expect("the shipped 6x6 table loads");
    assert_eq!(SolvedOpenings::from_bytes(SHIPPED_6X6).as_ref(), Ok(table));
    let mask = playable(6);
    let (b, _) = Board::from_position(&start()).unwrap();
    // 16-20 for White with perfect play (Feinstein, 1993).
    assert_eq!(table.value(b), Some(-4));
    let mut all = Vec::new();
    positions(b, mask, u32::from(table.plies()), &mut all, 0);
    for &(p, ply) in &all {
        let v = table
            .value(p)
            .expect("every position within the plies is stored");
        if ply < u32::from(table.plies()) {
            // A stored value is the best of its children's.
            let mut best = -64;
            let mut m = p.moves() & mask;
            while m != 0 {
                let sq = m.trailing_zeros();
                m &= m - 1;
                best = best.max(-table.value(p.play(sq)).unwrap());
            }
            assert_eq!(v, best, "{p:?}");
        }
    }
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
