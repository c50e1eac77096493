//! The engines of a match: an internal computer player (a level searched by its own engine,
//! or random, greedy, a classic algorithm) or an external program spoken to in NBoard or GTP.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reversi_core::{Color, Game, Move, TimeControl};
use reversi_engine::book::Book;
use reversi_engine::engine::Engine;
use reversi_engine::levels::Level;
use reversi_engine::time::TimeBudget;
use reversi_players::{Ai, Computer};
use reversi_protocol::{gtp, nboard};
use reversi_store::{Player, PlayerKind};

use crate::spec::{EngineSpec, Protocol};

/// A move an engine chose, with its evaluation (discs, for the mover) and the time it took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Choice {
    /// The move.
    pub mv: Move,
    /// Its evaluation in discs for the mover, when the engine gave one.
    pub eval: Option<f64>,
    /// The time from the question to the answer.
    pub time: Duration,
}

/// Why an external engine failed, in the words of its protocol.
#[derive(Debug)]
pub enum EngineError {
    /// An NBoard engine failed.
    Nboard(nboard::ClientError),
    /// A GTP engine failed.
    Gtp(gtp::ClientError),
}

impl EngineError {
    /// The engine stopped answering (rather than crashing or answering nonsense).
    #[must_use]
    pub fn is_timeout(&self) -> bool {
        matches!(
            self,
            EngineError::Nboard(nboard::ClientError::Timeout(_))
                | EngineError::Gtp(gtp::ClientError::Timeout { .. })
        )
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Nboard(e) => e.fmt(f),
            EngineError::Gtp(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<nboard::ClientError> for EngineError {
    fn from(e: nboard::ClientError) -> EngineError {
        EngineError::Nboard(e)
    }
}

impl From<gtp::ClientError> for EngineError {
    fn from(e: gtp::ClientError) -> EngineError {
        EngineError::Gtp(e)
    }
}

/// A timed match's clock at a move: the setting and the time each move so far took.
pub struct MoveClock<'a> {
    /// The clock each side started with, and its increment.
    pub control: TimeControl,
    /// Each move's time so far (`None` for the opening's moves, which took none).
    pub spent: &'a [Option<Duration>],
}

impl MoveClock<'_> {
    /// The time the side to move of `game` has left.
    #[must_use]
    pub fn left(&self, game: &Game) -> Duration {
        let (black, white) = self.control.time_left(game, self.spent);
        match game.current().turn() {
            Color::Black => black,
            Color::White => white,
        }
    }

    /// The time an internal level should take for its move in `game`.
    #[must_use]
    pub fn budget(&self, game: &Game) -> Duration {
        let empties = u32::try_from(game.current().empty_count()).unwrap_or(u32::MAX);
        TimeBudget::Clock {
            remaining: self.left(game),
            increment: self.control.increment,
        }
        .for_move(empties)
    }
}

/// A running external engine.
enum Client {
    Nboard(nboard::Client),
    Gtp(gtp::Client),
}

impl Client {
    fn name(&self) -> Option<&str> {
        match self {
            Client::Nboard(c) => c.name(),
            Client::Gtp(c) => c.name(),
        }
    }
}

/// How a match engine is run.
enum Kind {
    /// A level on its own engine: its own table, cleared every game, so that games are
    /// reproducible (with one thread) and the two sides never share what they learned. It
    /// plays as in a game (its time budget, its allowance), its time capped by the match.
    Level {
        engine: Arc<Engine>,
        computer: Computer,
        level: Level,
        time_per_move: Option<Duration>,
    },
    /// Random, greedy and the classic algorithms.
    Computer(Computer),
    /// An NBoard or GTP program; restarted for the next game after it fails.
    External {
        protocol: Protocol,
        argv: Vec<String>,
        depth: u32,
        /// What a GTP engine is told of its time.
        gtp_time: Option<gtp::TimeSettings>,
        /// Boxed: a client is much larger than the other kinds.
        client: Option<Box<Client>>,
    },
}

/// One side of a match.
pub struct Contender {
    label: String,
    kind: Kind,
}

/// How the internal engines are set up.
#[derive(Debug, Clone, Copy)]
pub struct Setup {
    /// Search threads of a level.
    pub threads: usize,
    /// The transposition table of a level, in MB.
    pub hash_mb: usize,
    /// A cap on each move of a level, and each move's time of a GTP engine.
    pub time_per_move: Option<Duration>,
    /// The match's clock: GTP engines are told it (`time_settings BASE 0 0`).
    pub clock: Option<TimeControl>,
    /// The `set depth` of NBoard engines.
    pub depth: u32,
}

/// The opening book of an internal player: the process's, or this one or none.
#[derive(Debug, Clone, Default)]
pub enum BookChoice {
    /// The book of the program (`--book`, or the shipped one).
    #[default]
    Process,
    /// This book, or none.
    Own(Option<Arc<Book>>),
}

impl Contender {
    /// A contender called `label` on the command line.
    #[must_use]
    pub fn new(label: &str, spec: &EngineSpec, setup: &Setup, book: &BookChoice) -> Contender {
        let with_book = |c: Computer| match book {
            BookChoice::Process => c,
            BookChoice::Own(b) => c.with_book(b.clone()),
        };
        let kind = match spec {
            EngineSpec::Internal(Ai::Level(level)) => {
                let engine = Arc::new(Engine::new(setup.hash_mb, setup.threads));
                Kind::Level {
                    computer: with_book(
                        Computer::new(Ai::Level(*level), 0x5eed).with_engine(Arc::clone(&engine)),
                    ),
                    engine,
                    level: *level,
                    time_per_move: setup.time_per_move,
                }
            }
            EngineSpec::Internal(ai) => Kind::Computer(with_book(Computer::new(*ai, 0x5eed))),
            EngineSpec::External(protocol, argv) => Kind::External {
                protocol: *protocol,
                argv: argv.clone(),
                depth: setup.depth,
                // A clock as GTP's absolute time (no byo-yomi; the increment, which GTP cannot
                // say, shows in each `time_left`), else the time per move as byo-yomi.
                gtp_time: match (setup.clock, setup.time_per_move) {
                    (Some(clock), _) => Some(gtp::TimeSettings {
                        main: clock.base,
                        byo_yomi: Duration::ZERO,
                        stones: 0,
                    }),
                    (None, t) => t.map(|t| gtp::TimeSettings {
                        main: Duration::ZERO,
                        byo_yomi: t,
                        stones: 1,
                    }),
                },
                client: None,
            },
        };
        Contender {
            label: label.to_string(),
            kind,
        }
    }

