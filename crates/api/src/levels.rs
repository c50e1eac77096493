//! The computer levels as the page's level pickers show them: names, depths, time per move
//! and the tournament rating each plays like.

use std::time::Duration;

use reversi_engine::levels::Level;
use serde::Serialize;

/// One level as the page shows it.
#[derive(Debug, Serialize)]
pub struct LevelView {
    pub level: u8,
    pub name: Option<&'static str>,
    pub depth: u32,
    pub exact_empties: u32,
    /// The longest a move or a set of hints takes, in seconds.
    pub time_s: f64,
    /// How often and how far the level strays from its best move, when it does.
    pub stray_percent: u8,
    pub stray_max_loss: i32,
    /// The tournament rating the level plays like (`1650`, `2300+`, `~2400` by the ladder), when rated.
    pub human_rating: Option<String>,
    /// Whether the human scale is measured at this level: the analysis that rates a game.
    pub human_scale: bool,
}

/// The level the human scale is measured at, if the program has the table.
pub fn scale_level() -> Option<Level> {
    reversi_game::human_scale::HumanScale::shipped().map(|s| s.analysis_level)
}

/// Every level, 1 to 60.
#[must_use]
pub fn levels() -> Vec<LevelView> {
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
                human_rating: reversi_game::human_scale::level_rating(level).map(|r| r.to_string()),
                human_scale: scale_level() == Some(level),
            }
        })
        .collect()
}
