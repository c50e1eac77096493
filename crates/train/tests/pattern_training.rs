//! End to end on a small slice of real data: WTHOR games, labelled by their theoretical
//! scores, fitted for a few epochs; the loss falls on the training and on held-out games,
//! and the fitted weights survive a round trip through the weights file.

#![allow(clippy::unwrap_used)]

use reversi_engine::eval::Evaluator;
use reversi_engine::pattern::{PatternEval, Weights};
use reversi_engine::{Board, Sq};
use reversi_formats::wthor::parse_wtb;
use reversi_testkit::data_file;
use reversi_train::fit::linear::{fit, FitOptions, Sample};

/// The positions of the first `games` games of a WTHOR year, labelled for the side to move.
fn samples(year: u16, games: usize) -> Vec<Sample> {
    let path = data_file(format!("wthor/WTH_{year}.wtb"));
    let db = parse_wtb(&std::fs::read(path).unwrap()).unwrap();
    let mut out = Vec::new();
    for g in db.games.iter().take(games) {
        let diff = 2 * i32::from(g.theoretical_score) - 64;
        let (mut b, mut black) = (Board::START, true);
        for &sq in &g.moves {
            if b.moves() == 0 {
                b = b.pass();
                black = !black;
            }
            let label = if black { diff } else { -diff };
            out.push(Sample {
                board: b,
                label: label as i8,
            });
            b = b.play(Sq::from_square(sq).unwrap().index());
            black = !black;
        }
    }
    out
}

#[test]
fn a_small_fit_on_wthor_lowers_the_loss() {
    let train = samples(2019, 300);
    let valid = samples(2021, 100);
    let opts = FitOptions {
        epochs: 3,
        seed: 5,
        learning_rate: 0.05,
        ..FitOptions::default()
    };
    let sums = std::sync::Mutex::new(([0.0f64; 2], [0.0f64; 2]));
    let discs = fit(&train, &valid, None, &opts, &|r| {
        let n = r.train_samples as f64;
        let m = r.valid_samples as f64;
        let (first, last) = &mut *sums.lock().unwrap();
        if r.epoch == 1 {
            first[0] += r.train_mse * n;
        }
        if r.epoch == opts.epochs {
            last[0] += r.train_mse * n;
            last[1] += r.valid_mse * m;
        }
    });
    let (first, last) = sums.into_inner().unwrap();
    assert!(
        last[0] < 0.8 * first[0],
        "training loss {first:?} -> {last:?}"
    );
    // Held-out games: better than predicting a draw everywhere.
    let zero: f64 = valid.iter().map(|s| f64::from(s.label).powi(2)).sum();
    let fitted = last[1];
    assert!(fitted < zero, "validation {fitted} vs {zero} for all-zero");
    // The file keeps what the fit learnt (to 1/64 disc).
    let w = Weights::from_discs(1, &discs);
    let back = Weights::from_bytes(&w.to_bytes()).unwrap();
    let eval = PatternEval::new(&back);
    let b = train[20].board;
    assert_eq!(
        eval.evaluate(b, u64::MAX),
        PatternEval::new(&w).evaluate(b, u64::MAX)
    );
}
