//! The kinds of computer player — random, greedy, a classic algorithm at a fixed depth, an
//! engine level — and their names on the command line (`greedy`, `minimax:4`, `hard`, `12`).

use std::fmt;
use std::str::FromStr;

use reversi_engine::levels::Level;

use crate::classic::Algorithm;

/// A kind of computer player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ai {
    /// A uniformly random legal move.
    Random,
    /// The move that flips the most discs (ties: the first in board order).
    Greedy,
    /// A classic algorithm at a fixed depth with the hand-made square-weight evaluation.
    Classic {
        /// The search algorithm.
        algorithm: Algorithm,
        /// Plies searched, 1 to 20 when parsed.
        depth: u32,
    },
    /// An engine level.
    Level(Level),
}

impl Default for Ai {
    fn default() -> Self {
        Ai::Level(Level::DEFAULT)
    }
}

impl fmt::Display for Ai {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ai::Random => f.write_str("random"),
            Ai::Greedy => f.write_str("greedy"),
            Ai::Classic { algorithm, depth } => write!(f, "{algorithm}:{depth}"),
            Ai::Level(l) => match l.name() {
                Some(name) => f.write_str(name),
                None => write!(f, "{}", l.get()),
            },
        }
    }
}

/// A player description that is not one of the accepted forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseAiError(pub String);

impl fmt::Display for ParseAiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Level::NAMED.iter().map(|&(name, _)| name).collect();
        write!(
            f,
            "unknown computer player {:?}: expected random, greedy, a level 1-60 or a level name \
             ({}), or ALGORITHM:DEPTH with ALGORITHM one of minimax, alphabeta, negascout, \
             negascout-tt and DEPTH 1-20",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for ParseAiError {}

impl FromStr for Ai {
    type Err = ParseAiError;

    /// `random`, `greedy`, `12`, `hard`, `level:12`, `minimax:4`, `random:0`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseAiError(s.to_string());
        let t = s.trim().to_ascii_lowercase();
        match t.split_once(':') {
            None => match t.as_str() {
                "random" => Ok(Ai::Random),
                "greedy" => Ok(Ai::Greedy),
                other => Level::parse(other).map(Ai::Level).ok_or_else(err),
            },
            Some(("level", n)) => Level::parse(n).map(Ai::Level).ok_or_else(err),
            Some(("random", _)) => Ok(Ai::Random),
            Some(("greedy", _)) => Ok(Ai::Greedy),
            Some((alg, depth)) => {
                let algorithm: Algorithm = alg.parse().map_err(|_| err())?;
                let depth: u32 = depth.parse().map_err(|_| err())?;
                if (1..=20).contains(&depth) {
                    Ok(Ai::Classic { algorithm, depth })
                } else {
                    Err(err())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_parse() {
        assert_eq!("random".parse(), Ok(Ai::Random));
        assert_eq!("GREEDY".parse(), Ok(Ai::Greedy));
        assert_eq!(
            "minimax:4".parse(),
            Ok(Ai::Classic {
                algorithm: Algorithm::Minimax,
                depth: 4
            })
        );
        assert_eq!("hard".parse(), Ok(Ai::Level(Level::DEFAULT)));
        assert_eq!(
            "level:13".parse::<Ai>().map(|a| a.to_string()),
            Ok("13".into())
        );
        assert!("minimax:0".parse::<Ai>().is_err());
        assert!("chess:3".parse::<Ai>().is_err());
        assert!("".parse::<Ai>().is_err());
        for ai in ["random", "greedy", "negascout-tt:3", "hard", "club", "17"] {
            assert_eq!(ai.parse::<Ai>().unwrap().to_string(), ai);
        }
    }
}
