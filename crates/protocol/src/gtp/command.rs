//! GTP command lines, parsed: the optional numeric id, the command and its arguments, after
//! the protocol's preprocessing (comments cut at `#`, tabs as spaces, control characters
//! dropped).

use std::fmt;

use reversi_core::{BoardSize, Color, Move, Square};

/// Every command this engine knows, in the order `list_commands` gives them.
pub const COMMANDS: [&str; 16] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
];

/// A command of the controller, with its arguments read.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `protocol_version`: answered `2`.
    ProtocolVersion,
    /// `name`.
    Name,
    /// `version`.
    Version,
    /// `known_command NAME`.
    KnownCommand(String),
    /// `list_commands`.
    ListCommands,
    /// `quit`: answered, then the session ends.
    Quit,
    /// `boardsize N`: only 8 is accepted.
    BoardSize(u32),
    /// `clear_board`: back to the start position.
    ClearBoard,
    /// `komi K`: kept, not used (Othello has no komi).
    Komi(f64),
    /// `play COLOR MOVE`.
    Play(Color, Move),
    /// `genmove COLOR`.
    GenMove(Color),
    /// `undo`: takes back the last move.
    Undo,
    /// `showboard`.
    ShowBoard,
    /// `final_score`.
    FinalScore,
    /// `time_settings MAIN BYOYOMI STONES`, in seconds and stones.
    TimeSettings {
        /// Main time in seconds.
        main: f64,
        /// Byo-yomi period in seconds.
        byo_yomi: f64,
        /// Moves to make in each byo-yomi period (0: no byo-yomi).
        stones: u32,
    },
    /// `time_left COLOR TIME STONES`.
    TimeLeft {
        /// Whose clock.
        color: Color,
        /// Seconds left in the current period.
        seconds: f64,
        /// Moves left to make in the byo-yomi period, 0 while in main time.
        stones: u32,
    },
}

/// A line that is not a command this engine can carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseCommandError {
    /// The command name is not one of [`COMMANDS`].
    Unknown(String),
    /// A known command with missing or malformed arguments; the text says what is wrong.
    Syntax(String),
}

impl fmt::Display for ParseCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The reply GTP controllers look for, without the name (as Edax answers).
            ParseCommandError::Unknown(_) => f.write_str("unknown command"),
            ParseCommandError::Syntax(why) => write!(f, "syntax error ({why})"),
        }
    }
}

impl std::error::Error for ParseCommandError {}

/// One line of the controller: its id, if it gave one, and the command or why it is not one.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The numeric id to repeat in the response (`12 name` is answered `=12 reversi`).
    pub id: Option<u32>,
    /// The command, or why the line is not one.
    pub command: Result<Command, ParseCommandError>,
}

impl Request {
    /// Reads one line; `None` for a line with nothing in it but spaces or a comment.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Color, Move, Square};
    /// use reversi_protocol::gtp::{Command, ParseCommandError, Request};
    ///
    /// let r = Request::parse("12 play B F5 # the opening").expect("a command");
    /// assert_eq!(r.id, Some(12));
    /// let f5 = Move::Play(Square::parse("f5", BoardSize::EIGHT)?);
    /// assert_eq!(r.command, Ok(Command::Play(Color::Black, f5)));
    ///
    /// assert!(Request::parse("   # nothing").is_none());
    /// let bad = Request::parse("fly").expect("a line");
    /// assert_eq!(bad.command, Err(ParseCommandError::Unknown("fly".into())));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn parse(line: &str) -> Option<Request> {
        let line = line.split('#').next().unwrap_or("");
        let clean: String = line
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .filter(|c| !c.is_control())
            .collect();
        let mut words = clean.split_whitespace().peekable();
        let first = *words.peek()?;
        let id = if first.bytes().all(|b| b.is_ascii_digit()) {
            words.next();
            first.parse().ok()
        } else {
            None
        };
        let args: Vec<&str> = words.collect();
        let command = match args.split_first() {
            Some((name, rest)) => Command::parse(name, rest),
            None => Err(ParseCommandError::Syntax("an id without a command".into())),
        };
        Some(Request { id, command })
    }
}

impl Command {
    /// Reads command `name` with its arguments `args`.
    ///
    /// # Errors
    /// [`ParseCommandError::Unknown`] for a name not in [`COMMANDS`],
    /// [`ParseCommandError::Syntax`] for arguments missing or malformed.
    pub fn parse(name: &str, args: &[&str]) -> Result<Command, ParseCommandError> {
        let command = match name {
            "protocol_version" => Command::ProtocolVersion,
            "name" => Command::Name,
            "version" => Command::Version,
            "known_command" => Command::KnownCommand(arg(args, 0, "command name")?.to_string()),
            "list_commands" => Command::ListCommands,
            "quit" => Command::Quit,
            "boardsize" => Command::BoardSize(number(args, 0, "board size")?),
            "clear_board" => Command::ClearBoard,
            "komi" => Command::Komi(number(args, 0, "komi")?),
            "play" => Command::Play(color(args, 0)?, parse_move(arg(args, 1, "move")?)?),
            "genmove" => Command::GenMove(color(args, 0)?),
            "undo" => Command::Undo,
            "showboard" => Command::ShowBoard,
            "final_score" => Command::FinalScore,
            "time_settings" => Command::TimeSettings {
                main: seconds(args, 0, "main time")?,
                byo_yomi: seconds(args, 1, "byo-yomi time")?,
                stones: number(args, 2, "byo-yomi stones")?,
            },
            "time_left" => Command::TimeLeft {
                color: color(args, 0)?,
                seconds: seconds(args, 1, "time left")?,
                stones: number(args, 2, "stones left")?,
            },
            _ => return Err(ParseCommandError::Unknown(name.to_string())),
        };
        Ok(command)
    }
}

