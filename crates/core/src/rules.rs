//! The start rules: Othello's four-disc start, or the international Reversi empty start.

use std::fmt;
use std::str::FromStr;

/// How a game starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Rules {
    /// The four centre discs are set up in the cross pattern; Black moves first.
    #[default]
    Othello,
    /// The board starts empty; the first four moves (Black, White, Black, White) each place a
    /// disc on one of the four centre squares and flip nothing. Normal rules from move five.
    Reversi,
}

/// A start rule name that is neither `othello` nor `reversi`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseRulesError(pub String);

impl fmt::Display for ParseRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown start rule {:?}: expected othello or reversi",
            self.0
        )
    }
}

impl std::error::Error for ParseRulesError {}

impl Rules {
    /// `"othello"` or `"reversi"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Othello => "othello",
            Rules::Reversi => "reversi",
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "othello" => Ok(Rules::Othello),
            "reversi" => Ok(Rules::Reversi),
            _ => Err(ParseRulesError(s.to_string())),
        }
    }
}
