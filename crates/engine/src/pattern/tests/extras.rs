//! Tests of generation 3's additions: the mobility patterns, the head and their weights file
//! (version 3). Their fit's tests are the training crate's.

use super::super::set::GROUPS;
use super::*;
use crate::mobility::moves;

/// Both additions.
const BOTH: Extras = Extras {
    mobility: true,
    hidden: 32,
};

/// Weights of `stages` stages with `extras`, every table weight a distinct pseudo-random
/// value, the head's parameters small pseudo-random numbers.
fn scrambled_with(stages: usize, extras: Extras) -> Weights {
    let tables = scrambled_tables(stages, pattern_set().features_with(extras.mobility));
    let mut rng = Rng::new(stages as u64);
    let heads: Vec<Vec<f32>> = (0..stages)
        .map(|_| {
            (0..extras.head_params())
                .map(|_| rng.below(2001) as f32 / 2000.0 - 0.5)
                .collect()
        })
        .collect();
    Weights::from_parts(3, extras, &tables, &heads)
}

fn images(b: Board) -> impl Iterator<Item = (usize, Board)> {
    (1..8).map(move |s| {
        (
            s,
            Board::new(transform(b.player, s), transform(b.opponent, s)),
        )
    })
}

#[test]
fn binary_matches_the_portable_twin_in_every_kernel_set() {
    let set = pattern_set();
    for b in random_positions(7, 10) {
        let m = moves(b.player, b.opponent);
        for inst in &set.mobility {
            let expected = crate::ternary::binary_portable(m, inst.mask);
            assert!(expected < 1 << inst.mask.count_ones());
            assert_eq!(crate::ternary::binary(m, inst.mask), expected);
            for k in crate::kernel::available() {
                assert_eq!((k.binary)(m, inst.mask), expected, "{k:?}");
            }
        }
    }
}

#[test]
fn mobility_patterns_share_between_symmetries() {
    let set = pattern_set();
    assert_eq!(set.mobility.len(), set.instances());
    // Two tables of 2^n a pattern at most; self-symmetric patterns share mirror images.
    let most: usize = GROUPS.iter().map(|g| 1usize << g.squares.len()).sum();
    assert!(set.mobility_features < most, "{}", set.mobility_features);
    for b in random_positions(3, 10) {
        let mut a = set.active_mobility(b);
        a.sort_unstable();
        for (s, t) in images(b) {
            let mut image = set.active_mobility(t);
            image.sort_unstable();
            assert_eq!(a, image, "symmetry {s}");
        }
    }
}

/// The sum of the shared weights of 30-stage tables `w` active in `b`, mobility patterns
/// included: a head-less evaluation's value.
fn table_sum(w: &Weights, b: Board) -> i32 {
    let set = pattern_set();
    let st = w.stage(stage(b.empties().count_ones(), 30));
    set.active(b)
        .iter()
        .chain(&set.active_mobility(b))
        .map(|&f| i32::from(st[f as usize]))
        .sum()
}

#[test]
fn the_expanded_mobility_tables_hold_the_shared_weights() {
    // Without a head, the evaluation is the sum of the active weights, mobility patterns
    // included: each instance's `pext` index finds its shared weight.
    let w = scrambled_with(
        30,
        Extras {
            mobility: true,
            hidden: 0,
        },
    );
    let eval = PatternEval::new(&w);
    for b in random_positions(5, 5) {
        assert_eq!(eval.raw(b), table_sum(&w, b));
    }
}

#[test]
fn an_evaluation_skips_the_mobility_patterns_its_weights_leave_out() {
    // Scrambled weights with every mobility pattern zero but the edge's with its X squares
    // (pattern 2) and the diagonal 8's (6): only their instances are read, and the value is
    // still the sum of the active weights.
    let set = pattern_set();
    let kept = |g: u8| g == 2 || g == 6;
    let mobility = Extras {
        mobility: true,
        hidden: 0,
    };
    let mut tables = scrambled_tables(30, set.features_with(true));
    let groups = set.mobility_groups();
    assert_eq!(groups.len(), set.mobility_features);
    for t in &mut tables {
        for (f, w) in t.iter_mut().enumerate() {
            if set.mobility_group_of(f).is_some_and(|g| !kept(g)) {
                *w = 0.0;
            }
        }
    }
    assert_eq!(set.mobility_group_of(set.features() - 1), None);
    assert_eq!(set.mobility_group_of(set.features_with(true)), None);
    let w = Weights::from_parts(3, mobility, &tables, &[]);
    let eval = PatternEval::new(&w);
    let read = set.mobility.iter().filter(|m| kept(m.group)).count();
    assert_eq!(eval.mobility_probes.len(), read);
    assert_eq!(read, 4 + 2);
    for b in random_positions(17, 5) {
        assert_eq!(eval.raw(b), table_sum(&w, b));
    }
    // Every mobility pattern is read when each has weights.
    let all = PatternEval::new(&scrambled_with(30, mobility));
    assert_eq!(all.mobility_probes.len(), set.instances());
}

#[test]
fn symmetric_positions_evaluate_equal_with_mobility_patterns_and_head() {
    for extras in [
        BOTH,
        Extras {
            mobility: false,
            hidden: 8,
        },
    ] {
        let eval = PatternEval::new(&scrambled_with(30, extras));
        for b in random_positions(11, 20) {
            let v = eval.raw(b);
            for (s, t) in images(b) {
                assert_eq!(eval.raw(t), v, "symmetry {s} of\n{b:?} ({extras:?})");
            }
        }
    }
}

