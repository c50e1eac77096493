//! The `reversi` program: command-line entry point, dispatching to one module per command.

mod analysis;
mod cli;
mod commands;
mod game_log;
mod plain;
mod player;
mod replay;
mod session;
mod store_log;
mod tui;
mod web;

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("reversi: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
