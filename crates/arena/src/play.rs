//! One game of a match: the moves from an opening to the end, each engine asked in turn and
//! told the other's moves, with the clock and forfeit rules (a crash, a silence past the
//! timeout, an illegal move or a clock run out loses the game 0-64).

use std::time::Duration;

use reversi_core::{Color, Game, Move, Score, TimeControl};
use reversi_store::{MoveRecord, Player};

use crate::contender::{Contender, EngineError, MoveClock};

/// A finished match game.
#[derive(Debug, Clone)]
pub struct Played {
    /// The game, from the opening's start to its last move (or the forfeit).
    pub game: Game,
    /// One record per move of `game` (the opening's moves bare).
    pub moves: Vec<MoveRecord>,
    /// Black as the history names it.
    pub black: Player,
    /// White as the history names it.
    pub white: Player,
    /// The final score, or the forfeit's 64-0.
    pub score: Score,
    /// How the game was lost off the board, if it was.
    pub forfeit: Option<Forfeit>,
    /// The match's clock, if timed.
    pub clock: Option<TimeControl>,
}

/// A game lost off the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forfeit {
    /// The side that lost.
    pub color: Color,
    /// Why, in words.
    pub reason: String,
    /// The engine stopped answering (rather than crashing or answering nonsense).
    pub timeout: bool,
    /// The engine's clock ran out.
    pub out_of_time: bool,
}

/// Plays one game from `opening`; a side whose engine fails, or whose time runs out, loses it
/// 0-64. `timeout` is how long an external engine may stay silent when the game has no
/// `clock`; on a clock an engine may think as long as its time lasts, and 2 s more before it
/// is given up on.
pub fn play_game(
    black: &mut Contender,
    white: &mut Contender,
    opening: &Game,
    timeout: Duration,
    clock: Option<TimeControl>,
) -> Played {
    let mut game = opening.clone();
    let mut moves: Vec<MoveRecord> = game.moves().iter().map(|&m| MoveRecord::bare(m)).collect();
    let forfeit = play_out(black, white, &mut game, &mut moves, timeout, clock);
    let score = match &forfeit {
        Some(f) => Score::forfeit(f.color, game.current().size()),
        None => Score::of(game.current()),
    };
    Played {
        game,
        moves,
        black: black.history_player(),
        white: white.history_player(),
        score,
        forfeit,
        clock,
    }
}

/// The moves of the game until its end or a forfeit.
fn play_out(
    black: &mut Contender,
    white: &mut Contender,
    game: &mut Game,
    moves: &mut Vec<MoveRecord>,
    timeout: Duration,
    clock: Option<TimeControl>,
) -> Option<Forfeit> {
    let fail = |color: Color, who: &mut Contender, e: &EngineError| {
        who.reset();
        Some(Forfeit {
            color,
            reason: e.to_string(),
            timeout: e.is_timeout(),
            out_of_time: false,
        })
    };
    if let Err(e) = black.new_game(game, timeout) {
        return fail(Color::Black, black, &e);
    }
    if let Err(e) = white.new_game(game, timeout) {
        return fail(Color::White, white, &e);
    }
    loop {
        let pos = game.current();
        if pos.is_game_over() {
            return None;
        }
        let turn = pos.turn();
        let record = if pos.must_pass() {
            MoveRecord::bare(Move::Pass)
        } else {
            let mover = match turn {
                Color::Black => &mut *black,
                Color::White => &mut *white,
            };
            // The opening's moves took no time.
            let spent: Vec<Option<Duration>> = moves
                .iter()
                .map(|m| m.time_ms.map(Duration::from_millis))
                .collect();
            let move_clock = clock.map(|control| MoveClock {
                control,
                spent: &spent,
            });
            // On a clock an engine may think as long as its time lasts, and a little more
            // before it is given up on.
            let (wait, left) = match &move_clock {
                Some(c) => {
                    let left = c.left(game);
                    (left + Duration::from_secs(2), Some(left))
                }
                None => (timeout, None),
            };
            match mover.choose(game, wait, move_clock.as_ref()) {
                Ok(c) if left.is_some_and(|left| c.time > left) => {
                    mover.reset();
                    return Some(Forfeit {
                        color: turn,
                        reason: format!(
                            "lost on time ({:.3} s for a move with {:.3} s left)",
                            c.time.as_secs_f64(),
                            left.unwrap_or_default().as_secs_f64()
                        ),
                        timeout: true,
                        out_of_time: true,
                    });
                }
                Ok(c) => MoveRecord {
                    mv: c.mv,
                    time_ms: Some(c.time.as_millis().try_into().unwrap_or(u64::MAX)),
                    eval: c.eval,
                },
                Err(e) if left.is_some() && e.is_timeout() => {
                    mover.reset();
                    return Some(Forfeit {
                        color: turn,
                        reason: format!("lost on time: {e}"),
                        timeout: true,
                        out_of_time: true,
                    });
                }
                Err(e) => return fail(turn, mover, &e),
            }
        };
        if let Err(why) = game.play(record.mv) {
            let mover = match turn {
                Color::Black => &mut *black,
                Color::White => &mut *white,
            };
            mover.reset();
            return Some(Forfeit {
                color: turn,
                reason: format!("illegal move {}: {why}", record.mv),
                timeout: false,
                out_of_time: false,
            });
        }
        moves.push(record);
        if let Err(e) = black.observe(record.mv) {
            return fail(Color::Black, black, &e);
        }
        if let Err(e) = white.observe(record.mv) {
            return fail(Color::White, white, &e);
        }
    }
}
