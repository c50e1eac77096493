//! Sessions saving into an in-memory history: moves with times and evaluations, undo, the
//! game's end, resuming, and a database that fails mid-game.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use reversi_core::{BoardSize, Color, Position, Rules, Score};
use reversi_game::{
    resume, Context, GameLog, LogError, LogHandle, LogId, LoggedMove, Player, ResumeError, Session,
    Settings,
};
use reversi_players::{Advisor, Ai};
use reversi_store::{GameFilter, GameId, PlayerKind, Status, Store, StoreLog, StoredGame};

fn settings(size: u8, black: &str, white: &str) -> Settings {
    Settings {
        size: BoardSize::new(size).unwrap(),
        rules: Rules::Othello,
        black: black.parse().unwrap(),
        white: white.parse().unwrap(),
        seed: 5,
        clock: None,
    }
}

fn memory_log() -> Arc<Mutex<StoreLog>> {
    Arc::new(Mutex::new(StoreLog::open(Store::open_in_memory().unwrap())))
}

fn load(log: &Arc<Mutex<StoreLog>>, id: LogId) -> StoredGame {
    log.lock()
        .unwrap()
        .store()
        .unwrap()
        .load_game(GameId(id.0))
        .unwrap()
}

fn count(log: &Arc<Mutex<StoreLog>>) -> u64 {
    let log = log.lock().unwrap();
    log.store()
        .unwrap()
        .count_games(&GameFilter::default())
        .unwrap()
}

/// Plays the computers' moves and forced passes until a person is to choose or the end.
fn computers(s: &mut Session) {
    let stop = AtomicBool::new(false);
    while !s.is_over() {
        if s.must_pass() {
            s.pass().unwrap();
        } else if let Some(turn) = s.computer_turn() {
            let ply = turn.ply;
            let d = turn.run(&stop, &mut |_| {}).unwrap();
            s.play_decision(ply, &d).unwrap();
        } else {
            return;
        }
    }
}

fn play_first(s: &mut Session) {
    let sq = s.position().legal_moves()[0];
    s.play(sq).unwrap();
}

fn play(s: &mut Session, square: &str) {
    let sq = s.position().parse_square(square).unwrap();
    s.play(sq).unwrap();
}

#[test]
fn a_game_is_recorded_from_its_first_move_with_times_and_evaluations() {
    // Searched moves, not book moves: the evaluation checked below is a search's.
    let log = memory_log();
    let mut s = Session::in_context(
        settings(8, "human", "ai:3"),
        Position::start(BoardSize::EIGHT, Rules::Othello),
        Some(LogHandle::new(log.clone())),
        Context::with(Advisor::standard().with_book(None)),
    );
    assert_eq!(s.log_id(), None);
    assert_eq!(count(&log), 0, "no record before the first move");
    play(&mut s, "f5");
    let id = s.log_id().unwrap();
    computers(&mut s);
    play_first(&mut s);
    computers(&mut s);

    let stored = load(&log, id);
    assert_eq!(stored.info.status, Status::InProgress);
    assert_eq!(stored.game, *s.game());
    assert_eq!(stored.info.black.kind, PlayerKind::Human);
    assert_eq!(stored.info.white.name, "reversi");
    assert_eq!(stored.info.white.level.as_deref(), Some("beginner"));
    assert_eq!(stored.moves.len(), 4);
    assert!(stored.moves.iter().all(|m| m.time_ms.is_some()));
    // The person's moves have no evaluation; level 3's carry its search's score.
    assert_eq!(stored.moves[0].eval, None);
    assert!(stored.moves[1].eval.is_some(), "{:?}", stored.moves[1]);
    assert_eq!(
        stored.moves[1].eval,
        s.records()[1].eval,
        "the same evaluation as the session's"
    );
    assert!(s.save_error().is_none());
}

