//! Tests of the fits on small sets of random positions: the table fit (linear.rs) learns,
//! leaves out and keeps what it is told, and does not depend on the threads; the network fit
//! (net.rs) predicts what the generated tables hold, has the gradient finite differences
//! give, and learns whatever the threads.
//!
//! `random_positions`, `scrambled_tables` and `with_both_wide` are copies of the engine's
//! pattern tests' helpers (the same positions and weights, which the thresholds below were
//! set on): the tests' helper crate stands on core alone and cannot make a `Board`.

use reversi_engine::pattern::net::{self, layout, NetWeights};
use reversi_engine::pattern::{
    pattern_set, Extras, PatternEval, Weights, ACTIVE, MOBILITY_ACTIVE, SCALE,
};
use reversi_engine::Board;
use reversi_testkit::Rng;

use super::linear::{fit, fit_model, FitOptions, Sample};
use super::net::{fit_net, gradient_of, mae_by_empties, predict, NetFitOptions};

/// Both of generation 3's extras.
const BOTH: Extras = Extras {
    mobility: true,
    hidden: 32,
};

/// The positions of `games` seeded random games.
fn random_positions(seed: u64, games: usize) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut b = Board::START;
        loop {
            let mut moves = b.moves();
            if moves == 0 {
                b = b.pass();
                if b.moves() == 0 {
                    break;
                }
                continue;
            }
            out.push(b);
            for _ in 0..rng.below(moves.count_ones() as usize) {
                moves &= moves - 1;
            }
            b = b.play(moves.trailing_zeros());
        }
    }
    out
}
/// `stages` tables of `n` weights, each a distinct pseudo-random value.
fn scrambled_tables(stages: usize, n: usize) -> Vec<Vec<f32>> {
    (0..stages)
        .map(|s| {
            (0..n)
                .map(|i| ((i * 7919 + s * 104_729) % 2001) as f32 / 100.0 - 10.0)
                .collect()
        })
        .collect()
}
/// Options for the small fits of the tests: `epochs` passes, `seed`, a large step, small
/// batches.
fn quick(epochs: u32, seed: u64) -> FitOptions {
    FitOptions {
        epochs,
        seed,
        learning_rate: 0.05,
        batch: 32,
        ..FitOptions::default()
    }
}
/// Random positions labelled with their disc difference (a target patterns can express).
fn disc_difference_samples(seed: u64, n: usize) -> Vec<Sample> {
    random_positions(seed, n)
        .iter()
        .map(|b| Sample {
            board: *b,
            label: (b.player.count_ones() as i32 - b.opponent.count_ones() as i32) as i8,
        })
        .collect()
}
/// Networks with both extras, the mobility-pattern weights pseudo-random values of up
/// to two discs (so that they matter), the head as a fit starts it.
fn with_both(seed: u64) -> NetWeights {
    with_both_wide(seed, 16)
}

/// [`with_both`] with networks `hidden` units wide.
fn with_both_wide(seed: u64, hidden: usize) -> NetWeights {
    let mut w = NetWeights::init(3, hidden, seed)
        .expect("a width")
        .with_extras(BOTH, seed);
    let tail = w.tail();
    let mut rng = Rng::new(seed);
    for p in &mut w.params[tail.mobility..tail.head] {
        *p = rng.below(401) as f32 / 100.0 - 2.0;
    }
    w
}

// The table fit.

