//! The controller's side of GTP: start an engine process, set up the 8x8 board, replay the
//! game's moves to it, ask it for moves, and notice when it crashes, stops answering or
//! refuses. Dropping the client ends the engine.

use std::fmt;
use std::io;
use std::process::ExitStatus;
use std::time::{Duration, Instant};

use reversi_core::{BoardSize, Color, Game, Move, Position, Rules, Square};

use super::response::{Response, ResponseReader};
use super::session::TimeSettings;
use crate::process::{EngineProcess, Failure};

/// Why an engine process failed us.
#[derive(Debug)]
pub enum ClientError {
    /// The program could not be started.
    Spawn {
        /// The command line, program and arguments joined by spaces.
        command: String,
        /// Why it could not be started (no such program, not executable, an empty command).
        source: io::Error,
    },
    /// The engine closed its output: it exited (with this status, when known) or crashed.
    Exited(Option<ExitStatus>),
    /// No answer to `command` within `waited`.
    Timeout {
        /// The command, without its id.
        command: String,
        /// How long the client waited.
        waited: Duration,
    },
    /// Writing a command to the engine failed.
    Write(io::Error),
    /// The engine answered `?` to a command it has to carry out.
    Refused {
        /// The command, without its id.
        command: String,
        /// The first line of the engine's answer.
        line: String,
    },
    /// The answer to `genmove` is not a square of the board, `pass` or `resign`.
    BadMove {
        /// The command, without its id.
        command: String,
        /// The first line of the engine's answer.
        line: String,
    },
    /// The engine answered `genmove` with `resign`.
    Resigned,
    /// A game GTP cannot set up: it starts from a position other than the 8x8 Othello start,
    /// or a move of it is not legal.
    Unplayable(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Spawn { command, source } => {
                write!(f, "cannot start the engine {command:?}: {source}")
            }
            ClientError::Exited(Some(status)) => write!(f, "the engine exited ({status})"),
            ClientError::Exited(None) => f.write_str("the engine closed its output"),
            ClientError::Timeout { command, waited } => write!(
                f,
                "the engine gave no answer to {command:?} within {:.1} s",
                waited.as_secs_f64()
            ),
            ClientError::Write(e) => write!(f, "cannot write to the engine: {e}"),
            ClientError::Refused { command, line } => {
                write!(f, "the engine answered {line:?} to {command:?}")
            }
            ClientError::BadMove { command, line } => write!(
                f,
                "the engine answered {line:?} to {command:?}: not a square, pass or resign"
            ),
            ClientError::Resigned => f.write_str("the engine resigned"),
            ClientError::Unplayable(why) => write!(f, "GTP cannot set up this game: {why}"),
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::Spawn { source, .. } | ClientError::Write(source) => Some(source),
            _ => None,
        }
    }
}

/// `black` or `white`, as commands name a colour.
fn color_word(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A move as `play` writes it: `f5` (lowercase, as Edax writes it) or `pass`.
fn move_word(mv: Move) -> String {
    match mv {
        Move::Play(sq) => sq.to_string(),
        Move::Pass => "pass".into(),
    }
}

/// What `genmove` can answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Generated {
    Move(Move),
    Resign,
}

/// Reads `genmove`'s answer: a square in any case, `pass` or `resign`; `None` for anything
/// else.
fn parse_genmove(text: &str) -> Option<Generated> {
    let word = text.trim();
    if word.eq_ignore_ascii_case("resign") {
        Some(Generated::Resign)
    } else if word.eq_ignore_ascii_case("pass") {
        Some(Generated::Move(Move::Pass))
    } else {
        let sq = Square::parse(word, BoardSize::EIGHT).ok()?;
        Some(Generated::Move(Move::Play(sq)))
    }
}

