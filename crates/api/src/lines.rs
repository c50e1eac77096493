//! A stored game's lines for the page's replay: the game's own moves, then each variation,
//! with its positions and where other lines part from it.

use reversi_game::Replay;
use serde::Serialize;

use crate::view::{replay as replay_steps, ReplayStep};

/// One line of a replay.
#[derive(Debug, Serialize)]
pub struct LineView {
    /// Its place in the list (0: the game's own moves).
    pub index: usize,
    /// The variation's id, which `POST …/variations` names it by; `null` for the game's own
    /// moves.
    pub id: Option<i64>,
    /// `main line`, `variation 2 from move 12`.
    pub name: String,
    /// The index of the line it leaves.
    pub parent: Option<usize>,
    /// How many moves it shares with the line it leaves.
    pub from_ply: usize,
    /// The whole line from the game's start.
    pub moves: Vec<String>,
    /// Every position of the line, start first.
    pub positions: Vec<ReplayStep>,
    /// The points where another line goes on differently.
    pub branches: Vec<BranchView>,
}

/// A point of a line where other lines part from it.
#[derive(Debug, Serialize)]
pub struct BranchView {
    /// Moves before it (the position after `ply` moves).
    pub ply: usize,
    /// Every move played there, each with the line that goes on with it (this line's own
    /// move included when it has one).
    pub moves: Vec<Alternative>,
}

#[derive(Debug, Serialize)]
pub struct Alternative {
    #[serde(rename = "move")]
    pub mv: String,
    pub line: usize,
}

/// Every line of `replay`, as the page draws them.
pub fn lines_view(replay: &Replay) -> Vec<LineView> {
    // Looking round moves the replay: a copy does, and the caller's stays as it was.
    let mut r = replay.clone();
    (0..replay.lines().len())
        .map(|index| {
            r.show(index);
            let branches = r
                .branch_plies()
                .into_iter()
                .map(|ply| {
                    r.jump(ply);
                    BranchView {
                        ply,
                        moves: r
                            .alternatives()
                            .into_iter()
                            .map(|(mv, line)| Alternative {
                                mv: mv.to_string(),
                                line,
                            })
                            .collect(),
                    }
                })
                .collect();
            let line = &replay.lines()[index];
            LineView {
                index,
                id: line.id.map(|v| v.0),
                name: replay.line_name(index),
                parent: line.parent,
                from_ply: line.from_ply,
                moves: line.game.moves().iter().map(ToString::to_string).collect(),
                positions: replay_steps(&line.game),
                branches,
            }
        })
        .collect()
}
