//! The solver against a plain minimax solve, and the midgame search's basic promises.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::eval::{Evaluator, HandEval, WithOrdering};
use crate::playable;
use reversi_testkit::Rng;

fn naive(b: Board, mask: u64) -> i32 {
    let moves = b.moves() & mask;
    if moves == 0 {
        let passed = b.pass();
        if passed.moves() & mask == 0 {
            return final_score(b, mask);
        }
        return -naive(passed, mask);
    }
    let mut best = -INF;
    let mut m = moves;
    while m != 0 {
        let sq = m.trailing_zeros();
        m &= m - 1;
        best = best.max(-naive(b.play(sq), mask));
    }
    best
}

/// A random position with `empties` empty squares (or fewer, if the game ended first).
fn random_position(rng: &mut Rng, mask: u64, start: Board, empties: u32) -> Board {
    loop {
        let mut b = start;
        loop {
            if (b.empties() & mask).count_ones() <= empties {
                return b;
            }
            let moves = b.moves() & mask;
            if moves == 0 {
                if b.pass().moves() & mask == 0 {
                    break;
                }
                b = b.pass();
                continue;
            }
            let k = rng.below(moves.count_ones() as usize);
            let mut m = moves;
            for _ in 0..k {
                m &= m - 1;
            }
            b = b.play(m.trailing_zeros());
        }
    }
}

/// A stopper with only the caller's flag.
fn unlimited(flag: &AtomicBool) -> Stopper<'_> {
    Stopper {
        flag,
        halt: None,
        deadline: None,
        clock: &super::Untimed,
        node_limit: None,
    }
}

fn searcher<'a>(
    tt: &'a TranspositionTable,
    eval: &'a HandEval,
    stopper: &'a Stopper<'a>,
    mask: u64,
) -> Searcher<'a> {
    Searcher::new(tt, eval, mask, stopper, None)
}

/// The hand-made evaluation upside down: the worst ordering it can give.
struct Upside(HandEval);

impl Evaluator for Upside {
    fn evaluate(&self, b: Board, mask: u64) -> i32 {
        -self.0.evaluate(b, mask)
    }
}

#[test]
fn the_solver_orders_by_the_ordering_evaluation_and_its_scores_do_not_depend_on_it() {
    let flag = AtomicBool::new(false);
    let stopper = unlimited(&flag);
    let plain = HandEval::new(8);
    let paired = WithOrdering {
        eval: std::sync::Arc::new(HandEval::new(8)),
        order: std::sync::Arc::new(Upside(HandEval::new(8))),
    };
    let mut rng = Rng::new(0x04d3_0001);
    let (mut plain_nodes, mut paired_nodes) = (0, 0);
    for _ in 0..12 {
        // From 14 empties the endgame ordering asks the evaluation.
        let b = random_position(&mut rng, u64::MAX, Board::START, 16);
        let tt = TranspositionTable::new(4);
        let mut s = Searcher::new(&tt, &plain, u64::MAX, &stopper, None);
        let want = s.solve(b, -INF, INF);
        plain_nodes += s.nodes;
        let tt = TranspositionTable::new(4);
        let mut s = Searcher::new(&tt, &paired, u64::MAX, &stopper, None);
        assert_eq!(s.solve(b, -INF, INF), want, "{b:?}");
        paired_nodes += s.nodes;
        // The midgame value is the evaluation proper's.
        assert_eq!(paired.evaluate(b, u64::MAX), plain.evaluate(b, u64::MAX));
        assert_eq!(paired.ordering(b, u64::MAX), -plain.evaluate(b, u64::MAX));
    }
    assert!(
        paired_nodes > plain_nodes,
        "ordering upside down: {paired_nodes} nodes against {plain_nodes}"
    );
}

#[test]
fn solver_agrees_with_minimax_on_random_endgames() {
    let tt = TranspositionTable::new(4);
    let eval = HandEval::new(8);
    let flag = AtomicBool::new(false);
    let stopper = unlimited(&flag);
    let mut rng = Rng::new(0x5eed_1234_abcd_0001);
    for i in 0..3000 {
        let empties = 1 + (i % 10) as u32;
        let b = random_position(&mut rng, u64::MAX, Board::START, empties);
        let want = naive(b, u64::MAX);
        let mut s = searcher(&tt, &eval, &stopper, u64::MAX);
        assert_eq!(s.solve(b, -INF, INF), want, "{b:?}");
        // Win/loss/draw: a null window around 0 gives the sign.
        let mut s = searcher(&tt, &eval, &stopper, u64::MAX);
        let wld = s.solve(b, -1, 1);
        assert_eq!(wld.signum(), want.signum(), "{b:?}");
        // A fail-soft bound on the right side of any window.
        let a = rng.below(20) as i32 - 10;
        let mut s = searcher(&tt, &eval, &stopper, u64::MAX);
        let v = s.solve(b, a, a + 1);
        if want <= a {
            assert!(v <= a);
        } else {
            assert!(v > a);
        }
        // The midgame search deep enough to reach the end is exact too.
        let mut s = searcher(&tt, &eval, &stopper, u64::MAX);
        assert_eq!(s.pvs(b, 60, -INF, INF), want);
    }
}

