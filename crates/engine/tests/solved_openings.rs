//! The solved 6x6 openings the program ships: they load and agree with themselves (the top
//! level playing from them is tested in `reversi-players`).

#![allow(clippy::unwrap_used)]

use reversi_core::{BoardSize, Position, Rules};
use reversi_engine::solved::{shipped, SolvedOpenings, SHIPPED_6X6};
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
