//! `reversi history analyze`: each move of a stored game against the engine's best, with the
//! disc loss, the totals per side and each side's rating for the game on the human scale.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context};
use reversi_core::BoardSize;
use reversi_engine::levels::Level;
use reversi_store::{GameId, Store};

use reversi_game::analysis::{analyze, Analysis, Verdict};
use reversi_game::human_scale::{rating_level, HumanScale, OPENING_PLIES};

pub fn run(store: &Store, id: GameId, level: Option<&str>) -> anyhow::Result<ExitCode> {
    let level = match level {
        None => rating_level(),
        Some(text) => match Level::parse(text) {
            Some(level) => level,
            None => bail!("unknown level {text:?}: expected 1-60 or a level name"),
        },
    };
    let stored = store.load_game(id)?;
    let stop = AtomicBool::new(false);
    let analysis = analyze(
        crate::advisor::get(),
        &stored.game,
        level,
        &stop,
        &mut |done, total| {
            eprint!("\ranalysing position {done}/{total}");
        },
    )
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
    write_performance(&mut out, &analysis, stored.game.current().size())?;
    Ok(ExitCode::SUCCESS)
}

/// A rating rounded to ten points, as ratings are shown.
fn tens(rating: f64) -> f64 {
    (rating / 10.0).round() * 10.0
}

/// Each side's rating for this game on the human scale, or why there is none.
fn write_performance(
    out: &mut impl Write,
    analysis: &Analysis,
    size: BoardSize,
) -> std::io::Result<()> {
    let Some(scale) = HumanScale::shipped() else {
        return Ok(());
    };
    if size != BoardSize::EIGHT {
        return Ok(());
    }
    if analysis.level != scale.analysis_level {
        return writeln!(
            out,
            "Performance: the human scale is measured at level {}; analyse at --level {} for \
             each side's rating.",
            scale.analysis_level.get(),
            scale.analysis_level.get()
        );
    }
    let sides = scale.performance(analysis, size);
    if sides.is_empty() {
        return writeln!(
            out,
            "Performance: no moves after the first {OPENING_PLIES} to rate."
        );
    }
    for p in &sides {
        writeln!(
            out,
            "{}: played like a {} tournament player (90% range {:.0}-{:.0}; {:.2} discs lost a \
             move over {} moves after the first {OPENING_PLIES})",
            p.color,
            p.rating,
            tens(p.range.0),
            tens(p.range.1),
            p.mean_loss,
            p.moves
        )?;
    }
    writeln!(
        out,
        "One game says little: the range is wide, and a player's rating shows over many games."
    )
}
