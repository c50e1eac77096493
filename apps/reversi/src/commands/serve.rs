//! `reversi serve`: the web server for playing in the browser, over the same history as the
//! terminal games.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use reversi_store::Store;

use crate::web::address::{PublicUrl, Site};
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
    /// Open connections at once; one more is answered 503. Kept within the open-file limit,
    /// whose soft value is raised to the hard one at the start [default: 4096].
    #[arg(long, value_name = "N")]
    pub connections: Option<usize>,
    /// Live event streams (pages watching a game) at once; one more is answered 503
    /// [default: 2048].
    #[arg(long, value_name = "N")]
    pub streams: Option<usize>,
    /// Seconds a client may take to send a request's headers, and an idle connection stays
    /// open [default: 15].
    #[arg(long, value_name = "SECS")]
    pub header_timeout: Option<u64>,
    /// Seconds a request may take from its headers to its answer [default: 120].
    #[arg(long, value_name = "SECS")]
    pub request_timeout: Option<u64>,
    /// Seconds a game nobody watches stays in memory (it is reopened from the history when
    /// asked for) [default: 600].
    #[arg(long, value_name = "SECS")]
    pub idle: Option<u64>,
    /// Read the admin token (that deleting and importing history games need) from this file
    /// [default: $REVERSI_ADMIN_TOKEN, else a new one printed at the start].
    #[arg(long, value_name = "PATH")]
    pub admin_token_file: Option<PathBuf>,
    /// Let anyone who reaches the server delete and import games, with no token (only for a
    /// server this machine alone reaches: refused with another address than a loopback one, a
    /// --public-url, or an --allow-host name other than localhost).
    #[arg(long)]
    pub no_admin_token: bool,
    /// A host name the server answers to besides its own address (the name people reach it
    /// by); may be repeated. A server on 127.0.0.1 answers to localhost and its address only; one
    /// on another address with no --allow-host answers to any name.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// The address people elsewhere reach this server by (`http://192.168.1.5:8080/`, or a
    /// proxy's `https://…`), for the links the page hands out [default: the address the
    /// browser used].
    #[arg(long, value_name = "URL")]
    pub public_url: Option<PublicUrl>,
    /// Serve the page from this folder (`apps/reversi/web` of a checkout) instead of the
    /// copy built into the program: for working on the page without a rebuild.
    #[arg(long, value_name = "DIR")]
    pub web_dir: Option<PathBuf>,
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    // Refused options before anything is made on disk.
    let token = admin_token(&args)?;
    let path = crate::frontend::db_path(args.db.clone())?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let store = Store::open(&path)?;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let mut config = Config::for_cores(cores);
    config.book = crate::advisor::book();
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
    if let Some(n) = args.connections {
        config.conn.connections = n.max(1);
    }
    let capped = fit_connections(&mut config.conn.connections);
    if let Some(n) = args.streams {
        config.streams = n;
    }
    if let Some(s) = args.header_timeout {
        config.conn.header_timeout = Duration::from_secs(s.max(1));
    }
    if let Some(s) = args.request_timeout {
        config.request_timeout = Duration::from_secs(s.max(1));
    }
    if let Some(s) = args.idle {
        config.idle = Duration::from_secs(s);
    }
    config.web_dir = args.web_dir.clone();
    let local = args.addr.ip().is_loopback();
    config.admin_token = token;
    config.allowed_hosts = if local || !args.allow_host.is_empty() {
        let mut hosts = args.allow_host.clone();
        hosts.push(args.addr.ip().to_string());
        // A proxy in front passes on the name people use.
        hosts.extend(args.public_url.as_ref().map(|u| u.host().to_string()));
        if local {
            hosts.extend(["localhost", "127.0.0.1", "::1"].map(String::from));
        }
        Some(hosts)
    } else {
        None
    };
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
        if let Some(note) = &capped {
            outln!("{note}")?;
        }
        match &config.admin_token {
            Some(token) if args.admin_token_file.is_none() => {
                outln!("admin token (deleting and importing history games): {token}")?;
            }
            Some(_) => {}
            None => outln!("no admin token: anyone who reaches this server may delete games")?,
        }
        outln!("press Ctrl-C to stop")?;
        use std::io::Write;
        std::io::stdout().flush()?;
        config.site = Site {
            public_url: args.public_url,
            listen: Some(addr),
        };
        serve(listener, AppState::new(store, config), shutdown_signal()).await?;
        outln!("reversi: stopped")?;
        Ok(ExitCode::SUCCESS)
    })
}

