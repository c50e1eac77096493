//! What a new game is played with: the board, the rule, each side's player, the clock and the
//! seed of the computer players' random choices.

use reversi_core::{BoardSize, Color, Rules, TimeControl};

use crate::player::Player;

/// What a new game is played with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The board: an even size from 4x4 to 16x16, 8x8 for tournament Othello.
    pub size: BoardSize,
    /// How the game starts: Othello's four centre discs set up, or Reversi's empty board whose
    /// first four moves fill the centre.
    pub rules: Rules,
    /// Who plays Black, the side that moves first.
    pub black: Player,
    /// Who plays White.
    pub white: Player,
    /// Drives the computer players' random choices; the same seed replays the same game.
    pub seed: u64,
    /// The game clock, the same for both sides; `None` for an untimed game.
    pub clock: Option<TimeControl>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            size: BoardSize::EIGHT,
            rules: Rules::Othello,
            black: Player::Human,
            white: Player::Computer(reversi_players::Ai::default()),
            seed: 1,
            clock: None,
        }
    }
}

impl Settings {
    /// Who plays `color`.
    #[must_use]
    pub fn player(&self, color: Color) -> Player {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The same game with the sides' players swapped (for a return game).
    #[must_use]
    pub fn swapped(&self) -> Settings {
        Settings {
            black: self.white,
            white: self.black,
            seed: self.seed.wrapping_add(1),
            ..*self
        }
    }
}

/// A seed that differs from run to run (from the clock), for games whose computer players
/// should not repeat themselves.
#[must_use]
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}
