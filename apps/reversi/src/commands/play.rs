//! `reversi play` and `reversi` alone: a game in the terminal UI, or in plain text when asked
//! or when standard input or output is not a terminal.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::cli::PlayArgs;
use crate::session::Settings;
use crate::{plain, tui};

/// Whether both standard input and output are terminals.
pub fn is_interactive() -> bool {
    io::stdin().is_terminal() && io::stdout().is_terminal()
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

pub fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let settings = Settings {
        size: args.size,
        rules: args.rules,
        black: args.black,
        white: args.white,
        seed: args.seed.unwrap_or_else(clock_seed),
    };
    if args.plain || !is_interactive() {
        let mut input = io::stdin().lock();
        let mut out = io::stdout().lock();
        let echo = !io::stdin().is_terminal();
        plain::run(settings, &mut input, &mut out, echo)?;
    } else {
        tui::run(tui::Start::Game(settings))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The main menu.
pub fn menu() -> anyhow::Result<ExitCode> {
    let settings = Settings {
        seed: clock_seed(),
        ..Settings::default()
    };
    tui::run(tui::Start::Menu(settings))?;
    Ok(ExitCode::SUCCESS)
}
