//! A game being played, independent of any screen: its settings and players, the game with
//! its undo/redo stacks, whose turn it is and the result. The terminal UI and plain mode both
//! drive a [`Session`]; every move played reaches the game through [`Session::commit`], and
//! from there the session's [`GameLog`], when it has one.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use reversi_core::{Color, Game, IllegalMove, Move, Position, Score, Square};
use reversi_engine::clock::{SharedClock, SystemClock};
use reversi_engine::engine::Engine;
use reversi_engine::time::TimeBudget;
use reversi_engine::{ScoreKind, Thinking};
use reversi_players::{Advisor, Computer, Decision};

use crate::clock::{time_left, ClockView};
use crate::log::{LogError, LogHandle, LogId, LoggedMove};
use crate::player::Player;
use crate::settings::Settings;

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    /// The side to move is played by the computer.
    NotYourTurn(Color),
    /// The rules refuse the move; the [`IllegalMove`] says why (the square is taken or flips
    /// no disc, a pass while a square can be played, the game is over).
    Illegal(IllegalMove),
    /// The side's time ran out before the move: the game is lost on time.
    OutOfTime(Color),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::NotYourTurn(c) => write!(f, "it is {c}'s turn, and the computer plays {c}"),
            PlayError::Illegal(e) => e.fmt(f),
            PlayError::OutOfTime(c) => write!(f, "{c}'s time ran out: {c} loses on time"),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<IllegalMove> for PlayError {
    fn from(e: IllegalMove) -> Self {
        PlayError::Illegal(e)
    }
}

/// The last move played: who played it, where, and the discs it flipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastMove {
    /// The side that moved.
    pub color: Color,
    /// The square played, or a pass.
    pub mv: Move,
    /// The opponent's discs the move turned over (none for a pass or a Reversi centre
    /// placement).
    pub flipped: Vec<Square>,
}

/// A computer's turn, ready to be thought about on any thread.
#[derive(Debug, Clone)]
pub struct ComputerTurn {
    /// The side the computer plays now.
    pub color: Color,
    /// The position to choose a move in.
    pub position: Position,
    /// Moves played before this turn; [`Session::play_computer`] refuses a decision made for
    /// another ply.
    pub ply: usize,
    pub(crate) computer: Computer,
}

impl ComputerTurn {
    /// The computer player that is to choose (its kind, seed and time cap), for a caller
    /// that searches elsewhere (another thread or worker) with a player made the same way.
    #[must_use]
    pub fn computer(&self) -> &Computer {
        &self.computer
    }

    /// Thinks until decided or stopped (then with the best move found so far).
    pub fn run(
        mut self,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Thinking),
    ) -> Option<Decision> {
        self.computer.choose(&self.position, stop, progress)
    }
}

/// What a session reads time on, and what its computer players search with and consult (an
/// engine and a book): the program makes one and hands it to its sessions, so that they share
/// one engine's table; a platform without the system's clock (the browser) hands in its own.
#[derive(Clone)]
pub struct Context {
    /// The clock that times the moves and runs the game clocks.
    pub clock: SharedClock,
    /// The engine and the book of the computer players.
    pub advisor: Advisor,
}

impl Context {
    /// The system's clock, and an engine of the session's own ([`Advisor::standard`], made
    /// at its first search) with the shipped book.
    ///
    /// # Panics
    /// Where the platform has no clock (`wasm32-unknown-unknown`).
    #[must_use]
    pub fn system() -> Context {
        Context::with(Advisor::standard())
    }

    /// The system's clock and `advisor`.
    ///
    /// # Panics
    /// Where the platform has no clock (`wasm32-unknown-unknown`).
    #[must_use]
    pub fn with(advisor: Advisor) -> Context {
        Context {
            clock: SystemClock::shared(),
            advisor,
        }
    }

    /// `engine` with the shipped book, and the clock the engine searches by.
    #[must_use]
    pub fn on(engine: Arc<Engine>) -> Context {
        Context {
            clock: engine.clock().clone(),
            advisor: Advisor::new(engine, reversi_engine::book::shipped()),
        }
    }

    fn now(&self) -> Duration {
        self.clock.now()
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("clock", &self.clock)
            .field("advisor", &self.advisor)
            .finish()
    }
}

