//! `reversi match`: the command-line adapter over [`reversi_arena`]: its options, the
//! contenders they name, and the printing of each game and of the result.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use reversi_arena::{BookChoice, Contender, EngineSpec, Match, MatchRules, Setup, Sink};
use reversi_core::{BoardSize, Game, Position, Rules, TimeControl};
use reversi_formats::xot::read_openings;

/// `reversi match` options.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The first engine: an internal player (level:12, 12, hard, minimax:4, greedy, random),
    /// the command line of a GTP engine after `gtp:` ("gtp:reversi gtp --level 8",
    /// "gtp:edax -gtp"), or the command line of an NBoard engine, alone or after `nboard:`
    /// ("reversi nboard", "nboard:edax -q"). `reversi` runs this very program.
    #[arg(long = "a", value_name = "ENGINE")]
    pub a: String,
    /// The second engine.
    #[arg(long = "b", value_name = "ENGINE")]
    pub b: String,
    /// XOT openings file, one transcript a line, used in order [default: the reference
    /// data's xot-large.txt]
    #[arg(long, conflicts_with = "from_start")]
    pub openings: Option<PathBuf>,
    /// Play every game from the standard start instead of XOT openings (the players' book
    /// and allowance make the games differ).
    #[arg(long)]
    pub from_start: bool,
    /// The first engine's opening book, if an internal level: a book file, or `none`
    /// [default: the program's book]
    #[arg(long, value_name = "FILE|none")]
    pub a_book: Option<String>,
    /// The second engine's opening book, as --a-book.
    #[arg(long, value_name = "FILE|none")]
    pub b_book: Option<String>,
    /// Number of games; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Caps every move of an internal level at this many seconds, and is each move's time of
    /// a GTP engine (`time_settings 0 S 1`, in whole seconds rounded up); an external engine
    /// forfeits after max(10, 20 × this) seconds without an answer.
    #[arg(long, value_name = "S")]
    pub time_per_move: Option<f64>,
    /// A game clock for each engine, BASE[+INCREMENT] (5m+3s, 1m+1s): internal levels and
    /// NBoard engines (through the game's `TI` and move times) budget their moves by it, GTP
    /// engines hear `time_settings` and `time_left`; an engine whose time runs out loses.
    #[arg(long, value_name = "BASE[+INC]")]
    pub clock: Option<TimeControl>,
    /// Midgame depth of NBoard engines (`set depth`); internal players and GTP engines (which
    /// have no such command) keep their own.
    #[arg(long, value_name = "D", default_value_t = 10)]
    pub depth: u32,
    /// Search threads of each internal level.
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
    /// Transposition table of each internal level, in MB.
    #[arg(long, default_value_t = 16, value_parser = crate::options::hash_mb)]
    pub hash_mb: usize,
    /// Seconds an external engine may take for a move (or to start) before it forfeits the
    /// game [default: max(10, 20 × time per move), 60 without a time per move]
    #[arg(long, value_name = "S")]
    pub move_timeout: Option<f64>,
    /// Write the games to this GGF file instead of the game database.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Go on with the match in --out: its games are counted and play resumes with the next
    /// one (the same openings, colours and seeds as a match never stopped)
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Game database [default: $REVERSI_DB, else $XDG_DATA_HOME/reversi/games.sqlite3, else
    /// ~/.local/share/reversi/games.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
}

fn seconds(what: &str, s: f64) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .with_context(|| format!("{what} must be a positive number of seconds, not {s}"))
}

