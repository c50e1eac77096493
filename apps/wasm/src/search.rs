//! The search instance: the computer's moves, hints, game analyses and the bench, on one
//! engine timed by the page's clock. It runs in a Web Worker; a search ends by itself (its
//! depth, or its level's time), and the page stops one sooner by ending the worker.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use reversi_api::position::{after_forced_pass, PositionAnalysis};
use reversi_api::view::{AnalysisView, CandidateView, ThinkingView};
use reversi_core::Color;
use reversi_engine::bench;
use reversi_engine::clock::SharedClock;
use reversi_engine::engine::Engine;
use reversi_engine::levels::Level;
use reversi_formats::position::PositionInput;
use reversi_game::analysis::analyze_on;
use reversi_game::{evaluation, EXPLORER_LEVEL};
use reversi_players::{Advisor, Ai};
use serde::Serialize;

use crate::error::CallError;
use crate::games::{color_of, game_of, Decision, Job};
use crate::spec::GameSpec;

/// The engine's table in the browser, in MB: large enough for the levels' searches, small
/// enough for a phone's memory.
const HASH_MB: usize = 64;

/// The longest analysis of a whole game, as the server's default.
const ANALYSIS_TIME: Duration = Duration::from_secs(60);

/// The search instance's state.
pub struct Search {
    engine: Arc<Engine>,
}

/// Hints for a position of a game.
#[derive(Debug, Serialize)]
pub struct Hints {
    ply: usize,
    candidates: Vec<CandidateView>,
}

/// One bench position searched.
#[derive(Debug, Serialize)]
pub struct BenchLine {
    search: &'static str,
    empties: u32,
    score: i32,
    nodes: u64,
    ms: f64,
}

/// The bench: its positions, the signature (the sum of the nodes) and the time.
#[derive(Debug, Serialize)]
pub struct BenchReport {
    signature: u64,
    positions: Vec<BenchLine>,
    ms: f64,
    nodes_per_second: f64,
}

fn level_of(n: Option<u8>, default: u8) -> Result<Level, CallError> {
    let n = n.unwrap_or(default);
    Level::new(n).ok_or_else(|| {
        CallError::bad_request(format!(
            "level {n} is out of range: expected {}-{}",
            Level::MIN,
            Level::MAX
        ))
    })
}

impl Search {
    /// This instance's engine with the shipped book.
    fn advisor(&self) -> Advisor {
        Advisor::new(Arc::clone(&self.engine), reversi_engine::book::shipped())
    }

    /// An engine on one thread timed by `clock`.
    pub fn new(clock: SharedClock) -> Search {
        Search {
            engine: Arc::new(Engine::with_clock(HASH_MB, 1, clock)),
        }
    }

    /// The computer's move for `job`; each iteration of its search is reported.
    ///
    /// # Errors
    /// 400 for a player that does not read, 422 for a game that does not replay, 409 when
    /// the game has no move to make.
    pub fn choose(
        &self,
        job: &Job,
        report: &mut dyn FnMut(&ThinkingView),
    ) -> Result<Decision, CallError> {
        let ai: Ai = job.player.parse().map_err(CallError::bad_request)?;
        let game = game_of(&job.game)?;
        let pos = game.current();
        let color = color_of(&job.color).unwrap_or(Color::Black);
        let seed: u64 = job
            .seed
            .parse()
            .map_err(|_| CallError::bad_request(format!("bad seed {:?}", job.seed)))?;
        let mut computer = self.advisor().computer(ai, seed);
        computer.set_time_limit(job.time_limit_ms.map(Duration::from_millis));
        let stop = AtomicBool::new(false);
        let decision = computer
            .choose(pos, &stop, &mut |t| {
                report(&ThinkingView::of(color, job.ply, t));
            })
            .ok_or_else(|| CallError::new(409, "the game is over"))?;
        Ok(Decision {
            square: decision.mv.to_string(),
            eval: evaluation(&decision),
        })
    }