/// A game in progress with its players and undo/redo stacks.
///
/// A session with a log keeps its game there: the record is made at the first move, each
/// move is added as it is played, undo takes moves back from it, and the game's end is
/// recorded. A clone writes to the same record.
///
/// # Examples
/// Two people at one 8x8 board play the shortest possible game, in which White is wiped out
/// after nine moves:
/// ```
/// use reversi_core::{Color, Score};
/// use reversi_game::{result_line, PlayError, Player, Session, Settings};
///
/// let settings = Settings { white: Player::Human, ..Settings::default() };
/// let mut session = Session::new(settings);
/// let e6 = session.position().parse_square("e6")?;
/// session.play(e6)?;
/// assert_eq!(session.to_move(), Some(Color::White));
/// assert_eq!(session.last_move().map(|m| m.flipped.len()), Some(1), "e6 flips e5");
///
/// // A square that flips nothing is refused, and the game is unchanged.
/// let a1 = session.position().parse_square("a1")?;
/// assert!(matches!(session.play(a1), Err(PlayError::Illegal(_))));
/// assert_eq!(session.game().moves().len(), 1);
///
/// // Between two people, undo takes back one move and redo plays it again.
/// assert_eq!(session.undo(), 1);
/// assert_eq!(session.to_move(), Some(Color::Black));
/// assert!(session.can_redo());
/// assert_eq!(session.redo(), 1);
///
/// for name in ["f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"] {
///     let square = session.position().parse_square(name)?;
///     session.play(square)?;
/// }
/// assert!(session.is_over() && session.to_move().is_none());
/// // Black has 13 discs and White none; the 51 empty squares go to the winner.
/// let score = session.result().expect("the game is over");
/// assert_eq!(score, Score { black: 64, white: 0 });
/// assert_eq!(result_line(score), "Black wins 64-0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Session {
    settings: Settings,
    game: Game,
    /// Each move of `game` with its time and evaluation.
    records: Vec<LoggedMove>,
    /// Moves taken back, the next one to redo last.
    redo: Vec<LoggedMove>,
    /// When the side to move could start choosing (on `context`'s clock).
    since: Duration,
    /// The clock and the computer players' engine.
    context: Context,
    /// The side whose time ran out, which lost the game.
    time_out: Option<Color>,
    saving: Option<Saving>,
}

/// The words after the winner of a game lost on time (`White wins on time`); the score is
/// then [`Score::forfeit`], every square to the winner.
pub const TIME_LOSS: &str = "on time";

impl Session {
    /// A new game from the start of `settings`' board and rule, kept nowhere.
    #[must_use]
    pub fn new(settings: Settings) -> Session {
        Session::with_log(settings, None)
    }

    /// A new game kept in `log` (nothing is kept with `None`).
    #[must_use]
    pub fn with_log(settings: Settings, log: Option<LogHandle>) -> Session {
        let start = Position::start(settings.size, settings.rules);
        Session::from_position(settings, start, log)
    }

    /// A new game from a set-up `start` (its size and rule replace those of `settings`),
    /// kept in `log` with that start. A start where neither side can move is a finished
    /// game, which is kept nowhere.
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{BoardSize, Color, Position, Rules};
    /// use reversi_game::{Player, Session, Settings};
    ///
    /// let start = Position::start(BoardSize::SIX, Rules::Othello).with_turn(Color::White);
    /// let settings = Settings { white: Player::Human, ..Settings::default() };
    /// let session = Session::from_position(settings, start.clone(), None);
    /// assert_eq!(session.settings().size, BoardSize::SIX);
    /// assert_eq!(session.to_move(), Some(Color::White));
    /// assert_eq!(session.rematch().game().start(), &start);
    /// ```
    #[must_use]
    pub fn from_position(settings: Settings, start: Position, log: Option<LogHandle>) -> Session {
        Session::in_context(settings, start, log, Context::system())
    }