/// The engine `arg` names; `reversi` runs this very program, so that `--b "reversi nboard"`
/// works without the program being on the PATH.
fn engine_spec(arg: &str, flag: &str) -> anyhow::Result<EngineSpec> {
    let spec: EngineSpec = arg.parse().with_context(|| flag.to_string())?;
    Ok(match std::env::current_exe() {
        Ok(exe) => spec.with_program("reversi", &exe),
        Err(_) => spec,
    })
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.depth == 0 || args.depth > 60 {
        bail!("--depth must be 1-60, not {}", args.depth);
    }
    let time_per_move = args
        .time_per_move
        .map(|s| seconds("--time-per-move", s))
        .transpose()?;
    let timeout = match args.move_timeout {
        Some(s) => seconds("--move-timeout", s)?,
        None => time_per_move.map_or(Duration::from_secs(60), |t| {
            (t * 20).max(Duration::from_secs(10))
        }),
    };
    let spec_a = engine_spec(&args.a, "--a")?;
    let spec_b = engine_spec(&args.b, "--b")?;
    let path = args
        .openings
        .clone()
        .unwrap_or_else(crate::data::xot_openings);
    let openings = if args.from_start {
        vec![Game::new(Position::start(BoardSize::EIGHT, Rules::Othello)); args.games.div_ceil(2)]
    } else {
        read_openings(&path, ..args.games.div_ceil(2))?
    };
    let (mut sink, earlier) = match &args.out {
        Some(out) if args.resume => Sink::ggf_resume(out)?,
        Some(out) => (Sink::ggf(out)?, Vec::new()),
        None => (
            Sink::store(&crate::frontend::db_path(args.db.clone())?)?,
            Vec::new(),
        ),
    };
    let setup = Setup {
        threads: args.threads.max(1),
        hash_mb: args.hash_mb,
        time_per_move,
        clock: args.clock,
        depth: args.depth,
    };
    let a = Contender::new(
        &args.a,
        &spec_a,
        &setup,
        &book_choice(args.a_book.as_deref())?,
    );
    let b = Contender::new(
        &args.b,
        &spec_b,
        &setup,
        &book_choice(args.b_book.as_deref())?,
    );
    let rules = MatchRules {
        timeout,
        clock: args.clock,
    };
    let mut arena = Match::new(a, b, openings, args.games, rules);
    arena.resume(&earlier).with_context(|| {
        format!(
            "cannot resume the match in {}",
            args.out.as_deref().unwrap_or(Path::new("")).display()
        )
    })?;

    outln!(
        "{} vs {}: {} games on {} openings from {}, colours swapped",
        args.a,
        args.b,
        args.games,
        arena.openings().len(),
        if args.from_start {
            "the standard start".to_string()
        } else {
            path.display().to_string()
        }
    )?;
    if !earlier.is_empty() {
        outln!(
            "resuming after the {} games already played: {}",
            earlier.len(),
            arena.tally().record()
        )?;
    }
    let bar = ProgressBar::new(args.games as u64);
    bar.set_position(earlier.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut ids = Vec::new();
    while let Some(g) = arena.play_next() {
        let played = &g.played;
        let line = format!(
            "game {:>3}  opening {:>3}  {} (Black) {} {} (White){}",
            g.number + 1,
            g.opening + 1,
            // Named by the engines themselves (another program's output).
            reversi_game::printable(&played.black.name),
            played.score,
            reversi_game::printable(&played.white.name),
            played
                .forfeit
                .as_ref()
                .map(|f| format!(
                    "  {} forfeits: {}",
                    if f.color == g.a_color {
                        &args.a
                    } else {
                        &args.b
                    },
                    f.reason
                ))
                .unwrap_or_default()
        );
        bar.suspend(|| outln!("{line}"))?;
        if let Some(id) = sink.save(played)? {
            ids.push(id);
        }
        bar.set_message(format!("{}: {}", args.a, arena.tally().record()));
        bar.inc(1);
    }
    bar.finish_and_clear();
    report(&args, &arena)?;
    match (ids.first(), ids.last()) {
        (Some(first), Some(last)) => outln!(
            "saved {} games to {} (ids {first}-{last})",
            ids.len(),
            sink.describe()
        )?,
        _ if !earlier.is_empty() => outln!(
            "saved {} games to {} ({} in all)",
            arena.tally().games() - earlier.len(),
            sink.describe(),
            arena.tally().games()
        )?,
        _ => outln!(
            "saved {} games to {}",
            arena.tally().games(),
            sink.describe()
        )?,
    }
    Ok(ExitCode::SUCCESS)
}

fn report(args: &MatchArgs, arena: &Match) -> std::io::Result<()> {
    let tally = arena.tally();
    let (elo, lo, hi) = tally.elo();
    outln!(
        "{}: {} (as Black {}, as White {}) against {}",
        args.a,
        tally.record(),
        tally.record_as(true),
        tally.record_as(false),
        args.b
    )?;
    outln!("average disc difference {:+.2}", tally.average_margin())?;
    outln!("score {:.1}%", 100.0 * tally.score())?;
    outln!("Elo difference {elo} (95% interval {lo} to {hi})")?;
    for (name, t) in [&args.a, &args.b].into_iter().zip(arena.move_times()) {
        outln!(
            "time per move: {name} {:.3} s on average, longest {:.3} s ({} moves)",
            t.mean_secs(),
            t.longest.as_secs_f64(),
            t.moves
        )?;
    }
    let forfeits = arena.forfeits();
    outln!(
        "forfeits: {} {}, {} {}",
        args.a,
        forfeits[0],
        args.b,
        forfeits[1]
    )
}

/// The book `--a-book`/`--b-book` names: a file, `none`, or the program's when not given.
fn book_choice(arg: Option<&str>) -> anyhow::Result<BookChoice> {
    Ok(match arg {
        None => BookChoice::Process,
        Some("none") => BookChoice::Own(None),
        Some(path) => BookChoice::Own(Some(Arc::new(crate::commands::book::load(Path::new(
            path,
        ))?))),
    })
}
