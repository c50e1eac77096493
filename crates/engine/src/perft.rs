//! Perft: counting the leaves of the game tree to a fixed depth, to prove move generation.
//!
//! Convention (Aart Bik's, the one most engines publish): a pass counts as one ply, and a game
//! that ends before the full depth counts as one leaf. The last ply is bulk-counted: a node one
//! ply from the horizon has as many leaves as legal moves, or one (a pass or the end).

use reversi_core::Position;

use crate::{kernel, Board};

/// Leaves of the tree of depth `depth` below `board`, on the squares of `mask` (`u64::MAX` for
/// 8x8, [`playable`](crate::playable) for smaller boards).
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Position, Rules};
/// use reversi_engine::perft::perft;
/// use reversi_engine::{playable, Board};
///
/// // Aart Bik's counts from the 8x8 start.
/// let counts: Vec<u64> = (1..=5).map(|depth| perft(Board::START, depth, u64::MAX)).collect();
/// assert_eq!(counts, [4, 12, 56, 244, 1396]);
///
/// // A 4x4 board lives in the top-left corner; the mask keeps moves off the other squares.
/// let (small, mask) = Board::from_position(&Position::start(BoardSize::FOUR, Rules::Othello))?;
/// assert_eq!(mask, playable(4));
/// assert_eq!(perft(small, 1, mask), 4);
/// # Ok::<(), reversi_engine::FromPositionError>(())
/// ```
#[must_use]
pub fn perft(board: Board, depth: u32, mask: u64) -> u64 {
    if depth == 0 {
        1
    } else {
        kernel::dispatch!(versions, perft_rec(board, depth, mask))
    }
}

/// The counting compiled once per kernel set ([`crate::kernel::multiversion`]).
mod versions {
    use crate::Board;

    crate::kernel::multiversion! {
        /// [`super::perft`] below depth 0.
        fn perft_rec(board: Board, depth: u32, mask: u64) -> u64 {
            let mut list = moves(board.player, board.opponent) & mask;
            if depth == 1 {
                return u64::from(list.count_ones()).max(1);
            }
            if list == 0 {
                let passed = board.pass();
                return if moves(passed.player, passed.opponent) & mask == 0 {
                    1
                } else {
                    perft_rec(passed, depth - 1, mask)
                };
            }
            let mut total = 0;
            while list != 0 {
                let sq = list.trailing_zeros();
                list &= list - 1;
                let child = board.make(sq, flips(board.player, board.opponent, sq));
                total += if depth == 2 {
                    u64::from((moves(child.player, child.opponent) & mask).count_ones()).max(1)
                } else {
                    perft_rec(child, depth - 1, mask)
                };
            }
            total
        }
    }
}

/// Perft from a position of any size and start rule: bitboards up to 8x8 once the Reversi
/// centre placement is over, the rules crate otherwise.
///
/// # Examples
/// ```
/// use reversi_core::{BoardSize, Position, Rules};
/// use reversi_engine::perft::perft_position;
///
/// let othello = Position::start(BoardSize::EIGHT, Rules::Othello);
/// assert_eq!(perft_position(&othello, 3), 56);
/// // 10x10 goes through the rules crate, and starts like 8x8.
/// let ten = Position::start(BoardSize::new(10)?, Rules::Othello);
/// assert_eq!(perft_position(&ten, 3), 56);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn perft_position(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if let Ok((board, mask)) = Board::from_position(position) {
        return perft(board, depth, mask);
    }
    let moves = position.moves();
    if moves.is_empty() {
        return 1;
    }
    moves
        .into_iter()
        .filter_map(|mv| position.play(mv).ok())
        .map(|child| perft_position(&child, depth - 1))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::{BoardSize, Rules};

    /// Aart Bik's published counts from the 8x8 start (data/reference/perft.txt, `bik`).
    pub const BIK: [u64; 13] = [
        4,
        12,
        56,
        244,
        1396,
        8200,
        55092,
        390216,
        3005288,
        24571284,
        212258800,
        1939886636,
        18429641748,
    ];

    #[test]
    fn perft_1_to_9_from_the_start() {
        for depth in 1..=9 {
            assert_eq!(
                perft(Board::START, depth, u64::MAX),
                BIK[depth as usize - 1],
                "depth {depth}"
            );
        }
    }

    #[test]
    #[ignore = "slow: run in release mode"]
    fn perft_10_and_11_from_the_start() {
        assert_eq!(perft(Board::START, 10, u64::MAX), BIK[9]);
        assert_eq!(perft(Board::START, 11, u64::MAX), BIK[10]);
    }

    #[test]
    fn small_boards_and_reversi_start() {
        // Small boards through the mask agree with the rules crate's own perft.
        fn slow(p: &Position, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = p.moves();
            if moves.is_empty() {
                return 1;
            }
            moves
                .into_iter()
                .map(|m| slow(&p.play(m).unwrap(), depth - 1))
                .sum()
        }
        for size in [BoardSize::FOUR, BoardSize::SIX, BoardSize::EIGHT] {
            for rules in [Rules::Othello, Rules::Reversi] {
                let start = Position::start(size, rules);
                for depth in 1..=7 {
                    assert_eq!(
                        perft_position(&start, depth),
                        slow(&start, depth),
                        "{size} {rules} depth {depth}"
                    );
                }
            }
        }
        // 4x4 Othello is solved to the end well before depth 20: every line ends.
        let s4 = Position::start(BoardSize::FOUR, Rules::Othello);
        assert_eq!(perft_position(&s4, 30), perft_position(&s4, 40));
        // Larger boards go through the rules crate: 10x10 starts like 8x8.
        let s10 = Position::start(BoardSize::new(10).unwrap(), Rules::Othello);
        assert_eq!(perft_position(&s10, 3), 56);
    }

    #[test]
    fn position_perft_agrees_with_bitboards() {
        let start = Position::start(BoardSize::EIGHT, Rules::Othello);
        for depth in 0..=6 {
            let want = if depth == 0 { 1 } else { BIK[depth - 1] };
            assert_eq!(perft_position(&start, depth as u32), want);
        }
    }
}
