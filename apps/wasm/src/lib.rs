//! Reversi in the browser: the rules, the engine and the game layer behind one JSON call
//! interface (docs/web-engine.md), compiled to `wasm32-unknown-unknown` as `reversi.wasm`.
//!
//! [`Bridge::call`] takes a request (`{"method": …, …}`) and answers `{"ok": …}` or
//! `{"error": {"status", "message"}}`; the page runs one bridge for its games (the game
//! instance, [`games`]) and one in a Web Worker for searches (the search instance,
//! [`search`]). The exported functions of the WebAssembly module are in `abi.rs`; everything
//! else also builds natively, where the tests drive it.

pub mod error;
pub mod games;
pub mod history;
pub mod record;
pub mod search;
pub mod spec;

#[cfg(target_arch = "wasm32")]
mod abi;

use reversi_api::position::position_image;
use reversi_engine::clock::SharedClock;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::CallError;
use reversi_api::new_game::NewGameRequest;

use crate::games::{Decision, Games, Job};
use crate::record::StoredRecord;
use crate::search::Search;
use crate::spec::GameSpec;

/// What the bridge needs from the page: its clocks, and where progress reports go.
pub trait Host {
    /// The page's wall-clock time in milliseconds since 1970 (`Date.now()`).
    fn wall_ms(&self) -> f64;
    /// Hears a progress report (JSON) during a long call.
    fn report(&mut self, json: &str);
}

/// The state behind the calls of one instance.
pub struct Bridge {
    clock: SharedClock,
    games: Option<Games>,
    search: Option<Search>,
}

#[derive(Deserialize)]
struct Method {
    method: String,
}

#[derive(Deserialize)]
struct IdArgs {
    id: i64,
}

#[derive(Deserialize)]
struct PlayArgs {
    id: i64,
    square: String,
}

#[derive(Deserialize)]
struct ComputerMoveArgs {
    id: i64,
    job: Job,
    decision: Decision,
}

#[derive(Deserialize)]
struct JobArgs {
    job: Job,
}

#[derive(Deserialize)]
struct GameArgs {
    game: GameSpec,
    level: Option<u8>,
}

#[derive(Deserialize)]
struct LoadArgs {
    records: Vec<StoredRecord>,
}

#[derive(Deserialize)]
struct ListArgs {
    limit: Option<usize>,
    offset: Option<usize>,
}

#[derive(Deserialize)]
struct ExportArgs {
    id: i64,
    format: String,
}

#[derive(Deserialize)]
struct ImportArgs {
    name: Option<String>,
    text: String,
}

#[derive(Deserialize)]
struct VariationArgs {
    id: i64,
    line: Option<i64>,
    ply: usize,
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Deserialize)]
struct PositionArgs {
    position: String,
    size: Option<u8>,
    rules: Option<String>,
}

#[derive(Deserialize)]
struct ImageArgs {
    position: String,
    size: Option<u8>,
    rules: Option<String>,
    last: Option<String>,
    legal: Option<bool>,
    caption: Option<String>,
}

#[derive(Deserialize)]
struct ExploreArgs {
    position: Option<String>,
    rules: Option<String>,
}

#[derive(Deserialize)]
struct AnalyzePositionArgs {
    position: String,
    size: Option<u8>,
    rules: Option<String>,
    level: Option<u8>,
}

fn args<T: DeserializeOwned>(request: &Value) -> Result<T, CallError> {
    T::deserialize(request).map_err(|e| CallError::bad_request(format!("bad arguments: {e}")))
}

fn ok<T: serde::Serialize>(value: T) -> Result<Value, CallError> {
    serde_json::to_value(value).map_err(|e| CallError::new(500, e))
}

impl Bridge {
    /// A bridge whose searches and game clocks read `clock`.
    pub fn new(clock: SharedClock) -> Bridge {
        Bridge {
            clock,
            games: None,
            search: None,
        }
    }

    fn games(&mut self, host: &dyn Host) -> &mut Games {
        let clock = &self.clock;
        let games = self
            .games
            .get_or_insert_with(|| Games::new(std::sync::Arc::clone(clock)));
        games.set_wall_ms(host.wall_ms());
        games
    }

    fn search(&mut self) -> &Search {
        let clock = &self.clock;
        self.search
            .get_or_insert_with(|| Search::new(std::sync::Arc::clone(clock)))
    }

    /// Answers one request (JSON text), as JSON text.
    pub fn call(&mut self, request: &str, host: &mut dyn Host) -> String {
        let answer = serde_json::from_str::<Value>(request)
            .map_err(|e| CallError::bad_request(format!("the request is not JSON: {e}")))
            .and_then(|value| self.dispatch(&value, host));
        match answer {
            Ok(value) => json!({ "ok": value }).to_string(),
            Err(e) => json!({ "error": { "status": e.status, "message": e.message } }).to_string(),
        }
    }

