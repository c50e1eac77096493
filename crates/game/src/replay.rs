//! Stepping through a stored game: the position after any number of its moves, the move that
//! reached it with the discs it flipped, its time and evaluation, the name of the opening line
//! followed so far, and the words a replay shows (players, result, a move's note). Every front
//! end's replay draws a [`Replay`]; its variations are in `replay/variations.rs`.

mod line;
mod variations;

use reversi_core::{Game, Position};
use reversi_record::{GameInfo, MoveRecord, PlayerKind, Status, StoredGame};

use crate::session::{move_at, result_line, LastMove};

pub use line::{Line, VariationError};

/// A stored game and how far into it the replay is, along the game's own moves or one of its
/// variations (see [`Replay::play`]).
///
/// # Examples
/// A person's game against the computer, kept in an in-memory history and stepped through:
/// ```
/// use reversi_core::{BoardSize, Color, Move, Rules};
/// use reversi_game::{outcome_text, player_name, record_note, Replay};
/// use reversi_store::{MoveRecord, NewGame, Player, Store};
///
/// let mut store = Store::open_in_memory()?;
/// let new = NewGame::standard(BoardSize::EIGHT, Rules::Othello,
///     Player::human("Ann"), Player::computer("reversi", "hard"));
/// let id = store.create_game(&new)?;
/// let start = new.start_position();
/// for (name, time_ms, eval) in [("f5", 2400, None), ("d6", 600, Some(-1.0))] {
///     let mv = Move::Play(start.parse_square(name)?);
///     store.append_move(id, &MoveRecord { mv, time_ms: Some(time_ms), eval })?;
/// }
///
/// let mut replay = Replay::new(store.load_game(id)?);
/// assert_eq!((replay.ply(), replay.len()), (0, 2));
/// assert_eq!(replay.position(), &start);
/// assert!(replay.last_move().is_none());
///
/// replay.forward();
/// let f5 = replay.last_move().expect("one move shown");
/// assert_eq!((f5.color, f5.mv.to_string()), (Color::Black, "f5".to_string()));
/// assert_eq!(replay.position().disc_count(Color::Black), 4);
/// let note = replay.last_record().map(record_note);
/// assert_eq!(note.as_deref(), Some(" (2.4 s)"));
///
/// replay.jump(99); // past the end: the last position
/// assert_eq!(replay.ply(), 2);
/// let note = replay.last_record().map(record_note);
/// assert_eq!(note.as_deref(), Some(" (0.6 s, eval -1)"));
/// replay.back();
/// assert_eq!(replay.ply(), 1);
///
/// assert_eq!(player_name(&replay.info.white), "reversi (level hard)");
/// assert_eq!(outcome_text(&replay.info, &replay.game), "in progress, Black to move");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Replay {
    /// What the history knows of the game: players, dates, status and result.
    pub info: GameInfo,
    /// The game's own moves replayed from its start, passes included (whichever line is
    /// shown).
    pub game: Game,
    /// Each move's time and evaluation, as stored (one for each move of `game`).
    pub moves: Vec<MoveRecord>,
    /// Moves shown: 0 is the start, `len()` the last position of the line shown.
    ply: usize,
    /// The game's own moves first, then its variations, oldest first.
    lines: Vec<Line>,
    /// The index in `lines` of the line shown.
    shown: usize,
}

impl Replay {
    /// The replay of `stored`, at its start.
    #[must_use]
    pub fn new(stored: StoredGame) -> Replay {
        Replay {
            lines: vec![Line::main(stored.game.clone())],
            info: stored.info,
            game: stored.game,
            moves: stored.moves,
            ply: 0,
            shown: 0,
        }
    }

    /// Moves in the line shown, passes included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.line().game.moves().len()
    }

    /// Whether the line shown has no move at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Moves played in the position shown.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// The position shown.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.line().game.positions()[self.ply]
    }

    /// The move that reached the position shown, with its flips.
    #[must_use]
    pub fn last_move(&self) -> Option<LastMove> {
        move_at(&self.line().game, self.ply)
    }

    /// The time and evaluation of the move that reached the position shown, when it is one of
    /// the game's own moves (variations keep neither).
    #[must_use]
    pub fn last_record(&self) -> Option<&MoveRecord> {
        if self.ply > self.main_prefix(self.shown) {
            return None;
        }
        self.moves.get(self.ply.checked_sub(1)?)
    }

    /// The name of the opening line the game had followed up to the position shown (8x8
    /// Othello only), as [`reversi_core::opening_name_at`] gives it.
    #[must_use]
    pub fn opening(&self) -> Option<&'static str> {
        reversi_core::opening_name_at(&self.line().game, self.ply)
    }

    /// Shows the position after `ply` moves (the last one when past the end).
    pub fn jump(&mut self, ply: usize) {
        self.ply = ply.min(self.len());
    }

    /// Shows the next position (stays on the last one).
    pub fn forward(&mut self) {
        self.jump(self.ply + 1);
    }

    /// Shows the previous position (stays on the start).
    pub fn back(&mut self) {
        self.jump(self.ply.saturating_sub(1));
    }
}

/// A stored player as a terminal shows it, e.g. `Ann` or `reversi (level hard)` (the name
/// and level from a file or the network, escaped by [`crate::printable`]).
#[must_use]
pub fn player_name(p: &reversi_record::Player) -> String {
    let name = crate::printable(&p.name);
    match (p.kind, &p.level) {
        (PlayerKind::Computer, Some(level)) => {
            format!("{name} (level {})", crate::printable(level))
        }
        _ => name.to_string(),
    }
}

/// Where the game stands: its result, or that it is unfinished.
#[must_use]
pub fn outcome_text(info: &GameInfo, game: &Game) -> String {
    let clock = info
        .clock
        .map(|c| format!(" ({c} each)"))
        .unwrap_or_default();
    if let (Some(reversi_record::Termination::Time), Some(score)) = (info.termination, info.score) {
        if let reversi_core::Outcome::Win(c) = score.outcome() {
            return format!("{c} wins {}{clock}", crate::session::TIME_LOSS);
        }
    }
    match (info.status, game.score().or(info.score)) {
        (Status::Finished, Some(score)) => format!("{}{clock}", result_line(score)),
        (Status::Finished, None) => "finished".into(),
        (Status::Abandoned, _) => "abandoned".into(),
        (Status::InProgress, _) => match game.current().turn() {
            c if !game.is_over() => format!("in progress, {c} to move"),
            _ => "in progress".into(),
        },
    }
}

/// `(2.4 s, eval +6)`, or nothing when neither is known.
#[must_use]
pub fn record_note(record: &MoveRecord) -> String {
    let mut parts = Vec::new();
    if let Some(t) = record.time_ms {
        parts.push(format!("{:.1} s", t as f64 / 1000.0));
    }
    if let Some(e) = record.eval {
        parts.push(format!("eval {e:+}"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}
