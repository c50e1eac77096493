//! One module per command; `run` dispatches.

mod bench;
pub(crate) mod history;
mod perft;
mod play;

use std::process::ExitCode;

use crate::cli::{BenchCommand, Cli, Command};

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Perft { depth, size, rules }) => perft::run(depth, size, rules),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::History(args)) => history::run(args),
        Some(Command::Bench { what }) => match what {
            BenchCommand::Perft { depth } => bench::perft(depth),
            BenchCommand::Algorithms {
                depth,
                positions,
                size,
                openings,
            } => bench::algorithms::run(depth, positions, size, openings),
        },
        None if play::is_interactive() => play::menu(),
        None => {
            use clap::CommandFactory;
            crate::cli::Cli::command().print_help()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
