//! `reversi levels`: the table of computer levels and what each searches.

use std::process::ExitCode;

use reversi_engine::levels::Level;

pub fn run() -> anyhow::Result<ExitCode> {
    outln!("level  name      midgame depth  selectivity  exact from  win/loss/draw from")?;
    for n in Level::MIN..=Level::MAX {
        let Some(level) = Level::new(n) else { continue };
        let s = level.spec();
        outln!(
            "{n:>5}  {:<8}  {:>13}  {:>11}  {:>10}  {:>18}",
            level.name().unwrap_or(""),
            s.depth,
            format!("{}%", s.selectivity_percent()),
            format!("{} empties", s.exact_empties),
            format!("{} empties", s.wld_empties),
        )?;
    }
    outln!(
        "\nSelectivity: the midgame prunes moves that a shallow search (probcut) predicts to \
         fall outside the window; 73% means each such cut is right with probability 0.73, 100% \
         a full-width search (the 4x4 and 6x6 boards always search full width). Endgame solves are always exact; on 6x6 the top level plays its first moves from stored solved values."
    )?;
    outln!(
        "\nThe default computer player (`ai`) is level {}. Names work wherever a level does \
         (`ai:hard`), as do `random`, `greedy` and the classic algorithms (`ai:minimax:4`).",
        Level::DEFAULT.get()
    )?;
    Ok(ExitCode::SUCCESS)
}
