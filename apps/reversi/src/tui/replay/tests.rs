//! The replay screen's variations driven by keys: a square chosen and played makes a
//! variation, further moves grow it, the computer plays in it, the move list marks where lines
//! part, v and b go round the lines, and everything is in the database at once.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::time::Duration;

use crossterm::event::KeyCode;
use reversi_core::{BoardSize, Move, Position, Rules};
use reversi_store::{GameId, MoveRecord, NewGame, Player, Store};

use crate::tui::app::Screen;
use crate::tui::testing::{key, keys, lines, text};
use crate::tui::{App, History, Start, Theme};
use reversi_game::Replay;

/// A database with one 8x8 game in progress after f5 d6 c3; its id.
fn database(path: &Path) -> GameId {
    database_with(path, 3, |ply, pos| {
        Move::Play(pos.parse_square(["f5", "d6", "c3"][ply]).unwrap())
    })
}

/// A database with one 8x8 game of `plies` moves, each chosen by `choose` from its ply and
/// position; its id.
fn database_with(
    path: &Path,
    plies: usize,
    mut choose: impl FnMut(usize, &Position) -> Move,
) -> GameId {
    let mut store = Store::open(path).unwrap();
    let new = NewGame::standard(
        BoardSize::EIGHT,
        Rules::Othello,
        Player::human("Ann"),
        Player::human("Ben"),
    );
    let id = store.create_game(&new).unwrap();
    let mut pos = new.start_position();
    for ply in 0..plies {
        let mv = choose(ply, &pos);
        store.append_move(id, &MoveRecord::bare(mv)).unwrap();
        pos = pos.play(mv).unwrap();
    }
    id
}

/// Waits up to a minute for the replay's analysis to be shown.
fn wait_for_analysis(app: &mut App) {
    for _ in 0..1200 {
        app.pump();
        if text(app).contains("Analysis at level") {
            return;
        }
        app.wait(Duration::from_millis(50));
    }
}

/// The replay of game `id` as `reversi history replay` opens it.
fn replay_app(path: &Path, id: GameId) -> App {
    let mut history = reversi_store::History::at(path);
    let replay: Replay = history.replay(id).unwrap();
    let db = History {
        db: Some(path.to_path_buf()),
        log: None,
    };
    App::with_history(Start::Replay(Box::new(replay)), Theme::MONO, db)
}

fn replay(app: &App) -> &Replay {
    match &app.screen {
        Screen::Replay(r, _) => &r.replay,
        _ => panic!("not on the replay screen"),
    }
}

/// The panel's row that starts with `start`.
fn row(app: &App, start: &str) -> String {
    lines(app)
        .iter()
        .filter_map(|l| l.split_once('│').map(|(_, rest)| rest.to_string()))
        .filter_map(|l| l.split_once('│').map(|(_, panel)| panel.trim().to_string()))
        .find(|p| p.starts_with(start))
        .unwrap_or_else(|| panic!("no {start:?} in\n{}", text(app)))
}

