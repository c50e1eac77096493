//! `reversi solve`: exact (or win/loss/draw) endgame solving of OBF positions, with a check
//! against the scores the file gives.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use reversi_core::{format_transcript, BoardSize, Move, Position, Rules, Score};
use reversi_engine::engine::{default_threads, Engine, Limits};
use reversi_engine::eval::{Evaluator, WithOrdering};
use reversi_engine::pattern::net::load_tables;
use reversi_engine::pattern::{shipped, PatternEval};
use reversi_engine::{Board, ScoreKind, Thinking};
use reversi_formats::obf::parse_obf;

mod store;

use super::perft::format_rate;

/// `reversi solve` options.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// OBF file of positions (one a line: 64 squares, side to move, `;`, best scores).
    #[arg(required_unless_present = "size")]
    pub file: Option<PathBuf>,
    /// Instead of a file, solve the start position of this board size (4, 6 or 8) and print
    /// a perfect line.
    #[arg(long, conflicts_with = "file")]
    pub size: Option<BoardSize>,
    /// Start rule with --size.
    #[arg(long, default_value = "othello", requires = "size")]
    pub rules: Rules,
    /// Search threads [default: the number of cores].
    #[arg(long, value_parser = crate::options::threads)]
    pub threads: Option<usize>,
    /// Solve for win/loss/draw only.
    #[arg(long)]
    pub wld: bool,
    /// Transposition table size in MB (1 GB: FFO #53 on 2 threads took 196 s against 239 s
    /// with 256 MB).
    #[arg(long, default_value_t = 1024, value_parser = crate::options::hash_mb)]
    pub hash_mb: usize,
    /// With --size: store the exact value of every position within --plies plies of the
    /// start in this file (the table the top level plays from; 4x4 and 6x6).
    #[arg(long, requires = "size")]
    pub store: Option<PathBuf>,
    /// Plies from the start covered by --store.
    #[arg(long, default_value_t = 8, requires = "store")]
    pub plies: u32,
    /// The evaluation that orders the moves, from a weights file (either generation's
    /// format) instead of the shipped one: exact scores do not depend on it, nodes do.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,
    /// The evaluation the exact solver orders its moves by, from a weights file, while the
    /// midgame searches before the solve keep the other (`--weights` or the shipped one).
    #[arg(long, value_name = "FILE")]
    pub order_weights: Option<PathBuf>,
}

/// The evaluation of a weights file.
fn load_eval(path: &Path) -> anyhow::Result<Arc<dyn Evaluator>> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let tables = load_tables(&bytes).with_context(|| format!("loading {}", path.display()))?;
    Ok(Arc::new(PatternEval::new(&tables)))
}

/// A move upper-case as OBF files write it: `F5`, `PA`.
fn move_text(mv: Move) -> String {
    mv.to_string().to_uppercase()
}

pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let threads = args.threads.unwrap_or_else(default_threads);
    let mut engine = Engine::new(args.hash_mb, threads);
    let eval = args.weights.as_deref().map(load_eval).transpose()?;
    match (
        eval,
        args.order_weights.as_deref().map(load_eval).transpose()?,
    ) {
        (Some(eval), None) => engine.set_evaluator(eval),
        (eval, Some(order)) => {
            let eval = match eval {
                Some(e) => e,
                None => shipped().context("loading the shipped weights")? as Arc<dyn Evaluator>,
            };
            engine.set_evaluator(Arc::new(WithOrdering { eval, order }));
        }
        (None, None) => {
            if let Some(hand) = crate::advisor::evaluation_from_env() {
                engine.set_evaluator(hand);
            }
        }
    }
    match (&args.file, args.size, &args.store) {
        (None, Some(size), Some(out)) => {
            anyhow::ensure!(
                args.rules == Rules::Othello && !args.wld,
                "--store solves Othello starts exactly"
            );
            store::run(&engine, size, args.plies, out)
        }
        (Some(file), _, _) => solve_file(&engine, file, args.wld),
        (None, Some(size), None) => solve_start(&engine, size, args.rules, args.wld),
        (None, None, _) => anyhow::bail!("give an OBF file or --size"),
    }
}

/// What a score is worth, as the solver's lines say it: `exact`, `win/loss/draw`, `depth 14`.
fn kind_text(kind: ScoreKind) -> String {
    match kind {
        ScoreKind::WinLossDraw => "win/loss/draw".into(),
        other => other.to_string(),
    }
}

/// A progress line on standard error while a search runs, when it is a terminal.
fn progress_line(label: String) -> impl FnMut(&Thinking) {
    let tty = std::io::stderr().is_terminal();
    move |thinking: &Thinking| {
        if let (true, Some(best)) = (tty, &thinking.best) {
            eprint!(
                "\r{label} {} {:+} {} nodes {:.1}s   ",
                kind_text(best.kind),
                best.score,
                thinking.nodes,
                thinking.elapsed.as_secs_f64()
            );
            let _ = std::io::stderr().flush();
        }
    }
}

fn clear_progress_line() {
    if std::io::stderr().is_terminal() {
        eprint!("\r{:70}\r", "");
    }
}

