//! Engine against engine on bare boards: the fast game loop of evaluation duels and
//! self-play, where both sides search to the same fixed limits with no clock, book or
//! protocol (`reversi train match`, `reversi train selfplay`).

use std::sync::atomic::AtomicBool;

use reversi_engine::engine::{Engine, Limits};
use reversi_engine::{Board, Sq};

/// Plays a game from `board` (`black`: Black is to move); `engines[0]` plays Black, and both
/// search to `limits` with their tables cleared first. Returns Black's final disc difference
/// and the positions met with each search's score (side to move's view) and the move played.
///
/// # Examples
/// ```
/// use reversi_arena::duel::play;
/// use reversi_engine::engine::{Engine, Limits};
/// use reversi_engine::Board;
///
/// let (a, b) = (Engine::new(1, 1), Engine::new(1, 1));
/// let (black_diff, seen) = play(Board::START, true, [&a, &b], &Limits::midgame(1));
/// assert!((-64..=64).contains(&black_diff));
/// assert!(seen.len() >= 50);
/// ```
#[must_use]
pub fn play(
    mut board: Board,
    mut black: bool,
    engines: [&Engine; 2],
    limits: &Limits,
) -> (i32, Vec<(Board, i32, Sq)>) {
    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    for e in engines {
        e.clear();
    }
    loop {
        if board.moves() == 0 {
            board = board.pass();
            black = !black;
            if board.moves() == 0 {
                break;
            }
        }
        let engine = engines[usize::from(!black)];
        let thinking = engine.search(board, u64::MAX, limits, &stop, &mut |_| {});
        let Some(best) = thinking.best else {
            break;
        };
        let Some(sq) = Sq::from_move(best.mv) else {
            break;
        };
        seen.push((board, best.score, sq));
        board = board.play(sq.index());
        black = !black;
    }
    let diff = board.player.count_ones() as i32 - board.opponent.count_ones() as i32;
    (if black { diff } else { -diff }, seen)
}