/// Whole seconds for `time_settings`, which takes integers: rounded up, so that a budget
/// under a second is not read as none.
fn whole_seconds(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

/// An engine process spoken to in GTP, on the 8x8 Othello board.
///
/// The client keeps the game it told the engine, so that `play` names the right colour and a
/// move the engine chose with `genmove` (which the engine has already played on its board) is
/// not sent back to it.
pub struct Client {
    process: EngineProcess,
    reader: ResponseReader,
    name: Option<String>,
    /// How long an answer to anything but `genmove` may take.
    timeout: Duration,
    next_id: u32,
    game: Game,
    /// The move the engine answered the last `genmove` with: on its board already.
    generated: Option<Move>,
    time: Option<TimeSettings>,
    /// `false` once the engine refused `time_settings`: the clock is then not sent again.
    takes_time: bool,
}

fn start() -> Position {
    Position::start(BoardSize::EIGHT, Rules::Othello)
}

impl Client {
    /// Starts `argv` (program and arguments) and opens the session: `protocol_version`,
    /// `name` (an engine that refuses it has no name) and `boardsize 8`, each answered
    /// within `timeout`, which also bounds every later answer but `genmove`'s. The engine's
    /// standard error is discarded.
    ///
    /// # Errors
    /// [`ClientError`] when it does not start, exits, does not answer in time, or refuses
    /// `protocol_version` or the 8x8 board.
    pub fn spawn(argv: &[String], timeout: Duration) -> Result<Client, ClientError> {
        let process = EngineProcess::spawn(argv).map_err(|source| ClientError::Spawn {
            command: argv.join(" "),
            source,
        })?;
        let mut client = Client {
            process,
            reader: ResponseReader::default(),
            name: None,
            timeout,
            next_id: 1,
            game: Game::new(start()),
            generated: None,
            time: None,
            takes_time: true,
        };
        client.must("protocol_version")?;
        let name = client.ask("name", timeout)?;
        if name.success && !name.text.is_empty() {
            client.name = Some(name.text);
        }
        client.must("boardsize 8")?;
        Ok(client)
    }

    /// The name the engine gave itself when asked `name`, if it did.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The clock to send with every game from the next [`Client::set_game`] on
    /// (`time_settings MAIN BYOYOMI STONES`, in whole seconds rounded up); `None` sends none,
    /// and the engine plays at its own pace. An engine that refuses `time_settings` is not
    /// sent it again: GTP makes the command optional.
    pub fn set_time_settings(&mut self, time: Option<TimeSettings>) {
        self.time = time;
    }

    /// Makes `game` the engine's game: `clear_board`, the time settings if any, and a
    /// `play black f5` / `play white pass` for each of its moves.
    ///
    /// # Errors
    /// [`ClientError::Unplayable`] for a game that does not start from the 8x8 Othello start,
    /// and the engine's failures, refusals included.
    pub fn set_game(&mut self, game: &Game) -> Result<(), ClientError> {
        if *game.start() != start() {
            return Err(ClientError::Unplayable(
                "it does not start from the 8x8 Othello start".into(),
            ));
        }
        self.must("clear_board")?;
        self.game = Game::new(start());
        self.generated = None;
        if let (Some(t), true) = (self.time, self.takes_time) {
            let command = format!(
                "time_settings {} {} {}",
                whole_seconds(t.main),
                whole_seconds(t.byo_yomi),
                t.stones
            );
            self.takes_time = self.ask(&command, self.timeout)?.success;
        }
        for &mv in game.moves() {
            self.play(mv)?;
        }
        Ok(())
    }

    /// Tells the engine the time `color` has left before its next move (`time_left black 95
    /// 0`, whole seconds rounded down, as on a real clock), if the engine takes time commands.
    ///
    /// # Errors
    /// The engine's failures (a refusal only stops further time commands).
    pub fn time_left(&mut self, color: Color, left: Duration) -> Result<(), ClientError> {
        if !self.takes_time {
            return Ok(());
        }
        let command = format!("time_left {} {} 0", color_word(color), left.as_secs());
        self.takes_time = self.ask(&command, self.timeout)?.success;
        Ok(())
    }

    /// Tells the engine a move was played (`play black f5`, `play white pass`), unless it is
    /// the move the engine itself chose with the last `genmove`.
    ///
    /// # Errors
    /// [`ClientError::Unplayable`] for a move not legal in the engine's game, and the
    /// engine's failures, refusals included.
    pub fn play(&mut self, mv: Move) -> Result<(), ClientError> {
        let turn = self.game.current().turn();
        match self.generated.take() {
            Some(chosen) if chosen == mv => {}
            Some(_) => {
                // The engine played its own choice; the game went another way.
                self.must("undo")?;
                self.send_play(turn, mv)?;
            }
            None => self.send_play(turn, mv)?,
        }
        self.game
            .play(mv)
            .map(|_| ())
            .map_err(|e| ClientError::Unplayable(format!("move {mv}: {e}")))
    }

    fn send_play(&mut self, color: Color, mv: Move) -> Result<(), ClientError> {
        self.must(&format!("play {} {}", color_word(color), move_word(mv)))
            .map(|_| ())
    }

    /// Asks for the engine's move for the side to move in `game` (`genmove black`) and waits
    /// up to `timeout` for the answer. The engine plays the move on its own board; tell the
    /// client with [`Client::play`] as for any move, and it is not sent again.
    ///
    /// # Errors
    /// [`ClientError`] when the engine exits, does not answer in time, refuses, resigns, or
    /// answers something that is not a square or `pass` (a move that is illegal is the
    /// caller's to judge).
    pub fn go(&mut self, game: &Game, timeout: Duration) -> Result<Move, ClientError> {
        let command = format!("genmove {}", color_word(game.current().turn()));
        let answer = self.ask(&command, timeout)?;
        if !answer.success {
            return Err(ClientError::Refused {
                command,
                line: answer.line,
            });
        }
        match parse_genmove(&answer.text) {
            Some(Generated::Move(mv)) => {
                self.generated = Some(mv);
                Ok(mv)
            }
            Some(Generated::Resign) => Err(ClientError::Resigned),
            None => Err(ClientError::BadMove {
                command,
                line: answer.line,
            }),
        }
    }

    /// Sends `command` and waits for a success.
    fn must(&mut self, command: &str) -> Result<Response, ClientError> {
        let answer = self.ask(command, self.timeout)?;
        if answer.success {
            Ok(answer)
        } else {
            Err(ClientError::Refused {
                command: command.to_string(),
                line: answer.line,
            })
        }
    }

    /// Sends `command` with the next id and waits up to `timeout` for its response. A
    /// response with another id answers an earlier command and is skipped; one without an id
    /// is taken as this command's (engines need not repeat ids).
    fn ask(&mut self, command: &str, timeout: Duration) -> Result<Response, ClientError> {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        let failed = |f: Failure| match f {
            Failure::Exited(status) => ClientError::Exited(status),
            Failure::Timeout => ClientError::Timeout {
                command: command.to_string(),
                waited: timeout,
            },
            Failure::Write(e) => ClientError::Write(e),
        };
        self.process
            .send(&format!("{id} {command}"))
            .map_err(failed)?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.process.recv(deadline).map_err(failed)?;
            if let Some(response) = self.reader.push(&line) {
                if response.id.is_none_or(|n| n == id) {
                    return Ok(response);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Move {
        Move::Play(Square::parse(name, BoardSize::EIGHT).unwrap())
    }

    #[test]
    fn genmove_answers() {
        assert_eq!(parse_genmove("f5"), Some(Generated::Move(sq("f5"))));
        assert_eq!(parse_genmove(" F5 "), Some(Generated::Move(sq("f5"))));
        assert_eq!(parse_genmove("PASS"), Some(Generated::Move(Move::Pass)));
        assert_eq!(parse_genmove("Resign"), Some(Generated::Resign));
        for bad in ["", "z9", "i1", "f5 d6", "PA"] {
            assert_eq!(parse_genmove(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn moves_and_colours_as_commands_write_them() {
        assert_eq!(move_word(sq("f5")), "f5");
        assert_eq!(move_word(Move::Pass), "pass");
        assert_eq!(color_word(Color::White), "white");
    }

    #[test]
    fn time_settings_take_whole_seconds_rounded_up() {
        assert_eq!(whole_seconds(Duration::ZERO), 0);
        assert_eq!(whole_seconds(Duration::from_secs(300)), 300);
        assert_eq!(whole_seconds(Duration::from_millis(1)), 1);
        assert_eq!(whole_seconds(Duration::from_millis(2500)), 3);
    }

    #[test]
    fn errors_name_the_command_and_the_line() {
        let e = ClientError::Refused {
            command: "genmove black".into(),
            line: "?7 no moves here".into(),
        };
        assert_eq!(
            e.to_string(),
            "the engine answered \"?7 no moves here\" to \"genmove black\""
        );
        let e = ClientError::BadMove {
            command: "genmove white".into(),
            line: "= z9".into(),
        };
        assert!(e.to_string().contains("\"= z9\""), "{e}");
        let e = ClientError::Timeout {
            command: "genmove white".into(),
            waited: Duration::from_secs(1),
        };
        assert_eq!(
            e.to_string(),
            "the engine gave no answer to \"genmove white\" within 1.0 s"
        );
    }
}
