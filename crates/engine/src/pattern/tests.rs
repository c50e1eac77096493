//! Tests of the pattern evaluation: symmetry, indexing, the weights file and fitting.

use super::fit::{fit, FitOptions, Sample};
use super::*;
use reversi_testkit::Rng;

/// The generation 1 weights, a version 1 file.
const GEN1: &[u8] = include_bytes!("../../weights/eval-gen1.bin");

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

/// Weights of `stages` stages with every shared feature set to a distinct pseudo-random
/// value.
fn scrambled(stages: usize) -> Weights {
    Weights::from_discs(1, &scrambled_tables(stages, pattern_set().features()))
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

#[test]
fn pattern_set_shape() {
    let set = pattern_set();
    assert_eq!(set.instances(), ACTIVE - 5);
    // Every square is covered by some pattern.
    let covered = set.instances.iter().fold(0u64, |a, i| a | i.mask);
    assert_eq!(covered, u64::MAX);
}

#[test]
fn ternary_matches_the_portable_twin_in_every_kernel_set() {
    let set = pattern_set();
    let kernels = crate::kernel::available();
    eprintln!("kernel sets compared: {kernels:?}");
    for b in random_positions(7, 20) {
        for inst in &set.instances {
            let expected = ternary_portable(b.player, b.opponent, inst.mask);
            assert_eq!(ternary(b.player, b.opponent, inst.mask), expected);
            for k in &kernels {
                assert_eq!(
                    (k.ternary)(b.player, b.opponent, inst.mask),
                    expected,
                    "{k:?}"
                );
            }
        }
    }
}

#[test]
fn evaluation_is_symmetric() {
    let eval = PatternEval::new(&scrambled(30));
    for b in random_positions(11, 30) {
        let v = eval.raw(b);
        for s in 1..8 {
            let t = Board::new(transform(b.player, s), transform(b.opponent, s));
            assert_eq!(eval.raw(t), v, "symmetry {s} of\n{b:?}");
        }
    }
}

#[test]
fn features_share_between_symmetries() {
    let set = pattern_set();
    for b in random_positions(3, 10) {
        let mut a = set.active(b);
        a.sort_unstable();
        for s in 1..8 {
            let mut t = set.active(Board::new(transform(b.player, s), transform(b.opponent, s)));
            t.sort_unstable();
            assert_eq!(a, t);
        }
    }
}

/// The sum of the weights of `w` (of `stages` stages) active in `b`: what the evaluation
/// must give.
fn active_sum(w: &Weights, stages: usize, b: Board) -> i32 {
    let st = w.stage(stage(b.empties().count_ones(), stages));
    pattern_set()
        .active(b)
        .iter()
        .map(|&f| i32::from(st[f as usize]))
        .sum()
}

#[test]
fn raw_is_the_sum_of_the_active_weights() {
    for stages in [15, 30, 60] {
        let w = scrambled(stages);
        let eval = PatternEval::new(&w);
        for b in random_positions(5, 5) {
            assert_eq!(eval.raw(b), active_sum(&w, stages, b));
        }
    }
}

#[test]
fn an_evaluation_skips_the_patterns_its_weights_leave_out() {
    let set = pattern_set();
    // Scrambled weights with the corner 2x5 (pattern 1) and the rows (3-5) all zero.
    let left_out = |g: u8| g == 1 || (3..=5).contains(&g);
    let mut tables = scrambled_tables(30, set.features());
    for t in &mut tables {
        for (f, &(g, _)) in set.canon.iter().enumerate() {
            if left_out(g) {
                t[f] = 0.0;
            }
        }
    }
    let w = Weights::from_discs(2, &tables);
    let eval = PatternEval::new(&w);
    let kept = set.instances.iter().filter(|i| !left_out(i.group)).count();
    assert_eq!(eval.probes.len(), kept);
    assert!(kept < set.instances());
    for b in random_positions(13, 5) {
        assert_eq!(eval.raw(b), active_sum(&w, 30, b));
    }
    // Every pattern is read when every pattern has weights.
    assert_eq!(
        PatternEval::new(&scrambled(30)).probes.len(),
        set.instances()
    );
}

#[test]
fn stages_share_the_game_evenly() {
    // Generation 1's 15 stages of four empties, as its file was written for.
    assert_eq!(stage(1, 15), 0);
    assert_eq!(stage(4, 15), 0);
    assert_eq!(stage(5, 15), 1);
    assert_eq!(stage(60, 15), 14);
    assert_eq!(stage_empties(0, 15), (0, 4));
    assert_eq!(stage_empties(5, 15), (21, 24));
    assert_eq!(stage_empties(14, 15), (57, 60));
    assert_eq!(stage_empties(11, 30), (23, 24));
    assert_eq!(stage_empties(23, 60), (24, 24));
    for stages in 1..=MAX_STAGES {
        // Every stage holds some empties, in order, and together they cover 1 to 60.
        let mut next = 1;
        for s in 0..stages {
            let (lo, hi) = stage_empties(s, stages);
            assert_eq!(lo.max(1), next, "{stages} stages, stage {s}");
            assert!(hi >= lo.max(1));
            next = hi + 1;
        }
        assert_eq!(next, 61);
    }
}

#[test]
fn weights_round_trip_and_reject_damage() {
    let w = scrambled(30);
    let bytes = w.to_bytes();
    assert_eq!(Weights::from_bytes(&bytes), Ok(w.clone()));
    // Stored weights of another stage count carry another signature.
    let other = scrambled(15).to_bytes();
    assert_eq!(Weights::from_bytes(&other).map(|w| w.stages()), Ok(15));
    let mut relabelled = other.clone();
    relabelled[10] = 30;
    assert!(matches!(
        Weights::from_bytes(&relabelled),
        Err(WeightsError::Shape { stages: 30, .. })
    ));
    let cut = &bytes[..bytes.len() - 10];
    let err = Weights::from_bytes(cut).unwrap_err();
    assert!(matches!(err, WeightsError::Length { .. }), "{err}");
    assert!(err.to_string().contains("truncated"), "{err}");
    assert!(matches!(
        Weights::from_bytes(&bytes[..10]),
        Err(WeightsError::TooShort { len: 10 })
    ));
    let mut flipped = bytes.clone();
    flipped[1000] ^= 1;
    assert!(matches!(
        Weights::from_bytes(&flipped),
        Err(WeightsError::Checksum { .. })
    ));
    // A payload that does not inflate to the announced weights, with a valid checksum.
    let mut bad = bytes[..28].to_vec();
    bad[24..28].copy_from_slice(&3u32.to_le_bytes());
    bad.extend_from_slice(&[1, 2, 3]);
    let crc = weights::crc32(&bad);
    bad.extend_from_slice(&crc.to_le_bytes());
    let err = Weights::from_bytes(&bad).unwrap_err();
    assert!(matches!(err, WeightsError::Payload { .. }), "{err}");
    let mut magic = bytes;
    magic[0] = b'X';
    assert_eq!(Weights::from_bytes(&magic), Err(WeightsError::BadMagic));
}

#[test]
fn crc32_check_value() {
    assert_eq!(weights::crc32(b"123456789"), 0xcbf4_3926);
}

#[test]
fn generation_1_files_still_load() {
    // Version 1: no compression, 15 stages; its weights give the same values when written
    // again as version 2.
    let w = Weights::from_bytes(GEN1).expect("generation 1 loads");
    assert_eq!((w.stages(), w.generation), (15, 1));
    assert_eq!(u16::from_le_bytes([GEN1[8], GEN1[9]]), 1);
    // Its evaluation is the sum of the file's own weights over the features it knows: the
    // patterns added later weigh nothing.
    let set = pattern_set();
    let old = u32::from_le_bytes(GEN1[12..16].try_into().unwrap()) as usize;
    let file = |s: usize, f: usize| {
        let at = 24 + 2 * (s * old + f);
        i32::from(i16::from_le_bytes([GEN1[at], GEN1[at + 1]]))
    };
    let eval = PatternEval::new(&w);
    for b in random_positions(17, 4) {
        let s = stage(b.empties().count_ones(), 15);
        let expected: i32 = set
            .active(b)
            .iter()
            .map(|&f| f as usize)
            .map(|f| {
                if f < set.gen1_features {
                    file(s, f)
                } else if f >= set.scalar_feature {
                    file(s, set.gen1_features + f - set.scalar_feature)
                } else {
                    0
                }
            })
            .sum();
        assert_eq!(eval.raw(b), expected);
    }
    let again = Weights::from_bytes(&w.to_bytes()).expect("written again");
    assert_eq!(again, w);
    let (old, new) = (PatternEval::new(&w), PatternEval::new(&again));
    for b in random_positions(13, 3) {
        assert_eq!(old.raw(b), new.raw(b));
    }
}

#[test]
fn shipped_weights_load_and_match_their_checksum() {
    let w = Weights::from_bytes(SHIPPED).expect("the shipped weights load");
    let stored = u32::from_le_bytes(SHIPPED[SHIPPED.len() - 4..].try_into().unwrap());
    // Writing them again gives the same file, byte for byte.
    assert_eq!(w.checksum(), stored);
    assert!(w.to_bytes() == SHIPPED);
    assert!(shipped().is_ok());
    // The start position is balanced.
    let eval = shipped().unwrap();
    assert!(eval.evaluate(Board::START, u64::MAX).abs() <= 2);

    // The solver's ordering evaluation: the same guarantees, fewer patterns.
    let order = Weights::from_bytes(SHIPPED_ORDER).expect("the ordering weights load");
    let stored = u32::from_le_bytes(SHIPPED_ORDER[SHIPPED_ORDER.len() - 4..].try_into().unwrap());
    assert_eq!(order.checksum(), stored);
    assert!(order.to_bytes() == SHIPPED_ORDER);
    let small = PatternEval::new(&order);
    assert!(small.probes.len() < pattern_set().instances());
    // The default evaluation is the shipped one, ordering by the small one.
    let both = shipped_with_ordering().expect("both load");
    let default = default_evaluator(u64::MAX);
    for b in random_positions(17, 3) {
        assert_eq!(default.evaluate(b, u64::MAX), eval.evaluate(b, u64::MAX));
        assert_eq!(both.ordering(b, u64::MAX), small.evaluate(b, u64::MAX));
        assert_eq!(default.ordering(b, u64::MAX), small.evaluate(b, u64::MAX));
    }
}

/// Options for the small fits of the tests: `epochs` passes, `seed`, a large step, small
/// batches.
pub(super) fn quick(epochs: u32, seed: u64) -> FitOptions {
    FitOptions {
        epochs,
        seed,
        learning_rate: 0.05,
        batch: 32,
        ..FitOptions::default()
    }
}

/// Random positions labelled with their disc difference (a target patterns can express).
pub(super) fn disc_difference_samples(seed: u64, n: usize) -> Vec<Sample> {
    random_positions(seed, n)
        .iter()
        .map(|b| Sample {
            board: *b,
            label: (b.player.count_ones() as i32 - b.opponent.count_ones() as i32) as i8,
        })
        .collect()
}

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
        for (f, &(g, _)) in set.canon.iter().enumerate() {
            if g != 0 && g != 2 {
                assert_eq!(t[f], 0.0, "feature {f} of pattern {g}");
            }
        }
    }
    let kept = |g: u8| {
        tables.iter().any(|t| {
            set.canon
                .iter()
                .enumerate()
                .any(|(f, &(h, _))| h == g && t[f] != 0.0)
        })
    };
    assert!(kept(0) && kept(2));
    let eval = PatternEval::new(&Weights::from_discs(2, &tables));
    let instances = |g: u8| set.instances.iter().filter(|i| i.group == g).count();
    assert_eq!(eval.probes.len(), instances(0) + instances(2));
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