    /// [`Session::from_position`] timed by `context`'s clock, its computer players searching
    /// with `context`'s engine.
    #[must_use]
    pub fn in_context(
        settings: Settings,
        start: Position,
        log: Option<LogHandle>,
        context: Context,
    ) -> Session {
        let settings = Settings {
            size: start.size(),
            rules: start.rules(),
            ..settings
        };
        Session {
            game: Game::new(start),
            settings,
            records: Vec::new(),
            redo: Vec::new(),
            since: context.now(),
            context,
            time_out: None,
            saving: log.map(Saving::new),
        }
    }

    /// Continues `game`, already kept as record `id` of `log` with its moves' `records`; new
    /// moves are added to that record. `settings` must be the game's size and rules.
    #[must_use]
    pub fn resume(
        settings: Settings,
        game: Game,
        records: Vec<LoggedMove>,
        log: Option<LogHandle>,
        id: LogId,
    ) -> Session {
        Session::resume_in_context(settings, game, records, log, id, Context::system())
    }

    /// [`Session::resume`] in `context` (see [`Session::in_context`]).
    #[must_use]
    pub fn resume_in_context(
        settings: Settings,
        game: Game,
        records: Vec<LoggedMove>,
        log: Option<LogHandle>,
        id: LogId,
        context: Context,
    ) -> Session {
        let records = game
            .moves()
            .iter()
            .enumerate()
            .map(|(i, &mv)| match records.get(i) {
                Some(r) if r.mv == mv => *r,
                _ => LoggedMove {
                    mv,
                    time_ms: None,
                    eval: None,
                },
            })
            .collect();
        let saving = log.map(|log| Saving {
            id: Some(id),
            kept: game.moves().to_vec(),
            ..Saving::new(log)
        });
        let mut session = Session {
            game,
            settings,
            records,
            redo: Vec::new(),
            since: context.now(),
            context,
            time_out: None,
            saving,
        };
        // A game that ended without its end being kept gets it now.
        session.save();
        session
    }

    /// The record the game is kept as, once its first move is kept.
    #[must_use]
    pub fn log_id(&self) -> Option<LogId> {
        self.saving.as_ref().and_then(|s| s.id)
    }

    /// Whether the game is being kept in a log.
    #[must_use]
    pub fn is_saving(&self) -> bool {
        self.saving.is_some()
    }

    /// Why the last attempt to keep the game failed, while it stays failed.
    #[must_use]
    pub fn save_error(&self) -> Option<&LogError> {
        self.saving.as_ref().and_then(|s| s.error.as_ref())
    }

    /// A failure to keep the game not reported yet (each new failure once).
    pub fn take_save_warning(&mut self) -> Option<LogError> {
        let saving = self.saving.as_mut()?;
        if !saving.fresh {
            return None;
        }
        saving.fresh = false;
        saving.error.clone()
    }

    /// Each move of the game so far with its time and evaluation.
    #[must_use]
    pub fn records(&self) -> &[LoggedMove] {
        &self.records
    }