    /// Every legal move of the game's position scored at `level` (6 by default), best first.
    ///
    /// # Errors
    /// 400 for a level out of range, 422 for a game that does not replay, 409 when it is
    /// over.
    pub fn hints(&self, spec: &GameSpec, level: Option<u8>) -> Result<Hints, CallError> {
        let level = level_of(level, 6)?;
        let game = game_of(spec)?;
        let pos = game.current();
        if pos.is_game_over() {
            return Err(CallError::new(409, "the game is over"));
        }
        let time = level
            .spec()
            .move_time(pos.empty_count().try_into().unwrap_or(60));
        let stop = AtomicBool::new(false);
        let scored = self
            .advisor()
            .hints_within(pos, level, time, &stop, &mut |_| {});
        Ok(Hints {
            ply: game.moves().len(),
            candidates: scored.iter().map(CandidateView::of).collect(),
        })
    }

    /// Every move of the game scored at `level` (the human scale's by default); each
    /// position done is reported as `(done, total)`.
    ///
    /// # Errors
    /// 400 for a level out of range, 422 for a game that does not replay.
    pub fn analyze(
        &self,
        spec: &GameSpec,
        level: Option<u8>,
        report: &mut dyn FnMut(usize, usize),
    ) -> Result<AnalysisView, CallError> {
        let default = reversi_api::levels::scale_level().map_or(4, Level::get);
        let level = level_of(level, default)?;
        let game = game_of(spec)?;
        let stop = AtomicBool::new(false);
        let analysis = analyze_on(&self.advisor(), &game, level, ANALYSIS_TIME, &stop, report)
            .ok_or_else(|| CallError::new(409, "the analysis was stopped"))?;
        Ok(AnalysisView::of(&analysis, game.current().size()))
    }

    /// Every legal move of a position given as text scored at `level` (the explorer's by
    /// default), best first: the values the explorer's table shows where the book has none.
    ///
    /// # Errors
    /// 400 for a level out of range.
    pub fn position_hints(
        &self,
        input: &PositionInput,
        level: Option<u8>,
    ) -> Result<Vec<CandidateView>, CallError> {
        let level = level_of(level, EXPLORER_LEVEL)?;
        let mut pos = input.position().clone();
        if pos.must_pass() {
            pos = pos.with_turn(pos.turn().opposite());
        }
        let time = level
            .spec()
            .move_time(pos.empty_count().try_into().unwrap_or(60));
        let stop = AtomicBool::new(false);
        let scored = self
            .advisor()
            .hints_within(&pos, level, time, &stop, &mut |_| {});
        Ok(scored.iter().map(CandidateView::of).collect())
    }

    /// Every legal move of a position scored at `level` (10 by default) with the line
    /// expected after it, as `reversi analyze` does; a side without a move passes first.
    ///
    /// # Errors
    /// 400 for a level out of range.
    pub fn analyze_position(
        &self,
        input: PositionInput,
        level: Option<u8>,
    ) -> Result<PositionAnalysis, CallError> {
        let level = level_of(level, 10)?;
        let (input, passed) = after_forced_pass(input);
        let pos = input.position();
        let time = level
            .spec()
            .move_time(pos.empty_count().try_into().unwrap_or(60));
        let stop = AtomicBool::new(false);
        let lines = self
            .advisor()
            .hint_lines_within(pos, level, time, &stop, &mut |_| {});
        Ok(PositionAnalysis::of(level, &input, passed, &lines))
    }

    /// The bench on a fresh engine of this instance's clock (one thread, 64 MB, as natively).
    pub fn bench(&self, report: &mut dyn FnMut(&BenchLine)) -> BenchReport {
        let engine = Engine::with_clock(64, 1, Arc::clone(self.engine.clock()));
        let mut positions = Vec::new();
        for m in bench::run_on(engine) {
            let line = BenchLine {
                search: m.position.search,
                empties: m.position.board.empties().count_ones(),
                score: m.score,
                nodes: m.nodes,
                ms: m.time.as_secs_f64() * 1000.0,
            };
            report(&line);
            positions.push(line);
        }
        let signature = positions.iter().map(|p| p.nodes).sum();
        let ms: f64 = positions.iter().map(|p| p.ms).sum();
        BenchReport {
            signature,
            nodes_per_second: signature as f64 / (ms / 1000.0).max(1e-9),
            positions,
            ms,
        }
    }
}
