//! `reversi history analyze`: each move of a stored game against the engine's best, with the
//! disc loss, and the totals per side.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context};
use reversi_engine::levels::Level;
use reversi_store::{GameId, Store};

use reversi_game::analysis::{analyze, Verdict};

pub fn run(store: &Store, id: GameId, level: &str) -> anyhow::Result<ExitCode> {
    let Some(level) = Level::parse(level) else {
        bail!("unknown level {level:?}: expected 1-60 or a level name");
    };
    let stored = store.load_game(id)?;
    let stop = AtomicBool::new(false);
    let analysis = analyze(&stored.game, level, &stop, &mut |done, total| {
        eprint!("\ranalysing position {done}/{total}");
    })
    .context("the analysis was stopped")?;
    eprintln!();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Game {id}: {} vs {}, analysed at level {}",
        reversi_game::printable(&stored.info.black.name),
        reversi_game::printable(&stored.info.white.name),
        level.get()
    )?;
    writeln!(
        out,
        "  ply  side   move  best         played  loss  value (Black)"
    )?;
    for m in &analysis.moves {
        let best = m.best.as_ref().map_or("-".to_string(), |b| {
            format!("{} {} ", b.mv, b.short_score())
        });
        let played = m.played_score.map_or("-".to_string(), |s| format!("{s:+}"));
        let mark = match m.verdict {
            Verdict::Mistake => "  mistake",
            Verdict::Blunder => "  BLUNDER",
            _ => "",
        };
        writeln!(
            out,
            "  {:>3}  {:<5}  {:<4}  {:<11}  {:>6}  {:>4}  {:>+5}{mark}",
            m.ply + 1,
            m.color.to_string(),
            m.played.to_string(),
            best,
            played,
            m.loss,
            analysis.evals[m.ply + 1],
        )?;
    }
    let (black, white) = analysis.total_loss();
    let count = |c: reversi_core::Color, v: Verdict| {
        analysis
            .moves
            .iter()
            .filter(|m| m.color == c && m.verdict == v)
            .count()
    };
    for (c, loss) in [
        (reversi_core::Color::Black, black),
        (reversi_core::Color::White, white),
    ] {
        writeln!(
            out,
            "{c}: lost {loss} discs in all; {} mistakes, {} blunders",
            count(c, Verdict::Mistake),
            count(c, Verdict::Blunder)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
