//! `reversi gtp`: GTP (the Go Text Protocol as Othello engines speak it) on standard input
//! and output.

use std::io::BufReader;
use std::process::ExitCode;

use clap::Args;
use reversi_engine::engine::{default_threads, Engine};
use reversi_engine::levels::Level;
use reversi_protocol::gtp::{serve, Session};

/// `reversi gtp` options.
#[derive(Debug, Args)]
pub struct GtpArgs {
    /// Search threads [default: the number of cores].
    #[arg(long, value_parser = crate::options::threads)]
    pub threads: Option<usize>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64, value_parser = crate::options::hash_mb)]
    pub hash_mb: usize,
    /// The level `genmove` plays at until the controller sets a clock with `time_settings`
    /// (a number from 1 to 60 or a name; `reversi levels` lists them) [default: 10].
    #[arg(long, value_parser = crate::options::level)]
    pub level: Option<Level>,
}

pub fn run(args: &GtpArgs) -> anyhow::Result<ExitCode> {
    let engine = Engine::new(args.hash_mb, args.threads.unwrap_or_else(default_threads));
    let mut session = Session::new(engine, args.level.unwrap_or(Level::DEFAULT));
    let mut out = std::io::stdout().lock();
    serve(&mut session, BufReader::new(std::io::stdin()), &mut out)?;
    Ok(ExitCode::SUCCESS)
}
