//! The records the store takes and gives: players, games, moves, filters and import results.

use std::fmt;
use std::str::FromStr;

use reversi_core::{BoardSize, Game, Move, Outcome, Position, Rules, Score, TimeControl};

/// A game's id in the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// An id that is not a whole number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseGameIdError(pub String);

impl fmt::Display for ParseGameIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a game id (a whole number)", self.0)
    }
}

impl std::error::Error for ParseGameIdError {}

impl FromStr for GameId {
    type Err = ParseGameIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim()
            .parse()
            .map(GameId)
            .map_err(|_| ParseGameIdError(s.to_string()))
    }
}

/// The most characters the history keeps of a text from outside: a player's name or level,
/// an event, a source, a date as a file writes it. Longer ones are cut to their first
/// `MAX_TEXT_CHARS` characters when stored (new games and imports alike); what is kept is
/// kept as given, control characters included: front ends escape them when they show it.
pub const MAX_TEXT_CHARS: usize = 100;

/// `text` cut to its first [`MAX_TEXT_CHARS`] characters.
pub fn kept(text: &str) -> &str {
    text.char_indices()
        .nth(MAX_TEXT_CHARS)
        .map_or(text, |(end, _)| &text[..end])
}

/// A variation's id in the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VariationId(pub i64);

impl fmt::Display for VariationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// A person.
    Human,
    /// The engine, or another program.
    Computer,
}

impl PlayerKind {
    /// `"human"` or `"computer"`, as stored.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            PlayerKind::Human => "human",
            PlayerKind::Computer => "computer",
        }
    }
}

/// One side of a game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Player {
    /// The name shown in the history, and matched by [`GameFilter::player`].
    pub name: String,
    /// Whether a person or a program played.
    pub kind: PlayerKind,
    /// The computer's level as the program names it (`"5"`, `"perfect"`); `None` for people.
    pub level: Option<String>,
}

impl Player {
    /// The player as the history keeps it (its texts cut to [`MAX_TEXT_CHARS`]).
    #[must_use]
    pub fn kept(&self) -> Player {
        Player {
            name: kept(&self.name).to_string(),
            kind: self.kind,
            level: self.level.as_deref().map(|l| kept(l).to_string()),
        }
    }

    /// A person.
    #[must_use]
    pub fn human(name: &str) -> Player {
        Player {
            name: name.to_string(),
            kind: PlayerKind::Human,
            level: None,
        }
    }

    /// The computer at `level`.
    #[must_use]
    pub fn computer(name: &str, level: &str) -> Player {
        Player {
            name: name.to_string(),
            kind: PlayerKind::Computer,
            level: Some(level.to_string()),
        }
    }
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// Still being played: moves may be appended or taken back.
    InProgress,
    /// Ended with a result: played out, or adjudicated with a declared score.
    Finished,
    /// Stopped without a result; the moves are kept.
    Abandoned,
}

/// A status name other than `in_progress`, `finished`, `abandoned`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseStatusError(pub String);

impl fmt::Display for ParseStatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown status {:?}: expected in_progress, finished or abandoned",
            self.0
        )
    }
}

impl std::error::Error for ParseStatusError {}

impl Status {
    /// `"in_progress"`, `"finished"` or `"abandoned"`, as stored.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Status::InProgress => "in_progress",
            Status::Finished => "finished",
            Status::Abandoned => "abandoned",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Status {
    type Err = ParseStatusError;
    /// Accepts the stored names, with `-` for `_` (`in-progress`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "in_progress" => Ok(Status::InProgress),
            "finished" => Ok(Status::Finished),
            "abandoned" => Ok(Status::Abandoned),
            _ => Err(ParseStatusError(s.to_string())),
        }
    }
}

/// A game about to be played, for a store to create (`Store::create_game` in `reversi-store`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    /// The board size.
    pub size: BoardSize,
    /// The start rule.
    pub rules: Rules,
    /// A set-up start; `None` for the standard start of `size` and `rules`.
    pub start: Option<Position>,
    /// Who plays Black.
    pub black: Player,
    /// Who plays White.
    pub white: Player,
    /// When the game began, as ISO 8601 UTC text (`2026-11-22T17:43:37Z`) or as much of it
    /// as the source gives (`1977`); `None` for now.
    pub started_at: Option<String>,
    /// The game's clock, if it is played with one.
    pub clock: Option<TimeControl>,
}

impl NewGame {
    /// A game from the standard start, beginning now.
    #[must_use]
    pub fn standard(size: BoardSize, rules: Rules, black: Player, white: Player) -> NewGame {
        NewGame {
            size,
            rules,
            start: None,
            black,
            white,
            started_at: None,
            clock: None,
        }
    }

    /// The position the game starts from.
    #[must_use]
    pub fn start_position(&self) -> Position {
        self.start
            .clone()
            .unwrap_or_else(|| Position::start(self.size, self.rules))
    }
}

/// One move as stored: the move, the time taken and the mover's evaluation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveRecord {
    /// The square played, or a pass.
    pub mv: Move,
    /// Thinking time in milliseconds, where measured.
    pub time_ms: Option<u64>,
    /// The computer's evaluation in discs for the side that moved, where it has one.
    pub eval: Option<f64>,
}

impl MoveRecord {
    /// A move with no time or evaluation.
    #[must_use]
    pub const fn bare(mv: Move) -> MoveRecord {
        MoveRecord {
            mv,
            time_ms: None,
            eval: None,
        }
    }
}

