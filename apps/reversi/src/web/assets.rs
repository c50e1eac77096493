//! The page: every file of `web/` (HTML, script modules, style sheet, icons), embedded in the
//! binary by `build.rs`, or read from `--web-dir` while the page is being worked on.

use std::path::{Component, Path};

use axum::extract::State;
use axum::http::{header, Method, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::error::AppError;
use super::state::AppState;

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// The content type of a page file, by its extension.
fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map_or("", |(_, ext)| ext) {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "wasm" => "application/wasm",
        "png" => "image/png",
        _ => "application/octet-stream",
    }
}

/// The bytes of the page file `name` (a path under `web/`): from `dir` when given, else the
/// embedded copy. `None` for a name that is not a file of the page (or leaves its folder).
async fn read(dir: Option<&Path>, name: &str) -> Option<Vec<u8>> {
    match dir {
        Some(dir) => {
            let rel = Path::new(name);
            if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
                return None;
            }
            tokio::fs::read(dir.join(rel)).await.ok()
        }
        None => embedded::FILES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, bytes)| bytes.to_vec()),
    }
}

async fn serve(state: &AppState, name: &str) -> Response {
    match read(state.config().web_dir.as_deref(), name).await {
        Some(body) => (
            [
                (header::CONTENT_TYPE, content_type(name)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body,
        )
            .into_response(),
        None => AppError::not_found("no such page or API route").into_response(),
    }
}

pub fn router() -> Router<AppState> {
    Router::new().route(
        "/",
        get(|State(state): State<AppState>| async move { serve(&state, "index.html").await }),
    )
}

/// What no route answers: a GET of a page file, else "not found".
pub async fn fallback(State(state): State<AppState>, method: Method, uri: Uri) -> Response {
    let name = uri.path().trim_start_matches('/');
    if method == Method::GET && !name.starts_with("api/") {
        return serve(&state, name).await;
    }
    AppError::not_found("no such page or API route").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_file_has_a_known_type() {
        let names: Vec<&str> = embedded::FILES.iter().map(|(n, _)| *n).collect();
        assert!(names.contains(&"index.html"), "{names:?}");
        for name in names {
            assert_ne!(content_type(name), "application/octet-stream", "{name}");
        }
    }

    #[tokio::test]
    async fn a_web_dir_never_serves_outside_its_folder() {
        let dir = std::env::temp_dir();
        assert!(read(Some(&dir), "../etc/passwd").await.is_none());
        assert!(read(Some(&dir), "/etc/passwd").await.is_none());
        assert!(read(None, "../Cargo.toml").await.is_none());
    }
}