/// Generation 3 (net.rs, netfit.rs).
mod generated {
    use super::super::net::{self, layout, load_tables, NetWeights};
    use super::super::netfit::{fit_net, gradient_of, predict, NetFitOptions};
    use super::super::MOBILITY_ACTIVE;
    use super::*;

    /// Both of generation 3's extras.
    const BOTH: Extras = Extras {
        mobility: true,
        hidden: 32,
    };

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
    fn widened_networks_generate_the_same_tables_and_learn() {
        let narrow = with_both(12);
        let wide = narrow.clone().widen(32, 3).expect("16 to 32");
        assert_eq!(wide.hidden, 32);
        assert_eq!(wide.tables(), narrow.tables(), "every generated value kept");
        for b in random_positions(13, 10) {
            assert_eq!(predict(&wide, b), predict(&narrow, b));
        }
        // The new units can learn: their output weights have a gradient.
        let (_, grad) = gradient_of(&wide, random_positions(14, 1)[0], 20);
        let l = layout(32);
        let [_, _, _, _, w3, _] = net::net_parts(l.squares[0], 32);
        let new_outputs = &grad[l.nets[0] + w3 + 16..l.nets[0] + w3 + 32];
        assert!(new_outputs.iter().any(|&g| g != 0.0), "{new_outputs:?}");
        // Never narrower, and only the widths the program builds.
        assert_eq!(wide.clone().widen(16, 1), Err(WeightsError::NetWidth(16)));
        assert_eq!(narrow.widen(24, 1), Err(WeightsError::NetWidth(24)));
        assert_eq!(NetWeights::init(3, 24, 1), Err(WeightsError::NetWidth(24)));
    }

