//! `reversi nboard`: the NBoard protocol on standard input and output.

use std::io::BufReader;
use std::process::ExitCode;

use clap::Args;
use reversi_engine::engine::{default_threads, Engine};
use reversi_protocol::nboard::{serve, Session};

/// `reversi nboard` options.
#[derive(Debug, Args)]
pub struct NboardArgs {
    /// Search threads [default: the number of cores].
    #[arg(long, value_parser = crate::options::threads)]
    pub threads: Option<usize>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64, value_parser = crate::options::hash_mb)]
    pub hash_mb: usize,
}

pub fn run(args: &NboardArgs) -> anyhow::Result<ExitCode> {
    let engine = Engine::new(args.hash_mb, args.threads.unwrap_or_else(default_threads));
    let mut session = Session::new(engine);
    let mut out = std::io::stdout().lock();
    serve(&mut session, BufReader::new(std::io::stdin()), &mut out)?;
    Ok(ExitCode::SUCCESS)
}
