//! `reversi nboard`: the NBoard protocol on standard input and output.

use std::io::BufReader;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use reversi_engine::book::Book;
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
    /// Learn the games the GUI's `learn` command sends into this book file, and play from it
    /// (created from the book in use when missing). Without it, `learn` is refused.
    #[arg(long, value_name = "FILE")]
    pub learn: Option<PathBuf>,
}

pub fn run(args: &NboardArgs) -> anyhow::Result<ExitCode> {
    let engine = Engine::new(args.hash_mb, args.threads.unwrap_or_else(default_threads));
    let mut session = Session::new(engine);
    match &args.learn {
        Some(path) => {
            let book = if path.exists() {
                Some(Arc::new(crate::commands::book::load(path)?))
            } else {
                crate::advisor::book()
            };
            let path = path.clone();
            session = session
                .with_book(book)
                .learn_into(Box::new(move |b: &Book| {
                    crate::commands::book::save(b, &path).map_err(|e| format!("{e:#}"))
                }));
        }
        None => session = session.with_book(crate::advisor::book()),
    }
    let mut out = std::io::stdout().lock();
    serve(&mut session, BufReader::new(std::io::stdin()), &mut out)?;
    Ok(ExitCode::SUCCESS)
}