    fn dispatch(&mut self, request: &Value, host: &mut dyn Host) -> Result<Value, CallError> {
        let Method { method } = args(request)?;
        match method.as_str() {
            // The game instance.
            "load" => {
                let LoadArgs { records } = args(request)?;
                let (games, refused) = self.games(host).load(records);
                ok(json!({ "games": games, "refused": refused }))
            }
            "changes" => {
                let (put, deleted) = self.games(host).changes();
                ok(json!({ "put": put, "deleted": deleted }))
            }
            "createGame" => {
                let req: NewGameRequest = args(&without_method(request))?;
                ok(self.games(host).create(req)?)
            }
            "getGame" => {
                let IdArgs { id } = args(request)?;
                ok(self.games(host).view(id)?)
            }
            "play" => {
                let PlayArgs { id, square } = args(request)?;
                ok(self.games(host).play(id, &square)?)
            }
            "undo" => {
                let IdArgs { id } = args(request)?;
                ok(self.games(host).undo(id)?)
            }
            "redo" => {
                let IdArgs { id } = args(request)?;
                ok(self.games(host).redo(id)?)
            }
            "resign" => {
                let IdArgs { id } = args(request)?;
                ok(self.games(host).resign(id)?)
            }
            "computerTurn" => {
                let IdArgs { id } = args(request)?;
                ok(self.games(host).computer_turn(id)?)
            }
            "computerMove" => {
                let ComputerMoveArgs { id, job, decision } = args(request)?;
                ok(self.games(host).computer_move(id, &job, &decision)?)
            }
            "gameSpec" => {
                let IdArgs { id } = args(request)?;
                let (ply, game) = self.games(host).game_spec(id)?;
                ok(json!({ "ply": ply, "game": game }))
            }
            "levels" => ok(Games::levels()),
            "listGames" => {
                let ListArgs { limit, offset } = args(request)?;
                ok(self.games(host).list(limit, offset.unwrap_or(0)))
            }
            "getRecord" => {
                let IdArgs { id } = args(request)?;
                ok(self.games(host).record(id)?)
            }
            "recordSpec" => {
                let IdArgs { id } = args(request)?;
                ok(self.games(host).record_spec(id)?)
            }
            "deleteGame" => {
                let IdArgs { id } = args(request)?;
                self.games(host).delete(id)?;
                ok(Value::Null)
            }
            "exportGame" => {
                let ExportArgs { id, format } = args(request)?;
                ok(self.games(host).export(id, &format)?)
            }
            "importGames" => {
                let ImportArgs { name, text } = args(request)?;
                let (added, skipped) = self
                    .games(host)
                    .import(name.as_deref().unwrap_or("upload"), &text)?;
                ok(json!({ "added": added, "skipped": skipped }))
            }
            "playVariation" => {
                let VariationArgs { id, line, ply, mv } = args(request)?;
                ok(self.games(host).play_variation(id, line, ply, &mv)?)
            }
            "readPosition" => {
                let PositionArgs {
                    position,
                    size,
                    rules,
                } = args(request)?;
                let pos = games::read_position(&position, size, rules.as_deref())?;
                ok(reversi_api::view::PositionView::of(&pos))
            }
            "positionImage" => {
                let ImageArgs {
                    position,
                    size,
                    rules,
                    last,
                    legal,
                    caption,
                } = args(request)?;
                let input = games::read_position(&position, size, rules.as_deref())?;
                let legal = legal.map(|l| if l { "1" } else { "0" });
                let svg = position_image(&input, last.as_deref(), legal, caption)
                    .map_err(CallError::bad_request)?;
                ok(json!({
                    "filename": "reversi-position.svg",
                    "type": "image/svg+xml",
                    "text": svg,
                }))
            }
            "explore" => {
                let ExploreArgs { position, rules } = args(request)?;
                ok(self
                    .games(host)
                    .explore(position.as_deref(), rules.as_deref())?)
            }
            // The search instance.
            "positionHints" => {
                let AnalyzePositionArgs {
                    position,
                    size,
                    rules,
                    level,
                } = args(request)?;
                let input = games::read_position(&position, size, rules.as_deref())?;
                ok(json!({ "candidates": self.search().position_hints(&input, level)? }))
            }
            "analyzePosition" => {
                let AnalyzePositionArgs {
                    position,
                    size,
                    rules,
                    level,
                } = args(request)?;
                let input = games::read_position(&position, size, rules.as_deref())?;
                ok(self.search().analyze_position(input, level)?)
            }
            "chooseMove" => {
                let JobArgs { job } = args(request)?;
                let decision = self.search().choose(&job, &mut |t| {
                    if let Ok(text) = serde_json::to_string(t) {
                        host.report(&text);
                    }
                })?;
                ok(decision)
            }
            "hints" => {
                let GameArgs { game, level } = args(request)?;
                ok(self.search().hints(&game, level)?)
            }
            "analyzeGame" => {
                let GameArgs { game, level } = args(request)?;
                ok(self.search().analyze(&game, level, &mut |done, total| {
                    host.report(&json!({ "done": done, "total": total }).to_string());
                })?)
            }
            "bench" => ok(self.search().bench(&mut |line| {
                if let Ok(text) = serde_json::to_string(line) {
                    host.report(&text);
                }
            })),
            other => Err(CallError::bad_request(format!("unknown method {other:?}"))),
        }
    }
}

/// The request's arguments without its `method`.
fn without_method(request: &Value) -> Value {
    let mut v = request.clone();
    if let Some(map) = v.as_object_mut() {
        map.remove("method");
    }
    v
}

#[cfg(test)]
mod tests;