    /// The level, for an internal level.
    #[must_use]
    pub fn level(&self) -> Option<String> {
        match &self.kind {
            Kind::Level { level, .. } => Some(level.get().to_string()),
            _ => None,
        }
    }

    /// The name an external engine gave itself, once started.
    #[must_use]
    pub fn engine_name(&self) -> Option<&str> {
        match &self.kind {
            Kind::External {
                client: Some(c), ..
            } => c.name(),
            _ => None,
        }
    }

    /// A new game from the position `game` reaches: internal engines forget earlier games,
    /// an external one is started if it is not running and told the game.
    ///
    /// # Errors
    /// When an external engine cannot be started or told.
    pub fn new_game(&mut self, game: &Game, timeout: Duration) -> Result<(), EngineError> {
        match &mut self.kind {
            Kind::Level { engine, .. } => engine.clear(),
            Kind::Computer(_) => {}
            Kind::External {
                protocol,
                argv,
                depth,
                gtp_time,
                client,
            } => {
                if client.is_none() {
                    *client = Some(Box::new(start(
                        *protocol, argv, *depth, *gtp_time, timeout,
                    )?));
                }
                match client.as_deref_mut() {
                    Some(Client::Nboard(c)) => c.set_game(game)?,
                    Some(Client::Gtp(c)) => c.set_game(game)?,
                    None => {}
                }
            }
        }
        Ok(())
    }