/// Solves the start position of a small board and prints the result and a perfect line.
fn solve_start(
    engine: &Engine,
    size: BoardSize,
    rules: Rules,
    wld: bool,
) -> anyhow::Result<ExitCode> {
    if rules != Rules::Othello {
        anyhow::bail!(
            "--size solves the Othello start only (the Reversi rule's placements are not solved yet)"
        );
    }
    let start = Position::start(size, rules);
    let (board, mask) = Board::from_position(&start)
        .with_context(|| format!("{size} is too large for the solver"))?;
    let limits = if wld { Limits::wld() } else { Limits::exact() };
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let thinking = engine.search(
        board,
        mask,
        &limits,
        &stop,
        &mut progress_line(format!("{size}")),
    );
    let best = thinking
        .best
        .as_ref()
        .context("the start position has no move")?;
    clear_progress_line();
    let secs = t.elapsed().as_secs_f64();
    let cells = size.cells() as i32;
    let black = (cells + best.score) / 2;
    let verdict = match best.score.signum() {
        1 => format!("Black wins {black}-{}", cells - black),
        -1 => format!("White wins {}-{black}", cells - black),
        _ => format!("draw {black}-{black}"),
    };
    outln!(
        "{size} {rules}: {} {:+} for Black ({verdict}), {} nodes in {secs:.1} s, {} nodes/s",
        kind_text(best.kind),
        best.score,
        thinking.nodes,
        format_rate(thinking.nodes as f64 / secs.max(1e-9))
    )?;
    // A perfect line: at each position, the move the (now well-filled) table proves best.
    let mut pos = start;
    let mut line = Vec::new();
    while !pos.is_game_over() {
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            let (b, m) = Board::from_position(&pos).context("position left the bitboard")?;
            engine
                .search(b, m, &limits, &stop, &mut |_| {})
                .best
                .context("no move")?
                .mv
        };
        line.push(mv);
        pos = pos.play(mv)?;
    }
    let score = Score::of(&pos);
    outln!("perfect line: {}", format_transcript(&line, true))?;
    outln!("final position ({score}):\n{pos}")?;
    Ok(ExitCode::SUCCESS)
}

fn solve_file(engine: &Engine, file: &Path, wld: bool) -> anyhow::Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let positions = parse_obf(&text).with_context(|| format!("in {}", file.display()))?;
    let limits = if wld { Limits::wld() } else { Limits::exact() };
    let stop = AtomicBool::new(false);
    outln!(
        "{:>3} {:>7} {:>5} {:>6} {:>8} {:>5} {:>14} {:>9} {:>13}",
        "#",
        "empties",
        "move",
        "score",
        "expected",
        "check",
        "nodes",
        "seconds",
        "nodes/s"
    )?;
    let (mut total_nodes, mut total_time, mut wrong) = (0u64, Duration::ZERO, 0);
    for (i, obf) in positions.iter().enumerate() {
        let number = i + 1;
        let pos: &Position = &obf.position;
        let (board, mask) = Board::from_position(pos)
            .with_context(|| format!("position {number} cannot be solved by the engine"))?;
        let empties = (board.empties() & mask).count_ones();
        engine.clear();
        let started = Instant::now();
        let mut on_progress = progress_line(format!("#{number}"));
        let result = engine.search(board, mask, &limits, &stop, &mut on_progress);
        let elapsed = started.elapsed();
        clear_progress_line();
        // No legal move: reported as a pass, unscored.
        let (mv, score, nodes) = match &result.best {
            Some(best) => (best.mv, best.score, result.nodes),
            None => (Move::Pass, 0, 0),
        };
        let expected = obf.scores.iter().map(|&(_, s)| s).max();
        let listed = obf.scores.iter().find(|&&(m, _)| m == mv).map(|&(_, s)| s);
        let ok = match expected {
            None => None,
            Some(e) if wld => Some(
                score.signum() == e.signum() && listed.is_none_or(|l| l.signum() == e.signum()),
            ),
            Some(e) => Some(score == e && listed.is_none_or(|l| l == e)),
        };
        if ok == Some(false) {
            wrong += 1;
        }
        total_nodes += nodes;
        total_time += elapsed;
        let secs = elapsed.as_secs_f64();
        outln!(
            "{number:>3} {empties:>7} {:>5} {score:>+6} {:>8} {:>5} {nodes:>14} {secs:>9.3} {:>13}",
            move_text(mv),
            expected.map_or("-".into(), |e| format!("{e:+}")),
            match ok {
                Some(true) => "ok",
                Some(false) => "WRONG",
                None => "-",
            },
            format_rate(nodes as f64 / secs.max(1e-9)),
        )?;
    }
    let secs = total_time.as_secs_f64();
    outln!(
        "total: {} positions, {wrong} wrong, {total_nodes} nodes in {secs:.3} s, {} nodes/s ({} threads)",
        positions.len(),
        format_rate(total_nodes as f64 / secs.max(1e-9)),
        engine.threads()
    )?;
    Ok(if wrong == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