    /// What the game is played with.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game so far (start position and moves, passes included).
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The position on the board now.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.game.current()
    }

    /// Who plays `color`.
    #[must_use]
    pub fn player(&self, color: Color) -> Player {
        self.settings.player(color)
    }

    /// The side to move, or `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Color> {
        (!self.is_over()).then(|| self.position().turn())
    }

    /// Whether a person is to choose a square now (not a forced pass, not the game's end).
    #[must_use]
    pub fn is_human_turn(&self) -> bool {
        self.time_out.is_none() && self.is_human_decision(self.position())
    }

    /// Whether the side to move has no legal square and must pass (the game goes on).
    #[must_use]
    pub fn must_pass(&self) -> bool {
        self.position().must_pass()
    }

    /// Whether the game is over: neither side has a legal square, or a side's time ran out.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.game.is_over() || self.time_out.is_some()
    }

    /// The final score (empty squares to the winner), once the game is over; after a loss on
    /// time, every square to the winner.
    #[must_use]
    pub fn result(&self) -> Option<Score> {
        match self.time_out {
            Some(loser) => Some(Score::forfeit(loser, self.settings.size)),
            None => self.game.score(),
        }
    }

    /// The result in words once the game is over: `Black wins 40-24`, or `White wins on
    /// time` after a loss on time.
    #[must_use]
    pub fn result_text(&self) -> Option<String> {
        match self.time_out {
            Some(loser) => Some(format!("{} wins {TIME_LOSS}", loser.opposite())),
            None => self.game.score().map(result_line),
        }
    }

    /// The side that lost on time, if one did.
    #[must_use]
    pub fn lost_on_time(&self) -> Option<Color> {
        self.time_out
    }

    /// Ends a resumed game as lost on time by `loser`, as its history records it (the
    /// loser's last, unfinished thinking is not among its moves, so the clocks alone do not
    /// tell). For showing a game that has ended: it saves nothing.
    pub fn restore_time_loss(&mut self, loser: Color) {
        self.time_out = Some(loser);
        self.redo.clear();
    }

    /// Both clocks now (the side to move's counting down), for a timed game.
    #[must_use]
    pub fn clocks(&self) -> Option<ClockView> {
        let control = self.settings.clock?;
        let mut view = time_left(control, &self.game, &self.records);
        if let Some(loser) = self.time_out {
            // The loser's last, unfinished thinking used up what was left.
            view.running = None;
            match loser {
                Color::Black => view.black = Duration::ZERO,
                Color::White => view.white = Duration::ZERO,
            }
        }
        if let Some(side) = view.running {
            let thinking = self.context.now().saturating_sub(self.since);
            match side {
                Color::Black => view.black = view.black.saturating_sub(thinking),
                Color::White => view.white = view.white.saturating_sub(thinking),
            }
        }
        Some(view)
    }

    /// Ends the game when the side to move has run out of time, and returns that side (also
    /// when it had lost on time before). Front ends call it as their clocks tick; every move
    /// checks it first.
    pub fn check_time(&mut self) -> Option<Color> {
        if self.time_out.is_some() {
            return self.time_out;
        }
        let view = self.clocks()?;
        let side = view.running?;
        // A side with no legal square passes at once: its clock cannot run out.
        if self.position().must_pass() || !view.left(side).is_zero() {
            return None;
        }
        self.time_out = Some(side);
        self.redo.clear();
        self.save();
        Some(side)
    }

    /// The computer's turn to think about, when a computer is to choose a square now.
    #[must_use]
    pub fn computer_turn(&self) -> Option<ComputerTurn> {
        let pos = self.position();
        let ai = self.player(pos.turn()).ai()?;
        if !pos.has_legal_move() || self.time_out.is_some() {
            return None;
        }
        let ply = self.game.moves().len();
        // A fresh generator per ply: the same position after undo/redo gets the same move.
        let seed = self
            .settings
            .seed
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(ply as u64 + 1);
        let mut computer = self.context.advisor.computer(ai, seed);
        computer.set_time_limit(self.clock_budget());
        Some(ComputerTurn {
            color: pos.turn(),
            position: pos.clone(),
            ply,
            computer,
        })
    }

    /// The time the side to move should spend on its move by its clock: its share of the time
    /// left for the moves still to come, plus most of the increment (`None` without a clock).
    #[must_use]
    pub fn clock_budget(&self) -> Option<Duration> {
        let control = self.settings.clock?;
        let view = self.clocks()?;
        let side = view.running?;
        let empties = u32::try_from(self.position().empty_count()).unwrap_or(u32::MAX);
        Some(
            TimeBudget::Clock {
                remaining: view.left(side),
                increment: control.increment,
            }
            .for_move(empties),
        )
    }

    /// A person plays `sq` for the side to move.
    ///
    /// # Errors
    /// When the computer plays the side to move, or the move is illegal (the game is unchanged).
    pub fn play(&mut self, sq: Square) -> Result<(), PlayError> {
        let turn = self.position().turn();
        if !self.player(turn).is_human() {
            return Err(PlayError::NotYourTurn(turn));
        }
        if let Some(loser) = self.check_time() {
            return Err(PlayError::OutOfTime(loser));
        }
        self.commit(self.record(Move::Play(sq), None))?;
        self.redo.clear();
        Ok(())
    }

    /// Plays the computer's `decision` for the turn made at `ply`, keeping its evaluation.
    ///
    /// # Errors
    /// As [`Session::play_computer`].
    pub fn play_decision(&mut self, ply: usize, decision: &Decision) -> Result<(), PlayError> {
        self.play_computed(ply, decision.mv, evaluation(decision))
    }

    /// Plays the move a computer chose elsewhere for the turn made at `ply`, keeping `eval`
    /// (its [`evaluation`]).
    ///
    /// # Errors
    /// As [`Session::play_computer`].
    pub fn play_evaluated(
        &mut self,
        ply: usize,
        mv: Move,
        eval: Option<f64>,
    ) -> Result<(), PlayError> {
        self.play_computed(ply, mv, eval)
    }

    /// Plays the computer's decision for the turn made at `ply`.
    ///
    /// # Errors
    /// When the game has moved on since (`ply` is stale) or the move is illegal.
    pub fn play_computer(&mut self, ply: usize, mv: Move) -> Result<(), PlayError> {
        self.play_computed(ply, mv, None)
    }

    fn play_computed(&mut self, ply: usize, mv: Move, eval: Option<f64>) -> Result<(), PlayError> {
        let turn = self.position().turn();
        if ply != self.game.moves().len() || self.player(turn).is_human() {
            return Err(PlayError::NotYourTurn(turn));
        }
        if let Some(loser) = self.check_time() {
            return Err(PlayError::OutOfTime(loser));
        }
        self.commit(self.record(mv, eval))?;
        self.redo.clear();
        Ok(())
    }

    /// Passes for the side to move, which must have no legal square (whoever plays it).
    ///
    /// # Errors
    /// When the side to move has a legal square, or the game is over.
    pub fn pass(&mut self) -> Result<(), IllegalMove> {
        if self.time_out.is_some() {
            return Err(IllegalMove::GameOver);
        }
        self.commit(self.record(Move::Pass, None))?;
        // A forced pass changes nothing that a redo would replay differently.
        if self.redo.last().is_some_and(|r| r.mv == Move::Pass) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        Ok(())
    }

    /// `mv` with the time since the side to move could start choosing.
    fn record(&self, mv: Move, eval: Option<f64>) -> LoggedMove {
        LoggedMove {
            mv,
            time_ms: Some(
                u64::try_from(self.context.now().saturating_sub(self.since).as_millis())
                    .unwrap_or(u64::MAX),
            ),
            eval,
        }
    }

    /// Every move reaches the game here: the one place to watch the game grow.
    fn commit(&mut self, record: LoggedMove) -> Result<(), IllegalMove> {
        self.game.play(record.mv)?;
        self.records.push(record);
        self.since = self.context.now();
        self.save();
        Ok(())
    }

    /// Brings the log up to date with the game; a failure is kept for the screen to show.
    fn save(&mut self) {
        if let Some(saving) = &mut self.saving {
            saving.sync(&self.settings, &self.game, &self.records, self.time_out);
        }
    }

    fn is_human_decision(&self, pos: &Position) -> bool {
        self.player(pos.turn()).is_human() && pos.has_legal_move()
    }

    fn has_human(&self) -> bool {
        self.settings.black.is_human() || self.settings.white.is_human()
    }

    /// How many moves to keep to take back to the previous decision of a person (against the
    /// computer, the person's previous turn), or one move when only computers play.
    fn undo_target(&self) -> Option<usize> {
        // A loss on time is final.
        if self.time_out.is_some() {
            return None;
        }
        let n = self.game.moves().len();
        if !self.has_human() {
            return n.checked_sub(1);
        }
        let positions = self.game.positions();
        (0..n)
            .rev()
            .find(|&k| self.is_human_decision(&positions[k]))
    }

    /// Whether [`Session::undo`] would take anything back.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        self.undo_target().is_some()
    }

    /// Whether [`Session::redo`] would replay anything: an undo left moves to replay and no
    /// new move was played since.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Takes moves back to the previous turn of a person (the computer's replies and forced
    /// passes with it). Returns the number of moves taken back (0 when there is none).
    pub fn undo(&mut self) -> usize {
        let Some(keep) = self.undo_target() else {
            return 0;
        };
        let mut taken = 0;
        while self.game.moves().len() > keep {
            let Some(mv) = self.game.undo() else { break };
            let record = match self.records.pop() {
                Some(r) if r.mv == mv => r,
                _ => LoggedMove {
                    mv,
                    time_ms: None,
                    eval: None,
                },
            };
            self.redo.push(record);
            taken += 1;
        }
        self.since = self.context.now();
        self.save();
        taken
    }

    /// Replays what the last undo took back, up to the next turn of a person. Returns the
    /// number of moves replayed.
    pub fn redo(&mut self) -> usize {
        let mut replayed = 0;
        while let Some(record) = self.redo.pop() {
            if self.commit(record).is_err() {
                // The stack no longer fits the game: drop it.
                self.redo.clear();
                break;
            }
            replayed += 1;
            if !self.has_human() || self.is_human_turn() || self.is_over() {
                break;
            }
        }
        replayed
    }

    /// The last move with the discs it flipped.
    #[must_use]
    pub fn last_move(&self) -> Option<LastMove> {
        move_at(&self.game, self.game.moves().len())
    }

    /// The name of the longest named opening line the game has followed (8x8 Othello only),
    /// as [`reversi_core::opening_name`] gives it.
    #[must_use]
    pub fn opening(&self) -> Option<&'static str> {
        reversi_core::opening_name(&self.game)
    }

    /// A return game: the same board, rules and start with the players' colours swapped,
    /// kept in the same log as a new record.
    #[must_use]
    pub fn rematch(&self) -> Session {
        Session::in_context(
            self.settings.swapped(),
            self.game.start().clone(),
            self.saving.as_ref().map(|s| s.log.clone()),
            self.context.clone(),
        )
    }
}

