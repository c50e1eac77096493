//! The API's one error type: every refused request becomes a status and a JSON body
//! `{"error": "..."}` naming the problem; the extractors here turn axum's own rejections
//! (malformed JSON, oversized bodies, bad path segments) into it.

use axum::extract::rejection::{BytesRejection, JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use reversi_game::{PlayError, TableError};
use reversi_store::StoreError;
use serde_json::json;

/// A request the API refuses, or a failure behind it.
#[derive(Debug)]
pub struct AppError {
    pub status: StatusCode,
    pub message: String,
}

impl AppError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> AppError {
        AppError {
            status,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> AppError {
        AppError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> AppError {
        AppError::new(StatusCode::NOT_FOUND, message)
    }

    pub fn conflict(message: impl Into<String>) -> AppError {
        AppError::new(StatusCode::CONFLICT, message)
    }

    pub fn forbidden(message: impl Into<String>) -> AppError {
        AppError::new(StatusCode::FORBIDDEN, message)
    }

    pub fn internal(message: impl Into<String>) -> AppError {
        AppError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.message)
    }
}

/// The longest error message sent: a message that quotes a long input quotes its start.
const MAX_MESSAGE: usize = 300;

/// `message`, cut to its first [`MAX_MESSAGE`] characters or so when longer.
fn excerpt(message: &str) -> String {
    if message.len() <= MAX_MESSAGE {
        return message.to_string();
    }
    let mut end = MAX_MESSAGE - 60;
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… (cut: {} bytes in all)", &message[..end], message.len())
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({ "error": excerpt(&self.message) })),
        )
            .into_response()
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> AppError {
        match e {
            StoreError::NoSuchGame(id) => {
                AppError::not_found(format!("no game {id} in the history"))
            }
            StoreError::NotInProgress(_)
            | StoreError::IllegalMove { .. }
            | StoreError::Held { .. } => AppError::conflict(e.to_string()),
            StoreError::NoSuchVariation(_) => AppError::not_found(e.to_string()),
            StoreError::Rejected { .. }
            | StoreError::StartMismatch(_)
            | StoreError::InvalidVariation { .. } => {
                AppError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())
            }
            _ => AppError::internal(e.to_string()),
        }
    }
}

impl From<TableError> for AppError {
    fn from(e: TableError) -> AppError {
        match e {
            TableError::NoToken => AppError::forbidden(
                "no player token: send the x-player-token header given when the game was \
                 created or joined",
            ),
            TableError::NoTakebacks => AppError::conflict(
                "in a game between two browsers every move is final: undo and redo are off",
            ),
            TableError::WrongCode | TableError::UnknownToken => AppError::forbidden(e.to_string()),
            TableError::BadSquare(_) => AppError::bad_request(e.to_string()),
            TableError::Play(PlayError::Illegal(_)) => {
                AppError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())
            }
            TableError::NoSeat
            | TableError::SeatTaken(_)
            | TableError::NotYourTurn(_)
            | TableError::Over
            | TableError::Play(_)
            | TableError::NothingToUndo
            | TableError::NothingToRedo => AppError::conflict(e.to_string()),
        }
    }
}

impl From<JsonRejection> for AppError {
    fn from(e: JsonRejection) -> AppError {
        AppError::new(e.status(), format!("bad JSON body: {}", e.body_text()))
    }
}

impl From<BytesRejection> for AppError {
    fn from(e: BytesRejection) -> AppError {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            AppError::new(status, "request body too large")
        } else {
            AppError::new(status, format!("bad request body: {}", e.body_text()))
        }
    }
}

impl From<PathRejection> for AppError {
    fn from(e: PathRejection) -> AppError {
        AppError::bad_request(format!("bad path: {}", e.body_text()))
    }
}

impl From<QueryRejection> for AppError {
    fn from(e: QueryRejection) -> AppError {
        AppError::bad_request(format!("bad query: {}", e.body_text()))
    }
}

/// `Json` whose rejections are [`AppError`]s.
#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(AppError))]
pub struct ApiJson<T>(pub T);

/// `Path` whose rejections are [`AppError`]s.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(AppError))]
pub struct ApiPath<T>(pub T);

/// `Query` whose rejections are [`AppError`]s.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(AppError))]
pub struct ApiQuery<T>(pub T);

/// The raw body, whose rejections (too large) are [`AppError`]s.
pub struct ApiBytes(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for ApiBytes {
    type Rejection = AppError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, AppError> {
        Ok(ApiBytes(axum::body::Bytes::from_request(req, state).await?))
    }
}