/// The largest difference between the evaluation with `w` and its network recomputed from
/// the file's layout in discs and `f64` (the head without integers), over `boards`, in
/// 1/[`SCALE`] discs.
fn head_error(w: &Weights, boards: &[Board]) -> f64 {
    let set = pattern_set();
    let eval = PatternEval::new(w);
    let groups = set.active_groups();
    let h = w.extras().hidden;
    let stages = w.stages();
    let mut largest = 0f64;
    for &b in boards {
        let s = stage(b.empties().count_ones(), stages);
        let st = w.stage(s);
        let active = set.active(b);
        let mut x = [0f64; HEAD_INPUTS];
        for (&f, &g) in active.iter().zip(&groups) {
            x[usize::from(g)] += f64::from(st[f as usize]) / f64::from(SCALE) / 8.0;
        }
        x[HEAD_INPUTS - 1] = f64::from(b.empties().count_ones()) / 30.0 - 1.0;
        let p: Vec<f64> = w.head(s).iter().map(|&v| f64::from(v)).collect();
        let mut out = p[HEAD_INPUTS * h + 2 * h];
        for i in 0..h {
            let mut a = p[HEAD_INPUTS * h + i];
            for (j, xj) in x.iter().enumerate() {
                a += p[i * HEAD_INPUTS + j] * xj;
            }
            let a = if a > 0.0 { a } else { a / 16.0 };
            out += p[HEAD_INPUTS * h + h + i] * a;
        }
        let linear: i32 = active
            .iter()
            .chain(&set.active_mobility(b))
            .map(|&f| i32::from(st[f as usize]))
            .sum();
        let expected = f64::from(linear) + out * f64::from(SCALE);
        largest = largest.max((f64::from(eval.raw(b)) - expected).abs());
    }
    largest
}

#[test]
fn the_head_adds_its_network_to_the_sum() {
    // The head's first layer is integer (each unit's weights rounded to 16 bits): the value
    // stays within 1/64 disc of the network's (scrambled weights), 1/32 with the shipped
    // ones (1.4/64 measured), the final rounding included.
    let error = head_error(&scrambled_with(30, BOTH), &random_positions(13, 20));
    assert!(error <= 1.0, "{error}");
    let shipped = Weights::from_bytes(SHIPPED).expect("the shipped weights load");
    assert!(
        shipped.extras().hidden > 0,
        "the shipped evaluation has a head"
    );
    let error = head_error(&shipped, &random_positions(14, 100));
    assert!(error <= 2.0, "{error}");
}

#[test]
fn every_kernel_set_evaluates_the_same() {
    // The head's integers are exact and its floats sum in the same order in every tier.
    let eval = PatternEval::new(&scrambled_with(30, BOTH));
    for b in random_positions(19, 5) {
        let portable = versions::portable::raw(&eval, b);
        assert_eq!(eval.raw(b), portable);
    }
}

#[test]
fn a_generation_3_file_round_trips_and_damage_is_refused() {
    let w = scrambled_with(30, BOTH);
    let bytes = w.to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 3);
    let back = Weights::from_bytes(&bytes).expect("reads back");
    assert_eq!(back, w);
    assert_eq!(back.extras(), BOTH);
    assert!(back.to_bytes() == bytes, "byte for byte");
    let eval = PatternEval::new(&back);
    let b = random_positions(1, 1)[20];
    assert_eq!(eval.raw(b), PatternEval::new(&w).raw(b));
    // Each addition alone round-trips too.
    for extras in [
        Extras {
            mobility: true,
            hidden: 0,
        },
        Extras {
            mobility: false,
            hidden: 4,
        },
    ] {
        let w = scrambled_with(15, extras);
        assert_eq!(Weights::from_bytes(&w.to_bytes()), Ok(w));
    }
    let mut flipped = bytes.clone();
    flipped[bytes.len() - 100] ^= 1;
    assert!(matches!(
        Weights::from_bytes(&flipped),
        Err(WeightsError::Checksum { .. })
    ));
    let err = Weights::from_bytes(&bytes[..bytes.len() - 8]).unwrap_err();
    assert!(matches!(err, WeightsError::Length { .. }), "{err}");
    assert!(matches!(
        Weights::from_bytes(&bytes[..30]),
        Err(WeightsError::TooShort { len: 30 })
    ));
    // Damage behind a recomputed checksum: the fields' own checks catch it.
    let resealed = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut b = bytes.clone();
        edit(&mut b);
        let at = b.len() - 4;
        let crc = crc32(&b[..at]);
        b[at..].copy_from_slice(&crc.to_le_bytes());
        Weights::from_bytes(&b)
    };
    let err = resealed(&|b| b[24] = 2).unwrap_err();
    assert_eq!(
        err,
        WeightsError::Extras {
            families: 2,
            hidden: 32
        }
    );
    assert!(err.to_string().contains("families"), "{err}");
    // A head of another size: the signature (and length) disagree.
    assert!(matches!(
        resealed(&|b| b[26] = 16),
        Err(WeightsError::Shape { .. })
    ));
    // A head parameter that is not a number.
    let err = resealed(&|b| {
        let at = b.len() - 8;
        b[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    })
    .unwrap_err();
    assert_eq!(err, WeightsError::Head);
}

#[test]
fn generation_2_weights_are_written_as_before() {
    // No extras: version 2, as generation 2 was written.
    let w = super::scrambled(30);
    assert_eq!(w.extras(), Extras::default());
    let bytes = w.to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 2);
    let gen2: &[u8] = include_bytes!("../../../weights/eval-gen2.bin");
    assert_eq!(u16::from_le_bytes([gen2[8], gen2[9]]), 2);
    assert!(Weights::from_bytes(gen2).expect("loads").to_bytes() == gen2);
}
