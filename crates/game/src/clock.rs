//! Game clocks: each side's time left, worked out from the clock setting and the time each move
//! took, so that undo, redo and a resumed game give back the clocks as they were.
//!
//! A side is charged the time from the moment it could move until it moved, and given the
//! increment after each of its moves (a forced pass is not a move: it costs nothing and earns
//! nothing). A side whose time runs out loses the game, scored as if the winner held every
//! square (64-0 on 8x8), as most tournaments and servers count a loss on time.

use std::time::Duration;

use reversi_core::{Color, Game, Move, TimeControl};

use crate::log::LoggedMove;

/// Both sides' time left, and whose clock is running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockView {
    /// Black's time left.
    pub black: Duration,
    /// White's time left.
    pub white: Duration,
    /// The side whose clock is running: the side to move, while the game is on.
    pub running: Option<Color>,
}

impl ClockView {
    /// The time left of `color`.
    #[must_use]
    pub fn left(&self, color: Color) -> Duration {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

/// A clock's reading: `4:58`, `1:02:03`, and tenths under ten seconds (`0:09.3`).
///
/// # Examples
/// ```
/// use std::time::Duration;
/// use reversi_game::clock_text;
///
/// assert_eq!(clock_text(Duration::from_secs(298)), "4:58");
/// assert_eq!(clock_text(Duration::from_secs(3723)), "1:02:03");
/// assert_eq!(clock_text(Duration::from_millis(9_340)), "0:09.3");
/// ```
#[must_use]
pub fn clock_text(d: Duration) -> String {
    let secs = d.as_secs();
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if secs < 10 {
        format!("{m}:{s:02}.{}", d.subsec_millis() / 100)
    } else {
        format!("{m}:{s:02}")
    }
}

/// Each side's time left after the moves of `game` with their `records` (which may be shorter
/// than the game: moves without a record cost nothing), before the side to move's current
/// thinking. Time overspent shows as zero.
#[must_use]
pub fn time_left(control: TimeControl, game: &Game, records: &[LoggedMove]) -> ClockView {
    // In ms, signed: a move that overspent (an imported or damaged record) leaves zero.
    let base = i128::try_from(control.base.as_millis()).unwrap_or(i128::MAX / 4);
    let inc = i128::try_from(control.increment.as_millis()).unwrap_or(0);
    let mut left = [base, base];
    let positions = game.positions();
    for (i, &mv) in game.moves().iter().enumerate() {
        let side = usize::from(positions[i].turn() == Color::White);
        let spent = records
            .get(i)
            .filter(|r| r.mv == mv)
            .and_then(|r| r.time_ms)
            .map_or(0, i128::from);
        left[side] -= spent;
        if mv != Move::Pass {
            left[side] += inc;
        }
    }
    let ms = |v: i128| Duration::from_millis(u64::try_from(v.max(0)).unwrap_or(u64::MAX));
    ClockView {
        black: ms(left[0]),
        white: ms(left[1]),
        running: (!game.is_over()).then(|| game.current().turn()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use reversi_core::{parse_transcript, BoardSize, Position, Rules};

    fn records(game: &Game, times: &[u64]) -> Vec<LoggedMove> {
        game.moves()
            .iter()
            .zip(times)
            .map(|(&mv, &t)| LoggedMove {
                mv,
                time_ms: Some(t),
                eval: None,
            })
            .collect()
    }

    #[test]
    fn each_side_pays_its_own_moves_and_earns_the_increment() {
        let start = Position::start(BoardSize::EIGHT, Rules::Othello);
        let game = parse_transcript("f5d6c3", start).unwrap();
        let control: TimeControl = "1m+2s".parse().unwrap();
        let v = time_left(control, &game, &records(&game, &[10_000, 5_000, 1_000]));
        // Black: 60 - 10 + 2 - 1 + 2 = 53 s; White: 60 - 5 + 2 = 57 s; White to move.
        assert_eq!(v.black, Duration::from_secs(53));
        assert_eq!(v.white, Duration::from_secs(57));
        assert_eq!(v.running, Some(Color::White));
        assert_eq!(v.left(Color::White), v.white);
        // Moves without a record cost nothing; overspending shows zero.
        let v = time_left(control, &game, &[]);
        assert_eq!(v.black, Duration::from_secs(64));
        let v = time_left(control, &game, &records(&game, &[99_000]));
        assert_eq!(v.black, Duration::ZERO);
    }

    #[test]
    fn a_forced_pass_costs_and_earns_nothing() {
        // The first 4x4 game with a pass among those that take the k-th legal move in turn.
        let game = (1..50)
            .map(|k| {
                let mut game = Game::new(Position::start(BoardSize::FOUR, Rules::Othello));
                while !game.is_over() {
                    let moves = game.current().moves();
                    game.play(moves[(k * game.moves().len() + k) % moves.len()])
                        .unwrap();
                }
                game
            })
            .find(|g| g.moves().contains(&Move::Pass))
            .expect("a 4x4 game with a pass");
        let control = TimeControl {
            base: Duration::from_secs(10),
            increment: Duration::from_secs(1),
        };
        let zero: Vec<u64> = vec![0; game.moves().len()];
        let v = time_left(control, &game, &records(&game, &zero));
        let positions = game.positions();
        let moves_of = |c: Color| {
            game.moves()
                .iter()
                .enumerate()
                .filter(|&(i, &m)| positions[i].turn() == c && m != Move::Pass)
                .count() as u64
        };
        assert_eq!(v.black, Duration::from_secs(10 + moves_of(Color::Black)));
        assert_eq!(v.white, Duration::from_secs(10 + moves_of(Color::White)));
        assert_eq!(v.running, None, "the game is over");
    }
}
