//! The history and replay screens rendered into a test buffer and driven by keys: the list,
//! replay stepping, leaving back to the list, delete with its confirmation, and resuming.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use crossterm::event::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use reversi_core::{BoardSize, Game, Position, Rules};
use reversi_store::{GameId, MoveRecord, NewGame, Player, Status, Store};

use crate::tui::app::Screen;
use crate::tui::testing::{key, lines, text};
use crate::tui::{App, History, Start, Theme};
use reversi_game::Replay;
use reversi_store::StoreLog;

/// A database with a finished 4x4 game (first legal move each turn), then an 8x8 game in
/// progress after f5 d6 c3 between Ann and the computer at level `easy`.
fn database(path: &Path) -> (GameId, GameId) {
    let mut store = Store::open(path).unwrap();
    let new = NewGame {
        started_at: Some("2026-01-02T10:00:00Z".into()),
        ..NewGame::standard(
            BoardSize::FOUR,
            Rules::Othello,
            Player::human("Bob"),
            Player::human("Cy"),
        )
    };
    let finished = store.create_game(&new).unwrap();
    let mut game = Game::new(Position::start(BoardSize::FOUR, Rules::Othello));
    while !game.is_over() {
        let mv = game.current().moves()[0];
        game.play(mv).unwrap();
        store.append_move(finished, &MoveRecord::bare(mv)).unwrap();
    }
    store.finish_game(finished, game.score().unwrap()).unwrap();

    let new = NewGame {
        started_at: Some("2026-03-04T10:00:00Z".into()),
        ..NewGame::standard(
            BoardSize::EIGHT,
            Rules::Othello,
            Player::human("Ann"),
            Player::computer("reversi", "easy"),
        )
    };
    let open = store.create_game(&new).unwrap();
    for (i, m) in ["f5", "d6", "c3"].iter().enumerate() {
        let sq = new.start_position().parse_square(m).unwrap();
        let rec = MoveRecord {
            mv: reversi_core::Move::Play(sq),
            time_ms: Some(2000),
            eval: (i == 1).then_some(3.0),
        };
        store.append_move(open, &rec).unwrap();
    }
    (finished, open)
}

fn app(path: &Path) -> App {
    let history = History {
        db: Some(path.to_path_buf()),
        log: Some(StoreLog::handle(path)),
    };
    App::with_history(
        Start::Menu(reversi_game::Settings::default()),
        Theme::MONO,
        history,
    )
}

#[test]
fn the_list_shows_games_newest_first_and_replays_one_back_and_forth() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let (finished, open) = database(&db);
    let mut app = app(&db);
    assert!(text(&app).contains("History (h)"), "{}", text(&app));
    key(&mut app, KeyCode::Char('h'));
    let screen = lines(&app);
    assert_eq!(screen[0], " History · 2 games");
    assert!(screen[1].contains("id  date") && screen[1].contains("players"));
    assert_eq!(
        screen[2],
        format!(
            "▶     {open}  2026-03-04  Ann vs reversi        8x8 othello    in progress (3 moves)"
        )
    );
    assert!(screen[3].starts_with(&format!("      {finished}  2026-01-02  Bob vs Cy")));
    assert!(screen[3].contains("4x4 othello"), "{}", screen[3]);
    assert!(screen[3].contains("wins") || screen[3].contains("Draw"));

    // Replay the game in progress: the start, then step by step.
    key(&mut app, KeyCode::Enter);
    let t = text(&app);
    assert!(
        t.contains(&format!(
            "Replay of game {open} · 8x8 othello · Ann vs reversi (level easy)"
        )),
        "{t}"
    );
    assert!(t.contains("Move 0 of 3"), "{t}");
    assert!(t.contains("Start position"), "{t}");
    key(&mut app, KeyCode::Right);
    assert!(!text(&app).contains("Opening:"), "{}", text(&app));
    key(&mut app, KeyCode::Char('l'));
    let t = text(&app);
    assert!(t.contains("Move 2 of 3"), "{t}");
    assert!(t.contains("White d6, flipped d5 (2.0 s, eval +3)"), "{t}");
    // f5 d6 is a named line; the panel says so under the move.
    assert_eq!(
        lines(&app)[1..7],
        [
            "┌───────────────────────────────────┐ X Ann                      3",
            "│    a   b   c   d   e   f   g   h  │ O reversi (level easy)     3",
            "│ 1  .   .   .   .   .   .   .   .  │ Move 2 of 3",
            "│ 2  .   .   .   .   .   .   .   .  │ White d6, flipped d5 (2.0 s, eval +3)",
            "│ 3  .   .   .   .   .   .   .   .  │ Opening: Perpendicular Opening",
            "│ 4  .   .   .   O   X   .   .   .  │ Result: in progress, White to move",
        ],
        "{t}"
    );
    assert!(t.contains("Ann"), "{t}");
    // The board marks the last move and the flipped disc (lower case without colours).
    let row = |n: &str| {
        lines(&app)
            .into_iter()
            .find(|l| l.starts_with(&format!("│ {n}")))
            .unwrap()
    };
    assert!(row("6").contains("(O)"), "{}", row("6"));
    assert!(row("5").contains(" o "), "{}", row("5"));
    key(&mut app, KeyCode::Char('h'));
    assert!(text(&app).contains("Move 1 of 3"));
    key(&mut app, KeyCode::End);
    assert!(text(&app).contains("Move 3 of 3"));
    assert!(text(&app).contains("Result: in progress, White to move"));
    key(&mut app, KeyCode::Home);
    assert!(text(&app).contains("Move 0 of 3"));
    key(&mut app, KeyCode::Char('2'));
    assert!(text(&app).contains("Go to move: 2_"));
    key(&mut app, KeyCode::Enter);
    assert!(text(&app).contains("Move 2 of 3"));

    // q goes back to the list, the same game still selected.
    key(&mut app, KeyCode::Char('q'));
    assert!(matches!(app.screen, Screen::History(_)));
    assert!(lines(&app)[2].starts_with('▶'));
    key(&mut app, KeyCode::Char('q'));
    assert!(matches!(app.screen, Screen::Menu(_)));
}

