//! A position given as text, for the editor: its analysis (every legal move scored with the
//! line expected after it) and its picture.

use reversi_core::{Color, Move};
use reversi_engine::levels::Level;
use reversi_formats::position::PositionInput;
use reversi_formats::svg::{position_svg, SvgOptions};
use reversi_players::HintLine;
use serde::Serialize;

use crate::view::{color_name, CandidateView, PositionView};

#[derive(Debug, Serialize)]
pub struct MoveScore {
    #[serde(flatten)]
    pub candidate: CandidateView,
    /// The expected line, starting with the move.
    pub line: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct PositionAnalysis {
    pub level: u8,
    /// The position whose moves are scored: after the pass, when the side to move had to
    /// make one.
    pub position: PositionView,
    /// The side that had no move and passed.
    pub passed: Option<&'static str>,
    /// Every legal move, best first (none when the game is over).
    pub moves: Vec<MoveScore>,
}

/// The position whose moves are worth scoring: after the pass of a side that has no move
/// (and that side).
#[must_use]
pub fn after_forced_pass(mut input: PositionInput) -> (PositionInput, Option<Color>) {
    let passed = input
        .position()
        .must_pass()
        .then(|| input.position().turn());
    if passed.is_some() {
        // A pass is always legal for a side with no square.
        let _ = input.game.play(Move::Pass);
    }
    (input, passed)
}

impl PositionAnalysis {
    /// The analysis at `level` of `input` (after the pass of `passed`), its moves `lines`.
    #[must_use]
    pub fn of(
        level: Level,
        input: &PositionInput,
        passed: Option<Color>,
        lines: &[HintLine],
    ) -> PositionAnalysis {
        PositionAnalysis {
            level: level.get(),
            position: PositionView::of(input),
            passed: passed.map(color_name),
            moves: lines
                .iter()
                .map(|h| MoveScore {
                    candidate: CandidateView::of(&h.candidate),
                    line: h.line.iter().map(ToString::to_string).collect(),
                })
                .collect(),
        }
    }
}

/// The longest caption drawn.
const MAX_CAPTION: usize = 120;

fn flag(value: Option<&str>, name: &str) -> Result<bool, String> {
    match value.map(str::trim) {
        None | Some("" | "0" | "false") => Ok(false),
        Some("1" | "true") => Ok(true),
        Some(other) => Err(format!(
            "bad {name} {other:?}: expected 1, true, 0 or false"
        )),
    }
}

/// The position's picture (SVG): `last` ringed (a square, `pass`, or by default a
/// transcript's own last move), the legal moves marked when `legal` is `1`/`true`, and
/// `caption` under the board.
///
/// # Errors
/// What is wrong with `last`, `legal` or the caption (over 120 characters).
pub fn position_image(
    input: &PositionInput,
    last: Option<&str>,
    legal: Option<&str>,
    caption: Option<String>,
) -> Result<String, String> {
    let p = input.position();
    let mover = p.turn().opposite();
    let last = match last.map(str::trim) {
        None | Some("") => {
            reversi_game::move_at(&input.game, input.game.moves().len()).map(|m| (m.color, m.mv))
        }
        Some(t) if t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("pa") => {
            Some((mover, Move::Pass))
        }
        Some(t) => {
            let sq = p
                .parse_square(t)
                .map_err(|e| format!("bad last move {t:?}: {e}"))?;
            if p.get(sq) != Some(mover) {
                return Err(format!(
                    "bad last move {t}: the side that moved last ({mover}) has no disc there"
                ));
            }
            Some((mover, Move::Play(sq)))
        }
    };
    let caption = caption.filter(|c| !c.trim().is_empty());
    if caption
        .as_ref()
        .is_some_and(|c| c.chars().count() > MAX_CAPTION)
    {
        return Err(format!(
            "the caption is longer than {MAX_CAPTION} characters"
        ));
    }
    let options = SvgOptions {
        last,
        legal: flag(legal, "legal")?,
        scores: Vec::new(),
        caption,
    };
    Ok(position_svg(p, &options))
}