    #[test]
    fn a_wide_generated_file_round_trips_and_another_width_is_refused() {
        let w = with_both_wide(6, 32);
        let bytes = w.to_bytes();
        let back = NetWeights::from_bytes(&bytes).expect("reads back");
        assert_eq!(back, w);
        assert_eq!(back.to_bytes(), bytes, "byte for byte");
        let narrow = with_both(6).to_bytes();
        assert!(bytes.len() > narrow.len());
        // The width field says 16 (checksum mended): the parameter count and signature
        // no longer fit.
        let mut other = bytes.clone();
        other[20] = 16;
        let at = other.len() - 4;
        let crc = crc32(&other[..at]);
        other[at..].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            NetWeights::from_bytes(&other),
            Err(WeightsError::Shape { .. })
        ));
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
    fn a_generated_file_with_extras_round_trips_and_damage_is_refused() {
        let w = with_both(5);
        let bytes = w.to_bytes();
        assert_eq!(bytes[8], 2, "version 2");
        let back = NetWeights::from_bytes(&bytes).expect("reads back");
        assert_eq!(back, w);
        assert_eq!(back.to_bytes(), bytes, "byte for byte");
        assert_eq!(load_tables(&bytes).map(|t| t.extras()), Ok(BOTH));
        let mut bad = bytes.clone();
        bad[bytes.len() / 2] ^= 1;
        assert!(matches!(
            NetWeights::from_bytes(&bad),
            Err(WeightsError::Checksum { .. })
        ));
        // Unknown families, checksum mended: refused by name.
        let mut families = bytes.clone();
        families[24] = 6;
        let at = families.len() - 4;
        let crc = crc32(&families[..at]);
        families[at..].copy_from_slice(&crc.to_le_bytes());
        assert_eq!(
            NetWeights::from_bytes(&families),
            Err(WeightsError::Extras {
                families: 6,
                hidden: 32
            })
        );
        // A head of another size announces a parameter count the file does not hold.
        let mut hidden = bytes.clone();
        hidden[26] = 16;
        let crc = crc32(&hidden[..at]);
        hidden[at..].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            NetWeights::from_bytes(&hidden),
            Err(WeightsError::Shape { .. })
        ));
    }

    #[test]
    fn generated_tables_hold_the_networks_outputs() {
        let w = NetWeights::init(3, 16, 7).expect("a width");
        let tables = w.tables();
        let set = pattern_set();
        let mut rng = Rng::new(3);
        for _ in 0..2000 {
            let f = rng.below(set.features());
            let s = rng.below(30);
            let expected = (w.feature_value(f, s) * SCALE as f32).round() as i16;
            assert_eq!(tables.stage(s)[f], expected, "feature {f}, stage {s}");
        }
        // A position's evaluation is the networks' sum, each term rounded to 1/SCALE.
        let eval = PatternEval::new(&tables);
        for b in random_positions(5, 20) {
            let raw = eval.raw(b) as f32 / SCALE as f32;
            let exact = predict(&w, b);
            let rounding = ACTIVE as f32 * 0.5 / SCALE as f32;
            assert!((raw - exact).abs() <= rounding, "{raw} vs {exact}");
        }
    }

    #[test]
    fn symmetric_positions_get_equal_generated_values() {
        let eval = PatternEval::new(&NetWeights::init(3, 16, 11).expect("a width").tables());
        for b in random_positions(9, 10) {
            let v = eval.raw(b);
            for s in 1..8 {
                let image = Board::new(transform(b.player, s), transform(b.opponent, s));
                assert_eq!(eval.raw(image), v, "symmetry {s}");
            }
        }
    }

    #[test]
    fn a_generated_weights_file_round_trips_and_damage_is_refused() {
        let w = NetWeights::init(3, 16, 5).expect("a width");
        let bytes = w.to_bytes();
        assert!(
            bytes.len() < 100_000,
            "kilobytes, not megabytes: {} bytes",
            bytes.len()
        );
        let back = NetWeights::from_bytes(&bytes).expect("reads back");
        assert_eq!(back, w);
        assert_eq!(back.to_bytes(), bytes, "byte for byte");
        assert!(load_tables(&bytes).is_ok());
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert!(matches!(
            NetWeights::from_bytes(&bad),
            Err(WeightsError::Checksum { .. })
        ));
        assert!(matches!(
            NetWeights::from_bytes(&bytes[..bytes.len() - 8]),
            Err(WeightsError::Length { .. })
        ));
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(
            NetWeights::from_bytes(&version),
            Err(WeightsError::Version(9))
        );
        // Another network shape: its signature differs.
        let mut shape = bytes.clone();
        shape[16] ^= 0xff;
        let crc = crc32(&shape[..shape.len() - 4]);
        let at = shape.len() - 4;
        shape[at..].copy_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            NetWeights::from_bytes(&shape),
            Err(WeightsError::Shape { .. })
        ));
        assert!(net::is_net(&bytes) && !net::is_net(GEN1));
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
        let (before, _) = super::super::netfit::mae_by_empties(&start, valid);
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
                label: (crate::mobility::moves(b.player, b.opponent).count_ones() as i32
                    - crate::mobility::moves(b.opponent, b.player).count_ones() as i32)
                    as i8,
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
}

mod extras;
