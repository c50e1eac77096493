//! `reversi levels`: the table of computer levels, what each searches and the tournament
//! rating it plays like.

use std::process::ExitCode;

use reversi_engine::levels::Level;
use reversi_game::human_scale::{self, HumanScale};

pub fn run() -> anyhow::Result<ExitCode> {
    outln!(
        "level  name         plays like  midgame depth  selectivity  exact from  win/loss/draw from  \
         time/move  strays"
    )?;
    for n in Level::MIN..=Level::MAX {
        let Some(level) = Level::new(n) else { continue };
        let s = level.spec();
        outln!(
            "{n:>5}  {:<11}  {:>10}  {:>13}  {:>11}  {:>10}  {:>18}  {:>9}  {}",
            level.name().unwrap_or(""),
            human_scale::level_rating(level).map_or_else(String::new, |r| r.to_string()),
            s.depth,
            format!("{}%", s.selectivity_percent()),
            format!("{} empties", s.exact_empties),
            format!("{} empties", s.wld_empties),
            match s.midgame_as {
                Some(m) => format!("{}-{} s", m.level.spec().time.as_secs(), s.time.as_secs()),
                None => format!("{} s", s.time.as_secs()),
            },
            s.allowance.map_or_else(
                || "never".to_string(),
                |a| format!(
                    "{}% of moves, up to {} disc{}",
                    a.rate_percent,
                    a.max_loss,
                    if a.max_loss == 1 { "" } else { "s" }
                )
            ),
        )?;
    }
    outln!(
        "\nSelectivity: the midgame prunes moves that a shallow search (probcut) predicts to \
         fall outside the window; 73% means each such cut is right with probability 0.73, 100% \
         a full-width search (the 4x4 and 6x6 boards always search full width). Endgame solves are always exact; on 6x6 the top level plays its first moves from stored solved values."
    )?;
    outln!(
        "\nTime/move: the longest a level thinks about a move or a set of hints; it then plays \
         the best move found so far. A game clock can shorten it. The top level deepens its \
         midgame search until the time allows an exact solve, so it plays perfectly from as \
         many empty squares as its time reaches; while more than {} squares are empty it plays \
         as {}, and it keeps its longer time for the moves where it can solve.",
        Level::new(Level::MAX)
            .and_then(|l| l.spec().midgame_as)
            .map_or(0, |m| m.above),
        Level::new(Level::MAX)
            .and_then(|l| l.spec().midgame_as)
            .map_or_else(String::new, |m| m.level.to_string())
    )?;
    outln!(
        "\nStrays: the weaker levels sometimes play a slightly worse move on purpose, one of the \
         moves within that many discs of the best by their own search (the smaller losses more \
         often), as people do, rather than blundering."
    )?;
    if let Some(scale) = HumanScale::shipped() {
        outln!(
            "\nPlays like: the rating of the tournament players who lose as many discs a move \
             as the level, each move measured against the best by a level-{} analysis (as \
             `reversi history analyze` does). The ratings are Elo fitted to the WTHOR \
             database's games, the median player with 20 or more games at 1500; the curve from \
             loss to rating is fitted on rating bands of a sample of their games (`2300+`: beyond \
             the bands measured). An analysis cannot see the mistakes of a level as deep as \
             itself, so from level {} up a named level's rating (`~2400`) is the named level \
             below it plus the Elo their match measured (the ladder). Other levels show nothing. \
             docs/human-scale.md has the method and the tables; `reversi train human-scale` \
             measures them again.",
            scale.analysis_level.get(),
            scale.analysis_level.get()
        )?;
    }
    outln!(
        "\nThe default computer player (`ai`) is level {}. Names work wherever a level does \
         (`ai:hard`), as do `random`, `greedy` and the classic algorithms (`ai:minimax:4`).",
        Level::DEFAULT.get()
    )?;
    Ok(ExitCode::SUCCESS)
}
