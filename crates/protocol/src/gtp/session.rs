//! The engine's side of a GTP session: the game the controller set up, its time settings and
//! the clocks it reported, and one response to each command, written to any `Write`.

use std::io::{self, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use reversi_core::{BoardSize, Color, Game, Move, Position, Rules, Score};
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::levels::Level;
use reversi_engine::time::TimeBudget;
use reversi_engine::Board;

use super::command::{Command, Request, COMMANDS};

/// Whether the session goes on after a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// The controller said `quit` (and was answered): the session is over.
    Quit,
}

/// The answer to `name`.
pub const NAME: &str = "reversi";

/// The answer to `version`: this crate's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The level a timed search uses, as deep as its time allows: probcut at 73 % in the midgame
/// and an exact solve from 37 empty squares, both stopped by the budget when it runs out.
const TIMED_LEVEL: u8 = 59;

/// What `time_settings` asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeSettings {
    /// Main time for the whole game.
    pub main: Duration,
    /// Each byo-yomi period, once the main time is spent.
    pub byo_yomi: Duration,
    /// Moves to make in each byo-yomi period; 0 for no byo-yomi (absolute time), or for no
    /// time limit at all when `byo_yomi` is not zero, as GTP defines it.
    pub stones: u32,
}

impl TimeSettings {
    /// No limit: byo-yomi time without stones (GTP's way to say so), or no time at all.
    #[must_use]
    pub fn is_unlimited(&self) -> bool {
        (self.stones == 0 && !self.byo_yomi.is_zero())
            || (self.main.is_zero() && self.byo_yomi.is_zero())
    }
}

/// One side's clock: time left in the current period, and the stones still to play in it
/// (0 while in main time).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Clock {
    left: Duration,
    stones: u32,
}

/// A GTP session over an engine, on the 8x8 Othello board (the only size the engine searches).
///
/// `genmove` searches at a fixed level until `time_settings` sets a clock; from then on each
/// move gets a share of the time left (see [`Session::budget`]).
///
/// # Examples
/// ```
/// use reversi_engine::engine::Engine;
/// use reversi_engine::levels::Level;
/// use reversi_protocol::gtp::{Flow, Session};
///
/// let mut session = Session::new(Engine::new(1, 1), Level::new(2).expect("a level"));
/// let mut out = Vec::new();
/// for line in ["protocol_version", "1 play b f5", "2 play w F5", "genmove w"] {
///     assert_eq!(session.handle_line(line, &mut out)?, Flow::Continue);
/// }
/// assert_eq!(session.handle_line("quit", &mut out)?, Flow::Quit);
///
/// let replies = String::from_utf8(out)?;
/// let replies: Vec<&str> = replies.split("\n\n").collect();
/// assert_eq!(replies[..3], ["= 2", "=1", "?2 illegal move"]);
/// // White's answer to f5: one of d6, f4 and f6, lowercase as Edax writes it.
/// assert!(["= d6", "= f4", "= f6"].contains(&replies[3]), "{replies:?}");
/// assert_eq!(replies[4], "=");
/// assert_eq!(session.game().moves().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Session {
    engine: Engine,
    game: Game,
    /// Move numbers of the passes played for a side that had to pass, without being asked.
    implicit_passes: Vec<usize>,
    level: Level,
    komi: f64,
    time: Option<TimeSettings>,
    clocks: [Option<Clock>; 2],
    stop: AtomicBool,
}

fn start() -> Game {
    Game::new(Position::start(BoardSize::EIGHT, Rules::Othello))
}

/// `seconds` as a duration; the parser refuses what none holds, but a command may be built
/// by hand.
fn duration(seconds: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("syntax error ({seconds} seconds is not a time)"))
}

fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Session {
    /// A session on the 8x8 Othello start, searching at `level` while no time is set.
    #[must_use]
    pub fn new(engine: Engine, level: Level) -> Session {
        Session {
            engine,
            game: start(),
            implicit_passes: Vec::new(),
            level,
            komi: 0.0,
            time: None,
            clocks: [None, None],
            stop: AtomicBool::new(false),
        }
    }

    /// The game so far, passes included.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The komi the controller set: kept, not used, as Othello has none.
    #[must_use]
    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// The time settings, if the controller gave any.
    #[must_use]
    pub fn time_settings(&self) -> Option<TimeSettings> {
        self.time
    }

    /// Handles one line from the controller and writes its response: `=[id] result` or
    /// `?[id] error`, then an empty line. Empty lines and comments get no response.
    ///
    /// # Errors
    /// Only when writing the response fails.
    pub fn handle_line(&mut self, line: &str, out: &mut dyn Write) -> io::Result<Flow> {
        let Some(request) = Request::parse(line) else {
            return Ok(Flow::Continue);
        };
        let (result, flow) = match request.command {
            Ok(command) => {
                let flow = if command == Command::Quit {
                    Flow::Quit
                } else {
                    Flow::Continue
                };
                (self.handle(&command), flow)
            }
            Err(e) => (Err(e.to_string()), Flow::Continue),
        };
        let id = request.id.map(|n| n.to_string()).unwrap_or_default();
        let (mark, text) = match &result {
            Ok(text) => ('=', text),
            Err(text) => ('?', text),
        };
        let response = if text.is_empty() {
            format!("{mark}{id}\n\n")
        } else {
            format!("{mark}{id} {text}\n\n")
        };
        out.write_all(response.as_bytes())?;
        out.flush()?;
        Ok(flow)
    }

    /// Carries out `command`: the text of its response, or of its error.
    ///
    /// # Errors
    /// The error message GTP sends back after `?`: `illegal move`, `unacceptable size`,
    /// `cannot undo`, `wrong color`.
    pub fn handle(&mut self, command: &Command) -> Result<String, String> {
        let empty = || Ok(String::new());
        match *command {
            Command::ProtocolVersion => Ok("2".into()),
            Command::Name => Ok(NAME.into()),
            Command::Version => Ok(VERSION.into()),
            Command::KnownCommand(ref name) => Ok(COMMANDS.contains(&name.as_str()).to_string()),
            Command::ListCommands => Ok(COMMANDS.join("\n")),
            Command::Quit => empty(),
            Command::BoardSize(8) => empty(),
            Command::BoardSize(_) => Err("unacceptable size".into()),
            Command::ClearBoard => {
                self.game = start();
                self.implicit_passes.clear();
                self.clocks = [None, None];
                empty()
            }
            Command::Komi(k) => {
                self.komi = k;
                empty()
            }
            Command::Play(color, mv) => self.play(color, mv).map(|()| String::new()),
            Command::GenMove(color) => self.genmove(color),
            Command::Undo => self.undo().map(|()| String::new()),
            Command::ShowBoard => Ok(self.board_text()),
            Command::FinalScore => Ok(score_text(self.game.current())),
            Command::TimeSettings {
                main,
                byo_yomi,
                stones,
            } => {
                self.time = Some(TimeSettings {
                    main: duration(main)?,
                    byo_yomi: duration(byo_yomi)?,
                    stones,
                });
                self.clocks = [None, None];
                empty()
            }
            Command::TimeLeft {
                color,
                seconds,
                stones,
            } => {
                self.clocks[index(color)] = Some(Clock {
                    left: duration(seconds)?,
                    stones,
                });
                empty()
            }
        }
    }

    /// When `color` is not to move but the side to move has to pass, plays that pass, as
    /// Edax does for controllers that leave passes out. `false` when it is still not
    /// `color`'s turn.
    fn pass_for_the_other_side(&mut self, color: Color) -> bool {
        let pos = self.game.current();
        if pos.turn() == color {
            return true;
        }
        if pos.must_pass() && self.game.play(Move::Pass).is_ok() {
            self.implicit_passes.push(self.game.moves().len());
            return true;
        }
        false
    }

    /// `play`: anything the rules refuse is an `illegal move`, and the game is left as it was.
    fn play(&mut self, color: Color, mv: Move) -> Result<(), String> {
        let before = (self.game.moves().len(), self.implicit_passes.len());
        if mv != Move::Pass && self.pass_for_the_other_side(color) {
            if self.game.play(mv).is_ok() {
                return Ok(());
            }
        } else if mv == Move::Pass
            && self.game.current().turn() == color
            && self.game.play(Move::Pass).is_ok()
        {
            return Ok(());
        }
        // Take back an implicit pass played for nothing.
        while self.game.moves().len() > before.0 {
            self.game.undo();
        }
        self.implicit_passes.truncate(before.1);
        Err("illegal move".into())
    }

    /// `undo`: the last move, and the passes played implicitly before it, so that one `undo`
    /// takes back one `play` or `genmove` of the controller.
    fn undo(&mut self) -> Result<(), String> {
        if self.game.undo().is_none() {
            return Err("cannot undo".into());
        }
        while self.implicit_passes.last() == Some(&self.game.moves().len()) {
            self.implicit_passes.pop();
            self.game.undo();
        }
        Ok(())
    }

    /// `genmove`: searches, plays and answers the move (`f5`, lowercase as Edax writes it),
    /// or `pass` when `color` has no move or the game is over.
    fn genmove(&mut self, color: Color) -> Result<String, String> {
        if self.game.current().is_game_over() {
            return Ok("pass".into());
        }
        if !self.pass_for_the_other_side(color) {
            return Err("wrong color".into());
        }
        let pos = self.game.current().clone();
        if pos.must_pass() {
            self.game.play(Move::Pass).map_err(|e| e.to_string())?;
            return Ok("pass".into());
        }
        let (board, mask) = Board::from_position(&pos).map_err(|e| e.to_string())?;
        let empties = u32::try_from(pos.empty_count()).unwrap_or(60);
        let limits = match self.budget(color, empties) {
            Some(time) => Limits {
                time: Some(time),
                ..Limits::level(Level::new(TIMED_LEVEL).unwrap_or(Level::DEFAULT))
            },
            None => Limits::level_at(self.level, empties),
        };
        let started = Instant::now();
        let thinking = self
            .engine
            .search(board, mask, &limits, &self.stop, &mut |_| {});
        self.spend(color, started.elapsed());
        // The search always finds a move when there is one; the first legal move otherwise.
        let mv = thinking
            .best
            .map(|c| c.mv)
            .or_else(|| pos.legal_moves().first().map(|&sq| Move::Play(sq)))
            .ok_or_else(|| "no move found".to_string())?;
        self.game.play(mv).map_err(|e| e.to_string())?;
        Ok(mv.to_string().to_ascii_lowercase())
    }

    /// The time `color` may spend on its next move with `empties` empty squares, `None`
    /// without a time limit.
    ///
    /// In main time (or with absolute time) the clock is shared out over the moves to come by
    /// [`TimeBudget::Clock`], a byo-yomi that follows counting as an increment; in byo-yomi
    /// each of the stones left gets an equal part of 90 % of the period's time left. The
    /// clock is the one `time_left` last reported, or, without one, the main time, less
    /// what the engine has spent since.
    #[must_use]
    pub fn budget(&self, color: Color, empties: u32) -> Option<Duration> {
        let t = self.time.filter(|t| !t.is_unlimited())?;
        let clock = self.clocks[index(color)].unwrap_or(Clock {
            left: t.main,
            stones: 0,
        });
        let per_stone = |left: Duration, stones: u32| {
            TimeBudget::PerMove(left.mul_f64(0.9) / stones.max(1)).for_move(empties)
        };
        let budget = if clock.stones > 0 {
            per_stone(clock.left, clock.stones)
        } else if t.stones > 0 {
            let increment = t.byo_yomi / t.stones;
            let main = TimeBudget::Clock {
                remaining: clock.left,
                increment,
            }
            .for_move(empties);
            main.max(per_stone(t.byo_yomi, t.stones))
        } else {
            TimeBudget::Clock {
                remaining: clock.left,
                increment: Duration::ZERO,
            }
            .for_move(empties)
        };
        Some(budget.max(Duration::from_millis(1)))
    }

    /// Takes `spent` off `color`'s clock, entering or renewing byo-yomi as the time runs
    /// out, until the controller reports the clock again.
    fn spend(&mut self, color: Color, spent: Duration) {
        let Some(t) = self.time else { return };
        let clock = self.clocks[index(color)].unwrap_or(Clock {
            left: t.main,
            stones: 0,
        });
        let mut next = Clock {
            left: clock.left.saturating_sub(spent),
            stones: clock.stones,
        };
        if next.stones > 0 {
            next.stones -= 1;
            if next.stones == 0 {
                next = Clock {
                    left: t.byo_yomi,
                    stones: t.stones,
                };
            }
        } else if next.left.is_zero() && t.stones > 0 {
            next = Clock {
                left: t.byo_yomi,
                stones: t.stones,
            };
        }
        self.clocks[index(color)] = Some(next);
    }

    /// `showboard`: the diagram (`X` Black, `O` White), the disc counts and who is to move,
    /// on lines of their own after the `=`.
    fn board_text(&self) -> String {
        let pos = self.game.current();
        let state = if pos.is_game_over() {
            "game over".to_string()
        } else {
            format!("{} to move", pos.turn())
        };
        format!(
            "\n{}Black (X) {}, White (O) {}; {state}",
            pos,
            pos.disc_count(Color::Black),
            pos.disc_count(Color::White)
        )
    }
}

/// `final_score` of `pos`: `B+10`, `W+4` or `0` for a draw, empty squares to the side ahead
/// (the result, once the game is over).
#[must_use]
pub fn score_text(pos: &Position) -> String {
    let margin = Score::of(pos).margin();
    match margin.signum() {
        1 => format!("B+{margin}"),
        -1 => format!("W+{}", -margin),
        _ => "0".into(),
    }
}

#[cfg(test)]
mod tests;
