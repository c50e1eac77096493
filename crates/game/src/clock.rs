//! Game clocks: each side's time left, worked out from the clock setting and the time each move
//! took, so that undo, redo and a resumed game give back the clocks as they were.
//!
//! A side is charged the time from the moment it could move until it moved, and given the
//! increment after each of its moves (a forced pass is not a move: it costs nothing and earns
//! nothing). A side whose time runs out loses the game, scored as if the winner held every
//! square (64-0 on 8x8), as most tournaments and servers count a loss on time.

use std::time::Duration;

use reversi_core::{Color, Game, TimeControl};

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

/// A clock's reading: whole seconds rounded up (`4:58`, `1:02:03`, so a fresh 5-minute clock
/// reads `5:00` once it runs), and tenths rounded down under ten seconds (`0:09.3`).
///
/// # Examples
/// ```
/// use std::time::Duration;
/// use reversi_game::clock_text;
///
/// assert_eq!(clock_text(Duration::from_millis(297_400)), "4:58");
/// assert_eq!(clock_text(Duration::from_secs(3723)), "1:02:03");
/// assert_eq!(clock_text(Duration::from_millis(9_340)), "0:09.3");
/// assert_eq!(clock_text(Duration::ZERO), "0:00.0");
/// ```
#[must_use]
pub fn clock_text(d: Duration) -> String {
    if d < Duration::from_secs(10) {
        return format!("0:{:02}.{}", d.as_secs(), d.subsec_millis() / 100);
    }
    let secs = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// Each side's time left after the moves of `game` with their `records` (which may be shorter
/// than the game: moves without a record cost nothing), before the side to move's current
/// thinking. Time overspent shows as zero.
#[must_use]
pub fn time_left(control: TimeControl, game: &Game, records: &[LoggedMove]) -> ClockView {
    let spent: Vec<Option<Duration>> = game
        .moves()
        .iter()
        .zip(records)
        .map(|(&mv, r)| {
            (r.mv == mv)
                .then_some(r.time_ms)
                .flatten()
                .map(Duration::from_millis)
        })
        .collect();
    let (black, white) = control.time_left(game, &spent);
    ClockView {
        black,
        white,
        running: (!game.is_over()).then(|| game.current().turn()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use reversi_core::{parse_transcript, BoardSize, Move, Position, Rules};

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
