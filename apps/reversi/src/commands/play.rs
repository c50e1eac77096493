//! `reversi play` and `reversi` alone: a game in the terminal UI, or in plain text when asked
//! or when standard input or output is not a terminal; saved to the history unless told not.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use reversi_core::{BoardSize, Position, Rules, TimeControl};
use reversi_formats::position::parse_position;
use reversi_game::{clock_seed, Player, Session, Settings};

use crate::frontend::{history, play_session};
use crate::tui;

/// `reversi play` options.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Board size: an even number from 4 to 16.
    #[arg(long, default_value = "8")]
    pub size: BoardSize,
    /// Start rule: othello (four-disc start) or reversi (empty board, centre placement).
    #[arg(long, default_value = "othello")]
    pub rules: Rules,
    /// Who plays Black, who moves first: human, ai, ai:LEVEL, ai:ALGORITHM:DEPTH (see below).
    #[arg(long, default_value = "human")]
    pub black: Player,
    /// Who plays White.
    #[arg(long, default_value = "ai")]
    pub white: Player,
    /// Plain text on standard input and output instead of the full-screen board (automatic
    /// when standard input or output is not a terminal).
    #[arg(long)]
    pub plain: bool,
    /// Seed of the computer players' random choices [default: from the clock].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Game database the game is saved to, move by move [default: $REVERSI_DB, else
    /// $XDG_DATA_HOME/reversi/games.sqlite3, else ~/.local/share/reversi/games.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Play without saving the game to the history.
    #[arg(long, conflicts_with = "db")]
    pub no_save: bool,
    /// A game clock for each side, BASE[+INCREMENT]: 5m+3s, 90s, 1h, 5+3 (minutes + seconds).
    /// A side whose time runs out loses (scored 64-0); computer players budget their time
    /// by it. Undo gives back the clocks as they were.
    #[arg(long, value_name = "BASE[+INC]")]
    pub clock: Option<TimeControl>,
    /// Start from this position instead of the standard start: a board and the side to move
    /// ("---…OX…--- X", 64 squares of X or *, O and -), an OBF line, a GGF game (its BO) or a
    /// transcript from the start of --size and --rules. The history keeps it as the game's
    /// start.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    pub position: Option<String>,
}

pub fn run(args: PlayArgs, menu_db: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let settings = Settings {
        size: args.size,
        rules: args.rules,
        black: args.black,
        white: args.white,
        seed: args.seed.unwrap_or_else(clock_seed),
        clock: args.clock,
    };
    let start = match &args.position {
        Some(text) => parse_position(text, args.size, args.rules)
            .with_context(|| format!("--position {text:?}"))?
            .position()
            .clone(),
        None => Position::start(args.size, args.rules),
    };
    let history = history(args.db.or(menu_db), args.no_save);
    let context = reversi_game::Context::with(crate::advisor::get().clone());
    let session = Session::in_context(settings, start, history.log.clone(), context);
    play_session(session, args.plain, history)
}

/// The main menu.
pub fn menu(db: Option<PathBuf>, no_save: bool) -> anyhow::Result<ExitCode> {
    let settings = Settings {
        seed: clock_seed(),
        ..Settings::default()
    };
    tui::run(tui::Start::Menu(settings), history(db, no_save))?;
    Ok(ExitCode::SUCCESS)
}
