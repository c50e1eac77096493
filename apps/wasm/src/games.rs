//! The game instance: the games being played on this page (each a [`Table`] over a
//! [`Session`] with the one seat of this browser), saved move by move into the
//! [`LocalHistory`], and the stored games' list, records, lines, import and export.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use reversi_api::explore::ExploreView;
use reversi_api::levels::{levels, LevelView};
use reversi_api::lines::{lines_view, LineView};
use reversi_api::new_game::{self, NewGamePlan, NewGameRequest, RequestError};
use reversi_api::upload::{read_games, UploadError};
use reversi_api::view::{color_name, replay, GameExtras, GameView, InfoView, ReplayStep};
use reversi_core::{BoardSize, Color, Game, Move, Position, Rules};
use reversi_engine::clock::SharedClock;
use reversi_formats::position::{parse_position, PositionInput};
use reversi_game::convert::{to_ggf, to_transcript};
use reversi_game::{
    explore, stored_records, stored_settings, Context, LogHandle, LogId, Replay, Seats, Session,
    Table, TableError, Valuation,
};
use reversi_players::Advisor;
use reversi_record::{Archive, GameFilter, GameId, Status, WebSeats};
use serde::{Deserialize, Serialize};

use crate::error::CallError;
use crate::history::{LocalHistory, LocalLog};
use crate::record::{move_name, parse_move, StoredRecord};
use crate::spec::GameSpec;

/// The one seat of every local game: this browser plays every human side.
const SEAT: &str = "local";

/// A game being played, with the version of its last change.
struct Live {
    table: Table,
    version: u64,
}

/// The game instance's state.
pub struct Games {
    history: Arc<Mutex<LocalHistory>>,
    live: HashMap<i64, Live>,
    clock: SharedClock,
    /// The last version handed out: every change gets a higher one.
    version: u64,
}

/// What `createGame` answers.
#[derive(Debug, Serialize)]
pub struct Created {
    game: GameView,
    token: Option<String>,
    join_code: Option<String>,
}

/// The computer's turn in a game, for the search instance.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    pub id: i64,
    pub ply: usize,
    pub color: String,
    pub game: GameSpec,
    /// The player, as `Ai` names it (`10`, `perfect`, `greedy`).
    pub player: String,
    /// The player's seed, in decimal: JSON numbers in JavaScript hold 53 bits only.
    pub seed: String,
    /// The game clock's cap on the move, in milliseconds.
    pub time_limit_ms: Option<u64>,
}

/// The search instance's move for a [`Job`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Decision {
    /// A square or `PA`.
    pub square: String,
    /// The evaluation kept with the move (discs for the mover), when the search scored it.
    pub eval: Option<f64>,
}

/// A page of the history.
#[derive(Debug, Serialize)]
pub struct HistoryPage {
    games: Vec<InfoView>,
    total: usize,
}

/// A stored game for the replay.
#[derive(Debug, Serialize)]
pub struct RecordView {
    info: InfoView,
    moves: Vec<String>,
    positions: Vec<ReplayStep>,
    live: bool,
    lines: Vec<LineView>,
}

/// A file for the page to download.
#[derive(Debug, Serialize)]
pub struct Download {
    filename: String,
    #[serde(rename = "type")]
    content_type: &'static str,
    text: String,
}

/// A replay's lines after a move played in one.
#[derive(Debug, Serialize)]
pub struct Played {
    shown: usize,
    ply: usize,
    lines: Vec<LineView>,
}

fn table_error(e: &TableError) -> CallError {
    use reversi_game::PlayError;
    let status = match e {
        TableError::BadSquare(_) => 400,
        TableError::Play(PlayError::Illegal(_)) => 422,
        TableError::NoToken | TableError::WrongCode | TableError::UnknownToken => 403,
        _ => 409,
    };
    CallError::new(status, e.to_string())
}

/// The position `text` reads as (any notation the editor takes), on a board of `size` under
/// `rules` (a transcript is played from their start).
///
/// # Errors
/// 400 for a size or rule out of range, 422 naming what is wrong with the text.
pub fn read_position(
    text: &str,
    size: Option<u8>,
    rules: Option<&str>,
) -> Result<PositionInput, CallError> {
    new_game::read_position(text, size, rules).map_err(|e| request_error(&e))
}

fn request_error(e: &RequestError) -> CallError {
    match e {
        RequestError::BadRequest(m) => CallError::bad_request(m),
        RequestError::Unprocessable(m) => CallError::new(422, m),
    }
}

impl Games {
    /// No games yet; times read on `clock`.
    pub fn new(clock: SharedClock) -> Games {
        Games {
            history: Arc::default(),
            live: HashMap::new(),
            clock,
            version: 0,
        }
    }