/// The stability cutoff the solver tries at every node of 3 empties or more: whenever it
/// cuts, its cap is at most alpha and at least the exact score.
#[test]
fn stability_cutoff_caps_the_exact_score() {
    let mut rng = Rng::new(0x5eed_1234_abcd_0002);
    let mut cuts = 0;
    for mask in [u64::MAX, playable(6)] {
        let start = if mask == u64::MAX {
            Board::START
        } else {
            Board::new(1 << 19 | 1 << 26, 1 << 18 | 1 << 27)
        };
        for i in 0..1500 {
            let b = random_position(&mut rng, mask, start, 3 + (i % 8) as u32);
            let want = naive(b, mask);
            for alpha in -64..=64 {
                if let Some(cap) = crate::stability::cutoff(b, mask, alpha) {
                    assert!(cap <= alpha && want <= cap, "{b:?} alpha {alpha} cap {cap}");
                    cuts += 1;
                }
            }
        }
    }
    assert!(cuts > 1000, "only {cuts} cutoffs");
}

#[test]
fn solver_agrees_with_minimax_on_small_boards() {
    let tt = TranspositionTable::new(4);
    let eval = HandEval::new(6);
    let flag = AtomicBool::new(false);
    let stopper = unlimited(&flag);
    let mut rng = Rng::new(0x0bad_cafe_dead_beef);
    for n in [4u8, 6] {
        let mask = playable(n);
        let start = {
            let pos = reversi_core::Position::start(
                reversi_core::BoardSize::new(n).unwrap(),
                reversi_core::Rules::Othello,
            );
            Board::from_position(&pos).unwrap().0
        };
        for i in 0..500 {
            let empties = 1 + (i % 12) as u32;
            let b = random_position(&mut rng, mask, start, empties);
            let want = naive(b, mask);
            let mut s = searcher(&tt, &eval, &stopper, mask);
            assert_eq!(s.solve(b, -INF, INF), want, "{n}x{n}\n{b:?}");
        }
    }
}

#[test]
fn four_by_four_is_solved() {
    // 4x4 Othello from the standard start, with perfect play: White wins 3-11 with two squares
    // left empty, 3-13 once the empties go to the winner.
    let tt = TranspositionTable::new(4);
    let eval = HandEval::new(4);
    let flag = AtomicBool::new(false);
    let stopper = unlimited(&flag);
    let mask = playable(4);
    let pos =
        reversi_core::Position::start(reversi_core::BoardSize::FOUR, reversi_core::Rules::Othello);
    let b = Board::from_position(&pos).unwrap().0;
    let mut s = searcher(&tt, &eval, &stopper, mask);
    let v = s.solve(b, -INF, INF);
    assert_eq!(v, naive(b, mask));
    assert_eq!(v, -10);
}

#[test]
fn stop_flag_interrupts() {
    let tt = TranspositionTable::new(4);
    let eval = HandEval::new(8);
    let flag = AtomicBool::new(true);
    let stopper = unlimited(&flag);
    let mut s = searcher(&tt, &eval, &stopper, u64::MAX);
    let _ = s.pvs(Board::START, 30, -INF, INF);
    assert!(s.stopped);
    assert!(s.nodes <= 4096);
}

#[test]
fn selective_bounds_do_not_cut_an_exact_search() {
    // A table entry from a selective solve claiming a false value: a full-width solve must
    // not take it, a solve at that selectivity may.
    let eval = HandEval::new(8);
    let flag = AtomicBool::new(false);
    let stopper = unlimited(&flag);
    let mut rng = Rng::new(0x7373_0000_1111_2222);
    for _ in 0..30 {
        let b = random_position(&mut rng, u64::MAX, Board::START, 10);
        if b.moves() == 0 {
            continue;
        }
        let want = naive(b, u64::MAX);
        let wrong = if want > 0 { -64 } else { 64 };
        let poisoned = || {
            let tt = TranspositionTable::new(1);
            tt.store(
                tt::hash(b),
                Entry {
                    lower: wrong as i8,
                    upper: wrong as i8,
                    depth: tt::solved_depth((b.empties()).count_ones()),
                    selectivity: 0,
                    best: None,
                },
            );
            tt
        };
        let tt = poisoned();
        let mut s = searcher(&tt, &eval, &stopper, u64::MAX);
        assert_eq!(s.solve(b, -INF, INF), want, "{b:?}");
        let tt = poisoned();
        let mut s = searcher(&tt, &eval, &stopper, u64::MAX);
        s.selectivity = 0;
        assert_eq!(s.solve(b, -INF, INF), wrong);
        assert_eq!(s.solved(b), None, "a selective value is not a solved one");
    }
}

#[test]
fn probcut_prunes_and_stays_close() {
    // Selective searches visit fewer nodes than full-width ones of the same depth and land
    // near their values on average.
    let eval = crate::pattern::default_evaluator(u64::MAX);
    let flag = AtomicBool::new(false);
    let stopper = unlimited(&flag);
    let mut rng = Rng::new(0x00dd_ba11_5eed_0042);
    let (mut full_nodes, mut sel_nodes, mut diff) = (0, 0, 0);
    let n = 20;
    for _ in 0..n {
        let b = random_position(&mut rng, u64::MAX, Board::START, 40);
        let tt = TranspositionTable::new(4);
        let mut s = Searcher::new(&tt, eval.as_ref(), u64::MAX, &stopper, None);
        let full = s.pvs(b, 8, -INF, INF);
        full_nodes += s.nodes;
        let tt = TranspositionTable::new(4);
        let mut s = Searcher::new(&tt, eval.as_ref(), u64::MAX, &stopper, None);
        s.selectivity = 0;
        let sel = s.pvs(b, 8, -INF, INF);
        sel_nodes += s.nodes;
        diff += (full - sel).abs();
    }
    assert!(sel_nodes * 2 < full_nodes, "{sel_nodes} vs {full_nodes}");
    assert!(
        diff <= 3 * n,
        "mean difference {}",
        diff as f64 / f64::from(n)
    );
}