#[test]
fn undo_takes_moves_back_from_the_record_and_redo_restores_them() {
    let log = memory_log();
    let mut s = Session::with_log(
        settings(8, "human", "ai:greedy"),
        Some(LogHandle::new(log.clone())),
    );
    play(&mut s, "f5");
    computers(&mut s);
    play_first(&mut s);
    computers(&mut s);
    let id = s.log_id().unwrap();
    assert_eq!(load(&log, id).moves.len(), 4);
    let times: Vec<_> = load(&log, id).moves.iter().map(|m| m.time_ms).collect();

    assert_eq!(s.undo(), 2);
    assert_eq!(load(&log, id).game, *s.game());
    assert_eq!(load(&log, id).moves.len(), 2);
    assert_eq!(s.redo(), 2);
    let back = load(&log, id);
    assert_eq!(back.game, *s.game());
    let redone: Vec<_> = back.moves.iter().map(|m| m.time_ms).collect();
    assert_eq!(redone, times, "redo keeps the moves' times");

    // Another move after undo replaces the taken-back ones in the same record.
    s.undo();
    s.undo();
    play(&mut s, "d3");
    let stored = load(&log, id);
    assert_eq!(stored.game, *s.game());
    assert_eq!(count(&log), 1);
}

#[test]
fn the_end_is_recorded_with_the_score_and_a_rematch_is_a_new_record() {
    let log = memory_log();
    let mut s = Session::with_log(
        settings(6, "ai:greedy", "ai:random"),
        Some(LogHandle::new(log.clone())),
    );
    computers(&mut s);
    let score = s.result().unwrap();
    let id = s.log_id().unwrap();
    let stored = load(&log, id);
    assert_eq!(stored.info.status, Status::Finished);
    assert_eq!(stored.info.score, Some(score));
    assert_eq!(stored.game, *s.game());

    // Taking back moves of a finished game leaves its record as played…
    s.undo();
    assert_eq!(load(&log, id).info.status, Status::Finished);
    assert_eq!(load(&log, id).moves.len(), stored.moves.len());
    // …and the return game is another record.
    let mut r = s.rematch();
    computers(&mut r);
    assert_ne!(r.log_id(), Some(id));
    assert_eq!(count(&log), 2);
}

#[test]
fn a_different_move_after_the_end_was_taken_back_goes_on_in_a_new_record() {
    let log = memory_log();
    let mut s = Session::with_log(
        settings(4, "human", "human"),
        Some(LogHandle::new(log.clone())),
    );
    // Both sides play their first legal move until the end.
    while !s.is_over() {
        if s.must_pass() {
            s.pass().unwrap();
        } else {
            let sq = s.position().legal_moves()[0];
            s.play(sq).unwrap();
        }
    }
    let first = s.log_id().unwrap();
    while s.undo() > 0 && s.position().legal_moves().len() < 2 {}
    let other = s.position().legal_moves()[1];
    s.play(other).unwrap();
    let second = s.log_id().unwrap();
    assert_ne!(first, second);
    assert_eq!(load(&log, first).info.status, Status::Finished);
    assert_eq!(load(&log, second).game, *s.game());
}

#[test]
fn an_unfinished_game_resumes_with_its_players_into_the_same_record() {
    let log = memory_log();
    let mut s = Session::with_log(
        settings(6, "human", "ai:beginner"),
        Some(LogHandle::new(log.clone())),
    );
    let first = s.position().legal_moves()[0];
    s.play(first).unwrap();
    computers(&mut s);
    let id = s.log_id().unwrap();
    let before = s.game().clone();
    drop(s);

    let mut r = {
        let guard = log.lock().unwrap();
        resume(
            guard.store().unwrap(),
            GameId(id.0),
            9,
            Some(LogHandle::new(log.clone())),
            Context::system(),
        )
        .unwrap()
    };
    assert_eq!(r.game(), &before);
    assert_eq!(r.settings().black, Player::Human);
    assert_eq!(
        r.settings().white,
        Player::Computer("beginner".parse::<Ai>().unwrap())
    );
    assert_eq!(r.log_id(), Some(id));
    // Undo reaches back before the resumption, in the record too.
    assert_eq!(r.undo(), 2);
    assert_eq!(load(&log, id).moves.len(), 0);
    while !r.is_over() {
        if r.is_human_turn() {
            let sq = r.position().legal_moves()[0];
            r.play(sq).unwrap();
        }
        computers(&mut r);
    }
    let stored = load(&log, id);
    assert_eq!(stored.info.status, Status::Finished);
    assert_eq!(stored.game, *r.game());
    assert_eq!(count(&log), 1);

    let guard = log.lock().unwrap();
    let e = resume(
        guard.store().unwrap(),
        GameId(id.0),
        9,
        None,
        Context::system(),
    )
    .unwrap_err();
    assert!(matches!(e, ResumeError::Ended { .. }));
    assert!(e.to_string().contains("is finished"), "{e}");
}

