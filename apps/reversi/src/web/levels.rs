//! `/api/levels`: the computer levels with their names, depths, time per move and tournament
//! rating, for the page's level pickers.

use std::time::Duration;

use axum::routing::get;
use axum::{Json, Router};
use reversi_engine::levels::Level;
use serde::Serialize;

use super::error::AppError;
use super::state::AppState;

/// One level as the page shows it.
#[derive(Debug, Serialize)]
pub struct LevelView {
    level: u8,
    name: Option<&'static str>,
    depth: u32,
    exact_empties: u32,
    /// The longest a move or a set of hints takes, in seconds.
    time_s: f64,
    /// How often and how far the level strays from its best move, when it does.
    stray_percent: u8,
    stray_max_loss: i32,
    /// The tournament rating the level plays like (`1650`, `2300+`, `~2400` by the ladder), when rated.
    human_rating: Option<String>,
    /// Whether the human scale is measured at this level: the analysis that rates a game.
    human_scale: bool,
}

/// The level a request asks for (`default` when it names none), or a 400 naming the range.
pub fn parse_level(level: Option<u8>, default: u8) -> Result<Level, AppError> {
    let n = level.unwrap_or(default);
    Level::new(n).ok_or_else(|| {
        AppError::bad_request(format!(
            "level {n} is out of range: expected {}-{}",
            Level::MIN,
            Level::MAX
        ))
    })
}

/// The level the human scale is measured at, if the program has the table.
pub fn scale_level() -> Option<Level> {
    reversi_game::human::HumanScale::shipped().map(|s| s.analysis_level)
}

pub fn router() -> Router<AppState> {
    Router::new().route("/", get(|| async { Json(levels()) }))
}

fn levels() -> Vec<LevelView> {
    (Level::MIN..=Level::MAX)
        .filter_map(Level::new)
        .map(|level| {
            let s = level.spec();
            LevelView {
                level: level.get(),
                name: level.name(),
                depth: s.depth,
                exact_empties: s.exact_empties,
                time_s: Duration::as_secs_f64(&s.time),
                stray_percent: s.allowance.map_or(0, |a| a.rate_percent),
                stray_max_loss: s.allowance.map_or(0, |a| a.max_loss),
                human_rating: reversi_game::human::level_rating(level).map(|r| r.to_string()),
                human_scale: scale_level() == Some(level),
            }
        })
        .collect()
}
