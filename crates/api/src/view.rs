//! What the page is sent: games, boards, opening names, the computer's thinking, hints,
//! stored games and analyses, as JSON.

use reversi_core::{opening_name_at, Color, Game, Move, Position, Score, Square, TimeControl};
use reversi_engine::{Candidate, ScoreKind, Thinking};
use reversi_record::{GameInfo, Status};
use serde::Serialize;

use reversi_formats::position::{board_string, PositionFormat, PositionInput};
use reversi_game::human_scale::HumanScale;
use reversi_game::{analysis::Analysis, result_line, ClockView, Session};

pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The board as rows of `X` (black), `O` (white) and `.` (empty), top row first.
pub fn board_rows(pos: &Position) -> Vec<String> {
    let n = usize::from(pos.size().get());
    pos.cells()
        .chunks(n)
        .map(|row| {
            row.iter()
                .map(|c| match c {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect()
}

pub fn names(squares: &[Square]) -> Vec<String> {
    squares.iter().map(ToString::to_string).collect()
}

#[derive(Debug, Serialize)]
pub struct Counts {
    pub black: usize,
    pub white: usize,
}

impl Counts {
    pub fn of(pos: &Position) -> Counts {
        Counts {
            black: pos.disc_count(Color::Black),
            white: pos.disc_count(Color::White),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct ResultView {
    pub black: u16,
    pub white: u16,
    pub winner: Option<&'static str>,
    pub text: String,
}

impl ResultView {
    pub fn of(score: Score) -> ResultView {
        ResultView {
            black: score.black,
            white: score.white,
            winner: match score.outcome() {
                reversi_core::Outcome::Win(c) => Some(color_name(c)),
                reversi_core::Outcome::Draw => None,
            },
            text: result_line(score),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct LastMoveView {
    pub color: &'static str,
    /// The square played, `null` for a pass.
    pub square: Option<String>,
    pub flipped: Vec<String>,
}

/// A live game as its players see it.
#[derive(Debug, Serialize)]
pub struct GameView {
    pub id: i64,
    /// Grows with every change, across restarts too (microseconds since 1970 at the change):
    /// a state with a lower version is stale.
    pub version: u64,
    pub size: u8,
    pub rules: &'static str,
    pub black: String,
    pub white: String,
    pub board: Vec<String>,
    /// The side to move, `null` once the game has ended.
    pub turn: Option<&'static str>,
    /// Whether a person (rather than the computer) is to choose a square now.
    pub human_turn: bool,
    pub legal: Vec<String>,
    pub moves: Vec<String>,
    /// The name of the opening line followed (8x8 Othello only), `null` when none is named.
    pub opening: Option<&'static str>,
    pub last: Option<LastMoveView>,
    /// The side that passed in one of the last two moves (the pass notice).
    pub passed: Option<&'static str>,
    pub counts: Counts,
    pub over: bool,
    pub result: Option<ResultView>,
    pub resigned: Option<&'static str>,
    /// The side that lost on time.
    pub lost_on_time: Option<&'static str>,
    /// Both clocks of a timed game, as of this view.
    pub clock: Option<ClockJson>,
    pub can_undo: bool,
    pub can_redo: bool,
    pub thinking: bool,
    /// The side a second person joins by the game's link, and whether someone has.
    pub remote: Option<&'static str>,
    pub joined: bool,
    /// Why the game is not being saved to the history, while that lasts.
    pub save_error: Option<String>,
}

/// What a game's view says beyond its session: who may take moves back, who resigned, the
/// search under way and the seats of a game shared between two browsers.
#[derive(Debug, Clone, Copy, Default)]
pub struct GameExtras {
    /// Grows with every change (see [`GameView::version`]).
    pub version: u64,
    /// Whether the game takes no more moves (over, resigned or closed).
    pub ended: bool,
    /// Whether moves may be taken back (not between two browsers, nor once ended).
    pub takebacks: bool,
    /// The side that resigned.
    pub resigned: Option<Color>,
    /// Whether the computer is searching its move.
    pub thinking: bool,
    /// The side a second person plays from another browser, and whether someone joined.
    pub remote: Option<Color>,
    /// Whether someone took the remote seat.
    pub joined: bool,
}

impl GameView {
    /// The view of game `id` being played in `session`.
    #[must_use]
    pub fn of(id: i64, session: &Session, extras: GameExtras) -> GameView {
        let s = session;
        let pos = s.position();
        let ended = extras.ended;
        let moves = s.game().moves();
        let positions = s.game().positions();
        let passed = moves
            .iter()
            .enumerate()
            .rev()
            .take(2)
            .find(|(_, &m)| m == Move::Pass)
            .map(|(i, _)| color_name(positions[i].turn()));
        GameView {
            id,
            version: extras.version,
            size: pos.size().get(),
            rules: s.settings().rules.name(),
            black: s.settings().black.to_string(),
            white: s.settings().white.to_string(),
            board: board_rows(pos),
            turn: (!ended).then(|| color_name(pos.turn())),
            human_turn: !ended && s.is_human_turn(),
            legal: if ended {
                Vec::new()
            } else {
                names(&pos.legal_moves())
            },
            moves: moves.iter().map(ToString::to_string).collect(),
            opening: s.opening(),
            last: s.last_move().map(|l| LastMoveView {
                color: color_name(l.color),
                square: match l.mv {
                    Move::Play(sq) => Some(sq.to_string()),
                    Move::Pass => None,
                },
                flipped: names(&l.flipped),
            }),
            passed,
            counts: Counts::of(pos),
            over: ended,
            result: s.result().map(|score| ResultView {
                text: s.result_text().unwrap_or_default(),
                ..ResultView::of(score)
            }),
            resigned: extras.resigned.map(color_name),
            lost_on_time: s.lost_on_time().map(color_name),
            clock: s
                .clocks()
                .zip(s.settings().clock)
                .map(|(view, setting)| ClockJson::of(view, setting)),
            can_undo: extras.takebacks && s.can_undo(),
            can_redo: extras.takebacks && s.can_redo(),
            thinking: extras.thinking,
            remote: extras.remote.map(color_name),
            joined: extras.joined,
            save_error: s.save_error().map(ToString::to_string),
        }
    }
}

/// A timed game's clocks: the time left of each side in ms (the running side's as of the
/// view), which side's clock is running, and the setting.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ClockJson {
    pub black_ms: u64,
    pub white_ms: u64,
    pub running: Option<&'static str>,
    /// `5m+3s`.
    pub setting: String,
}

impl ClockJson {
    pub fn of(view: ClockView, setting: TimeControl) -> ClockJson {
        let ms = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        ClockJson {
            black_ms: ms(view.black),
            white_ms: ms(view.white),
            running: view.running.map(color_name),
            setting: setting.to_string(),
        }
    }
}

/// A score with what it means.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CandidateView {
    pub square: String,
    pub score: i32,
    /// `+6`, `<=-2`, `W`/`D`/`L`.
    pub label: String,
    /// `exact`, `win/loss` or `depth N` (`points, depth N` beyond 8x8).
    pub kind: String,
    pub exact: bool,
    pub depth: Option<u32>,
}

impl CandidateView {
    pub fn of(c: &Candidate) -> CandidateView {
        CandidateView {
            square: c.mv.to_string(),
            score: c.score,
            label: c.short_score(),
            kind: c.kind.to_string(),
            exact: c.kind == ScoreKind::Exact && !c.upper_bound,
            depth: match c.kind {
                ScoreKind::Depth { depth: d, .. } | ScoreKind::Points(d) => Some(d),
                _ => None,
            },
        }
    }
}

/// The computer's search as it deepens.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ThinkingView {
    pub color: &'static str,
    pub ply: usize,
    pub depth: u32,
    pub best: Option<CandidateView>,
    pub pv: Vec<String>,
    pub nodes: u64,
    pub elapsed_ms: u64,
}

impl ThinkingView {
    pub fn of(color: Color, ply: usize, t: &Thinking) -> ThinkingView {
        ThinkingView {
            color: color_name(color),
            ply,
            depth: t.depth,
            best: t.best.as_ref().map(CandidateView::of),
            pv: t.pv.iter().map(ToString::to_string).collect(),
            nodes: t.nodes,
            elapsed_ms: t.elapsed.as_millis() as u64,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct PlayerView {
    pub name: String,
    pub kind: &'static str,
    pub level: Option<String>,
}

impl PlayerView {
    pub fn of(p: &reversi_record::Player) -> PlayerView {
        PlayerView {
            name: p.name.clone(),
            kind: p.kind.name(),
            level: p.level.clone(),
        }
    }
}

/// A stored game in the history list.
#[derive(Debug, Serialize)]
pub struct InfoView {
    pub id: i64,
    pub size: u8,
    pub rules: &'static str,
    pub black: PlayerView,
    pub white: PlayerView,
    pub started_at: Option<String>,
    pub ended_at: Option<String>,
    pub status: &'static str,
    pub result: Option<ResultView>,
    pub moves: usize,
    /// The clock, `5m+3s`, for a timed game.
    pub clock: Option<String>,
    /// `time` for a game lost on time.
    pub termination: Option<&'static str>,
}

impl InfoView {
    pub fn of(info: &GameInfo) -> InfoView {
        InfoView {
            id: info.id.0,
            size: info.size.get(),
            rules: info.rules.name(),
            black: PlayerView::of(&info.black),
            white: PlayerView::of(&info.white),
            started_at: info.started_at.clone(),
            ended_at: info.ended_at.clone(),
            status: match info.status {
                Status::InProgress => "in_progress",
                Status::Finished => "finished",
                Status::Abandoned => "abandoned",
            },
            result: info.score.map(|score| match info.termination {
                Some(reversi_record::Termination::Time) => ResultView {
                    text: format!("{} on time", result_line(score)),
                    ..ResultView::of(score)
                },
                None => ResultView::of(score),
            }),
            moves: info.move_count,
            clock: info.clock.map(|c| c.to_string()),
            termination: info.termination.map(reversi_record::Termination::name),
        }
    }
}

/// One position of a replay.
#[derive(Debug, Serialize)]
pub struct ReplayStep {
    pub board: Vec<String>,
    pub turn: &'static str,
    /// The move that led here (`null` at the start); `PA` for a pass.
    pub mv: Option<String>,
    pub counts: Counts,
    /// The name of the opening line followed up to here, `null` when none is named.
    pub opening: Option<&'static str>,
    /// The squares the side to move may play (where a variation may go on).
    pub legal: Vec<String>,
    /// Whether the side to move has no square and must pass.
    pub must_pass: bool,
}

/// Every position of a game, for the replay slider.
pub fn replay(game: &Game) -> Vec<ReplayStep> {
    game.positions()
        .iter()
        .enumerate()
        .map(|(i, pos)| ReplayStep {
            board: board_rows(pos),
            turn: color_name(pos.turn()),
            mv: i.checked_sub(1).map(|k| game.moves()[k].to_string()),
            counts: Counts::of(pos),
            opening: opening_name_at(game, i),
            legal: names(&pos.legal_moves()),
            must_pass: pos.must_pass(),
        })
        .collect()
}

#[derive(Debug, Serialize)]
pub struct MoveAnalysisView {
    pub ply: usize,
    pub color: &'static str,
    pub played: String,
    pub best: Option<CandidateView>,
    pub played_score: Option<i32>,
    pub loss: i32,
    pub verdict: &'static str,
}

#[derive(Debug, Serialize)]
pub struct AnalysisView {
    pub level: u8,
    pub moves: Vec<MoveAnalysisView>,
    /// Each position's value in discs for Black, start first.
    pub evals: Vec<i32>,
    pub kinds: Vec<Option<String>>,
    pub black_loss: i32,
    pub white_loss: i32,
    /// Each side's rating for the game on the human scale (none when analysed at another
    /// level than the scale's, or for a side without moves past the opening).
    pub performance: Vec<PerformanceView>,
    /// The level the human scale is measured at (null without a table).
    pub scale_level: Option<u8>,
}

/// One side's performance estimate.
#[derive(Debug, Serialize)]
pub struct PerformanceView {
    pub color: &'static str,
    /// `1650`, `2300+`, `under 700`.
    pub rating: String,
    /// The 90 % range over resamples of the side's moves, to ten points.
    pub low: f64,
    pub high: f64,
    pub mean_loss: f64,
    pub moves: usize,
}

impl AnalysisView {
    pub fn of(a: &Analysis, size: reversi_core::BoardSize) -> AnalysisView {
        let (black_loss, white_loss) = a.total_loss();
        AnalysisView {
            level: a.level.get(),
            moves: a
                .moves
                .iter()
                .map(|m| MoveAnalysisView {
                    ply: m.ply,
                    color: color_name(m.color),
                    played: m.played.to_string(),
                    best: m.best.as_ref().map(CandidateView::of),
                    played_score: m.played_score,
                    loss: m.loss,
                    verdict: m.verdict.name(),
                })
                .collect(),
            evals: a.evals.clone(),
            kinds: a.kinds.iter().map(|k| k.map(|k| k.to_string())).collect(),
            black_loss,
            white_loss,
            performance: HumanScale::shipped()
                .map(|scale| scale.performance(a, size))
                .unwrap_or_default()
                .iter()
                .map(|p| PerformanceView {
                    color: color_name(p.color),
                    rating: p.rating.to_string(),
                    low: (p.range.0 / 10.0).round() * 10.0,
                    high: (p.range.1 / 10.0).round() * 10.0,
                    mean_loss: p.mean_loss,
                    moves: p.moves,
                })
                .collect(),
            scale_level: HumanScale::shipped().map(|s| s.analysis_level.get()),
        }
    }
}

/// A position as the editor shows it.
#[derive(Debug, Serialize)]
pub struct PositionView {
    pub size: u8,
    pub rules: &'static str,
    pub board: Vec<String>,
    pub turn: &'static str,
    /// The squares the side to move may play.
    pub legal: Vec<String>,
    /// The side to move has no square and passes.
    pub must_pass: bool,
    /// Neither side can move: a finished game.
    pub over: bool,
    pub counts: Counts,
    /// The board string that reads back as this position (`---…OX… X`).
    pub text: String,
    /// How it was given: `board`, `obf`, `ggf` or `transcript`.
    pub format: &'static str,
    /// The moves that led to it, when it was given as a transcript.
    pub moves: Vec<String>,
}

impl PositionView {
    pub fn of(input: &PositionInput) -> PositionView {
        let p = input.position();
        PositionView {
            size: p.size().get(),
            rules: p.rules().name(),
            board: board_rows(p),
            turn: color_name(p.turn()),
            legal: names(&p.legal_moves()),
            must_pass: p.must_pass(),
            over: p.is_game_over(),
            counts: Counts::of(p),
            text: board_string(p),
            format: match input.format {
                PositionFormat::Board => "board",
                PositionFormat::Obf => "obf",
                PositionFormat::Ggf => "ggf",
                PositionFormat::Transcript => "transcript",
            },
            moves: input.game.moves().iter().map(ToString::to_string).collect(),
        }
    }
}
