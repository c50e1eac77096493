//! The opening explorer for every front end: the moves the stored games played from a
//! position (the store's index), each with the engine's value of it: the opening book's when
//! the book has the move, else a quick search's.

use std::sync::atomic::AtomicBool;

use reversi_core::{Color, Move, Position};
use reversi_engine::levels::Level;
use reversi_engine::Candidate;
use reversi_players::Advisor;
use reversi_record::{Archive, ExplorerMove, StoreError};

/// The level whose search values the moves the book does not have: quick (a few plies,
/// milliseconds), since the explorer answers as a position is shown.
pub const EXPLORER_LEVEL: u8 = 6;

/// One move of the explorer: what the games did with it and what the engine thinks of it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExplorerLine {
    /// The games' counts, the square in the orientation asked about.
    pub played: ExplorerMove,
    /// The engine's value for the side to move, tagged book or by its search depth; `None`
    /// when it was not asked for.
    pub value: Option<Candidate>,
}

/// How the explorer values the moves played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Valuation {
    /// No values: the games' counts alone.
    None,
    /// The opening book's values, for the moves it has (at once: a screen refreshed at every
    /// step uses these).
    Book,
    /// The book's values, and a search at this level for the moves the book lacks.
    BookOrSearch(Level),
}

/// The explorer's answer about a position.
#[derive(Debug, Clone, PartialEq)]
pub struct Explored {
    /// The position whose moves these are: the one asked about, or, when its side to move
    /// has no move, the same discs with the other side to move (as the game goes on).
    pub position: Position,
    /// The side that had to pass first, if any.
    pub passed: Option<Color>,
    /// The moves played, most played first.
    pub lines: Vec<ExplorerLine>,
}

impl Explored {
    /// The games that reached the position (in any orientation) and went on from it.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.lines.iter().map(|l| l.played.games).sum()
    }
}

/// The moves played from `pos` in the stored games, most played first, valued as `valuation`
/// says (by `advisor`'s book and engine); a side to move without a move passes first.
///
/// # Errors
/// When the store fails.
pub fn explore(
    store: &dyn Archive,
    advisor: &Advisor,
    pos: &Position,
    valuation: Valuation,
) -> Result<Explored, StoreError> {
    let mut position = pos.clone();
    let passed = position.must_pass().then(|| position.turn());
    if passed.is_some() {
        position = position.with_turn(position.turn().opposite());
    }
    let book = match valuation {
        Valuation::None => Valuation::None,
        Valuation::Book | Valuation::BookOrSearch(_) => Valuation::Book,
    };
    let lines = explore_moves(store, advisor, &position, book)?;
    let mut explored = Explored {
        position,
        passed,
        lines,
    };
    if let Valuation::BookOrSearch(level) = valuation {
        search_values(&mut explored, advisor, level, &AtomicBool::new(false));
    }
    Ok(explored)
}

/// Values the moves the book left without a value by a search at `level` (which scores every
/// legal move; the book's values are kept), until `stop` is raised. Apart from [`explore`]
/// for a server that runs searches elsewhere than where it reads the database.
pub fn search_values(explored: &mut Explored, advisor: &Advisor, level: Level, stop: &AtomicBool) {
    if explored.lines.iter().all(|l| l.value.is_some()) {
        return;
    }
    let searched = advisor.hints(&explored.position, level, stop, &mut |_| {});
    for line in explored.lines.iter_mut().filter(|l| l.value.is_none()) {
        line.value = searched
            .iter()
            .find(|c| c.mv == Move::Play(line.played.square))
            .cloned();
    }
}

fn explore_moves(
    store: &dyn Archive,
    advisor: &Advisor,
    pos: &Position,
    valuation: Valuation,
) -> Result<Vec<ExplorerLine>, StoreError> {
    let played = store.explore(pos)?;
    let values = match valuation {
        _ if played.is_empty() => Vec::new(),
        Valuation::None => Vec::new(),
        Valuation::Book | Valuation::BookOrSearch(_) => advisor.book_moves(pos),
    };
    Ok(played
        .into_iter()
        .map(|p| ExplorerLine {
            value: values
                .iter()
                .find(|c| c.mv == Move::Play(p.square))
                .cloned(),
            played: p,
        })
        .collect())
}