    fn history(&self) -> MutexGuard<'_, LocalHistory> {
        self.history.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The page's wall-clock time: stamps new records and ends, and versions.
    pub fn set_wall_ms(&mut self, ms: f64) {
        let secs = (ms / 1000.0).max(0.0) as u64;
        self.history().set_now(reversi_record::format_utc(secs));
        self.version = self.version.max((ms * 1000.0).max(0.0) as u64);
    }

    fn context(&self) -> Context {
        // The game instance never searches (the search instance does): its sessions need
        // the clock, and the explorer the book (the engine is never made).
        Context {
            clock: Arc::clone(&self.clock),
            advisor: Advisor::standard(),
        }
    }

    fn next_version(&mut self) -> u64 {
        self.version += 1;
        self.version
    }

    /// Reads back the stored games; the ones that do not read are named.
    pub fn load(&mut self, records: Vec<StoredRecord>) -> (usize, Vec<String>) {
        let mut history = self.history();
        let refused = history.load(records);
        (history.count(), refused)
    }

    /// What changed in the history since the last call.
    pub fn changes(&mut self) -> (Vec<StoredRecord>, Vec<i64>) {
        self.history().changes()
    }

    /// A new game.
    ///
    /// # Errors
    /// 400 for bad settings, 422 for a start that cannot be read or is over.
    pub fn create(&mut self, req: NewGameRequest) -> Result<Created, CallError> {
        if req.remote.is_some() {
            return Err(CallError::bad_request(
                "two browsers in one game need the server (reversi serve)",
            ));
        }
        let fallback = self.version | 1;
        let NewGamePlan {
            settings,
            start,
            record,
            ..
        } = req.plan(|| fallback).map_err(|e| request_error(&e))?;
        let id = self.history().create_game(&record);
        let log = LocalLog::with_record(Arc::clone(&self.history), id, record);
        let log = Some(LogHandle::new(Arc::new(Mutex::new(log))));
        let session = Session::in_context(settings, start, log, self.context());
        self.open(id.0, session);
        Ok(Created {
            game: self.view(id.0)?,
            token: None,
            join_code: None,
        })
    }

    fn open(&mut self, id: i64, session: Session) {
        let table = Table::new(session, Seats::from_stored(local_seats()));
        let version = self.next_version();
        self.live.insert(id, Live { table, version });
        self.settle(id);
    }

    /// After a change: forced passes, and a new version.
    fn settle(&mut self, id: i64) {
        let version = self.next_version();
        if let Some(live) = self.live.get_mut(&id) {
            let s = &mut live.table.session;
            while s.must_pass() {
                if s.pass().is_err() {
                    break;
                }
            }
            live.version = version;
        }
    }

    /// Game `id` as played on this page, reopened from the history when it is in progress
    /// there.
    fn live(&mut self, id: i64) -> Result<&mut Live, CallError> {
        if !self.live.contains_key(&id) {
            let session = self.resume(id)?;
            self.open(id, session);
        }
        let live = self
            .live
            .get_mut(&id)
            .ok_or_else(|| CallError::not_found(format!("no game {id}")))?;
        // A clock that ran out since the last look ends the game now.
        live.table.session.check_time();
        Ok(live)
    }

    fn resume(&self, id: i64) -> Result<Session, CallError> {
        let stored = self
            .history()
            .load_game(GameId(id))
            .map_err(|_| CallError::not_found(format!("no game {id} is being played")))?;
        if stored.info.status != Status::InProgress {
            return Err(CallError::not_found(format!(
                "game {id} has ended: its record is in the history"
            )));
        }
        let settings = stored_settings(GameId(id), &stored.info, self.version | 1)
            .map_err(|e| CallError::new(409, e.to_string()))?;
        let log = LocalLog::resumed(Arc::clone(&self.history));
        Ok(Session::resume_in_context(
            settings,
            stored.game,
            stored_records(&stored.moves),
            Some(LogHandle::new(Arc::new(Mutex::new(log)))),
            LogId(id),
            self.context(),
        ))
    }

    /// The view of game `id`.
    ///
    /// # Errors
    /// 404 when it is neither being played nor in progress in the history.
    pub fn view(&mut self, id: i64) -> Result<GameView, CallError> {
        let live = self.live(id)?;
        let t = &live.table;
        Ok(GameView::of(
            id,
            &t.session,
            GameExtras {
                version: live.version,
                ended: t.ended(),
                takebacks: t.takebacks(),
                resigned: t.resigned,
                thinking: false,
                remote: None,
                joined: false,
            },
        ))
    }

    fn act(
        &mut self,
        id: i64,
        f: impl FnOnce(&mut Table) -> Result<(), TableError>,
    ) -> Result<GameView, CallError> {
        let live = self.live(id)?;
        let result = f(&mut live.table);
        self.settle(id);
        result.map_err(|e| table_error(&e))?;
        self.view(id)
    }

