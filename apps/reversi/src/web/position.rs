//! `/api/position`: a position given as text (a board string with the side to move, an OBF
//! line, a GGF `BO` or a transcript) read and checked, as the page's position editor needs it;
//! every legal move of it scored (within the level's time, through the search pool); and its
//! picture as SVG (the renderer `reversi history export --format svg` uses).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use reversi_core::{BoardSize, Move, Position, Rules};
use reversi_engine::ai::hint_lines;
use reversi_formats::position::{parse_position, PositionInput};
use reversi_formats::svg::{position_svg, SvgOptions};
use serde::{Deserialize, Serialize};

use super::backend::StopOnDrop;
use super::client::Client;
use super::error::{ApiJson, ApiQuery, AppError};
use super::levels::parse_level;
use super::state::AppState;
use reversi_api::view::{color_name, CandidateView, PositionView};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", post(read))
        .route("/analysis", post(analysis))
        .route("/svg", get(svg))
}

/// Reads `text` as a position: a transcript is played on `size` [8] from the start of
/// `rules` [othello], which is also the rule of a board or OBF line.
pub fn read_position(
    text: &str,
    size: Option<u8>,
    rules: Option<&str>,
) -> Result<PositionInput, AppError> {
    let size =
        BoardSize::new(size.unwrap_or(8)).map_err(|e| AppError::bad_request(e.to_string()))?;
    let rules: Rules = rules
        .unwrap_or("othello")
        .parse()
        .map_err(|e: reversi_core::ParseRulesError| AppError::bad_request(e.to_string()))?;
    parse_position(text, size, rules)
        .map_err(|e| AppError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// The position, in any notation [`parse_position`] reads.
    position: String,
    /// The board a transcript is played on [8].
    size: Option<u8>,
    /// `othello` [default] or `reversi`.
    rules: Option<String>,
}

/// Reads and checks a position; 422 with the reason for one that cannot be read or cannot
/// arise in a game.
async fn read(ApiJson(req): ApiJson<PositionRequest>) -> Result<Json<PositionView>, AppError> {
    let input = read_position(&req.position, req.size, req.rules.as_deref())?;
    Ok(Json(PositionView::of(&input)))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    position: String,
    size: Option<u8>,
    rules: Option<String>,
    /// 1-60 [default 10, as `reversi analyze`].
    level: Option<u8>,
}

#[derive(Debug, Serialize)]
struct MoveScore {
    #[serde(flatten)]
    candidate: CandidateView,
    /// The expected line, starting with the move.
    line: Vec<String>,
}

#[derive(Debug, Serialize)]
struct PositionAnalysis {
    level: u8,
    /// The position whose moves are scored: after the pass, when the side to move had to
    /// make one.
    position: PositionView,
    /// The side that had no move and passed.
    passed: Option<&'static str>,
    /// Every legal move, best first (none when the game is over).
    moves: Vec<MoveScore>,
}

/// Every legal move of a position scored, as `reversi analyze` does; a search within the
/// level's time (and the server's cap), waiting for a slot like a hint.
async fn analysis(
    State(app): State<AppState>,
    client: Client,
    ApiJson(req): ApiJson<AnalysisRequest>,
) -> Result<Json<PositionAnalysis>, AppError> {
    let level = parse_level(req.level, 10)?;
    let mut input = read_position(&req.position, req.size, req.rules.as_deref())?;
    // A side without a move passes; the moves worth scoring are then the other side's.
    let passed = input
        .position()
        .must_pass()
        .then(|| input.position().turn());
    if passed.is_some() {
        // A pass is always legal for a side with no square.
        let _ = input.game.play(Move::Pass);
    }
    let position: Position = input.position().clone();
    let ticket = app.backend().pool().admit(&client.0)?;
    // Dropped with the request: a client that goes away stops the search.
    let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
    let lines = app
        .backend()
        .request(None, ticket, &stop, app.backend().search_cap, move |flag| {
            hint_lines(&position, level, flag, &mut |_| {})
        })
        .await?;
    Ok(Json(PositionAnalysis {
        level: level.get(),
        position: PositionView::of(&input),
        passed: passed.map(color_name),
        moves: lines
            .iter()
            .map(|h| MoveScore {
                candidate: CandidateView::of(&h.candidate),
                line: h.line.iter().map(ToString::to_string).collect(),
            })
            .collect(),
    }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SvgQuery {
    position: String,
    size: Option<u8>,
    rules: Option<String>,
    /// The move that reached the position, ringed: a square, or `pass`; a transcript's own
    /// last move when left out.
    last: Option<String>,
    /// Mark the legal moves (`1` or `true`).
    legal: Option<String>,
    /// A line under the board (at most 120 characters).
    caption: Option<String>,
}

/// The longest caption drawn.
const MAX_CAPTION: usize = 120;

fn flag(value: Option<&str>, name: &str) -> Result<bool, AppError> {
    match value.map(str::trim) {
        None | Some("" | "0" | "false") => Ok(false),
        Some("1" | "true") => Ok(true),
        Some(other) => Err(AppError::bad_request(format!(
            "bad {name} {other:?}: expected 1, true, 0 or false"
        ))),
    }
}

/// The position's picture, as a file to download.
async fn svg(ApiQuery(q): ApiQuery<SvgQuery>) -> Result<impl IntoResponse, AppError> {
    let input = read_position(&q.position, q.size, q.rules.as_deref())?;
    let p = input.position();
    let mover = p.turn().opposite();
    let last = match q.last.as_deref().map(str::trim) {
        None | Some("") => {
            reversi_game::move_at(&input.game, input.game.moves().len()).map(|m| (m.color, m.mv))
        }
        Some(t) if t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("pa") => {
            Some((mover, Move::Pass))
        }
        Some(t) => {
            let sq = p
                .parse_square(t)
                .map_err(|e| AppError::bad_request(format!("bad last move {t:?}: {e}")))?;
            if p.get(sq) != Some(mover) {
                return Err(AppError::bad_request(format!(
                    "bad last move {t}: the side that moved last ({mover}) has no disc there"
                )));
            }
            Some((mover, Move::Play(sq)))
        }
    };
    let caption = q.caption.filter(|c| !c.trim().is_empty());
    if caption
        .as_ref()
        .is_some_and(|c| c.chars().count() > MAX_CAPTION)
    {
        return Err(AppError::bad_request(format!(
            "the caption is longer than {MAX_CAPTION} characters"
        )));
    }
    let options = SvgOptions {
        last,
        legal: flag(q.legal.as_deref(), "legal")?,
        scores: Vec::new(),
        caption,
    };
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"reversi-position.svg\"",
            ),
        ],
        position_svg(p, &options),
    ))
}