#[test]
fn a_computer_of_unknown_level_cannot_be_resumed() {
    let mut store = Store::open_in_memory().unwrap();
    let new = reversi_store::NewGame::standard(
        BoardSize::EIGHT,
        Rules::Othello,
        reversi_store::Player::human("Ann"),
        reversi_store::Player::computer("Edax", "21 ply"),
    );
    let id = store.create_game(&new).unwrap();
    let e = resume(&store, id, 1, None, Context::system()).unwrap_err();
    assert!(e.to_string().contains("Edax level 21 ply"), "{e}");
}

/// A log that fails while `down` is set, then works again.
struct Flaky {
    inner: StoreLog,
    down: bool,
}

impl Flaky {
    fn check(&self) -> Result<(), LogError> {
        if self.down {
            Err(LogError("disk full".into()))
        } else {
            Ok(())
        }
    }
}

impl GameLog for Flaky {
    fn create(&mut self, s: &Settings, p: &Position) -> Result<LogId, LogError> {
        self.check()?;
        self.inner.create(s, p)
    }
    fn append(&mut self, id: LogId, mv: &LoggedMove) -> Result<(), LogError> {
        self.check()?;
        self.inner.append(id, mv)
    }
    fn undo(&mut self, id: LogId) -> Result<(), LogError> {
        self.check()?;
        self.inner.undo(id)
    }
    fn finish(&mut self, id: LogId, score: Score) -> Result<(), LogError> {
        self.check()?;
        self.inner.finish(id, score)
    }
    fn lose_on_time(&mut self, id: LogId, loser: Color) -> Result<(), LogError> {
        self.check()?;
        self.inner.lose_on_time(id, loser)
    }
}

#[test]
fn a_failing_database_warns_once_the_game_goes_on_and_catches_up_later() {
    let flaky = Arc::new(Mutex::new(Flaky {
        inner: StoreLog::open(Store::open_in_memory().unwrap()),
        down: false,
    }));
    let mut s = Session::with_log(
        settings(8, "human", "human"),
        Some(LogHandle::new(flaky.clone())),
    );
    play(&mut s, "f5");
    flaky.lock().unwrap().down = true;
    play(&mut s, "d6");
    let warning = s.take_save_warning().unwrap();
    assert_eq!(
        warning.to_string(),
        "the game is not being saved: disk full"
    );
    play(&mut s, "c3");
    assert!(
        s.take_save_warning().is_none(),
        "the same failure warns once"
    );
    assert!(s.save_error().is_some());
    s.undo();
    assert_eq!(s.game().moves().len(), 2);

    flaky.lock().unwrap().down = false;
    play(&mut s, "c5");
    assert!(s.save_error().is_none());
    let id = s.log_id().unwrap();
    let guard = flaky.lock().unwrap();
    let stored = guard
        .inner
        .store()
        .unwrap()
        .load_game(GameId(id.0))
        .unwrap();
    assert_eq!(stored.game, *s.game(), "the record caught up");
}

fn timed(black: &str, white: &str, clock: &str) -> Settings {
    Settings {
        clock: Some(clock.parse().unwrap()),
        ..settings(8, black, white)
    }
}

