//! Tests of the pattern evaluation: symmetry, indexing, the weights file and fitting.

use super::fit::{fit, FitOptions, Sample};
use super::*;
use reversi_testkit::Rng;

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

/// Weights with every shared feature set to a distinct pseudo-random value.
fn scrambled() -> Weights {
    let n = pattern_set().features();
    let discs: Vec<Vec<f32>> = (0..STAGES)
        .map(|s| {
            (0..n)
                .map(|i| ((i * 7919 + s * 104_729) % 2001) as f32 / 100.0 - 10.0)
                .collect()
        })
        .collect();
    Weights::from_discs(1, &discs)
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
    let eval = PatternEval::new(&scrambled());
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

#[test]
fn raw_is_the_sum_of_the_active_weights() {
    let w = scrambled();
    let eval = PatternEval::new(&w);
    let set = pattern_set();
    for b in random_positions(5, 5) {
        let st = w.stage(stage(b.empties().count_ones()));
        let sum: i32 = set
            .active(b)
            .iter()
            .map(|&f| i32::from(st[f as usize]))
            .sum();
        assert_eq!(eval.raw(b), sum);
    }
}

#[test]
fn weights_round_trip_and_reject_damage() {
    let w = scrambled();
    let bytes = w.to_bytes();
    assert_eq!(Weights::from_bytes(&bytes), Ok(w.clone()));
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
    let mut magic = bytes;
    magic[0] = b'X';
    assert_eq!(Weights::from_bytes(&magic), Err(WeightsError::BadMagic));
}

#[test]
fn crc32_check_value() {
    assert_eq!(weights::crc32(b"123456789"), 0xcbf4_3926);
}

#[test]
fn shipped_weights_load_and_match_their_checksum() {
    let w = Weights::from_bytes(SHIPPED).expect("the shipped weights load");
    let stored = u32::from_le_bytes(SHIPPED[SHIPPED.len() - 4..].try_into().unwrap());
    assert_eq!(w.checksum(), stored);
    assert!(shipped().is_ok());
    // The start position is balanced.
    let eval = shipped().unwrap();
    assert!(eval.evaluate(Board::START, u64::MAX).abs() <= 2);
}

#[test]
fn fitting_lowers_the_loss_and_is_deterministic() {
    // Learn the disc difference of random positions: a pattern-expressible target.
    let boards = random_positions(21, 60);
    let samples: Vec<Sample> = boards
        .iter()
        .map(|b| Sample {
            board: *b,
            label: (b.player.count_ones() as i32 - b.opponent.count_ones() as i32) as i8,
        })
        .collect();
    let (train, valid) = samples.split_at(samples.len() * 4 / 5);
    let opts = FitOptions {
        epochs: 4,
        seed: 9,
        learning_rate: 0.05,
        batch: 32,
        ..FitOptions::default()
    };
    let mut first = Vec::new();
    let mut last = Vec::new();
    let w = fit(train, valid, None, &opts, &mut |r| {
        if r.epoch == 1 {
            first.push(r.train_mse);
        }
        if r.epoch == opts.epochs {
            last.push(r.train_mse);
        }
    });
    let (before, after): (f64, f64) = (first.iter().sum(), last.iter().sum());
    assert!(after < before * 0.7, "loss {before} -> {after}");
    let again = fit(train, valid, None, &opts, &mut |_| {});
    assert_eq!(w, again);
}