fn arg<'a>(args: &[&'a str], i: usize, what: &str) -> Result<&'a str, ParseCommandError> {
    args.get(i)
        .copied()
        .ok_or_else(|| ParseCommandError::Syntax(format!("missing {what}")))
}

fn number<T: std::str::FromStr>(
    args: &[&str],
    i: usize,
    what: &str,
) -> Result<T, ParseCommandError> {
    let text = arg(args, i, what)?;
    text.parse()
        .map_err(|_| ParseCommandError::Syntax(format!("{what} {text:?} is not a number")))
}

/// A number of seconds that a [`std::time::Duration`] holds: not negative, not NaN, and
/// under about 584 billion years.
fn seconds(args: &[&str], i: usize, what: &str) -> Result<f64, ParseCommandError> {
    let s: f64 = number(args, i, what)?;
    if s >= 0.0 && std::time::Duration::try_from_secs_f64(s).is_ok() {
        Ok(s)
    } else {
        Err(ParseCommandError::Syntax(format!(
            "{what} {s} is not a time"
        )))
    }
}

/// `b`, `black`, `w` or `white`, in any case.
fn color(args: &[&str], i: usize) -> Result<Color, ParseCommandError> {
    let text = arg(args, i, "color")?;
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(ParseCommandError::Syntax(format!(
            "{text:?} is not a color"
        ))),
    }
}

/// A square of the 8x8 board (`f5`, `F5`) or `pass`, in any case.
fn parse_move(text: &str) -> Result<Move, ParseCommandError> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    Square::parse(text, BoardSize::EIGHT)
        .map(Move::Play)
        .map_err(|e| ParseCommandError::Syntax(format!("invalid coordinate: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Result<Command, ParseCommandError> {
        Request::parse(line).map_or(Err(ParseCommandError::Syntax("empty".into())), |r| {
            r.command
        })
    }

    #[test]
    fn blank_lines_and_comments_are_not_commands() {
        for line in ["", "   ", "\t", "# a comment", "  # another", "\r"] {
            assert_eq!(Request::parse(line), None, "{line:?}");
        }
    }

    #[test]
    fn ids_tabs_and_control_characters() {
        let r = Request::parse("7\tgenmove\tw\r").unwrap();
        assert_eq!(r.id, Some(7));
        assert_eq!(r.command, Ok(Command::GenMove(Color::White)));
        assert_eq!(Request::parse("7").unwrap().id, Some(7));
        assert!(Request::parse("7").unwrap().command.is_err());
    }

    #[test]
    fn moves_and_colors_in_any_case() {
        let d3 = Move::Play(Square::parse("d3", BoardSize::EIGHT).unwrap());
        assert_eq!(
            command("play WHITE D3"),
            Ok(Command::Play(Color::White, d3))
        );
        assert_eq!(
            command("play b PASS"),
            Ok(Command::Play(Color::Black, Move::Pass))
        );
        assert!(matches!(
            command("play x d3"),
            Err(ParseCommandError::Syntax(_))
        ));
        assert!(matches!(
            command("play b i9"),
            Err(ParseCommandError::Syntax(_))
        ));
        assert!(matches!(
            command("play b"),
            Err(ParseCommandError::Syntax(_))
        ));
    }

    #[test]
    fn numbers_and_times() {
        assert_eq!(command("boardsize 6"), Ok(Command::BoardSize(6)));
        assert_eq!(command("komi 0.5"), Ok(Command::Komi(0.5)));
        assert_eq!(
            command("time_settings 300 0 0"),
            Ok(Command::TimeSettings {
                main: 300.0,
                byo_yomi: 0.0,
                stones: 0
            })
        );
        assert_eq!(
            command("time_left b 12.5 3"),
            Ok(Command::TimeLeft {
                color: Color::Black,
                seconds: 12.5,
                stones: 3
            })
        );
        assert!(command("time_left b -1 0").is_err());
        assert!(command("time_settings 1e20 0 0").is_err());
        assert!(command("time_left w inf 0").is_err());
        assert!(command("boardsize eight").is_err());
    }

    #[test]
    fn unknown_commands_are_named() {
        assert_eq!(
            command("loadsgf game.sgf"),
            Err(ParseCommandError::Unknown("loadsgf".into()))
        );
        assert_eq!(
            ParseCommandError::Unknown("x".into()).to_string(),
            "unknown command"
        );
    }

    #[test]
    fn every_listed_command_parses_with_arguments() {
        for name in COMMANDS {
            let args = ["b", "1", "0"];
            let parsed = Command::parse(name, &args);
            assert!(
                !matches!(parsed, Err(ParseCommandError::Unknown(_))),
                "{name}"
            );
        }
    }
}
