//! The engine API's promises: the same answers with or without the table and with one or two
//! threads, and stop and time limits honoured with a legal move.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reversi_engine::engine::{Engine, Limits};
use reversi_engine::{Board, ScoreKind, Sq, Thinking};
use reversi_testkit::Rng;

/// The bitboard square of a search's best move.
fn best_square(t: &Thinking) -> Sq {
    Sq::from_move(t.best.as_ref().unwrap().mv).unwrap()
}

/// Positions from a fixed pseudo-random walk, `empties` squares left.
fn positions(count: usize, empties: u32, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed | 1);
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::START;
        loop {
            if b.empties().count_ones() == empties {
                out.push(b);
                break;
            }
            let moves = b.moves();
            if moves == 0 {
                if b.pass().moves() == 0 {
                    break;
                }
                b = b.pass();
                continue;
            }
            let mut m = moves;
            for _ in 0..rng.below(moves.count_ones() as usize) {
                m &= m - 1;
            }
            b = b.play(m.trailing_zeros());
        }
    }
    out
}

#[test]
fn solve_above_a_move_value_gives_the_exact_score() {
    let stop = AtomicBool::new(false);
    let engine = Engine::new(16, 1);
    let exact = |b: Board| {
        if b.moves() == 0 {
            let passed = b.pass();
            let t = engine.search(passed, u64::MAX, &Limits::exact(), &stop, &mut |_| {});
            return -t.score().unwrap();
        }
        let t = engine.search(b, u64::MAX, &Limits::exact(), &stop, &mut |_| {});
        t.score().unwrap()
    };
    for b in positions(12, 13, 0x50be) {
        if b.moves() == 0 {
            continue;
        }
        let value = exact(b);
        let mut moves = b.moves();
        while moves != 0 {
            let sq = moves.trailing_zeros();
            moves &= moves - 1;
            let child = b.play(sq);
            if child.moves() == 0 && child.pass().moves() == 0 {
                continue;
            }
            // Any move's value is a lower bound; from each, the exact score comes back.
            let lower = -exact(child);
            engine.clear();
            let got = engine.solve_above(b, u64::MAX, lower, &stop);
            assert_eq!(got, Some(value), "lower bound {lower}\n{b:?}");
        }
    }
}

#[test]
fn exact_scores_do_not_depend_on_the_table_or_threads() {
    let stop = AtomicBool::new(false);
    let with_table = Engine::new(16, 1);
    let without = Engine::without_table(1);
    let two = Engine::new(16, 2);
    for b in positions(40, 14, 0xace1) {
        if b.moves() == 0 {
            continue;
        }
        let a = with_table.search(b, u64::MAX, &Limits::exact(), &stop, &mut |_| {});
        let c = without.search(b, u64::MAX, &Limits::exact(), &stop, &mut |_| {});
        let d = two.search(b, u64::MAX, &Limits::exact(), &stop, &mut |_| {});
        assert_eq!(a.kind(), Some(ScoreKind::Exact));
        assert_eq!(a.score(), c.score(), "{b:?}");
        assert_eq!(a.score(), d.score(), "{b:?}");
        // Every root move is reported, whichever thread searched it.
        let legal = b.moves().count_ones() as usize;
        assert_eq!(a.candidates.len(), legal, "{b:?}");
        assert_eq!(d.candidates.len(), legal, "{b:?}");
        // Win/loss/draw agrees with the sign of the exact score.
        let w = with_table.search(b, u64::MAX, &Limits::wld(), &stop, &mut |_| {});
        assert_eq!(w.kind(), Some(ScoreKind::WinLossDraw));
        assert_eq!(
            w.score().map(i32::signum),
            a.score().map(i32::signum),
            "{b:?}"
        );
        // The best move really scores that: play it and solve the rest.
        let child = b.play(best_square(&a).index());
        let after = if child.moves() == 0 && child.pass().moves() != 0 {
            without
                .search(child.pass(), u64::MAX, &Limits::exact(), &stop, &mut |_| {})
                .score()
        } else if child.moves() == 0 {
            // The game ended with this move.
            a.score()
        } else {
            without
                .search(child, u64::MAX, &Limits::exact(), &stop, &mut |_| {})
                .score()
                .map(|v| -v)
        };
        assert_eq!(after, a.score(), "{b:?}");
    }
}