#[test]
fn fitting_lowers_the_loss_and_is_deterministic() {
    // Learn the disc difference of random positions: a pattern-expressible target.
    let samples = disc_difference_samples(21, 60);
    let (train, valid) = samples.split_at(samples.len() * 4 / 5);
    let opts = quick(4, 9);
    let first = std::sync::Mutex::new(Vec::new());
    let last = std::sync::Mutex::new(Vec::new());
    let w = fit(train, valid, None, &opts, &|r| {
        if r.epoch == 1 {
            first.lock().unwrap().push(r.train_mse);
        }
        if r.epoch == opts.epochs {
            last.lock().unwrap().push(r.train_mse);
        }
    });
    let before: f64 = first.into_inner().unwrap().iter().sum();
    let after: f64 = last.into_inner().unwrap().iter().sum();
    assert!(after < before * 0.7, "loss {before} -> {after}");
    let again = fit(train, valid, None, &opts, &|_| {});
    assert_eq!(w, again);
    // Stages fitted side by side give the same weights.
    let threads = FitOptions { threads: 3, ..opts };
    assert_eq!(fit(train, valid, None, &threads, &|_| {}), w);
}
#[test]
fn a_fit_of_some_patterns_leaves_the_others_at_zero() {
    let set = pattern_set();
    let samples = disc_difference_samples(25, 40);
    let (train, valid) = samples.split_at(samples.len() * 4 / 5);
    // The corner 3x3 and the edge with its X squares (patterns 0 and 2), and the scalars.
    let opts = FitOptions {
        patterns: 0b101,
        ..quick(2, 3)
    };
    // Start from non-zero weights: the patterns left out are zeroed all the same.
    let start = Weights::from_discs(2, &scrambled_tables(30, set.features()));
    let tables = fit(train, valid, Some(&start), &opts, &|_| {});
    for t in &tables {
        for (f, &(g, _)) in set.configurations().iter().enumerate() {
            if g != 0 && g != 2 {
                assert_eq!(t[f], 0.0, "feature {f} of pattern {g}");
            }
        }
    }
    let kept = |g: u8| {
        tables.iter().any(|t| {
            set.configurations()
                .iter()
                .enumerate()
                .any(|(f, &(h, _))| h == g && t[f] != 0.0)
        })
    };
    // (An evaluation reads no pattern whose weights are all zero: the engine's tests.)
    assert!(kept(0) && kept(2));
}
#[test]
fn a_fit_of_some_mobility_patterns_leaves_the_others_at_zero() {
    let set = pattern_set();
    let samples = disc_difference_samples(27, 40);
    let (train, valid) = samples.split_at(samples.len() * 4 / 5);
    // Mobility patterns on the edge with its X squares and the diagonal 8 (patterns 2 and
    // 6) only; every pattern table learns.
    let opts = FitOptions {
        extras: Extras {
            mobility: true,
            hidden: 0,
        },
        mobility_patterns: 1 << 2 | 1 << 6,
        ..quick(2, 3)
    };
    let tables = fit(train, valid, None, &opts, &|_| {});
    let mobility = |t: &[f32], keep: bool| -> usize {
        (set.features()..t.len())
            .filter(|&f| {
                set.mobility_group_of(f)
                    .is_some_and(|g| (g == 2 || g == 6) == keep && t[f] != 0.0)
            })
            .count()
    };
    assert!(tables.iter().all(|t| mobility(t, false) == 0));
    assert!(tables.iter().any(|t| mobility(t, true) > 0));
    assert!(tables
        .iter()
        .any(|t| t[..set.first_scalar()].iter().any(|&w| w != 0.0)));
}
#[test]
fn the_penalty_can_pull_towards_the_start() {
    let samples = disc_difference_samples(23, 40);
    let opts = quick(3, 5);
    let start = Weights::from_discs(1, &fit(&samples, &[], None, &opts, &|_| {}));
    // A strong penalty: towards zero it shrinks the start, towards the start it keeps it.
    let strong = FitOptions { l2: 50.0, ..opts };
    // The mean distance from the start, over the weights the start has away from zero.
    let distance = |o: &FitOptions| {
        let w = fit(&samples, &[], Some(&start), o, &|_| {});
        let (mut sum, mut n) = (0.0f32, 0.0f32);
        for (s, fitted) in w.iter().enumerate() {
            for (a, b) in fitted.iter().zip(start.stage_discs(s)) {
                if b != 0.0 {
                    sum += (a - b).abs();
                    n += 1.0;
                }
            }
        }
        sum / n
    };
    let to_zero = distance(&strong);
    let to_start = distance(&FitOptions {
        l2_to_start: true,
        ..strong
    });
    assert!(to_start < to_zero / 4.0, "{to_start} vs {to_zero}");
}
#[test]
fn the_fit_with_both_additions_learns_and_does_not_depend_on_the_threads() {
    // Mobility-pattern-expressible labels: the mover's mobility minus the opponent's.
    let samples: Vec<Sample> = random_positions(21, 60)
        .into_iter()
        .map(|b| Sample {
            board: b,
            label: (b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32) as i8,
        })
        .collect();
    let (train, valid) = samples.split_at(samples.len() * 4 / 5);
    let opts = FitOptions {
        extras: BOTH,
        ..quick(4, 9)
    };
    let first = std::sync::Mutex::new(0.0);
    let last = std::sync::Mutex::new(0.0);
    let fitted = fit_model(train, valid, None, &opts, &|r| {
        let n = r.train_samples as f64;
        if r.epoch == 1 {
            *first.lock().unwrap() += r.train_mse * n;
        }
        if r.epoch == opts.epochs {
            *last.lock().unwrap() += r.train_mse * n;
        }
    });
    let (before, after) = (first.into_inner().unwrap(), last.into_inner().unwrap());
    assert!(after < before * 0.7, "loss {before} -> {after}");
    assert!(fitted.heads.iter().all(|h| h.len() == BOTH.head_params()));
    let n = pattern_set().features_with(true);
    assert!(fitted.tables.iter().all(|t| t.len() == n));
    let threads = FitOptions { threads: 3, ..opts };
    assert_eq!(fit_model(train, valid, None, &threads, &|_| {}), fitted);
    // The weights file carries what the fit found.
    let w = fitted.weights(3, BOTH);
    assert_eq!(Weights::from_bytes(&w.to_bytes()), Ok(w));
}
#[test]
fn a_fit_keeping_the_patterns_learns_only_the_rest() {
    // The start: scrambled pattern tables without extras (as a network's generated tables
    // come); the fit adds the mobility patterns and the head around them.
    let set = pattern_set();
    let start = Weights::from_discs(3, &scrambled_tables(30, set.features()));
    let samples = disc_difference_samples(31, 40);
    let opts = FitOptions {
        extras: BOTH,
        keep_patterns: true,
        ..quick(2, 5)
    };
    let fitted = fit_model(&samples, &[], Some(&start), &opts, &|_| {});
    let mut learnt = 0;
    for (s, t) in fitted.tables.iter().enumerate() {
        let kept = start.stage_discs(s);
        assert_eq!(
            t[..set.first_scalar()],
            kept[..set.first_scalar()],
            "stage {s}"
        );
        learnt += t[set.first_scalar()..]
            .iter()
            .filter(|&&x| x != 0.0)
            .count();
    }
    // Without the option the same fit moves the patterns too.
    let free = fit_model(
        &samples,
        &[],
        Some(&start),
        &FitOptions {
            keep_patterns: false,
            ..opts
        },
        &|_| {},
    );
    assert!(learnt > 0);
    assert!(free
        .tables
        .iter()
        .enumerate()
        .any(|(s, t)| t[..set.first_scalar()] != start.stage_discs(s)[..set.first_scalar()]));
}
// The network fit.