/// The move that reached the position after `ply` moves of `game`, with the discs it
/// flipped; `None` at the start or past the end.
#[must_use]
pub fn move_at(game: &Game, ply: usize) -> Option<LastMove> {
    let &mv = game.moves().get(ply.checked_sub(1)?)?;
    let positions = game.positions();
    let before = &positions[ply - 1];
    let after = &positions[ply];
    let flipped = before
        .squares()
        .filter(|&s| {
            Move::Play(s) != mv && before.get(s).is_some() && before.get(s) != after.get(s)
        })
        .collect();
    Some(LastMove {
        color: before.turn(),
        mv,
        flipped,
    })
}

/// The computer's evaluation of the move it chose, in discs for itself: its score when the
/// search or the opening book gave one in discs (a depth estimate, an exact result or a book
/// value), else `None`.
#[must_use]
pub fn evaluation(decision: &Decision) -> Option<f64> {
    let t = &decision.thinking;
    let candidate = t
        .best
        .iter()
        .chain(&t.candidates)
        .find(|c| c.mv == decision.mv)?;
    match candidate.kind {
        ScoreKind::Exact | ScoreKind::Depth { .. } | ScoreKind::Book if !candidate.upper_bound => {
            Some(f64::from(candidate.score))
        }
        _ => None,
    }
}

