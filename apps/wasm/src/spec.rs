//! A game as the two instances hand it to each other: its board, rule, start and moves.

use reversi_core::{BoardSize, Game, Position, Rules};
use reversi_formats::position::{board_string, parse_position};
use serde::{Deserialize, Serialize};

use crate::record::{move_name, parse_move};

/// A game from its start: the standard start of `size` and `rules`, or a set-up one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameSpec {
    pub size: u8,
    pub rules: String,
    /// A set-up start as a board string (`---…OX… X`); `null` for the standard start.
    pub start: Option<String>,
    /// Squares and `PA` for passes.
    pub moves: Vec<String>,
}

impl GameSpec {
    /// The spec of `game`.
    pub fn of(game: &Game) -> GameSpec {
        let start = game.start();
        let standard = Position::start(start.size(), start.rules());
        GameSpec {
            size: start.size().get(),
            rules: start.rules().name().to_string(),
            start: (*start != standard).then(|| board_string(start)),
            moves: game.moves().iter().map(|&m| move_name(m)).collect(),
        }
    }

    /// The game, replayed.
    ///
    /// # Errors
    /// A size, rule, start or move that does not read, named.
    pub fn to_game(&self) -> Result<Game, String> {
        let size = BoardSize::new(self.size).map_err(|e| e.to_string())?;
        let rules: Rules = self.rules.parse().map_err(|e| format!("{e}"))?;
        let start = match &self.start {
            None => Position::start(size, rules),
            Some(text) => parse_position(text, size, rules)
                .map_err(|e| e.to_string())?
                .position()
                .clone(),
        };
        let mut game = Game::new(start);
        for (ply, m) in self.moves.iter().enumerate() {
            let mv = parse_move(m, size)?;
            game.play(mv)
                .map_err(|e| format!("move {}: {e}", ply + 1))?;
        }
        Ok(game)
    }
}