#[test]
fn generated_tables_hold_the_training_prediction() {
    // A position's evaluation is the networks' sum, each term rounded to 1/SCALE.
    let w = NetWeights::init(3, 16, 7).expect("a width");
    let eval = PatternEval::new(&w.tables());
    for b in random_positions(5, 20) {
        let raw = eval.raw(b) as f32 / SCALE as f32;
        let exact = predict(&w, b);
        let rounding = ACTIVE as f32 * 0.5 / SCALE as f32;
        assert!((raw - exact).abs() <= rounding, "{raw} vs {exact}");
    }
}

#[test]
fn generated_tables_with_extras_hold_the_training_prediction() {
    let w = with_both(4);
    let eval = PatternEval::new(&w.tables());
    let networks_only = NetWeights {
        params: w.params[..layout(w.hidden).len].to_vec(),
        extras: Extras::default(),
        ..w.clone()
    };
    let plain = PatternEval::new(&networks_only.tables());
    let positions = random_positions(6, 20);
    for &b in &positions {
        let raw = eval.raw(b) as f32 / SCALE as f32;
        let exact = predict(&w, b);
        // Each table term is rounded to 1/SCALE, and the head reads the rounded sums.
        let rounding = (ACTIVE + MOBILITY_ACTIVE) as f32 * 0.5 / SCALE as f32 + 0.1;
        assert!((raw - exact).abs() <= rounding, "{raw} vs {exact}");
    }
    let differ = positions
        .iter()
        .filter(|&&b| eval.raw(b) != plain.raw(b))
        .count();
    assert!(differ >= 18, "the extras change {differ} of 20 values");
}

#[test]
fn widened_networks_predict_the_same_and_their_new_units_learn() {
    // (That they generate the same tables is the engine's test.)
    let narrow = with_both(12);
    let wide = narrow.clone().widen(32, 3).expect("16 to 32");
    for b in random_positions(13, 10) {
        assert_eq!(predict(&wide, b), predict(&narrow, b));
    }
    // The new units can learn: their output weights have a gradient.
    let (_, grad) = gradient_of(&wide, random_positions(14, 1)[0], 20);
    let l = layout(32);
    let [_, _, _, _, w3, _] = net::net_parts(l.squares[0], 32);
    let new_outputs = &grad[l.nets[0] + w3 + 16..l.nets[0] + w3 + 32];
    assert!(new_outputs.iter().any(|&g| g != 0.0), "{new_outputs:?}");
}

