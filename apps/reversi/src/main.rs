//! The `reversi` program: command-line entry point, dispatching to one module per command.

/// `println!` that hands back the error when standard output is closed (`reversi levels |
/// head`) instead of panicking; `main` ends such a run quietly.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `print!` as [`outln!`] is `println!`.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

mod advisor;
mod cli;
mod commands;
mod data;
mod frontend;
mod options;
mod plain;
mod tui;
mod web;

use clap::Parser;

use std::process::ExitCode;

use cli::{Cli, Command};
use commands::bench::BenchCommand;
use commands::{
    analyze, bench, book, gtp, history, levels, match_cmd, nboard, perft, play, serve, solve, train,
};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // A reader that stopped reading (`| head`) is not an error of ours.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // An error may quote a file it read: its control characters are escaped (its own
            // line breaks kept).
            let text = format!("{err:#}");
            let lines: Vec<String> = text
                .split('\n')
                .map(|l| reversi_game::printable(l).to_string())
                .collect();
            eprintln!("reversi: {}", lines.join("\n"));
            ExitCode::FAILURE
        }
    }
}

/// Runs the command `cli` names (the menu, or the help without a terminal, when none).
fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    advisor::kernel_from_env();
    if cli.no_book {
        advisor::init(None);
    } else if let Some(path) = &cli.book {
        advisor::init(Some(std::sync::Arc::new(book::load(path)?)));
    }
    match cli.command {
        Some(Command::Book(args)) => book::run(args),
        Some(Command::Perft { depth, size, rules }) => perft::run(depth, size, rules),
        Some(Command::Play(args)) => play::run(args, cli.db),
        Some(Command::Analyze(args)) => analyze::run(args),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Levels) => levels::run(),
        Some(Command::History(args)) => history::run(args),
        Some(Command::Nboard(args)) => nboard::run(&args),
        Some(Command::Gtp(args)) => gtp::run(&args),
        Some(Command::Match(args)) => match_cmd::run(args),
        Some(Command::Serve(args)) => serve::run(args),
        Some(Command::Train(args)) => train::run(args),
        Some(Command::Bench { what, weights }) => match what {
            None => bench::engine::run(weights.as_deref()),
            Some(BenchCommand::Perft { depth }) => bench::perft(depth),
            Some(BenchCommand::Eval {
                weights: file,
                rounds,
            }) => bench::eval(file.as_deref(), rounds),
            Some(BenchCommand::Algorithms {
                depth,
                positions,
                size,
                openings,
            }) => bench::algorithms::run(depth, positions, size, openings),
            Some(BenchCommand::Levels {
                levels,
                positions,
                threads,
            }) => bench::levels::run(
                levels.as_deref(),
                positions,
                threads.unwrap_or_else(reversi_engine::engine::default_threads),
            ),
        },
        None if frontend::is_interactive() => play::menu(cli.db, cli.no_save),
        None => {
            use clap::CommandFactory;
            Cli::command().print_help()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Whether `err` comes from writing to a pipe whose reader has gone.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
