//! `reversi bench levels`: how long each level takes per move on a fixed set of positions,
//! from the opening to the endgame, the longest and the mean (every level must answer within
//! its time budget; this shows how close each comes).

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use reversi_core::{BoardSize, Color, Position, Rules};
use reversi_engine::bench::walk;
use reversi_engine::engine::Engine;
use reversi_engine::levels::Level;
use reversi_engine::ScoreKind;
use reversi_players::{Ai, Computer};

/// The positions: the start, then a fixed pseudo-random walk of each length (52 to 20 empty
/// squares).
const PLIES: [u32; 8] = [0, 8, 16, 24, 28, 32, 36, 40];

/// The levels measured: the named ones, or those listed (`1,hard,24`).
fn levels(list: Option<&str>) -> anyhow::Result<Vec<Level>> {
    let Some(list) = list else {
        return Ok(Level::NAMED.iter().map(|&(_, l)| l).collect());
    };
    list.split(',')
        .map(|t| match Level::parse(t) {
            Some(l) => Ok(l),
            None => bail!("--levels: {t:?} is not a level (1-60 or a name)"),
        })
        .collect()
}

pub fn run(list: Option<&str>, positions: usize, threads: usize) -> anyhow::Result<ExitCode> {
    if positions == 0 || positions > PLIES.len() {
        bail!("--positions must be 1-{}, not {positions}", PLIES.len());
    }
    let boards: Vec<Position> = PLIES[..positions]
        .iter()
        .enumerate()
        .filter_map(|(i, &plies)| {
            let turn = if plies % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            walk(0x1e7e1 + i as u64, plies).to_position(BoardSize::EIGHT, Rules::Othello, turn)
        })
        .collect();
    let stop = AtomicBool::new(false);
    outln!(
        "{positions} positions ({} to {} empties), {threads} thread(s), a fresh table each move",
        boards.iter().map(Position::empty_count).max().unwrap_or(0),
        boards.iter().map(Position::empty_count).min().unwrap_or(0),
    )?;
    outln!(
        "{:>5}  {:<8}  {:>6}  {:>8}  {:>8}  {:>9}  depths reached",
        "level",
        "name",
        "budget",
        "mean s",
        "max s",
        "max/budg"
    )?;
    for level in levels(list)? {
        let engine = Arc::new(Engine::new(64, threads));
        let (mut total, mut longest) = (Duration::ZERO, Duration::ZERO);
        let mut depths = Vec::new();
        for (i, pos) in boards.iter().enumerate() {
            engine.clear();
            let mut computer =
                Computer::new(Ai::Level(level), i as u64 + 1).with_engine(Arc::clone(&engine));
            let t = Instant::now();
            let decision = computer.choose(pos, &stop, &mut |_| {});
            let took = t.elapsed();
            total += took;
            longest = longest.max(took);
            depths.push(decision.and_then(|d| d.thinking.kind()).map_or_else(
                || "-".to_string(),
                |kind| match kind {
                    ScoreKind::Exact => "exact".to_string(),
                    ScoreKind::WinLossDraw => "wld".to_string(),
                    ScoreKind::Depth {
                        depth,
                        selectivity: 100,
                    } => depth.to_string(),
                    ScoreKind::Depth { depth, selectivity } => format!("{depth}@{selectivity}"),
                    other => other.to_string(),
                },
            ));
        }
        let budget = level.spec().time;
        outln!(
            "{:>5}  {:<8}  {:>5}s  {:>8.3}  {:>8.3}  {:>9.2}  {}",
            level.get(),
            level.name().unwrap_or(""),
            budget.as_secs(),
            total.as_secs_f64() / boards.len() as f64,
            longest.as_secs_f64(),
            longest.as_secs_f64() / budget.as_secs_f64(),
            depths.join(" ")
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
