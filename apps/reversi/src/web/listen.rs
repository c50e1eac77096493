//! The server's accept loop: at most so many connections (one more is answered 503 with a
//! JSON error and closed), a time limit on reading each request's headers that also closes
//! idle keep-alive connections, and a graceful shutdown that lets the requests under way
//! finish (and so their saves) before the process ends.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// How many connections the loop keeps and for how long.
#[derive(Debug, Clone, Copy)]
pub struct ConnLimits {
    /// Open connections at once.
    pub connections: usize,
    /// The longest a client may take to send a request's headers, and the longest an idle
    /// keep-alive connection stays open.
    pub header_timeout: Duration,
    /// How long the shutdown waits for the requests under way.
    pub drain: Duration,
}

/// The answer to a connection past the cap: sent whole, then the connection is closed.
fn busy_response(limit: usize) -> String {
    let body =
        format!("{{\"error\":\"the server has its {limit} connections open: try again shortly\"}}");
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\r\n{body}",
        body.len()
    )
}

/// Counts a connection while it lives.
struct Open(Arc<AtomicUsize>);

impl Drop for Open {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Serves `router` on `listener` until `shutdown` completes, then waits (at most
/// `limits.drain`) for the requests under way.
///
/// # Errors
/// When accepting fails for good (not for one refused or broken connection).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnLimits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let open = Arc::new(AtomicUsize::new(0));
    let graceful = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let (mut stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                // Out of descriptors or a connection reset before it was taken: the next one
                // may do; a short pause keeps the loop from spinning.
                Err(e) => {
                    eprintln!("reversi serve: accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        if open.fetch_add(1, Ordering::Relaxed) >= limits.connections {
            open.fetch_sub(1, Ordering::Relaxed);
            let answer = busy_response(limits.connections);
            tokio::spawn(async move {
                let _ = tokio::time::timeout(Duration::from_secs(2), async {
                    let _ = stream.write_all(answer.as_bytes()).await;
                    let _ = stream.shutdown().await;
                })
                .await;
            });
            continue;
        }
        let counted = Open(Arc::clone(&open));
        let service = router
            .clone()
            .map_request(move |mut req: axum::http::Request<Incoming>| {
                req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                req
            });
        let conn = http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _counted = counted;
            // A client that hangs up or times out ends only its own connection.
            let _ = conn.await;
        });
    }
    drop(listener);
    if tokio::time::timeout(limits.drain, graceful.shutdown())
        .await
        .is_err()
    {
        eprintln!(
            "reversi serve: some requests were still running after {:?}",
            limits.drain
        );
    }
    Ok(())
}