#[test]
fn the_training_gradient_matches_finite_differences() {
    for hidden in net::NET_WIDTHS {
        gradient_matches_finite_differences(hidden);
    }
}

fn gradient_matches_finite_differences(hidden: usize) {
    let w = with_both_wide(8, hidden);
    let tail = w.tail();
    // Every position of three games, labelled 10, 0 and -10 in turn.
    for (k, b) in random_positions(12, 3).into_iter().enumerate() {
        let label = [10, 0, -10][k % 3];
        let (_, grad) = gradient_of(&w, b, label);
        let loss = |w: &NetWeights| (predict(w, b) - f32::from(label)).powi(2);
        // The steepest parameter of the networks and scalars, of the mobility patterns
        // and of the head.
        for range in [
            0..tail.mobility,
            tail.mobility..tail.head,
            tail.head..w.params.len(),
        ] {
            let i = range
                .max_by(|&x, &y| grad[x].abs().total_cmp(&grad[y].abs()))
                .unwrap();
            assert!(grad[i] != 0.0, "position {k}: no gradient near {i}");
            let h = 1e-2;
            let (mut up, mut down) = (w.clone(), w.clone());
            up.params[i] += h;
            down.params[i] -= h;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() <= 0.02 * grad[i].abs().max(1.0),
                "position {k}, parameter {i}: {numeric} by differences, {} by the fit",
                grad[i]
            );
        }
    }
}

#[test]
fn the_network_fit_learns_and_does_not_depend_on_the_threads() {
    for hidden in net::NET_WIDTHS {
        network_fit_learns(hidden);
    }
}

fn network_fit_learns(hidden: usize) {
    // Labels from a simple rule the networks can learn: the disc difference.
    let samples: Vec<Sample> = random_positions(21, 60)
        .into_iter()
        .map(|b| Sample {
            board: b,
            label: (b.player.count_ones() as i32 - b.opponent.count_ones() as i32) as i8,
        })
        .collect();
    let (train, valid) = samples.split_at(samples.len() * 4 / 5);
    let opts = |threads| NetFitOptions {
        epochs: 4,
        seed: 2,
        learning_rate: 0.01,
        batch: 64,
        threads,
    };
    let mut maes = Vec::new();
    let init = NetWeights::init(3, hidden, 1).expect("a width");
    let one = fit_net(train, valid, init.clone(), &opts(1), &mut |r| {
        maes.push(r.valid_mae)
    });
    let two = fit_net(train, valid, init.clone(), &opts(2), &mut |_| {});
    assert_eq!(one, two, "the same weights whatever the threads");
    let start = PatternEval::new(&init.tables());
    let (before, _) = mae_by_empties(&start, valid);
    assert!(
        maes[3] < before * 0.6,
        "width {hidden}: validation error {before:.2} -> {maes:?}"
    );
}

#[test]
fn the_network_fit_with_extras_learns_them_whatever_the_threads() {
    // Labels the mobility patterns express: the mover's legal moves minus the opponent's.
    let samples: Vec<Sample> = random_positions(22, 60)
        .into_iter()
        .map(|b| Sample {
            board: b,
            label: (b.moves().count_ones() as i32 - b.pass().moves().count_ones() as i32) as i8,
        })
        .collect();
    let (train, valid) = samples.split_at(samples.len() * 4 / 5);
    let opts = |threads| NetFitOptions {
        epochs: 3,
        seed: 4,
        learning_rate: 0.01,
        batch: 64,
        threads,
    };
    let start = NetWeights::init(3, 16, 2)
        .expect("a width")
        .with_extras(BOTH, 2);
    let mut mses = Vec::new();
    let one = fit_net(train, valid, start.clone(), &opts(1), &mut |r| {
        mses.push(r.train_mse)
    });
    let two = fit_net(train, valid, start.clone(), &opts(2), &mut |_| {});
    assert_eq!(one, two, "the same weights whatever the threads");
    assert!(mses[2] < mses[0] * 0.7, "training error {mses:?}");
    let tail = one.tail();
    let moved = |r: std::ops::Range<usize>| r.clone().any(|i| one.params[i] != start.params[i]);
    assert!(moved(tail.mobility..tail.head) && moved(tail.head..one.params.len()));
}
