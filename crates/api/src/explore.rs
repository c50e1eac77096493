//! The opening explorer as the page's table shows it: the moves the stored games played from
//! a position, with their games, Black's results and the engine's value.

use reversi_formats::position::board_string;
use reversi_game::Explored;
use reversi_record::EXPLORER_MAX_DISCS;
use serde::Serialize;

use crate::view::{color_name, CandidateView};

/// One move played from the position.
#[derive(Debug, Serialize)]
pub struct ExplorerMoveView {
    pub square: String,
    pub games: u64,
    pub black_wins: u64,
    pub draws: u64,
    pub white_wins: u64,
    pub black_win_rate: f64,
    pub mean_disc_margin: f64,
    /// The engine's value for the side to move: the book's, else a search's.
    pub value: Option<CandidateView>,
}

/// The moves the stored games played from a position.
#[derive(Debug, Serialize)]
pub struct ExploreView {
    /// The position whose moves these are (the other side's turn after a forced pass).
    pub position: String,
    pub to_move: &'static str,
    pub passed: Option<&'static str>,
    pub games: u64,
    /// Positions with more discs are not kept.
    pub max_discs: u32,
    pub moves: Vec<ExplorerMoveView>,
}

impl ExploreView {
    /// The view of what the explorer found.
    #[must_use]
    pub fn of(e: &Explored) -> ExploreView {
        ExploreView {
            position: board_string(&e.position),
            to_move: color_name(e.position.turn()),
            passed: e.passed.map(color_name),
            games: e.games(),
            max_discs: EXPLORER_MAX_DISCS,
            moves: e
                .lines
                .iter()
                .map(|l| {
                    let m = &l.played;
                    ExplorerMoveView {
                        square: m.square.to_string(),
                        games: m.games,
                        black_wins: m.black_wins,
                        draws: m.draws,
                        white_wins: m.games - m.black_wins - m.draws,
                        black_win_rate: m.black_win_rate(),
                        mean_disc_margin: m.mean_disc_margin(),
                        value: l.value.as_ref().map(CandidateView::of),
                    }
                })
                .collect(),
        }
    }
}
