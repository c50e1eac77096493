//! Opening names: the named lines of 8x8 Othello (`data/openings.txt`, built in) and the name
//! of the longest one a game has followed, matched by position under the board's eight
//! symmetries.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use crate::symmetry::Symmetry;
use crate::{parse_transcript, BoardSize, Color, Game, Move, Position, Rules, TranscriptError};

/// The list: `#` comment lines, then one line per opening, its moves from the standard start
/// as a transcript, a tab, and its name.
const LIST: &str = include_str!("../data/openings.txt");

/// A named opening line of 8x8 Othello.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    name: &'static str,
    moves: Vec<Move>,
}

impl Opening {
    /// The name players know it by, such as `Tiger`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Its moves from the standard start, in the orientation the list gives (the other seven
    /// orientations carry the same name).
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
}

/// Every named opening, in the order of the list.
///
/// # Examples
/// ```
/// let tiger = reversi_core::openings()
///     .iter()
///     .find(|o| o.name() == "Tiger")
///     .expect("a famous opening");
/// assert_eq!(reversi_core::format_transcript(tiger.moves(), false), "f5d6c3d3c4");
/// ```
#[must_use]
pub fn openings() -> &'static [Opening] {
    &table().openings
}

/// The name of the longest named line `game` has followed so far, if any.
///
/// A line counts as followed when the position after its `k` moves, in any of the board's
/// eight orientations, is the game's position after its own first `k` moves: a game that
/// reaches a named position by another move order, or turned or mirrored, gets its name. Once
/// the game leaves the named lines it keeps the last name it matched.
///
/// Names are given for 8x8 Othello games from the four-disc start, as [`Position::start`]
/// sets it up or mirrored (Black on `d4` and `e5`, as some boards and old records have it);
/// for any other start, board size or start rule the answer is `None`. When two lines of the
/// list reach the same position, the one listed first names it.
///
/// # Examples
/// ```
/// use reversi_core::{opening_name, parse_transcript, BoardSize, Position, Rules};
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let tiger = parse_transcript("f5d6c3d3c4", start.clone())?;
/// assert_eq!(opening_name(&tiger), Some("Tiger"));
/// // The same moves turned half round the board.
/// let turned = parse_transcript("c4e3f6e6f5", start.clone())?;
/// assert_eq!(opening_name(&turned), Some("Tiger"));
/// // One move on and still the Tiger; one more and it is Brightwell.
/// let on = parse_transcript("f5d6c3d3c4f4", start.clone())?;
/// assert_eq!(opening_name(&on), Some("Tiger"));
/// let brightwell = parse_transcript("f5d6c3d3c4f4e3", start)?;
/// assert_eq!(opening_name(&brightwell), Some("Brightwell"));
///
/// let ten = Position::start(BoardSize::new(10)?, Rules::Othello);
/// assert_eq!(opening_name(&parse_transcript("g6e7", ten)?), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn opening_name(game: &Game) -> Option<&'static str> {
    opening_name_at(game, game.moves().len())
}

/// The name of the longest named line `game` had followed after its first `ply` moves (all of
/// them when `ply` is past the end), as [`opening_name`] gives it: what a replay shows at that
/// move.
///
/// # Examples
/// ```
/// use reversi_core::{opening_name_at, parse_transcript, BoardSize, Position, Rules};
///
/// let start = Position::start(BoardSize::EIGHT, Rules::Othello);
/// let game = parse_transcript("f5d6c3d3c4", start)?;
/// assert_eq!(opening_name_at(&game, 1), None);
/// assert_eq!(opening_name_at(&game, 2), Some("Perpendicular Opening"));
/// assert_eq!(opening_name_at(&game, 4), Some("Perpendicular Opening"));
/// assert_eq!(opening_name_at(&game, 5), Some("Tiger"));
/// # Ok::<(), reversi_core::TranscriptError>(())
/// ```
#[must_use]
pub fn opening_name_at(game: &Game, ply: usize) -> Option<&'static str> {
    table().name_at(game, ply)
}

/// A position after some number of moves on 8x8, packed: what the names are looked up by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    ply: usize,
    turn: Color,
    black: u64,
    white: u64,
}

impl Key {
    /// The key of `pos` reached after `ply` moves; `None` off 8x8.
    fn of(ply: usize, pos: &Position) -> Option<Key> {
        if pos.size() != BoardSize::EIGHT {
            return None;
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, cell) in pos.cells().iter().enumerate() {
            match cell {
                Some(Color::Black) => black |= 1 << i,
                Some(Color::White) => white |= 1 << i,
                None => {}
            }
        }
        Some(Key {
            ply,
            turn: pos.turn(),
            black,
            white,
        })
    }
}

/// The list, read once: the openings, and each one's final position in all eight
/// orientations mapped to its name.
struct Table {
    openings: Vec<Opening>,
    names: HashMap<Key, &'static str>,
    /// The start in its orientations (two distinct ones): the starts names are given for.
    starts: Vec<Position>,
    /// The most moves of a named line: no position deeper than this has a name.
    longest: usize,
}

impl Table {
    /// See [`opening_name_at`].
    fn name_at(&self, game: &Game, ply: usize) -> Option<&'static str> {
        let positions = game.positions();
        if !self.starts.contains(positions.first()?) {
            return None;
        }
        let last = ply.min(positions.len() - 1).min(self.longest);
        (1..=last)
            .rev()
            .find_map(|k| self.names.get(&Key::of(k, &positions[k])?).copied())
    }
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| build(LIST))
}

fn standard_start() -> Position {
    Position::start(BoardSize::EIGHT, Rules::Othello)
}

/// The table of `list`, a text in the form of `data/openings.txt`.
fn build(list: &'static str) -> Table {
    let mut starts: Vec<Position> = Vec::new();
    for s in Symmetry::ALL {
        let image = s.position(&standard_start());
        if !starts.contains(&image) {
            starts.push(image);
        }
    }
    let mut table = Table {
        openings: Vec::new(),
        names: HashMap::new(),
        starts,
        longest: 0,
    };
    // A line that cannot be read is left out; the tests keep the list free of them.
    for (opening, game) in list.lines().filter_map(|l| parse_line(l).ok().flatten()) {
        let ply = game.moves().len();
        for s in Symmetry::ALL {
            if let Some(key) = Key::of(ply, &s.position(game.current())) {
                // The first line listed keeps a position that two lines reach.
                table.names.entry(key).or_insert(opening.name);
            }
        }
        table.longest = table.longest.max(ply);
        table.openings.push(opening);
    }
    table
}

/// Why a line of the list could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LineError {
    /// No tab between the moves and the name, or an empty name.
    NoName(String),
    /// The moves are not a legal transcript from the standard start.
    Moves(String, TranscriptError),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NoName(line) => write!(f, "{line:?}: expected moves, a tab and a name"),
            LineError::Moves(line, e) => write!(f, "{line:?}: {e}"),
        }
    }
}

/// One line of the list: an opening with its game from the standard start, or `None` for a
/// comment or blank line.
fn parse_line(line: &'static str) -> Result<Option<(Opening, Game)>, LineError> {
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let Some((moves, name)) = line.split_once('\t') else {
        return Err(LineError::NoName(line.to_string()));
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(LineError::NoName(line.to_string()));
    }
    let game = parse_transcript(moves, standard_start())
        .map_err(|e| LineError::Moves(line.to_string(), e))?;
    let opening = Opening {
        name,
        moves: game.moves().to_vec(),
    };
    Ok(Some((opening, game)))
}

#[cfg(test)]
mod tests;
