//! `reversi serve`: the web server for playing in the browser, over the same history as the
//! terminal games.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use reversi_store::Store;

use crate::web::site::{PublicUrl, Site};
use crate::web::{serve, AppState};

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
    /// Engine searches run at once (computer moves, hints, analyses) [default: the number of
    /// cores].
    #[arg(long)]
    pub searches: Option<usize>,
    /// The address people elsewhere reach this server by (`http://192.168.1.5:8080/`, or a
    /// proxy's `https://…`), for the links the page hands out [default: the address the
    /// browser used].
    #[arg(long, value_name = "URL")]
    pub public_url: Option<PublicUrl>,
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let path = crate::frontend::db_path(args.db)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let store = Store::open(&path)?;
    let searches = args.searches.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
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
        if let Some(url) = &args.public_url {
            outln!("links for other people name {}", url.as_str())?;
        }
        outln!("press Ctrl-C to stop")?;
        use std::io::Write;
        std::io::stdout().flush()?;
        let site = Site {
            public_url: args.public_url,
            listen: Some(addr),
        };
        serve(listener, AppState::with_site(store, searches, site)).await?;
        Ok(ExitCode::SUCCESS)
    })
}
