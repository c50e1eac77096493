//! `reversi serve`: the web server for playing in the browser, over the same history as the
//! terminal games.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use reversi_store::Store;

use crate::web::{serve, AppState, Config};

/// `reversi serve` options.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port). Only this machine can connect unless
    /// another address is given.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Game database [default: $REVERSI_DB, else $XDG_DATA_HOME/reversi/games.sqlite3, else
    /// ~/.local/share/reversi/games.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Engine searches run at once (computer moves, hints, analyses); one is always kept for
    /// the computer's quick moves [default: the number of cores + 1].
    #[arg(long)]
    pub searches: Option<usize>,
    /// Hints and analyses waiting or running at once, over all clients; more are refused
    /// (429) [default: 16].
    #[arg(long, value_name = "N")]
    pub queue: Option<usize>,
    /// Hints and analyses waiting or running at once for one client (IP address) [default: 2].
    #[arg(long, value_name = "N")]
    pub queue_per_client: Option<usize>,
    /// The longest any one search runs, in seconds (levels stop within their own budget,
    /// at most 20 s) [default: 30].
    #[arg(long, value_name = "SECS")]
    pub search_time: Option<u64>,
    /// The longest one analysis of a game runs, in seconds, its positions sharing it
    /// [default: 60].
    #[arg(long, value_name = "SECS")]
    pub analysis_time: Option<u64>,
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let path = crate::frontend::db_path(args.db)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let store = Store::open(&path)?;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let mut config = Config::for_cores(cores);
    if let Some(n) = args.searches {
        config.pool.slots = n;
    }
    if let Some(n) = args.queue {
        config.pool.requests = n;
    }
    if let Some(n) = args.queue_per_client {
        config.pool.per_client = n;
    }
    if let Some(s) = args.search_time {
        config.search_cap = Duration::from_secs(s);
    }
    if let Some(s) = args.analysis_time {
        config.analysis_time = Duration::from_secs(s);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let addr = listener.local_addr()?;
        outln!(
            "reversi: serving on http://{addr}/ (games saved to {})",
            path.display()
        )?;
        outln!("press Ctrl-C to stop")?;
        use std::io::Write;
        std::io::stdout().flush()?;
        serve(listener, AppState::new(store, config)).await?;
        Ok(ExitCode::SUCCESS)
    })
}