    /// A person's move.
    ///
    /// # Errors
    /// As the server's: 400 not a square, 409 not a person's turn or over, 422 illegal.
    pub fn play(&mut self, id: i64, square: &str) -> Result<GameView, CallError> {
        self.act(id, |t| t.play(Some(SEAT), square))
    }

    /// Takes back to the previous turn of a person.
    ///
    /// # Errors
    /// 409 nothing to undo, or the game is over.
    pub fn undo(&mut self, id: i64) -> Result<GameView, CallError> {
        self.act(id, |t| t.undo(Some(SEAT)))
    }

    /// Replays what undo took back.
    ///
    /// # Errors
    /// 409 nothing to redo, or the game is over.
    pub fn redo(&mut self, id: i64) -> Result<GameView, CallError> {
        self.act(id, |t| t.redo(Some(SEAT)))
    }

    /// Resigns for the person; the history keeps the game as abandoned.
    ///
    /// # Errors
    /// 409 when the game is over.
    pub fn resign(&mut self, id: i64) -> Result<GameView, CallError> {
        let view = self.act(id, |t| t.resign(Some(SEAT)).map(drop))?;
        self.history()
            .abandon_game(GameId(id))
            .map_err(|e| CallError::new(409, e.to_string()))?;
        Ok(view)
    }

    /// The computer's turn in game `id`, if the computer is to move.
    ///
    /// # Errors
    /// 404 no such game.
    pub fn computer_turn(&mut self, id: i64) -> Result<Option<Job>, CallError> {
        let live = self.live(id)?;
        if live.table.ended() {
            return Ok(None);
        }
        let Some(turn) = live.table.session.computer_turn() else {
            return Ok(None);
        };
        let computer = turn.computer();
        Ok(Some(Job {
            id,
            ply: turn.ply,
            color: color_name(turn.color).to_string(),
            game: GameSpec::of(live.table.session.game()),
            player: computer.ai().to_string(),
            seed: computer.seed().to_string(),
            time_limit_ms: computer
                .time_limit()
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
        }))
    }

    /// Plays the search instance's `decision` for `job`.
    ///
    /// # Errors
    /// 409 when the game moved on since the job (an undo, a resignation), 404 no such game.
    pub fn computer_move(
        &mut self,
        id: i64,
        job: &Job,
        decision: &Decision,
    ) -> Result<GameView, CallError> {
        let live = self.live(id)?;
        if live.table.ended() {
            return Err(CallError::new(409, "the game is over"));
        }
        let size = live.table.session.position().size();
        let mv = parse_move(&decision.square, size).map_err(CallError::bad_request)?;
        let result = live
            .table
            .session
            .play_evaluated(job.ply, mv, decision.eval)
            .map_err(|e| CallError::new(409, e.to_string()));
        self.settle(id);
        result?;
        self.view(id)
    }

    /// Game `id` being played, as a [`GameSpec`], with its move count.
    ///
    /// # Errors
    /// 404 no such game.
    pub fn game_spec(&mut self, id: i64) -> Result<(usize, GameSpec), CallError> {
        let live = self.live(id)?;
        let game = live.table.session.game();
        Ok((game.moves().len(), GameSpec::of(game)))
    }

    /// Every level.
    pub fn levels() -> Vec<LevelView> {
        levels()
    }

    /// A page of the history, newest first.
    pub fn list(&self, limit: Option<usize>, offset: usize) -> HistoryPage {
        let filter = GameFilter {
            limit,
            offset,
            ..GameFilter::default()
        };
        let (games, total) = self.history().list_games(&filter);
        HistoryPage {
            games: games.iter().map(InfoView::of).collect(),
            total,
        }
    }

    fn replay(&self, id: i64) -> Result<Replay, CallError> {
        let history = self.history();
        let stored = history
            .load_game(GameId(id))
            .map_err(CallError::from_store)?;
        let variations = history
            .variations(GameId(id))
            .map_err(CallError::from_store)?;
        Replay::with_variations(stored, &variations).map_err(CallError::from_store)
    }

    /// A stored game with its positions and lines.
    ///
    /// # Errors
    /// 404 no such game.
    pub fn record(&self, id: i64) -> Result<RecordView, CallError> {
        let replay = self.replay(id)?;
        let info = &replay.info;
        Ok(RecordView {
            info: InfoView::of(info),
            moves: replay.lines()[0]
                .game
                .moves()
                .iter()
                .map(|&m| move_name(m))
                .collect(),
            positions: replay_positions(&replay),
            live: info.status == Status::InProgress,
            lines: lines_view(&replay),
        })
    }

    /// A stored game's own moves as a [`GameSpec`].
    ///
    /// # Errors
    /// 404 no such game.
    pub fn record_spec(&self, id: i64) -> Result<GameSpec, CallError> {
        let stored = self
            .history()
            .load_game(GameId(id))
            .map_err(CallError::from_store)?;
        Ok(GameSpec::of(&stored.game))
    }

