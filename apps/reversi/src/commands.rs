//! One module per command; `run` dispatches.

mod bench;
pub(crate) mod history;
mod levels;
pub(crate) mod match_cmd;
pub(crate) mod nboard;
mod perft;
pub(crate) mod play;
pub(crate) mod serve;
mod solve;
pub(crate) mod train;

use std::process::ExitCode;

use crate::cli::{BenchCommand, Cli, Command};

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Perft { depth, size, rules }) => perft::run(depth, size, rules),
        Some(Command::Play(args)) => play::run(args, cli.db),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Levels) => levels::run(),
        Some(Command::History(args)) => history::run(args),
        Some(Command::Nboard(args)) => nboard::run(&args),
        Some(Command::Match(args)) => match_cmd::run(args),
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Train(args)) => train::run(args),
        Some(Command::Bench { what }) => match what {
            None => bench::engine::run(),
            Some(BenchCommand::Perft { depth }) => bench::perft(depth),
            Some(BenchCommand::Algorithms {
                depth,
                positions,
                size,
                openings,
            }) => bench::algorithms::run(depth, positions, size, openings),
        },
        None if play::is_interactive() => play::menu(cli.db, cli.no_save),
        None => {
            use clap::CommandFactory;
            crate::cli::Cli::command().print_help()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