#[test]
fn a_square_played_in_a_replay_makes_a_variation_kept_in_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let id = database(&db);
    let mut app = replay_app(&db, id);
    assert!(!text(&app).contains("Line:"), "no variations yet");

    // After f5, choose a square: the cursor starts on White's first legal square, f4.
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Char('p'));
    let t = text(&app);
    assert!(t.contains("Enter: play it"), "{t}");
    assert!(
        lines(&app)
            .iter()
            .any(|l| l.starts_with("│ 4") && l.contains("[*]")),
        "{t}"
    );
    key(&mut app, KeyCode::Enter);
    assert_eq!(row(&app, "Line:"), "Line: variation 1 from move 2");
    assert!(text(&app).contains("White played f4: variation 1 from move 2"));
    assert_eq!(row(&app, "Move "), "Move 2 of 2");
    // Still choosing: Black's first legal square (c3), played at the variation's end.
    key(&mut app, KeyCode::Enter);
    assert_eq!(row(&app, "Move "), "Move 3 of 3");
    assert_eq!(row(&app, "Line:"), "Line: variation 1 from move 2");
    key(&mut app, KeyCode::Esc);
    assert!(text(&app).contains("p play"), "{}", text(&app));

    // The computer plays the next move in the background.
    key(&mut app, KeyCode::Char('c'));
    assert!(text(&app).contains("is thinking"), "{}", text(&app));
    for _ in 0..600 {
        app.pump();
        if replay(&app).len() == 4 {
            break;
        }
        app.wait(Duration::from_millis(50));
    }
    assert_eq!(row(&app, "Move "), "Move 4 of 4");
    assert!(text(&app).contains("White played"), "{}", text(&app));

    // Saved as made: the database has the variation's four moves.
    let store = Store::open(&db).unwrap();
    let kept = store.variations(id).unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!((kept[0].parent, kept[0].from_ply), (None, 1));
    assert_eq!(kept[0].moves.len(), 3);
    assert_eq!(kept[0].moves[0].to_string(), "f4");

    // b goes back to the main line where the variation leaves it; move 2 is marked there.
    key(&mut app, KeyCode::Char('b'));
    assert_eq!(row(&app, "Line:"), "Line: main line");
    assert_eq!(row(&app, "Move "), "Move 1 of 3");
    assert_eq!(row(&app, "Here:"), "Here: d6 main, f4 var 1 (v: next)");
    assert!(text(&app).contains("1.f5 2.d6* 3.c3"), "{}", text(&app));
    key(&mut app, KeyCode::Char('b'));
    assert!(text(&app).contains("This is the main line"));
    // v goes round the lines here.
    key(&mut app, KeyCode::Char('v'));
    assert_eq!(row(&app, "Line:"), "Line: variation 1 from move 2");
    assert!(text(&app).contains("1.f5 2.f4* 3.c3 4."), "{}", text(&app));
    key(&mut app, KeyCode::Char('v'));
    assert_eq!(row(&app, "Line:"), "Line: main line");

    // Playing the variation's move again follows it: no second variation.
    keys(&mut app, "p");
    key(&mut app, KeyCode::Enter);
    assert_eq!(row(&app, "Line:"), "Line: variation 1 from move 2");
    assert_eq!(Store::open(&db).unwrap().variations(id).unwrap().len(), 1);

    // A new replay of the game shows the variation.
    let mut again = replay_app(&db, id);
    key(&mut again, KeyCode::Right);
    assert_eq!(row(&again, "Here:"), "Here: d6 main, f4 var 1 (v: next)");
}

#[test]
fn a_replay_without_a_database_cannot_branch_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let id = database(&db);
    let stored = Store::open(&db).unwrap().load_game(id).unwrap();
    let mut app = App::new(Start::Replay(Box::new(Replay::new(stored))), Theme::MONO);
    key(&mut app, KeyCode::Char('p'));
    key(&mut app, KeyCode::Enter);
    assert!(
        text(&app).contains("! No game database here to keep a"),
        "{}",
        text(&app)
    );
    assert_eq!(replay(&app).lines().len(), 1);
}

#[test]
fn a_replay_analyses_its_game_in_the_background_and_rates_each_side() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    // A game of 24 moves, each the last legal square, so that each side has moves to rate
    // after the opening's eight.
    let id = database_with(&db, 24, |_, pos| *pos.moves().last().unwrap());
    let mut app = replay_app(&db, id);
    keys(&mut app, "a");
    assert!(text(&app).contains("Analysing the game"), "{}", text(&app));
    // Stepping through the game goes on while it is analysed.
    key(&mut app, KeyCode::Right);
    assert_eq!(row(&app, "Move "), "Move 1 of 24");
    wait_for_analysis(&mut app);
    let t = text(&app);
    assert!(t.contains("Analysis at level"), "{t}");
    // The move shown against the best, each side's loss, and a rating for each side.
    assert!(row(&app, "Move 1:").starts_with("Move 1: e6"), "{t}");
    assert!(t.contains("Black lost "), "{t}");
    assert!(t.contains("White lost "), "{t}");
    let ratings = |app: &App| -> Vec<String> {
        lines(app)
            .into_iter()
            .filter_map(|l| l.split_once("plays like ").map(|(_, r)| r.to_string()))
            .collect()
    };
    assert_eq!(ratings(&app).len(), 2, "{t}");
    assert!(t.contains("One game says little"), "{t}");
    // The same game analysed again in another replay says the same (its own table: what
    // the first analysis searched does not change it).
    let first = ratings(&app);
    let mut again = replay_app(&db, id);
    keys(&mut again, "a");
    wait_for_analysis(&mut again);
    assert_eq!(ratings(&again), first);
}