    /// Deletes a stored game (and stops it being played).
    ///
    /// # Errors
    /// 404 no such game.
    pub fn delete(&mut self, id: i64) -> Result<(), CallError> {
        self.live.remove(&id);
        if self.history().delete_game(GameId(id)) {
            Ok(())
        } else {
            Err(CallError::not_found(format!("no game {id}")))
        }
    }

    /// A stored game as a file.
    ///
    /// # Errors
    /// 400 for an unknown format, 404 no such game.
    pub fn export(&self, id: i64, format: &str) -> Result<Download, CallError> {
        let stored = self
            .history()
            .load_game(GameId(id))
            .map_err(CallError::from_store)?;
        let (text, ext) = match format {
            "ggf" => (to_ggf(&stored), "ggf"),
            "transcript" => (to_transcript(&stored), "txt"),
            other => {
                return Err(CallError::bad_request(format!(
                    "unknown export format {other:?}: expected ggf or transcript"
                )))
            }
        };
        Ok(Download {
            filename: format!("reversi-game-{id}.{ext}"),
            content_type: "text/plain; charset=utf-8",
            text: format!("{text}\n"),
        })
    }

    /// Adds the games of a GGF or transcript file; returns (added, skipped).
    ///
    /// # Errors
    /// 422 naming the game that does not read.
    pub fn import(&mut self, name: &str, text: &str) -> Result<(usize, usize), CallError> {
        let games = read_games(text, None, None, None, name).map_err(|e| match e {
            UploadError::BadRequest(m) => CallError::bad_request(m),
            UploadError::Unreadable(m) => CallError::new(422, m),
        })?;
        self.history()
            .import_games(&games)
            .map_err(|e| CallError::new(422, e.to_string()))
    }

    /// Plays `mv` after `ply` moves of `line` in a stored game's replay, saving the
    /// variation it makes or grows.
    ///
    /// # Errors
    /// 404 no such game or line, 422 an illegal move.
    pub fn play_variation(
        &mut self,
        id: i64,
        line: Option<i64>,
        ply: usize,
        mv: &str,
    ) -> Result<Played, CallError> {
        let mut replay = self.replay(id)?;
        let size = replay.info.size;
        let mv: Move = parse_move(mv, size).map_err(CallError::bad_request)?;
        let shown = {
            let mut history = self.history();
            replay
                .play_after(
                    line.map(reversi_record::VariationId),
                    ply,
                    mv,
                    &mut *history,
                )
                .map_err(|e| CallError::from_variation(&e))?
        };
        Ok(Played {
            shown,
            ply: replay.ply(),
            lines: lines_view(&replay),
        })
    }
}

impl Games {
    /// The moves this browser's finished 8x8 games played from `position` (the start without
    /// one), valued by the opening book where it has them; the search instance values the
    /// rest (`positionHints`).
    ///
    /// # Errors
    /// 400 for a position that does not read or is not 8x8.
    pub fn explore(
        &self,
        position: Option<&str>,
        rules: Option<&str>,
    ) -> Result<ExploreView, CallError> {
        let rules: Rules = rules
            .unwrap_or("othello")
            .parse()
            .map_err(|e: reversi_core::ParseRulesError| CallError::bad_request(e))?;
        let pos = match position.map(str::trim) {
            None | Some("") => Position::start(BoardSize::EIGHT, rules),
            Some(text) => parse_position(text, BoardSize::EIGHT, rules)
                .map_err(|e| CallError::bad_request(format!("{text:?}: {e}")))?
                .position()
                .clone(),
        };
        if pos.size() != BoardSize::EIGHT {
            return Err(CallError::bad_request(format!(
                "the explorer covers 8x8 games; this position is {}",
                pos.size()
            )));
        }
        let explored = explore(
            &*self.history(),
            &self.context().advisor,
            &pos,
            Valuation::Book,
        )
        .map_err(CallError::from_store)?;
        Ok(ExploreView::of(&explored))
    }
}

/// The seats of a local game: this browser holds them all.
fn local_seats() -> WebSeats {
    WebSeats {
        owner_token: SEAT.to_string(),
        remote: None,
        guest_token: None,
        join_code: None,
        resigned: None,
    }
}

/// The positions of a replay's own line.
fn replay_positions(r: &Replay) -> Vec<ReplayStep> {
    replay(&r.lines()[0].game)
}

/// The colour named `text`.
pub fn color_of(text: &str) -> Option<Color> {
    match text {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    }
}

/// The game `spec` describes, replayed.
///
/// # Errors
/// 400 for a size or rule out of range, 422 for a start or move that does not read.
pub fn game_of(spec: &GameSpec) -> Result<Game, CallError> {
    spec.to_game().map_err(|e| CallError::new(422, e))
}
