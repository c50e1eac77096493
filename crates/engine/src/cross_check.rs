//! The fast bitboard code against the generic rules of `reversi-core`, and the scalar kernels
//! against the SIMD ones, over thousands of random games on 8x8, 6x6 and 4x4.

use reversi_core::{BoardSize, Game, Move, Position, Rules, Score};
use reversi_testkit::Rng;

use crate::{flip, kernel, mobility, playable, Board, Sq};

fn bits(mut m: u64) -> Vec<u32> {
    let mut out = Vec::new();
    while m != 0 {
        out.push(m.trailing_zeros());
        m &= m - 1;
    }
    out
}

/// Plays `games` random games on `size`, checking at every position that the bitboards and
/// the rules crate agree on the legal moves, every resulting position, passes, the end and the
/// score, and that scalar and SIMD kernels agree.
fn cross_check(size: BoardSize, rules: Rules, games: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let mask = playable(size.get());
    for _ in 0..games {
        let mut game = Game::new(Position::start(size, rules));
        // The Reversi placement phase is played by the rules crate alone.
        while game.current().in_placement_phase() {
            let moves = game.current().moves();
            let mv = *rng.pick(&moves);
            game.play(mv).unwrap();
        }
        loop {
            let pos = game.current().clone();
            let (board, m) = Board::from_position(&pos).unwrap();
            assert_eq!(m, mask);
            let fast = board.moves() & mask;
            assert_eq!(
                mobility::moves_scalar(board.player, board.opponent) & mask,
                fast
            );
            let slow: Vec<u32> = pos
                .legal_moves()
                .into_iter()
                .map(|sq| Sq::from_square(sq).unwrap().index())
                .collect();
            let mut fast_list = bits(fast);
            fast_list.sort_unstable();
            let mut slow_sorted = slow.clone();
            slow_sorted.sort_unstable();
            assert_eq!(fast_list, slow_sorted, "legal moves of\n{pos:?}");
            // Flips of every empty square agree between the kernels, and are 0 off the moves.
            for sq in bits(board.empties() & mask) {
                let f = board.flips(sq);
                assert_eq!(flip::flips_scalar(board.player, board.opponent, sq), f);
                assert_eq!(f != 0, fast & (1 << sq) != 0, "square {sq} of\n{pos:?}");
            }
            // Every move leads to the same position.
            for &sq in &fast_list {
                let next = pos.play(Move::from(Sq::new(sq).unwrap())).unwrap();
                let child = board.play(sq);
                let want = child
                    .to_position(size, rules, pos.turn().opposite())
                    .unwrap();
                assert_eq!(next, want);
            }
            if fast == 0 {
                let passed = board.pass();
                let opp = passed.moves() & mask;
                assert_eq!(pos.must_pass(), opp != 0);
                assert_eq!(pos.is_game_over(), opp == 0);
                if opp == 0 {
                    break;
                }
                game.play(Move::Pass).unwrap();
                continue;
            }
            let pick = *rng.pick(&fast_list);
            game.play(Move::from(Sq::new(pick).unwrap())).unwrap();
        }
        let score = game.score().unwrap();
        let pos = game.current();
        assert_eq!(score, Score::of(pos));
        assert_eq!(
            usize::from(score.black + score.white),
            size.cells(),
            "the empties go to the winner"
        );
    }
}

#[test]
fn bitboards_match_the_rules_on_random_8x8_games() {
    cross_check(
        BoardSize::EIGHT,
        Rules::Othello,
        10_000,
        0x0123_4567_89ab_cdef,
    );
}

#[test]
fn bitboards_match_the_rules_on_reversi_starts() {
    cross_check(
        BoardSize::EIGHT,
        Rules::Reversi,
        1_000,
        0xfeed_beef_1234_5678,
    );
}

#[test]
fn bitboards_match_the_rules_on_small_boards() {
    cross_check(BoardSize::SIX, Rules::Othello, 2_000, 0xdead_beef_0bad_f00d);
    cross_check(BoardSize::SIX, Rules::Reversi, 1_000, 0x0f0f_0f0f_1234_4321);
    cross_check(
        BoardSize::FOUR,
        Rules::Othello,
        2_000,
        0x1357_9bdf_2468_ace0,
    );
}

/// Every kernel set this CPU runs, saying which (a CPU without the x86-64-v3 features runs
/// the portable set only, and the test says so rather than comparing a kernel with itself).
fn kernel_sets() -> Vec<kernel::Kernels> {
    let sets = kernel::available();
    eprintln!(
        "kernel sets checked: {sets:?}; the process uses {}",
        kernel::selected().name()
    );
    if sets.len() == 1 {
        eprintln!("this CPU lacks the x86-64-v3 features: only the portable kernels ran");
    }
    sets
}

#[test]
fn every_kernel_set_agrees_with_the_portable_one_on_random_boards() {
    let sets = kernel_sets();
    // Arbitrary disc patterns, legal or not, reachable or not.
    let mut rng = Rng::new(0xabcd_ef01_2345_6789);
    for _ in 0..200_000 {
        let a = rng.next_u64() & rng.next_u64();
        let b = rng.next_u64() & !a;
        let moves = mobility::moves_scalar(a, b);
        assert_eq!(mobility::moves(a, b), moves);
        for k in &sets {
            assert_eq!((k.moves)(a, b), moves, "{k:?}");
        }
        let empty = !(a | b);
        for sq in bits(empty).into_iter().take(8) {
            let flips = flip::flips_scalar(a, b, sq);
            assert_eq!(flip::flips(a, b, sq), flips);
            for k in &sets {
                assert_eq!((k.flips)(a, b, sq), flips, "{k:?}");
            }
        }
    }
}

#[test]
fn last_flip_counts_match_the_flips() {
    let sets = kernel_sets();
    // Full boards but for one square: the count by lines equals the flips' disc count.
    let mut rng = Rng::new(0x5eed_1a57_0f11_0001);
    for i in 0..100_000 {
        let sq = rng.below(64) as u32;
        // Half, a quarter and three quarters of the discs to the player.
        let p = match i % 3 {
            0 => rng.next_u64(),
            1 => rng.next_u64() & rng.next_u64(),
            _ => rng.next_u64() | rng.next_u64(),
        } & !(1u64 << sq);
        let o = !p & !(1u64 << sq);
        let expected = flip::flips_scalar(p, o, sq).count_ones();
        for k in &sets {
            assert_eq!((k.count_last_flips)(p, sq), expected, "{k:?}");
        }
    }
}
