//! Every level answers in bounded time: on positions where its full search would take far
//! longer (an exact solve of the whole game, the hardest FFO endgames, a 10x10 board), a
//! level stops at its time limit with a legal move. The bounds are generous; the times
//! themselves are measured by `reversi bench levels`.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use reversi_core::{parse_transcript, BoardSize, Position, Rules};
use reversi_engine::levels::Level;
use reversi_formats::obf::parse_obf;
use reversi_players::{Advisor, Ai, Computer};
use reversi_testkit::data_file;

/// The time limit given to the levels here.
const LIMIT: Duration = Duration::from_millis(300);
/// What a loaded test machine may add to it.
const SLACK: Duration = Duration::from_secs(4);

fn hard_positions() -> Vec<Position> {
    let mut out = vec![Position::start(BoardSize::EIGHT, Rules::Othello)];
    let text = std::fs::read_to_string(data_file("obf/fforum-40-59.obf")).unwrap();
    let ffo = parse_obf(&text).unwrap();
    // #55 (the hardest to solve), #59 (the most empties) and #40.
    for i in [14, 19, 0] {
        out.push(ffo[i].position.clone());
    }
    let ten = Position::start(BoardSize::new(10).unwrap(), Rules::Othello);
    out.push(ten);
    out
}

#[test]
fn every_level_moves_within_its_time_limit() {
    let stop = AtomicBool::new(false);
    let positions = hard_positions();
    for n in [1, 3, 6, 10, 14, 16, 20, 24, 30, 40, 59, 60] {
        let level = Level::new(n).unwrap();
        for (i, pos) in positions.iter().enumerate() {
            let mut computer = Computer::new(Ai::Level(level), 3);
            computer.set_time_limit(Some(LIMIT));
            let t = Instant::now();
            let d = computer.choose(pos, &stop, &mut |_| {}).unwrap();
            let took = t.elapsed();
            assert!(took < LIMIT + SLACK, "level {n} position {i}: {took:?}");
            assert!(pos.moves().contains(&d.mv), "level {n} position {i}");
        }
    }
}

#[test]
fn the_top_level_answers_at_the_start_with_a_midgame_search() {
    // Level 60 would solve 60 empties; with its budget cut to a fraction of a second it plays
    // from its deepest completed midgame search.
    let stop = AtomicBool::new(false);
    let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    let pos = parse_transcript("f5d6c3d3c4", start)
        .unwrap()
        .current()
        .clone();
    let mut perfect = Computer::new(Ai::Level(Level::new(60).unwrap()), 1);
    perfect.set_time_limit(Some(Duration::from_millis(500)));
    let d = perfect.choose(&pos, &stop, &mut |_| {}).unwrap();
    assert!(d.thinking.depth >= 4, "depth {}", d.thinking.depth);
    assert!(pos.moves().contains(&d.mv));
}

#[test]
fn hints_are_bounded_by_the_level_budget() {
    // Level 3 has a budget of 2 s and solves from 6 empties: hints on FFO #59 (a 26-empty
    // endgame) come back at once, all scored.
    let stop = AtomicBool::new(false);
    let pos = hard_positions()[2].clone();
    let level = Level::new(3).unwrap();
    let t = Instant::now();
    let h = Advisor::standard().hints(&pos, level, &stop, &mut |_| {});
    assert!(t.elapsed() < level.spec().time + SLACK);
    assert_eq!(h.len(), pos.legal_moves().len());
}

#[test]
fn a_weak_level_strays_only_within_its_allowance() {
    // Level 3 strays up to 6 discs (by its own search) 48 % of the time: over a few games
    // it plays some moves other than its best, each within 6 of the best.
    let stop = AtomicBool::new(false);
    let level = Level::new(3).unwrap();
    let allowance = level.spec().allowance.unwrap();
    let mut strayed = 0;
    for seed in 1..=4 {
        let mut computer = Computer::new(Ai::Level(level), seed);
        let mut pos = Position::start(BoardSize::EIGHT, Rules::Othello);
        while let Some(d) = computer.choose(&pos, &stop, &mut |_| {}) {
            let scores: Vec<i32> = d.thinking.candidates.iter().map(|c| c.score).collect();
            if let (Some(&best), Some(chosen)) = (scores.iter().max(), d.thinking.best.as_ref()) {
                assert_eq!(chosen.mv, d.mv);
                assert!(chosen.score >= best - allowance.max_loss);
                if chosen.score < best {
                    strayed += 1;
                }
            }
            pos = pos.play(d.mv).unwrap();
        }
    }
    assert!(strayed >= 10, "strayed {strayed} times in four games");
}

#[test]
fn the_top_level_plays_its_midgame_as_level_24() {
    // Out of the book (each move the first legal one, 24 plies), 36 empties: perfect plays
    // as level 24 (its depth and time), not with the long budget it keeps for solving.
    let stop = AtomicBool::new(false);
    let mut pos = Position::start(BoardSize::EIGHT, Rules::Othello);
    for _ in 0..24 {
        let first = pos.moves()[0];
        pos = pos.play(first).unwrap();
    }
    let perfect = Level::new(60).unwrap();
    let spec = perfect.spec();
    let midgame = spec.midgame_as.unwrap();
    assert!(pos.empty_count() > midgame.above as usize);
    let master = midgame.level;
    assert_eq!(master, Level::new(24).unwrap());
    let choose = |level: Level| {
        let mut computer = Computer::new(Ai::Level(level), 1);
        let t = Instant::now();
        let d = computer.choose(&pos, &stop, &mut |_| {}).unwrap();
        (d, t.elapsed())
    };
    let (as_perfect, took) = choose(perfect);
    assert!(took < master.spec().time + SLACK, "{took:?}");
    assert!(
        master.spec().time + SLACK < spec.time,
        "the test could not tell them apart"
    );
    assert!(pos.moves().contains(&as_perfect.mv));
    assert!(
        as_perfect.thinking.depth <= master.spec().depth,
        "deeper than master"
    );
}
