//! The explorer panel on the replay and game screens: shown and hidden by `x`, following the
//! position as the replay steps and the game is played, symmetric games merged.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use crossterm::event::KeyCode;
use reversi_core::{parse_transcript, BoardSize, Position, Rules, Score};
use reversi_store::{GameId, ImportGame, Player, Store};

use crate::tui::testing::{key, keys, text};
use crate::tui::{App, History, Start, Theme};
use reversi_game::{Replay, Settings};

/// Three finished games: two Tigers, one turned half round (c4e3f6e6f5), and f5f6e6f4.
fn database(path: &Path) {
    let mut store = Store::open(path).unwrap();
    let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    for (i, (moves, black)) in [("f5d6c3d3c4", 40), ("c4e3f6e6f5", 30), ("f5f6e6f4", 14)]
        .into_iter()
        .enumerate()
    {
        let game = parse_transcript(moves, start.clone()).unwrap();
        let score = Score {
            black,
            white: 64 - black,
        };
        let import = ImportGame::from_game(
            &game,
            Player::human(&format!("p{i}")),
            Player::human("q"),
            Some(score),
        );
        store.import_games(&[import], &mut |_| {}).unwrap();
    }
}

fn history(path: &Path) -> History {
    History {
        db: Some(path.to_path_buf()),
        log: None,
    }
}

#[test]
fn the_replay_shows_the_explorer_of_each_position_on_x() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    database(&path);
    let replay = Replay::new(Store::open(&path).unwrap().load_game(GameId(1)).unwrap());
    let mut app = App::with_history(Start::Replay(Box::new(replay)), Theme::MONO, history(&path));
    assert!(!text(&app).contains("Explorer"));
    key(&mut app, KeyCode::Char('x'));
    let screen = text(&app);
    assert!(screen.contains("Explorer: 3 games (x: hide)"), "{screen}");
    assert!(screen.contains("x: explorer"), "{screen}");
    // One step on, after f5: d6 twice (the turned game's e3 is the same move), f6 once.
    key(&mut app, KeyCode::Right);
    let screen = text(&app);
    assert!(
        screen.contains("move  games  Black  draw margin book"),
        "{screen}"
    );
    assert!(
        screen.contains("d6        2  50.0%  0.0%   +6.0   +0"),
        "{screen}"
    );
    assert!(
        screen.contains("f6        1   0.0%  0.0%  -36.0"),
        "{screen}"
    );
    // At the end of the game, past the stored lines.
    key(&mut app, KeyCode::End);
    let screen = text(&app);
    assert!(screen.contains("Explorer: 0 games"), "{screen}");
    assert!(screen.contains("No stored game reached this."), "{screen}");
    key(&mut app, KeyCode::Char('x'));
    assert!(!text(&app).contains("Explorer"));
}

#[test]
fn the_game_screen_shows_the_explorer_as_the_game_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    database(&path);
    let settings = Settings {
        black: "human".parse().unwrap(),
        white: "human".parse().unwrap(),
        ..Settings::default()
    };
    let mut app = App::with_history(Start::Game(settings), Theme::MONO, history(&path));
    key(&mut app, KeyCode::Char('x'));
    assert!(text(&app).contains("Explorer: 3 games"), "{}", text(&app));
    // Black plays c4, the half turn of f5: the same games, the moves turned (d6 → e3).
    keys(&mut app, "c4");
    key(&mut app, KeyCode::Enter);
    let screen = text(&app);
    assert!(screen.contains("e3        2  50.0%"), "{screen}");
    assert!(screen.contains("c3        1"), "{screen}");
    key(&mut app, KeyCode::Char('x'));
    assert!(!text(&app).contains("Explorer"));
}

#[test]
fn without_a_database_the_panel_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.sqlite3");
    let settings = Settings {
        black: "human".parse().unwrap(),
        white: "human".parse().unwrap(),
        ..Settings::default()
    };
    let mut app = App::with_history(Start::Game(settings), Theme::MONO, history(&path));
    key(&mut app, KeyCode::Char('x'));
    assert!(text(&app).contains("No game database."), "{}", text(&app));
    assert!(!path.exists());
}