#[test]
fn delete_asks_first_and_only_y_deletes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let (finished, open) = database(&db);
    let mut app = app(&db);
    key(&mut app, KeyCode::Char('h'));
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Char('d'));
    assert!(
        text(&app).contains(&format!("Delete game {finished}? y/n")),
        "{}",
        text(&app)
    );
    key(&mut app, KeyCode::Char('n'));
    assert!(text(&app).contains(&format!("Game {finished} kept")));
    assert!(text(&app).contains("History · 2 games"));

    key(&mut app, KeyCode::Char('d'));
    key(&mut app, KeyCode::Char('y'));
    let t = text(&app);
    assert!(t.contains(&format!("Game {finished} deleted")), "{t}");
    assert!(t.contains("History · 1 games"), "{t}");
    // The selection moved onto the game left.
    assert!(lines(&app)[2].starts_with(&format!("▶     {open}")));
    let store = Store::open(&db).unwrap();
    assert!(store.game_info(finished).is_err());
    assert!(store.game_info(open).is_ok());
}

#[test]
fn a_game_in_progress_resumes_and_its_moves_are_saved() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let (finished, open) = database(&db);
    let mut app = app(&db);
    key(&mut app, KeyCode::Char('h'));
    // A finished game cannot be continued.
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Char('c'));
    assert!(text(&app).contains(&format!("Game {finished} has ended")));
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Char('c'));
    let game = app.game().unwrap();
    assert_eq!(game.session.game().moves().len(), 3);
    assert_eq!(game.session.log_id().map(|i| i.0), Some(open.0));
    // White (the computer) is to move: let it play, then the move is in the record.
    for _ in 0..1000 {
        app.pump();
        if !app.game().unwrap().is_thinking() {
            break;
        }
        app.wait(std::time::Duration::from_millis(50));
    }
    let moves = app.game().unwrap().session.game().moves().len();
    assert_eq!(moves, 4);
    assert!(
        text(&app).contains(&format!("Saved as game {open}")),
        "{}",
        text(&app)
    );
    let stored = Store::open(&db).unwrap().load_game(open).unwrap();
    assert_eq!(stored.game.moves().len(), 4);
    assert_eq!(stored.info.status, Status::InProgress);
    assert!(stored.moves[3].time_ms.is_some());
}

#[test]
fn an_empty_history_says_so_and_a_direct_replay_quits_on_q() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("none.sqlite3");
    let mut app = app(&db);
    key(&mut app, KeyCode::Char('h'));
    assert!(text(&app).contains("No games yet in"), "{}", text(&app));
    assert!(!db.exists(), "looking at the history creates no database");

    database(&db);
    let store = Store::open(&db).unwrap();
    let replay = Replay::new(store.load_game(GameId(1)).unwrap());
    let mut app = App::new(Start::Replay(Box::new(replay)), Theme::MONO);
    // Drawn through a terminal as the program draws it.
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
    let shown: String = terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect();
    assert!(shown.contains("Replay of game 1 · 4x4 othello · Bob vs Cy"));
    key(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
}

/// A regression test: an imported name's control characters reached the screen (ratatui
/// drops a bare escape, but not the rest of its sequence, nor a right-to-left override).
#[test]
fn names_from_a_file_are_shown_escaped_in_the_list_and_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let mut store = Store::open(&db).unwrap();
    let game = Game::new(Position::start(BoardSize::FOUR, Rules::Othello));
    let import = reversi_store::ImportGame::from_game(
        &game,
        Player::human("\u{1b}[31mEve\u{202e}"),
        Player::human("Cy"),
        Some(reversi_core::Score { black: 9, white: 7 }),
    );
    store.import_games(&[import], &mut |_| {}).unwrap();
    drop(store);
    let mut app = app(&db);
    key(&mut app, KeyCode::Char('h'));
    let t = text(&app);
    assert!(!t.contains('\u{202e}'), "{t}");
    assert!(t.contains(r"\u{1b}[31mEve\u{202…"), "{t}");
    key(&mut app, KeyCode::Enter);
    let t = text(&app);
    assert!(!t.contains('\u{202e}'), "{t}");
    assert!(t.contains(r"\u{1b}[31mEve\u{202e} vs Cy"), "{t}");
}
