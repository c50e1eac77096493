//! Tests of the pattern evaluation: symmetry, indexing, the weights files and the generated
//! tables. The fits' tests are the training crate's (`reversi-train`, fit/tests.rs).

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

/// Generation 3's networks (net.rs).
mod generated {
    use super::super::net::{self, load_tables, NetWeights};
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
    fn widened_networks_generate_the_same_tables() {
        // (That they predict the same and their new units learn is the training crate's
        // test.)
        let narrow = with_both(12);
        let wide = narrow.clone().widen(32, 3).expect("16 to 32");
        assert_eq!(wide.hidden, 32);
        assert_eq!(wide.tables(), narrow.tables(), "every generated value kept");
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
        // (That a position's evaluation is the networks' sum, the training's prediction, is
        // the training crate's test.)
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
}

mod extras;