    /// This engine's move at the end of `game` (whose side to move has a legal move), with
    /// `clock` when the match is timed.
    ///
    /// # Errors
    /// When an external engine crashes, hangs past `timeout`, or answers no move.
    pub fn choose(
        &mut self,
        game: &Game,
        timeout: Duration,
        clock: Option<&MoveClock<'_>>,
    ) -> Result<Choice, EngineError> {
        let started = Instant::now();
        match &mut self.kind {
            Kind::Level {
                computer,
                time_per_move,
                ..
            } => {
                let by_clock = clock.map(|c| c.budget(game));
                let limit = match (*time_per_move, by_clock) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                computer.set_time_limit(limit);
                Ok(computer_choice(computer, game, started))
            }
            Kind::Computer(c) => Ok(computer_choice(c, game, started)),
            Kind::External { client, .. } => {
                let (mv, eval) = match client.as_deref_mut() {
                    Some(Client::Nboard(c)) => {
                        if let Some(clock) = clock {
                            let seconds: Vec<Option<f64>> = clock
                                .spent
                                .iter()
                                .map(|t| t.map(|d| d.as_secs_f64()))
                                .collect();
                            c.set_timed_game(game, Some(clock.control), &seconds)?;
                        }
                        let m = c.go(game, timeout)?;
                        (m.mv, m.eval)
                    }
                    // GTP answers a move and nothing more.
                    Some(Client::Gtp(c)) => {
                        if let Some(clock) = clock {
                            c.time_left(game.current().turn(), clock.left(game))?;
                        }
                        (c.go(game, timeout)?, None)
                    }
                    None => return Err(nboard::ClientError::Exited(None).into()),
                };
                Ok(Choice {
                    mv,
                    eval,
                    time: started.elapsed(),
                })
            }
        }
    }

    /// Tells an external engine the move just played (a GTP engine is not told its own move,
    /// which `genmove` has already played on its board).
    ///
    /// # Errors
    /// When the engine cannot be written to, or (GTP) refuses the move.
    pub fn observe(&mut self, mv: Move) -> Result<(), EngineError> {
        let Kind::External { client, .. } = &mut self.kind else {
            return Ok(());
        };
        match client.as_deref_mut() {
            Some(Client::Nboard(c)) => Ok(c.play(mv)?),
            Some(Client::Gtp(c)) => Ok(c.play(mv)?),
            None => Ok(()),
        }
    }

    /// The contender's name on the command line.
    #[must_use]
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The player as the history records it: the engine's own name when it gave one, and
    /// the level of an internal level.
    #[must_use]
    pub fn history_player(&self) -> Player {
        let name = match self.engine_name() {
            Some(n) => format!("{n} ({})", self.label),
            None => self.label.clone(),
        };
        Player {
            name,
            kind: PlayerKind::Computer,
            level: self.level(),
        }
    }

    /// Seeds an internal player's random choices (its allowance and its book) for the next
    /// game.
    pub fn set_seed(&mut self, seed: u64) {
        match &mut self.kind {
            Kind::Level { computer, .. } | Kind::Computer(computer) => computer.set_seed(seed),
            Kind::External { .. } => {}
        }
    }

    /// After a failure: an external engine is ended, to be started afresh next game.
    pub fn reset(&mut self) {
        if let Kind::External { client, .. } = &mut self.kind {
            *client = None;
        }
    }
}

/// Starts an external engine. A GTP engine is given its time settings, if there are any
/// (GTP has no command for a search depth).
fn start(
    protocol: Protocol,
    argv: &[String],
    depth: u32,
    gtp_time: Option<gtp::TimeSettings>,
    timeout: Duration,
) -> Result<Client, EngineError> {
    Ok(match protocol {
        Protocol::Nboard => Client::Nboard(nboard::Client::spawn(argv, depth, timeout)?),
        Protocol::Gtp => {
            let mut c = gtp::Client::spawn(argv, timeout)?;
            c.set_time_settings(gtp_time);
            Client::Gtp(c)
        }
    })
}

fn computer_choice(c: &mut Computer, game: &Game, started: Instant) -> Choice {
    let stop = AtomicBool::new(false);
    let decision = c.choose(game.current(), &stop, &mut |_| {});
    let (mv, eval) = match decision {
        Some(d) => (d.mv, reversi_game::evaluation(&d)),
        None => (Move::Pass, None),
    };
    Choice {
        mv,
        eval,
        time: started.elapsed(),
    }
}