/// A session's link to its log: the record, the moves the log holds, and the last failure.
#[derive(Debug, Clone)]
struct Saving {
    log: LogHandle,
    id: Option<LogId>,
    /// The moves the record holds, as far as the log accepted them.
    kept: Vec<Move>,
    /// The record's game is over; it no longer changes.
    finished: bool,
    error: Option<LogError>,
    /// `error` is new and not yet reported.
    fresh: bool,
}

impl Saving {
    fn new(log: LogHandle) -> Saving {
        Saving {
            log,
            id: None,
            kept: Vec::new(),
            finished: false,
            error: None,
            fresh: false,
        }
    }

    fn sync(
        &mut self,
        settings: &Settings,
        game: &Game,
        records: &[LoggedMove],
        time_out: Option<Color>,
    ) {
        let result = self.try_sync(settings, game, records, time_out);
        match result {
            Ok(()) => {
                self.error = None;
                self.fresh = false;
            }
            Err(e) => {
                self.fresh = self.error.as_ref() != Some(&e);
                self.error = Some(e);
            }
        }
    }

    /// Takes back what the record holds beyond the game's moves and adds the game's moves it
    /// lacks, so a failure earlier is made good by the next success.
    fn try_sync(
        &mut self,
        settings: &Settings,
        game: &Game,
        records: &[LoggedMove],
        time_out: Option<Color>,
    ) -> Result<(), LogError> {
        let moves = game.moves();
        let common = |kept: &[Move]| kept.iter().zip(moves).take_while(|(a, b)| a == b).count();
        if self.finished {
            if common(&self.kept) == moves.len() {
                // Moves taken back from a finished game: the record keeps the game as played.
                return Ok(());
            }
            // A different move after the end was taken back: the game goes on in a new record.
            *self = Saving::new(self.log.clone());
        }
        let over = game.is_over() || time_out.is_some();
        let up_to_date = self.kept == moves && (self.finished || !over);
        if up_to_date || (self.id.is_none() && moves.is_empty() && time_out.is_none()) {
            return Ok(());
        }
        let log = self.log.clone();
        let mut log = log.lock();
        let id = match self.id {
            Some(id) => id,
            None => {
                let id = log.create(settings, game.start())?;
                self.id = Some(id);
                self.kept.clear();
                id
            }
        };
        let keep = common(&self.kept);
        while self.kept.len() > keep {
            log.undo(id)?;
            self.kept.pop();
        }
        for (i, &mv) in moves.iter().enumerate().skip(keep) {
            let record = records
                .get(i)
                .filter(|r| r.mv == mv)
                .copied()
                .unwrap_or(LoggedMove {
                    mv,
                    time_ms: None,
                    eval: None,
                });
            log.append(id, &record)?;
            self.kept.push(mv);
        }
        if let Some(loser) = time_out {
            log.lose_on_time(id, loser)?;
            self.finished = true;
        } else if let Some(score) = game.score() {
            log.finish(id, score)?;
            self.finished = true;
        }
        Ok(())
    }
}

