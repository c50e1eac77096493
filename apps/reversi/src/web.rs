//! `reversi serve`'s web server: the page (embedded in the binary) and the JSON API over the
//! game sessions and the history. [`app`] builds the router, so that tests drive it with
//! `oneshot` and no network.

pub mod address;
mod assets;
mod backend;
mod client;
pub mod error;
mod explore;
mod games;
mod history;
mod levels;
mod listen;
mod live;
pub mod pool;
mod position;
mod site;
mod state;
mod status;
mod variations;

use axum::extract::DefaultBodyLimit;
use axum::Router;

use self::address::host_name;
use self::error::AppError;
pub use self::state::{AppState, Config};

/// The largest request body accepted (an imported file of games included).
pub const MAX_BODY: usize = 1 << 20;

/// The whole site: the page, the games API and the history API.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(assets::router())
        .nest("/api/games", games::router())
        .nest("/api/history", history::router())
        .nest("/api/explore", explore::router())
        .nest("/api/levels", levels::router())
        .nest("/api/position", position::router())
        .nest("/api/server", status::router())
        .nest("/api/site", site::router())
        .fallback(assets::fallback)
        .method_not_allowed_fallback(|| async {
            AppError::new(
                axum::http::StatusCode::METHOD_NOT_ALLOWED,
                "this route does not take that method",
            )
        })
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            request_timeout,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            check_origin,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// Refuses requests addressed to a host the server does not answer to (DNS rebinding), and
/// changes sent from another site's page (an `Origin` that is not the server's own).
async fn check_origin(
    axum::extract::State(state): axum::extract::State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{header, Method};
    use axum::response::IntoResponse;
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    if let (Some(host), Some(allowed)) = (&host, &state.config().allowed_hosts) {
        let name = host_name(host);
        if !allowed.iter().any(|a| a.eq_ignore_ascii_case(name)) {
            return AppError::forbidden(format!(
                "this server does not answer to host {name:?} (`--allow-host` adds one)"
            ))
            .into_response();
        }
    }
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe {
        if let Some(origin) = req.headers().get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            let authority = origin.split_once("://").map_or("", |(_, a)| a);
            if host.as_deref() != Some(authority) {
                return AppError::forbidden(format!(
                    "a change sent from another site ({}) is refused",
                    &origin[..origin.len().min(80)]
                ))
                .into_response();
            }
        }
    }
    next.run(req).await
}

/// Answers 408 when a request (its body included) takes longer than the server allows.
async fn request_timeout(
    axum::extract::State(state): axum::extract::State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let limit = state.config().request_timeout;
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(response) => response,
        Err(_) => axum::response::IntoResponse::into_response(AppError::new(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            format!("the request took longer than {} s", limit.as_secs()),
        )),
    }
}

/// Serves `app` on `listener` until `shutdown` completes; then lets the requests under way
/// finish, stops the searches and lets go of the games.
///
/// # Errors
/// When the listener fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let sweeper = {
        let state = state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(state.config().sweep_every);
            loop {
                every.tick().await;
                state.sweep();
            }
        })
    };
    let closing = state.closing_sender();
    let shutdown = async move {
        shutdown.await;
        // Event streams never end by themselves.
        closing.send_replace(true);
    };
    let served = listen::serve(listener, app(state.clone()), state.config().conn, shutdown).await;
    sweeper.abort();
    state.close();
    served
}

#[cfg(test)]
mod service_tests;
#[cfg(test)]
mod study_tests;
#[cfg(test)]
mod tests;