#[test]
fn a_side_whose_time_runs_out_loses_and_the_history_says_so() {
    let log = memory_log();
    let mut s = Session::with_log(
        timed("human", "human", "200ms"),
        Some(LogHandle::new(log.clone())),
    );
    play(&mut s, "f5");
    // White's clock runs; Black's stopped at what Black left (plus no increment).
    let clocks = s.clocks().unwrap();
    assert_eq!(clocks.running, Some(Color::White));
    assert!(clocks.black <= std::time::Duration::from_millis(200));
    std::thread::sleep(std::time::Duration::from_millis(250));
    let d6 = s.position().parse_square("d6").unwrap();
    assert_eq!(
        s.play(d6),
        Err(reversi_game::PlayError::OutOfTime(Color::White))
    );
    assert!(s.is_over());
    assert_eq!(s.lost_on_time(), Some(Color::White));
    assert_eq!(s.to_move(), None);
    assert_eq!(
        s.result(),
        Some(Score {
            black: 64,
            white: 0
        })
    );
    assert_eq!(s.result_text().unwrap(), "Black wins on time");
    assert_eq!(s.clocks().unwrap().white, std::time::Duration::ZERO);
    assert_eq!(s.clocks().unwrap().running, None);
    assert!(!s.can_undo(), "a loss on time is final");
    assert!(s.computer_turn().is_none());
    let stored = load(&log, s.log_id().unwrap());
    assert_eq!(stored.info.status, Status::Finished);
    assert_eq!(
        stored.info.termination,
        Some(reversi_store::Termination::Time)
    );
    assert_eq!(
        stored.info.score,
        Some(Score {
            black: 64,
            white: 0
        })
    );
    assert_eq!(stored.info.clock, Some("200ms".parse().unwrap()));
    assert_eq!(stored.moves.len(), 1);
}

#[test]
fn the_increment_is_added_and_undo_gives_the_clocks_back() {
    let mut s = Session::new(timed("human", "human", "1m+5s"));
    let start = s.clocks().unwrap();
    assert_eq!(start.running, Some(Color::Black));
    play(&mut s, "f5");
    let after = s.clocks().unwrap();
    // Black spent a few ms and earned 5 s.
    assert!(after.black > start.black + std::time::Duration::from_secs(4));
    play(&mut s, "d6");
    let before_undo = s.clocks().unwrap();
    assert_eq!(s.undo(), 1);
    let undone = s.clocks().unwrap();
    assert_eq!(undone.black, after.black, "Black's clock as it was");
    assert!(undone.white <= start.white);
    assert!(
        before_undo.white > undone.white,
        "White's increment is taken back"
    );
    // Redo replays the move with the time it took then.
    assert_eq!(s.redo(), 1);
    assert_eq!(s.clocks().unwrap().white, before_undo.white);
}

#[test]
fn the_computer_plays_within_its_clock() {
    // Level 20 would think for seconds a move; with 3 s for the game it budgets its time and
    // never loses on time in the opening.
    let mut s = Session::new(timed("ai:20", "human", "3s"));
    for _ in 0..4 {
        computers(&mut s);
        assert_eq!(s.lost_on_time(), None);
        let sq = s.position().legal_moves()[0];
        s.play(sq).unwrap();
    }
    let black = s.clocks().unwrap().black;
    assert!(black > std::time::Duration::ZERO, "{black:?}");
    let budget = s.clock_budget();
    assert!(s.to_move() == Some(Color::Black) && budget.unwrap() < black);
}

#[test]
fn a_timed_game_resumes_with_its_clock() {
    let log = memory_log();
    let handle = LogHandle::new(log.clone());
    let mut s = Session::with_log(timed("human", "human", "10m+2s"), Some(handle));
    play(&mut s, "f5");
    let id = s.log_id().unwrap();
    let black = s.clocks().unwrap().black;
    drop(s);
    let guard = log.lock().unwrap();
    let resumed = resume(
        guard.store().unwrap(),
        GameId(id.0),
        5,
        None,
        Context::system(),
    )
    .unwrap();
    let clocks = resumed.clocks().unwrap();
    assert_eq!(clocks.black, black, "Black's time as it was left");
    assert_eq!(clocks.running, Some(Color::White));
    assert_eq!(resumed.settings().clock, Some("10m+2s".parse().unwrap()));
}
