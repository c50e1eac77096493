//! The commands an NBoard GUI sends, parsed from their lines.

use std::fmt;

/// One command from the GUI.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `nboard VERSION`: the session starts.
    NBoard(u32),
    /// `set depth N`: the midgame search depth.
    SetDepth(u32),
    /// `set game GGF`: the position at the end of this game becomes current.
    SetGame(String),
    /// `set contempt N`: what a book draw is worth to Black, in discs.
    SetContempt(f64),
    /// `move MV[/EVAL[/TIME]]`, or a bare `F5` (protocol version 1): the move as written
    /// (`F5`, `PA`), checked against the board when played.
    Move(String),
    /// `hint N`: evaluate the best N moves.
    Hint(usize),
    /// `go`: say which move to play, without playing it.
    Go,
    /// `ping N`: stop thinking and answer `pong N`.
    Ping(i64),
    /// `learn`: learn the current game.
    Learn,
    /// `analyze`: evaluate every position of the game, last first.
    Analyze,
    /// `quit`.
    Quit,
}

/// A line that is not a command this engine understands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseCommandError {
    /// A blank line.
    Empty,
    /// A command word this engine does not know (the line).
    Unknown(String),
    /// A known command with a missing or malformed argument (the line).
    BadArgument(String),
}

impl fmt::Display for ParseCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseCommandError::Empty => f.write_str("empty line"),
            ParseCommandError::Unknown(line) => write!(f, "unknown command {line:?}"),
            ParseCommandError::BadArgument(line) => {
                write!(f, "missing or malformed argument in {line:?}")
            }
        }
    }
}

impl std::error::Error for ParseCommandError {}

impl Command {
    /// Reads one line from the GUI.
    ///
    /// # Errors
    /// [`ParseCommandError`] for a blank line, an unknown command, or a bad argument.
    ///
    /// # Examples
    /// ```
    /// use reversi_protocol::nboard::{Command, ParseCommandError};
    ///
    /// assert_eq!(Command::parse("set depth 12"), Ok(Command::SetDepth(12)));
    /// assert_eq!(Command::parse("move F5/-1.00/0.52"), Ok(Command::Move("F5/-1.00/0.52".into())));
    /// // Protocol version 1 sent moves bare.
    /// assert_eq!(Command::parse("D6"), Ok(Command::Move("D6".into())));
    /// assert_eq!(Command::parse("hint 0"), Err(ParseCommandError::BadArgument("hint 0".into())));
    /// assert!(matches!(Command::parse("frobnicate"), Err(ParseCommandError::Unknown(_))));
    /// ```
    pub fn parse(line: &str) -> Result<Command, ParseCommandError> {
        let line = line.trim();
        let bad = || ParseCommandError::BadArgument(line.to_string());
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let first_arg = rest.split_whitespace().next();
        match word {
            "" => Err(ParseCommandError::Empty),
            "nboard" => first_arg
                .and_then(|v| v.parse().ok())
                .map(Command::NBoard)
                .ok_or_else(bad),
            "set" => {
                let (what, value) = match rest.split_once(char::is_whitespace) {
                    Some((w, v)) => (w, v.trim()),
                    None => (rest, ""),
                };
                match what {
                    "depth" => value
                        .parse::<u32>()
                        .ok()
                        .filter(|&d| d > 0)
                        .map(Command::SetDepth)
                        .ok_or_else(bad),
                    "game" if !value.is_empty() => Ok(Command::SetGame(value.to_string())),
                    "contempt" => value
                        .parse::<f64>()
                        .ok()
                        .filter(|c| c.is_finite())
                        .map(Command::SetContempt)
                        .ok_or_else(bad),
                    "game" => Err(bad()),
                    _ => Err(ParseCommandError::Unknown(line.to_string())),
                }
            }
            "move" => first_arg
                .map(|m| Command::Move(m.to_string()))
                .ok_or_else(bad),
            "hint" => first_arg
                .and_then(|v| v.parse::<usize>().ok())
                .filter(|&n| n > 0)
                .map(Command::Hint)
                .ok_or_else(bad),
            "go" => Ok(Command::Go),
            "ping" => first_arg
                .and_then(|v| v.parse().ok())
                .map(Command::Ping)
                .ok_or_else(bad),
            "learn" => Ok(Command::Learn),
            "analyze" => Ok(Command::Analyze),
            "quit" => Ok(Command::Quit),
            // Protocol version 1 sent moves bare: `F5`.
            w if w.len() == 2 && rest.is_empty() => Ok(Command::Move(w.to_string())),
            _ => Err(ParseCommandError::Unknown(line.to_string())),
        }
    }

    /// Whether this line asks a search under way to stop (`ping`, `quit`): the line reader
    /// raises the stop flag as soon as it reads one, before the command's turn comes.
    #[must_use]
    pub fn interrupts(line: &str) -> bool {
        matches!(line.split_whitespace().next(), Some("ping" | "quit"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(Command::parse("nboard 2"), Ok(Command::NBoard(2)));
        assert_eq!(Command::parse("set depth 12"), Ok(Command::SetDepth(12)));
        assert_eq!(
            Command::parse("set game (;GM[Othello];)"),
            Ok(Command::SetGame("(;GM[Othello];)".into()))
        );
        assert_eq!(
            Command::parse("set contempt -3"),
            Ok(Command::SetContempt(-3.0))
        );
        assert_eq!(
            Command::parse("move F5/-1.5/2.0"),
            Ok(Command::Move("F5/-1.5/2.0".into()))
        );
        assert_eq!(Command::parse("F5"), Ok(Command::Move("F5".into())));
        assert_eq!(Command::parse("PA"), Ok(Command::Move("PA".into())));
        assert_eq!(Command::parse("  hint 3 "), Ok(Command::Hint(3)));
        assert_eq!(Command::parse("go"), Ok(Command::Go));
        assert_eq!(Command::parse("ping 17"), Ok(Command::Ping(17)));
        assert_eq!(Command::parse("learn"), Ok(Command::Learn));
        assert_eq!(Command::parse("analyze"), Ok(Command::Analyze));
        assert_eq!(Command::parse("quit"), Ok(Command::Quit));
    }

    #[test]
    fn malformed_lines_are_errors_naming_the_line() {
        assert_eq!(Command::parse("   "), Err(ParseCommandError::Empty));
        for line in [
            "nboard",
            "nboard two",
            "set depth",
            "set depth -1",
            "set depth 0",
            "set game",
            "set contempt nan",
            "move",
            "hint",
            "hint 0",
            "ping",
            "ping x",
        ] {
            assert_eq!(
                Command::parse(line),
                Err(ParseCommandError::BadArgument(line.into())),
                "{line}"
            );
        }
        let e = Command::parse("frobnicate 3").unwrap_err();
        assert_eq!(e.to_string(), "unknown command \"frobnicate 3\"");
        assert!(Command::parse("set colour blue").is_err());
        assert!(Command::parse("F5 D6").is_err());
    }

    #[test]
    fn ping_and_quit_interrupt() {
        assert!(Command::interrupts("ping 3"));
        assert!(Command::interrupts("quit"));
        assert!(!Command::interrupts("go"));
        assert!(!Command::interrupts("pingpong"));
    }
}