/// What the database knows about a game, without its moves.
#[derive(Debug, Clone, PartialEq)]
pub struct GameInfo {
    /// The game's id.
    pub id: GameId,
    /// The board size.
    pub size: BoardSize,
    /// The start rule.
    pub rules: Rules,
    /// The set-up start, or `None` for the standard one.
    pub start: Option<Position>,
    /// Who played Black.
    pub black: Player,
    /// Who played White.
    pub white: Player,
    /// When the game began (ISO 8601 UTC text, or as much of it as an import gave).
    pub started_at: Option<String>,
    /// When the game was finished or abandoned; `None` while in progress.
    pub ended_at: Option<String>,
    /// In progress, finished or abandoned.
    pub status: Status,
    /// The winner, once known.
    pub result: Option<Outcome>,
    /// The final disc counts, once known (empty squares to the winner).
    pub score: Option<Score>,
    /// The tournament or place, for imported games that name one.
    pub event: Option<String>,
    /// The file an imported game came from.
    pub source: Option<String>,
    /// Moves stored, passes included.
    pub move_count: usize,
    /// The game's clock, if it was played with one.
    pub clock: Option<TimeControl>,
    /// How a finished game ended when not on the board (a loss on time).
    pub termination: Option<Termination>,
}

/// How a game ended other than by being played out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The loser's clock ran out; the winner is given every square.
    Time,
}

impl Termination {
    /// `"time"`, as stored.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Time => "time",
        }
    }

    /// The termination stored as `text`.
    #[must_use]
    pub fn from_name(text: &str) -> Option<Termination> {
        (text == "time").then_some(Termination::Time)
    }
}

impl GameInfo {
    /// The position the game starts from.
    #[must_use]
    pub fn start_position(&self) -> Position {
        self.start
            .clone()
            .unwrap_or_else(|| Position::start(self.size, self.rules))
    }
}

/// A stored game with its moves, replayed.
#[derive(Debug, Clone)]
pub struct StoredGame {
    /// What is known about the game besides its moves.
    pub info: GameInfo,
    /// The moves with their times and evaluations, in order.
    pub moves: Vec<MoveRecord>,
    /// The game replayed from its start: `game.current()` is the position to resume from.
    pub game: Game,
}

/// Which games a store lists (`Store::list_games`), newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// At most this many; `None` for all.
    pub limit: Option<usize>,
    /// Skip this many of the newest first (for paging through the list).
    pub offset: usize,
    /// Games where either player's name contains this text (ASCII case-insensitive).
    pub player: Option<String>,
    /// Only games with this status.
    pub status: Option<Status>,
}

/// A finished or unfinished game from another source, for a store to import (`Store::import_games`).
#[derive(Debug, Clone, PartialEq)]
pub struct ImportGame {
    /// Board, start, players and date.
    pub game: NewGame,
    /// The moves in order, passes included; each is checked by replay.
    pub moves: Vec<MoveRecord>,
    /// Where the game stands: usually finished or abandoned (see [`ImportGame::from_game`]).
    pub status: Status,
    /// When the game ended, if the source says.
    pub ended_at: Option<String>,
    /// The winner, if known.
    pub result: Option<Outcome>,
    /// The final disc counts, if known.
    pub score: Option<Score>,
    /// The tournament or place, if the source names one.
    pub event: Option<String>,
    /// Where it came from, e.g. `WTH_2001.wtb` or `games.ggf`.
    pub source: Option<String>,
    /// How it ended, if not on the board.
    pub termination: Option<Termination>,
}

impl ImportGame {
    /// An imported `game` between `black` and `white`: finished with its final score when the
    /// game is over, otherwise [`Status::Finished`] with `declared` as the score if the source
    /// gives one (a game adjudicated early), else [`Status::Abandoned`].
    ///
    /// # Examples
    /// ```
    /// use reversi_core::{parse_transcript, BoardSize, Position, Rules, Score};
    /// use reversi_record::{ImportGame, Player, Status};
    ///
    /// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    /// let opening = parse_transcript("f5d6c3d3c4", start)?;
    /// let (ann, ben) = (Player::human("Ann"), Player::human("Ben"));
    ///
    /// let unfinished = ImportGame::from_game(&opening, ann.clone(), ben.clone(), None);
    /// assert_eq!(unfinished.status, Status::Abandoned);
    /// assert_eq!(unfinished.moves.len(), 5);
    ///
    /// // A game adjudicated 40-24 after five moves counts as finished, Black winning.
    /// let declared = Score { black: 40, white: 24 };
    /// let adjudicated = ImportGame::from_game(&opening, ann, ben, Some(declared));
    /// assert_eq!(adjudicated.status, Status::Finished);
    /// assert_eq!(adjudicated.score, Some(declared));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn from_game(game: &Game, black: Player, white: Player, declared: Option<Score>) -> Self {
        let start = game.start();
        let standard = Position::start(start.size(), start.rules());
        let score = game.score().or(declared);
        ImportGame {
            game: NewGame {
                size: start.size(),
                rules: start.rules(),
                start: (*start != standard).then(|| start.clone()),
                black,
                white,
                started_at: None,
                clock: None,
            },
            moves: game.moves().iter().map(|&m| MoveRecord::bare(m)).collect(),
            status: if score.is_some() {
                Status::Finished
            } else {
                Status::Abandoned
            },
            ended_at: None,
            result: score.map(Score::outcome),
            score,
            event: None,
            source: None,
            termination: None,
        }
    }
}

/// How an import went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Games newly stored.
    pub added: usize,
    /// Games already in the database (or earlier in the same import).
    pub skipped: usize,
}