/// Open files kept for everything but connections: the database, its journal and a game's
/// log, the listener, the runtime's own, the standard streams.
const FILES_KEPT: u64 = 64;

/// How many files this process may open (`None`: no limit known), after raising the soft
/// limit to the hard one: a shell's default soft limit (often 1,024) would refuse connections
/// long before `--connections`.
#[cfg(unix)]
fn open_file_limit() -> Option<u64> {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current.is_some() && limit.current != limit.maximum {
        let raised = Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        // Where the hard limit cannot be the soft one (macOS's unlimited), the soft one stays.
        if setrlimit(Resource::Nofile, raised).is_ok() {
            return limit.maximum;
        }
    }
    limit.current
}

#[cfg(not(unix))]
fn open_file_limit() -> Option<u64> {
    None
}

/// Keeps `connections` within the files this process may open (each connection is one), less
/// [`FILES_KEPT`]; says so when it had to.
fn fit_connections(connections: &mut usize) -> Option<String> {
    let files = open_file_limit()?;
    let most = usize::try_from(files.saturating_sub(FILES_KEPT))
        .unwrap_or(usize::MAX)
        .max(1);
    if *connections <= most {
        return None;
    }
    let note = format!(
        "at most {most} connections at once, not {connections}: this process may open {files} \
         files (ulimit -n), {FILES_KEPT} of them kept for the database and the server"
    );
    *connections = most;
    Some(note)
}

/// Completes at Ctrl-C or (on Unix) SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        // Without a handler the signal's default (ending the process) still applies.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}

/// How people on other machines reach the server, if they can: a non-loopback address, a
/// `--public-url` (a proxy in front passes requests on to a loopback address), or an
/// `--allow-host` name other than this machine's own.
fn reachable_from_elsewhere(args: &ServeArgs) -> Option<String> {
    if !args.addr.ip().is_loopback() {
        return Some(format!("--addr {}", args.addr));
    }
    if let Some(url) = &args.public_url {
        return Some(format!("--public-url {}", url.as_str()));
    }
    let loopback = |name: &str| {
        name.eq_ignore_ascii_case("localhost")
            || name
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    };
    args.allow_host
        .iter()
        .find(|h| !loopback(h))
        .map(|h| format!("--allow-host {h}"))
}

/// The admin token: from the file, the environment, or new; none when turned off (refused for
/// a server other machines can reach).
fn admin_token(args: &ServeArgs) -> anyhow::Result<Option<String>> {
    if args.no_admin_token {
        if let Some(how) = reachable_from_elsewhere(args) {
            anyhow::bail!(
                "--no-admin-token is only for a server that this machine alone can reach: with \
                 {how} people elsewhere reach it, and any of them could delete and import \
                 games. Leave --no-admin-token out (a token is printed at the start) or give \
                 one with --admin-token-file"
            );
        }
        return Ok(None);
    }
    if let Some(path) = &args.admin_token_file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the admin token from {}", path.display()))?;
        let token = text.trim().to_string();
        anyhow::ensure!(
            !token.is_empty(),
            "{}: the admin token file is empty",
            path.display()
        );
        return Ok(Some(token));
    }
    if let Some(token) = std::env::var("REVERSI_ADMIN_TOKEN")
        .ok()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
    {
        return Ok(Some(token));
    }
    Ok(Some(reversi_game::new_token()))
}