/// The side's name with its player, e.g. `Black (you)` or `White (ai:hard)`.
#[must_use]
pub fn side_label(settings: &Settings, color: Color) -> String {
    match settings.player(color) {
        Player::Human if settings.black.is_human() && settings.white.is_human() => {
            color.to_string()
        }
        Player::Human => format!("{color} (you)"),
        p => format!("{color} ({p})"),
    }
}

/// The result in words with the score, e.g. `Black wins 40-24`.
#[must_use]
pub fn result_line(score: Score) -> String {
    match score.outcome() {
        reversi_core::Outcome::Win(c) => format!("{c} wins {score}"),
        reversi_core::Outcome::Draw => format!("Draw {score}"),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use reversi_core::{BoardSize, Rules};
    use reversi_players::Ai;

    fn settings(black: &str, white: &str, size: u8) -> Settings {
        Settings {
            size: BoardSize::new(size).unwrap(),
            rules: Rules::Othello,
            black: black.parse().unwrap(),
            white: white.parse().unwrap(),
            seed: 3,
            clock: None,
        }
    }

    fn sq(s: &Session, name: &str) -> Square {
        s.position().parse_square(name).unwrap()
    }

    fn computer_moves(s: &mut Session) {
        let stop = AtomicBool::new(false);
        while let Some(turn) = s.computer_turn() {
            let ply = turn.ply;
            let d = turn.run(&stop, &mut |_| {}).unwrap();
            s.play_computer(ply, d.mv).unwrap();
        }
    }

    #[test]
    fn a_book_move_keeps_the_book_value_as_its_evaluation() {
        use reversi_engine::book::{Book, SHIPPED};
        use reversi_engine::levels::Level;
        use reversi_players::Computer;
        let book = std::sync::Arc::new(Book::from_bytes(SHIPPED).unwrap());
        let start = Position::start(BoardSize::EIGHT, Rules::Othello);
        let mut master = Computer::new(Ai::Level(Level::new(24).unwrap()), 1).with_book(Some(book));
        let d = master
            .choose(&start, &AtomicBool::new(false), &mut |_| {})
            .unwrap();
        let best = d.thinking.best.clone().unwrap();
        assert_eq!(best.kind, ScoreKind::Book, "{best:?}");
        assert_eq!(evaluation(&d), Some(f64::from(best.score)));
    }

    #[test]
    fn undo_goes_back_to_the_persons_previous_turn() {
        let mut s = Session::new(settings("human", "ai:greedy", 8));
        assert!(!s.can_undo());
        s.play(sq(&s, "f5")).unwrap();
        computer_moves(&mut s);
        assert_eq!(s.game().moves().len(), 2);
        let after_reply = s.position().clone();
        assert!(s.is_human_turn());
        assert_eq!(s.undo(), 2);
        assert_eq!(s.game().moves().len(), 0);
        assert!(s.can_redo());
        assert_eq!(s.redo(), 2);
        assert_eq!(s.position(), &after_reply);
        // A new move forgets what could be redone.
        s.undo();
        s.play(sq(&s, "e6")).unwrap();
        assert!(!s.can_redo());
    }

    #[test]
    fn undo_while_the_computer_is_to_move_takes_back_the_persons_move() {
        let mut s = Session::new(settings("human", "ai:greedy", 8));
        s.play(sq(&s, "f5")).unwrap();
        assert!(s.computer_turn().is_some());
        assert_eq!(s.undo(), 1);
        assert!(s.is_human_turn());
    }

    #[test]
    fn the_computer_cannot_be_played_for_and_stale_decisions_are_refused() {
        let mut s = Session::new(settings("ai:greedy", "human", 8));
        let f5 = sq(&s, "f5");
        assert_eq!(s.play(f5), Err(PlayError::NotYourTurn(Color::Black)));
        let turn = s.computer_turn().unwrap();
        assert_eq!(
            s.play_computer(turn.ply + 1, Move::Play(f5)),
            Err(PlayError::NotYourTurn(Color::Black))
        );
        s.play_computer(turn.ply, Move::Play(f5)).unwrap();
        // Black's first move cannot be taken back: the person never had a turn before it.
        assert!(!s.can_undo());
        let e = s.play(sq(&s, "a1")).unwrap_err();
        assert_eq!(e.to_string(), "a1 flips no disc");
    }

    #[test]
    fn last_move_lists_the_flipped_discs() {
        let mut s = Session::new(settings("human", "human", 8));
        assert!(s.last_move().is_none());
        s.play(sq(&s, "f5")).unwrap();
        let last = s.last_move().unwrap();
        assert_eq!(last.color, Color::Black);
        assert_eq!(last.mv, Move::Play(sq(&s, "f5")));
        assert_eq!(last.flipped, vec![sq(&s, "e5")]);
    }

    #[test]
    fn the_opening_is_named_as_moves_are_played_and_taken_back() {
        let mut s = Session::new(settings("human", "human", 8));
        assert_eq!(s.opening(), None);
        for name in ["f5", "d6", "c3", "d3", "c4"] {
            s.play(sq(&s, name)).unwrap();
        }
        assert_eq!(s.opening(), Some("Tiger"));
        s.undo();
        assert_eq!(s.opening(), Some("Perpendicular Opening"));
        assert_eq!(Session::new(settings("human", "human", 6)).opening(), None);
    }

    #[test]
    fn computers_play_a_whole_game_and_the_result_is_scored() {
        let mut s = Session::new(settings("ai:greedy", "ai:random", 6));
        let stop = AtomicBool::new(false);
        while !s.is_over() {
            if s.must_pass() {
                s.pass().unwrap();
                continue;
            }
            let turn = s.computer_turn().unwrap();
            let ply = turn.ply;
            let d = turn.run(&stop, &mut |_| {}).unwrap();
            s.play_computer(ply, d.mv).unwrap();
        }
        let score = s.result().unwrap();
        assert_eq!(u32::from(score.black + score.white), 36);
        assert!(s.computer_turn().is_none());
        // With only computers, undo takes back one move at a time.
        let n = s.game().moves().len();
        assert_eq!(s.undo(), 1);
        assert_eq!(s.game().moves().len(), n - 1);
    }

    #[test]
    fn rematch_swaps_colours() {
        let s = Session::new(settings("human", "ai:greedy", 4));
        let r = s.rematch();
        assert_eq!(r.settings().black, Player::Computer(Ai::Greedy));
        assert_eq!(r.settings().white, Player::Human);
        assert_eq!(r.settings().size, BoardSize::FOUR);
        assert_eq!(side_label(r.settings(), Color::White), "White (you)");
        assert_eq!(side_label(r.settings(), Color::Black), "Black (ai:greedy)");
    }
}
