//! `reversi history`: list, show, delete, export and import the games kept in the database.

mod analyze;
pub(crate) mod explore;
pub(crate) mod import;
mod stress;

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use reversi_core::{format_transcript, opening_name, BoardSize, Color, Outcome, Rules};
use reversi_formats::svg::{position_svg, SvgOptions};
use reversi_game::{clock_seed, convert, printable, Replay};
use reversi_store::StoreLog;
use reversi_store::{GameFilter, GameId, GameInfo, PlayerKind, Status, Store};

use crate::frontend::{self, db_path};
use crate::tui;

/// `reversi history` options.
#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Game database [default: $REVERSI_DB, else $XDG_DATA_HOME/reversi/games.sqlite3, else
    /// ~/.local/share/reversi/games.sqlite3]
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub command: HistoryCommand,
}

#[derive(Debug, Subcommand)]
pub enum HistoryCommand {
    /// One line per game, newest first: id, date, players, board and rule, result.
    List {
        /// Show at most this many games (0 for all).
        #[arg(long, default_value_t = 50)]
        limit: usize,
        /// Only games where a player's name contains this text (case-insensitive).
        #[arg(long)]
        player: Option<String>,
        /// Only games with this status: in_progress, finished or abandoned.
        #[arg(long)]
        status: Option<Status>,
    },
    /// A game's players, dates and result, the opening line it followed (named 8x8 Othello
    /// lines), its moves as a transcript, its variations, and the final board.
    Show {
        /// The game's id, as `history list` shows it.
        id: GameId,
    },
    /// Delete games. Asks first on a terminal; elsewhere needs --yes.
    Delete {
        /// Ids of the games to delete.
        #[arg(required = true)]
        ids: Vec<GameId>,
        /// Delete without asking.
        #[arg(long, short = 'y')]
        yes: bool,
    },
    /// Write games out, one a line: as transcripts (`f5d6c3… 33-31`, each variation under
    /// its game as a `# variation K from move N: …` comment) or GGF (the game's own moves);
    /// or one game's position as an SVG picture (`--format svg --move N`).
    Export {
        /// Ids of the games to write.
        #[arg(required = true)]
        ids: Vec<GameId>,
        #[arg(long, value_enum, default_value_t = ExportFormat::Transcript)]
        format: ExportFormat,
        /// For svg: the position after this many moves, passes included (0: the start)
        /// [default: the last]
        #[arg(long = "move", value_name = "N")]
        ply: Option<usize>,
        /// For svg: mark the legal moves of the side to move.
        #[arg(long)]
        legal: bool,
        /// Write to this file instead of standard output.
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Add games from files: WTHOR `.wtb` (names from WTH.JOU and WTH.TRN beside it), GGF
    /// (one game a line), or transcripts (one game a line). Each file is imported whole or not
    /// at all; games already stored are skipped.
    Import {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// The format, if not told by the extension (.wtb, .ggf) or the content.
        #[arg(long, value_enum, default_value_t = import::ImportFormat::Auto)]
        format: import::ImportFormat,
        /// Board size of transcript games.
        #[arg(long, default_value = "8")]
        size: BoardSize,
        /// Start rule of transcript games: othello or reversi.
        #[arg(long, default_value = "othello")]
        rules: Rules,
    },
    /// Evaluate every position of a game at a level and measure each move's disc loss
    /// against the engine's best move; mistakes (4+ discs) and blunders (10+) are marked.
    Analyze {
        /// The game's id, as `history list` shows it.
        id: GameId,
        /// Engine level: 1-60 or a level name [default: the level the human scale is
        /// measured at (`reversi levels`), so that each side's game is rated].
        #[arg(long)]
        level: Option<String>,
    },
    /// The opening explorer: the moves the stored games played from a position (the start
    /// without one), in any of its eight orientations: games, Black's wins, draws and White's
    /// wins, Black's mean final disc margin, and the engine's value of each move (the book's,
    /// else a quick search's). Finished 8x8 games count, up to 28 discs on the board.
    Explore(explore::ExploreArgs),
    /// Build the explorer's index again from every stored game (the import and the schema
    /// migration build it already; this is for a database changed by other programs).
    Reindex,
    /// Continue a game in progress with the same players, adding to the same record.
    Resume {
        /// The game's id, as `history list` shows it.
        id: GameId,
        /// Plain text instead of the full-screen board (automatic without a terminal).
        #[arg(long)]
        plain: bool,
    },
    /// Step through a game: arrows/hjkl, Home, End, a move number and Enter, q to leave. With
    /// --plain (automatic without a terminal), print the board after each move.
    Replay {
        /// The game's id, as `history list` shows it.
        id: GameId,
        #[arg(long)]
        plain: bool,
    },
    /// Test aid: plays random games, storing each move, until killed or out of time.
    #[command(hide = true)]
    StressAppend {
        /// Stop after this many seconds.
        #[arg(long, default_value_t = 60)]
        seconds: u64,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Transcript,
    Ggf,
    Svg,
}

/// Opens an existing database for reading; `None` when there is none yet.
fn open_existing(path: &Path) -> anyhow::Result<Option<Store>> {
    if path.exists() {
        Ok(Some(Store::open(path)?))
    } else {
        Ok(None)
    }
}

fn require(path: &Path) -> anyhow::Result<Store> {
    open_existing(path)?.with_context(|| format!("{}: no game database there", path.display()))
}

pub fn run(args: HistoryArgs) -> anyhow::Result<ExitCode> {
    let path = db_path(args.db)?;
    match args.command {
        HistoryCommand::List {
            limit,
            player,
            status,
        } => list(&path, limit, player, status),
        HistoryCommand::Show { id } => show(&require(&path)?, id),
        HistoryCommand::Delete { ids, yes } => delete(&mut require(&path)?, &ids, yes),
        HistoryCommand::Export {
            ids,
            format: ExportFormat::Svg,
            ply,
            legal,
            output,
        } => export_svg(&require(&path)?, &ids, ply, legal, output.as_deref()),
        HistoryCommand::Export {
            ids,
            format,
            ply,
            legal,
            output,
        } => {
            if ply.is_some() || legal {
                bail!("--move and --legal choose the position of --format svg");
            }
            export(&require(&path)?, &ids, format, output.as_deref())
        }
        HistoryCommand::Import {
            files,
            format,
            size,
            rules,
        } => import::run(&mut Store::open(&path)?, &files, format, size, rules),
        HistoryCommand::Analyze { id, level } => {
            analyze::run(&require(&path)?, id, level.as_deref())
        }
        HistoryCommand::Explore(args) => explore::run(&require(&path)?, &args),
        HistoryCommand::Reindex => explore::reindex(&mut require(&path)?),
        HistoryCommand::Resume { id, plain } => resume(&path, id, plain),
        HistoryCommand::Replay { id, plain } => replay(&path, id, plain),
        HistoryCommand::StressAppend { seconds } => stress::run(&mut Store::open(&path)?, seconds),
    }
}

fn resume(path: &Path, id: GameId, plain: bool) -> anyhow::Result<ExitCode> {
    let log = StoreLog::at(path)
        .with_person(&crate::data::login_name())
        .into_handle();
    // The program's engine and book (`--book`, `--no-book`), as for a new game.
    let context = reversi_game::Context::with(crate::advisor::get().clone());
    let session = reversi_game::resume(
        &require(path)?,
        id,
        clock_seed(),
        Some(log.clone()),
        context,
    )?;
    let history = tui::History {
        db: Some(path.to_path_buf()),
        log: Some(log),
    };
    frontend::play_session(session, plain, history)
}

fn replay(path: &Path, id: GameId, plain: bool) -> anyhow::Result<ExitCode> {
    let replay = load_replay(&require(path)?, id)?;
    frontend::replay(replay, plain, path.to_path_buf())
}

/// A player for `history show` (its name and level escaped: they may come from a file).
fn player_text(p: &reversi_store::Player) -> String {
    let name = printable(&p.name);
    match (&p.kind, &p.level) {
        (PlayerKind::Computer, Some(level)) => {
            format!("{name} (computer, level {})", printable(level))
        }
        (PlayerKind::Computer, None) => format!("{name} (computer)"),
        (PlayerKind::Human, _) => name.to_string(),
    }
}

/// `36-28`, `in progress`, `abandoned`, or `finished` when no score is known.
fn result_text(info: &GameInfo) -> String {
    match (info.status, info.score) {
        (Status::InProgress, _) => "in progress".into(),
        (Status::Abandoned, None) => "abandoned".into(),
        (Status::Abandoned, Some(s)) => format!("{s} (abandoned)"),
        (Status::Finished, Some(s)) => s.to_string(),
        (Status::Finished, None) => match info.result {
            Some(Outcome::Win(c)) => format!("{c} wins"),
            Some(Outcome::Draw) => "draw".into(),
            None => "finished".into(),
        },
    }
}

fn list(
    path: &Path,
    limit: usize,
    player: Option<String>,
    status: Option<Status>,
) -> anyhow::Result<ExitCode> {
    let Some(store) = open_existing(path)? else {
        eprintln!("no games yet ({} does not exist)", path.display());
        return Ok(ExitCode::SUCCESS);
    };
    let filter = GameFilter {
        limit: (limit > 0).then_some(limit),
        player,
        status,
        offset: 0,
    };
    let games = store.list_games(&filter)?;
    if games.is_empty() {
        eprintln!("no games in {} match", path.display());
    }
    let mut out = std::io::stdout().lock();
    for g in &games {
        let date = g
            .started_at
            .as_deref()
            .map_or("-", |d| d.get(..10).unwrap_or(d));
        writeln!(
            out,
            "{:>7}  {:<10}  {} vs {}  {} {}  {}",
            g.id,
            printable(date),
            printable(&g.black.name),
            printable(&g.white.name),
            g.size,
            g.rules,
            result_text(g)
        )?;
    }
    out.flush()?;
    let total = store.count_games(&filter)?;
    if total as usize > games.len() {
        eprintln!(
            "({} of {total} games shown; --limit 0 shows all)",
            games.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Game `id` with its variations.
fn load_replay(store: &Store, id: GameId) -> anyhow::Result<Replay> {
    Ok(Replay::with_variations(
        store.load_game(id)?,
        &store.variations(id)?,
    )?)
}

fn show(store: &Store, id: GameId) -> anyhow::Result<ExitCode> {
    let stored = store.load_game(id)?;
    let variations = convert::variation_lines(&load_replay(store, id)?);
    let info = &stored.info;
    let mut out = std::io::stdout().lock();
    writeln!(out, "Game {}  ({})", info.id, info.status)?;
    writeln!(out, "Black:   {}", player_text(&info.black))?;
    writeln!(out, "White:   {}", player_text(&info.white))?;
    let start = if info.start.is_some() {
        ", set-up start"
    } else {
        ""
    };
    writeln!(out, "Board:   {} {}{start}", info.size, info.rules)?;
    // Dates, event and source may come from an imported file: shown escaped.
    if let Some(d) = &info.started_at {
        writeln!(out, "Started: {}", printable(d))?;
    }
    if let Some(d) = &info.ended_at {
        writeln!(out, "Ended:   {}", printable(d))?;
    }
    if let Some(e) = &info.event {
        writeln!(out, "Event:   {}", printable(e))?;
    }
    if let Some(s) = &info.source {
        writeln!(out, "Source:  {}", printable(s))?;
    }
    let result = match (info.result, info.score) {
        (Some(Outcome::Win(c)), Some(s)) => format!("{c} wins {s}"),
        (Some(Outcome::Draw), Some(s)) => format!("draw {s}"),
        _ => result_text(info),
    };
    writeln!(out, "Result:  {result}")?;
    if let Some(name) = opening_name(&stored.game) {
        writeln!(out, "Opening: {name}")?;
    }
    writeln!(
        out,
        "Moves:   {} {}",
        stored.moves.len(),
        format_transcript(stored.game.moves(), true)
    )?;
    let timed = stored
        .moves
        .iter()
        .any(|m| m.time_ms.is_some() || m.eval.is_some());
    if timed {
        let mut color = stored.game.start().turn();
        for (i, m) in stored.moves.iter().enumerate() {
            let time = m
                .time_ms
                .map_or(String::new(), |t| format!("  {:.1}s", t as f64 / 1000.0));
            let eval = m.eval.map_or(String::new(), |e| format!("  eval {e:+.2}"));
            writeln!(
                out,
                "  {:>3}. {} {}{time}{eval}",
                i + 1,
                color_letter(color),
                m.mv
            )?;
            color = color.opposite();
        }
    }
    if !variations.is_empty() {
        writeln!(out, "Variations:")?;
        for line in &variations {
            writeln!(out, "  {line}")?;
        }
    }
    writeln!(out)?;
    let now = stored.game.current();
    write!(out, "{now}")?;
    writeln!(
        out,
        "X {}  O {}{}",
        now.disc_count(Color::Black),
        now.disc_count(Color::White),
        if stored.game.is_over() {
            String::new()
        } else {
            format!("  {} to move", now.turn())
        }
    )?;
    Ok(ExitCode::SUCCESS)
}

fn color_letter(c: Color) -> char {
    match c {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

fn delete(store: &mut Store, ids: &[GameId], yes: bool) -> anyhow::Result<ExitCode> {
    for &id in ids {
        store.game_info(id)?;
    }
    if !yes {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            bail!("not deleting without confirmation: pass --yes");
        }
        let list: Vec<String> = ids.iter().map(ToString::to_string).collect();
        eprint!(
            "Delete {} game{} ({})? [y/N] ",
            ids.len(),
            if ids.len() == 1 { "" } else { "s" },
            list.join(", ")
        );
        std::io::stderr().flush()?;
        let mut answer = String::new();
        stdin.lock().read_line(&mut answer)?;
        if !matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
            eprintln!("nothing deleted");
            return Ok(ExitCode::FAILURE);
        }
    }
    for &id in ids {
        store.delete_game(id)?;
    }
    outln!(
        "deleted {} game{}",
        ids.len(),
        if ids.len() == 1 { "" } else { "s" }
    )?;
    Ok(ExitCode::SUCCESS)
}

fn export(
    store: &Store,
    ids: &[GameId],
    format: ExportFormat,
    output: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let mut text = String::new();
    for &id in ids {
        let stored = store.load_game(id)?;
        let variations = convert::variation_lines(&load_replay(store, id)?);
        let line = match format {
            ExportFormat::Transcript => {
                if stored.info.start.is_some() {
                    eprintln!(
                        "warning: game {id} starts from a set-up position, which a transcript \
                         does not record; GGF does"
                    );
                }
                convert::to_transcript(&stored)
            }
            ExportFormat::Ggf => {
                if !variations.is_empty() {
                    eprintln!(
                        "note: game {id}'s {} variation(s) are left out: GGF has no variations; \
                         --format transcript writes them as comments",
                        variations.len()
                    );
                }
                convert::to_ggf(&stored)
            }
            ExportFormat::Svg => bail!("an SVG picture is written by export_svg"),
        };
        text.push_str(&line);
        text.push('\n');
        if format == ExportFormat::Transcript {
            for v in &variations {
                text.push_str(&format!("# {v}\n"));
            }
        }
    }
    write_output(&text, output)
}

/// Writes `text` to `output`, or to standard output without one.
fn write_output(text: &str, output: Option<&Path>) -> anyhow::Result<ExitCode> {
    match output {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// One game's position after `ply` moves (the last without it) as an SVG picture.
fn export_svg(
    store: &Store,
    ids: &[GameId],
    ply: Option<usize>,
    legal: bool,
    output: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let &[id] = ids else {
        bail!(
            "a picture shows one game's position: give one id, not {}",
            ids.len()
        );
    };
    let stored = store.load_game(id)?;
    let game = &stored.game;
    let len = game.moves().len();
    let ply = ply.unwrap_or(len);
    let Some(position) = game.positions().get(ply) else {
        bail!("game {id} has {len} moves: --move goes from 0 (the start) to {len}");
    };
    let last = reversi_game::move_at(game, ply);
    let after = match &last {
        Some(m) => format!("after {ply}. {}", m.mv),
        None => "start".to_string(),
    };
    let options = SvgOptions {
        last: last.map(|m| (m.color, m.mv)),
        legal,
        scores: Vec::new(),
        caption: Some(format!(
            "Game {id}, {} vs {}, {after}",
            printable(&stored.info.black.name),
            printable(&stored.info.white.name)
        )),
    };
    write_output(&position_svg(position, &options), output)
}
