//! `reversi history explore [POSITION]`: the moves the stored games played from a position
//! (in any of its eight orientations), with their games, Black's results and the engine's
//! value, as a table or JSON; and `reversi history reindex`, which builds the explorer's index
//! again from the stored games.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use reversi_core::{BoardSize, Color, Position, Rules};
use reversi_engine::levels::Level;
use reversi_formats::position::{board_string, parse_position};
use reversi_game::{explore, Explored, Valuation};
use reversi_store::{Store, EXPLORER_MAX_DISCS};
use serde_json::{json, Value};

use crate::commands::analyze::kind_json;

/// What to explore, as the command line gives it.
#[derive(clap::Args, Debug)]
pub struct ExploreArgs {
    /// The position: a board and the side to move, an OBF line, a GGF game or a
    /// transcript (f5d6c3), as `reversi analyze` reads it.
    #[arg(allow_hyphen_values = true, value_name = "POSITION")]
    pub position: Option<String>,
    /// The side to move (X or O), when the board is given as a word of its own.
    #[arg(value_name = "SIDE")]
    pub side: Option<String>,
    /// The level whose search values the moves the book lacks: 1-60 or a name.
    #[arg(long, default_value_t = reversi_game::EXPLORER_LEVEL.to_string())]
    pub level: String,
    /// Leave out the engine's values (the games' counts alone answer at once).
    #[arg(long)]
    pub no_values: bool,
    /// Start rule of a transcript or board: othello or reversi.
    #[arg(long, default_value = "othello")]
    pub rules: Rules,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

pub fn run(store: &Store, args: &ExploreArgs) -> anyhow::Result<ExitCode> {
    let level = if args.no_values {
        None
    } else {
        let Some(level) = Level::parse(&args.level) else {
            bail!(
                "unknown level {:?}: expected 1-60 or a level name",
                args.level
            );
        };
        Some(level)
    };
    let position = match &args.position {
        None => Position::start(BoardSize::EIGHT, args.rules),
        Some(text) => {
            let text = match &args.side {
                Some(side) => format!("{text} {side}"),
                None => text.clone(),
            };
            parse_position(&text, BoardSize::EIGHT, args.rules)
                .with_context(|| format!("{text:?}"))?
                .position()
                .clone()
        }
    };
    if position.size() != BoardSize::EIGHT {
        bail!(
            "the explorer covers 8x8 games; this position is {}",
            position.size()
        );
    }
    let valuation = level.map_or(Valuation::None, Valuation::BookOrSearch);
    let explored = explore(store, crate::advisor::get(), &position, valuation)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", to_json(&explored))?;
    } else {
        write_text(&mut out, &explored, level)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `53.2%`: a share as a percentage with one decimal.
fn percent(part: u64, whole: u64) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}

fn write_text(out: &mut dyn Write, e: &Explored, level: Option<Level>) -> std::io::Result<()> {
    let p = &e.position;
    writeln!(out, "{} {}, {}", p.size(), p.rules(), board_string(p))?;
    write!(out, "{p}")?;
    if let Some(c) = e.passed {
        writeln!(out, "{c} has no legal move and passes.")?;
    }
    let games = e.games();
    if games == 0 {
        let deep = p.disc_count(Color::Black) + p.disc_count(Color::White);
        let why = if deep > EXPLORER_MAX_DISCS as usize {
            format!(" (the explorer keeps positions of at most {EXPLORER_MAX_DISCS} discs)")
        } else {
            String::new()
        };
        return writeln!(out, "No stored game reached this position{why}.");
    }
    writeln!(
        out,
        "{} to move; {games} game{} reached this position (in any orientation):",
        p.turn(),
        if games == 1 { "" } else { "s" }
    )?;
    let value_head = match level {
        Some(l) => format!("  value for {} (book, else level {})", p.turn(), l.get()),
        None => String::new(),
    };
    writeln!(
        out,
        "  {:<4} {:>7}  {:>10}  {:>6}  {:>10}  {:>7}{value_head}",
        "move", "games", "Black wins", "draws", "White wins", "Black ±"
    )?;
    for l in &e.lines {
        let m = &l.played;
        let white = m.games - m.black_wins - m.draws;
        let value = l.value.as_ref().map_or(String::new(), |c| {
            format!("  {:>5} {}", c.short_score(), c.kind)
        });
        writeln!(
            out,
            "  {:<4} {:>7}  {:>10}  {:>6}  {:>10}  {:>+7.1}{value}",
            m.square.to_string(),
            m.games,
            percent(m.black_wins, m.games),
            percent(m.draws, m.games),
            percent(white, m.games),
            m.mean_disc_margin(),
        )?;
    }
    Ok(())
}

/// The explorer's answer as JSON, for programs and the web page.
pub fn to_json(e: &Explored) -> Value {
    let p = &e.position;
    let moves: Vec<Value> = e
        .lines
        .iter()
        .map(|l| {
            let m = &l.played;
            json!({
                "move": m.square.to_string(),
                "games": m.games,
                "black_wins": m.black_wins,
                "draws": m.draws,
                "white_wins": m.games - m.black_wins - m.draws,
                "black_win_rate": m.black_win_rate(),
                "mean_disc_margin": m.mean_disc_margin(),
                "value": l.value.as_ref().map(|c| json!({
                    "score": c.score,
                    "shown": c.short_score(),
                    "upper_bound": c.upper_bound,
                    "kind": kind_json(c.kind),
                })),
            })
        })
        .collect();
    json!({
        "position": board_string(p),
        "to_move": p.turn().name().to_lowercase(),
        "passed": e.passed.map(|c| c.name().to_lowercase()),
        "games": e.games(),
        "max_discs": EXPLORER_MAX_DISCS,
        "moves": moves,
    })
}

/// `reversi history reindex`: the explorer's index built again from every stored game.
pub fn reindex(store: &mut Store) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let size = store.rebuild_explorer()?;
    outln!(
        "explorer index: {} games, {} positions, {} rows, {:.1} MB, built in {:.1} s",
        size.games,
        size.positions,
        size.rows,
        size.bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}
