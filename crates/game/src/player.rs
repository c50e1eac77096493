//! Who plays a side: a person at the keyboard or a computer player, as `--black`/`--white`
//! and the new-game menu name them.

use std::fmt;
use std::str::FromStr;

use reversi_engine::levels::Level;
use reversi_players::Ai;

/// The player of one side.
///
/// # Examples
/// ```
/// use reversi_game::Player;
///
/// assert_eq!("human".parse(), Ok(Player::Human));
/// let hard: Player = "ai:hard".parse()?;
/// assert!(!hard.is_human() && hard.ai().is_some());
/// assert_eq!(hard.to_string(), "ai:hard");
/// assert!("robot".parse::<Player>().is_err());
/// # Ok::<(), reversi_game::ParsePlayerError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    /// A person, who chooses each square through the front end.
    Human,
    /// A computer player: a level of the engine, or a random, greedy or fixed-depth player.
    Computer(Ai),
}

impl Player {
    /// Whether a person plays this side.
    #[must_use]
    pub fn is_human(self) -> bool {
        self == Player::Human
    }

    /// The computer player, if this side is one.
    #[must_use]
    pub fn ai(self) -> Option<Ai> {
        match self {
            Player::Human => None,
            Player::Computer(ai) => Some(ai),
        }
    }
}

impl fmt::Display for Player {
    /// `human`, or `ai:` and the computer player (`ai:hard`, `ai:greedy`, `ai:minimax:4`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Computer(ai) => write!(f, "ai:{ai}"),
        }
    }
}

/// A player description that is not `human`, `ai` or `ai:…`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsePlayerError {
    /// The description as given.
    pub text: String,
    /// Why the computer player after `ai:` was refused, when that was the problem.
    pub reason: Option<String>,
}

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.reason {
            Some(reason) => write!(f, "bad player {:?}: {reason}", self.text),
            None => write!(
                f,
                "unknown player {:?}: expected human, ai, ai:LEVEL (1-60 or a level name), \
                 ai:random, ai:greedy or ai:ALGORITHM:DEPTH",
                self.text
            ),
        }
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for Player {
    type Err = ParsePlayerError;

    /// `human`, `ai` (the default level), `ai:12`, `ai:hard`, `ai:greedy`, `ai:minimax:4`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        if t == "human" {
            return Ok(Player::Human);
        }
        if t == "ai" {
            return Ok(Player::Computer(Ai::default()));
        }
        let Some(rest) = t.strip_prefix("ai:") else {
            return Err(ParsePlayerError {
                text: s.to_string(),
                reason: None,
            });
        };
        rest.parse::<Ai>()
            .map(Player::Computer)
            .map_err(|e| ParsePlayerError {
                text: s.to_string(),
                reason: Some(e.to_string()),
            })
    }
}

/// The named levels with what they search, for `reversi play --help` and the menu.
#[must_use]
pub fn levels_help() -> String {
    let mut out = String::from(
        "Players (--black, --white):\n  human            a person at the keyboard\n  ai               \
         the default level (",
    );
    out.push_str(&Level::DEFAULT.to_string());
    out.push_str(
        ")\n  ai:LEVEL         a level 1-60 by number or name\n  ai:random        a random \
         legal move\n  ai:greedy        the move that flips the most discs\n  \
         ai:ALGORITHM:DEPTH  minimax, alphabeta, negascout or negascout-tt to a fixed depth \
         (1-20)\n\nNamed levels (midgame depth in plies; endgame solved exactly from that many \
         empty squares; the most time a move takes):\n",
    );
    for (name, level) in Level::NAMED {
        let spec = level.spec();
        let like =
            crate::human_scale::level_note(level).map_or_else(String::new, |n| format!("; {n}"));
        out.push_str(&format!(
            "  {name:<11} level {:>2}: depth {:>2}, exact from {:>2} empties, up to {:>2} s a move{like}\n",
            level.get(),
            spec.depth,
            spec.exact_empties,
            spec.time.as_secs()
        ));
    }
    if let Some(scale) = crate::human_scale::HumanScale::shipped() {
        out.push_str(&format!(
            "(Tournament ratings: WTHOR players' Elo, the median player with 20+ games at 1500, \
             matched by discs lost a move at level {}; `reversi levels` says more.)\n",
            scale.analysis_level.get()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn players_parse_and_print_back() {
        assert_eq!("human".parse(), Ok(Player::Human));
        assert_eq!("AI".parse(), Ok(Player::Computer(Ai::default())));
        for text in [
            "human",
            "ai:greedy",
            "ai:random",
            "ai:hard",
            "ai:17",
            "ai:minimax:3",
        ] {
            assert_eq!(text.parse::<Player>().unwrap().to_string(), text);
        }
        assert_eq!(
            "ai:level:10".parse::<Player>().unwrap().to_string(),
            "ai:hard"
        );
    }

    #[test]
    fn bad_players_say_why() {
        let e = "robot".parse::<Player>().unwrap_err();
        assert!(e.to_string().contains("\"robot\""));
        assert!(e.reason.is_none());
        let e = "ai:godlike".parse::<Player>().unwrap_err();
        assert!(e.to_string().contains("level name"), "{e}");
    }

    #[test]
    fn levels_help_lists_every_named_level() {
        let text = levels_help();
        for (name, level) in Level::NAMED {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(name))
                .unwrap();
            assert!(
                line.contains(&format!("depth {:>2}", level.spec().depth)),
                "{line}"
            );
        }
    }
}