#[test]
fn selective_solves_end_exact_with_one_or_two_threads() {
    // From 18 empties a solve runs selective passes first; the final answer is exact and the
    // same on one and two threads.
    let stop = AtomicBool::new(false);
    let one = Engine::new(16, 1);
    let two = Engine::new(16, 2);
    for b in positions(6, 20, 0x5e1e) {
        if b.moves() == 0 {
            continue;
        }
        let mut precisions = Vec::new();
        let a = one.search(b, u64::MAX, &Limits::exact(), &stop, &mut |i| {
            precisions.push(i.kind());
        });
        let d = two.search(b, u64::MAX, &Limits::exact(), &stop, &mut |_| {});
        assert_eq!(a.kind(), Some(ScoreKind::Exact));
        assert_eq!(a.score(), d.score(), "{b:?}");
        assert!(precisions.contains(&Some(ScoreKind::Depth {
            depth: 20,
            selectivity: 73
        })));
        let w = two.search(b, u64::MAX, &Limits::wld(), &stop, &mut |_| {});
        assert_eq!(
            w.score().map(i32::signum),
            a.score().map(i32::signum),
            "{b:?}"
        );
    }
}

#[test]
fn analyze_gives_every_move_its_exact_score() {
    let stop = AtomicBool::new(false);
    let engine = Engine::new(16, 1);
    for b in positions(10, 12, 0xbeef) {
        if b.moves() == 0 {
            continue;
        }
        let info = engine.analyze(b, u64::MAX, &Limits::exact(), &stop, &mut |_| {});
        assert_eq!(info.candidates.len() as u32, b.moves().count_ones());
        for m in &info.candidates {
            assert!(!m.upper_bound);
            let child = b.play(Sq::from_move(m.mv).unwrap().index());
            let v = engine
                .search(child, u64::MAX, &Limits::exact(), &stop, &mut |_| {})
                .score()
                .map(|v| -v);
            if let Some(v) = v {
                assert_eq!(v, m.score);
            }
        }
        assert_eq!(Some(info.candidates[0].score), info.score());
    }
}

#[test]
fn a_stopped_search_returns_a_legal_move_promptly() {
    let engine = Arc::new(Engine::new(16, 2));
    let stop = Arc::new(AtomicBool::new(false));
    let b = positions(1, 40, 0x1234)[0];
    let flag = stop.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        flag.store(true, Ordering::Relaxed);
    });
    let t = Instant::now();
    let info = engine.search(b, u64::MAX, &Limits::exact(), &stop, &mut |_| {});
    let elapsed = t.elapsed();
    stopper.join().unwrap();
    assert!(b.moves() & best_square(&info).bit() != 0);
    // Generous: a 40-empty solve would take hours; stopping takes milliseconds.
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}

#[test]
fn a_time_limit_is_honoured() {
    let engine = Engine::new(16, 1);
    let stop = AtomicBool::new(false);
    let b = positions(1, 44, 0x777)[0];
    let limits = Limits {
        time: Some(Duration::from_millis(300)),
        ..Limits::exact()
    };
    let t = Instant::now();
    let info = engine.search(b, u64::MAX, &limits, &stop, &mut |_| {});
    assert!(b.moves() & best_square(&info).bit() != 0);
    assert!(t.elapsed() < Duration::from_secs(20));
    // A node budget stops too.
    let limits = Limits {
        nodes: Some(100_000),
        ..Limits::exact()
    };
    let info = engine.search(b, u64::MAX, &limits, &stop, &mut |_| {});
    assert!(b.moves() & best_square(&info).bit() != 0);
    assert!(info.nodes < 10_000_000);
}
