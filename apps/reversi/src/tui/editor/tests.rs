//! The position editor rendered into a test buffer and driven by keys from the main menu:
//! the whole screen, placing discs, the side and rule, clear and start, pasting every
//! notation, refusals with their reason, and playing from the position set up.

#![allow(clippy::unwrap_used)]

use crossterm::event::KeyCode;
use reversi_core::{BoardSize, Color, Rules};
use reversi_formats::position::{board_string, parse_position};
use reversi_game::{Player, Settings};

use crate::tui::app::Screen;
use crate::tui::testing::{key, keys, lines, text};
use crate::tui::{App, Start, Theme};

fn menu() -> App {
    let settings = Settings {
        white: Player::Human,
        ..Settings::default()
    };
    App::new(Start::Menu(settings), Theme::MONO)
}

/// The editor's board as a board string.
fn board(app: &App) -> String {
    match &app.screen {
        Screen::Editor(e) => board_string(e.position()),
        _ => panic!("the editor is not up:\n{}", text(app)),
    }
}

#[test]
fn the_menu_opens_the_editor_on_the_start_position() {
    let mut app = menu();
    key(&mut app, KeyCode::Char('e'));
    let want = [
        " Set up a position · 8x8 othello",
        "┌───────────────────────────────────┐ X Black    2  ◀ to move",
        "│    a   b   c   d   e   f   g   h  │ O White    2",
        "│ 1  .   .   .   .   .   .   .   .  │",
        "│ 2  .   .   .   .   .   .   .   .  │ Black to move, 4 legal moves",
        "│ 3  .   .   .   *   .   .   .   .  │",
        "│ 4  .   .   *  [O]  X   .   .   .  │ ---------------------------OX------XO----",
        "│ 5  .   .   .   X   O   *   .   .  │ ----------------------- X",
        "│ 6  .   .   .   .   *   .   .   .  │",
        "│ 7  .   .   .   .   .   .   .   .  │",
        "│ 8  .   .   .   .   .   .   .   .  │",
        "└───────────────────────────────────┘",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        " arrows move · x/o/- place · space cycle · t side · r rule",
        " c clear · s start · p paste · Enter play from here · q back",
    ];
    assert_eq!(lines(&app), want);
}

#[test]
fn discs_the_side_and_the_rule_are_set_and_checked_as_they_change() {
    let mut app = menu();
    key(&mut app, KeyCode::Char('e'));
    let start = board(&app);
    // From d4 to a1: an X there is cut off from the centre.
    keys(&mut app, "hhhkkk");
    keys(&mut app, "x");
    assert!(board(&app).starts_with("X---"));
    assert!(
        text(&app).contains("Impossible: the disc on a1 is cut off"),
        "{}",
        text(&app)
    );
    key(&mut app, KeyCode::Enter);
    assert!(
        text(&app).contains("Cannot play from here"),
        "{}",
        text(&app)
    );
    assert!(matches!(app.screen, Screen::Editor(_)), "Enter is refused");
    // Space cycles the square: Black, White, empty.
    key(&mut app, KeyCode::Char(' '));
    assert!(board(&app).starts_with("O---"));
    key(&mut app, KeyCode::Char(' '));
    assert_eq!(board(&app), start);
    key(&mut app, KeyCode::Char('t'));
    assert!(board(&app).ends_with(" O"));
    assert!(
        text(&app).contains("White to move, 4 legal moves"),
        "{}",
        text(&app)
    );
    // Cleared, the Othello rule refuses the empty centre; the Reversi rule starts there.
    key(&mut app, KeyCode::Char('c'));
    assert_eq!(board(&app), format!("{} X", "-".repeat(64)));
    assert!(
        text(&app).contains("Impossible: d4 is empty"),
        "{}",
        text(&app)
    );
    key(&mut app, KeyCode::Char('r'));
    assert!(text(&app).contains("8x8 reversi"), "{}", text(&app));
    assert!(
        text(&app).contains("Black to move, 4 legal moves"),
        "{}",
        text(&app)
    );
    key(&mut app, KeyCode::Char('r'));
    key(&mut app, KeyCode::Char('s'));
    assert_eq!(board(&app), start);
    key(&mut app, KeyCode::Char('q'));
    assert!(matches!(app.screen, Screen::Menu(_)));
}

#[test]
fn pasted_positions_are_read_in_any_notation_and_bad_ones_named() {
    let mut app = menu();
    key(&mut app, KeyCode::Char('e'));
    key(&mut app, KeyCode::Char('p'));
    assert!(
        text(&app).contains("Paste a board and side"),
        "{}",
        text(&app)
    );
    keys(&mut app, "f5d6c3");
    key(&mut app, KeyCode::Enter);
    let f5d6c3 = parse_position("f5d6c3", BoardSize::EIGHT, Rules::Othello).unwrap();
    assert_eq!(board(&app), board_string(f5d6c3.position()));
    assert!(
        !text(&app).contains("Paste a board"),
        "the paste line closes"
    );
    // A 6x6 board string: the editor takes its size.
    key(&mut app, KeyCode::Char('p'));
    keys(&mut app, "--------------OX----XO-------------- O");
    key(&mut app, KeyCode::Enter);
    assert!(text(&app).contains("6x6 othello"), "{}", text(&app));
    assert!(board(&app).ends_with(" O"));
    // A bad paste stays open with the reason; Esc closes it and keeps the board.
    key(&mut app, KeyCode::Char('p'));
    keys(&mut app, "c2c2");
    key(&mut app, KeyCode::Enter);
    assert!(
        text(&app).contains("move 2 (\"c2\"): c2 is already occupied"),
        "{}",
        text(&app)
    );
    assert!(text(&app).contains("Paste a board"));
    key(&mut app, KeyCode::Esc);
    assert!(text(&app).contains("6x6 othello"));
}

#[test]
fn enter_plays_from_the_position_set_up_and_a_finished_one_is_a_finished_game() {
    let mut app = menu();
    key(&mut app, KeyCode::Char('e'));
    key(&mut app, KeyCode::Char('p'));
    keys(&mut app, "f5");
    key(&mut app, KeyCode::Enter);
    let set_up = board(&app);
    key(&mut app, KeyCode::Enter);
    assert!(
        text(&app).contains("New game from the position set up"),
        "{}",
        text(&app)
    );
    assert!(text(&app).contains("White to move (size and rule fixed)"));
    // Size and rule stay as set up.
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Right);
    assert!(
        text(&app).contains("Board size   ◀ 8x8 ▶"),
        "{}",
        text(&app)
    );
    key(&mut app, KeyCode::Enter);
    let game = app.game().expect("the game is up");
    assert_eq!(board_string(game.session.game().start()), set_up);
    assert_eq!(game.session.to_move(), Some(Color::White));

    // A full board: the game is over from the start.
    let mut app = menu();
    key(&mut app, KeyCode::Char('e'));
    key(&mut app, KeyCode::Char('p'));
    keys(&mut app, &format!("{}O X", "X".repeat(63)));
    key(&mut app, KeyCode::Enter);
    assert!(
        text(&app).contains("Finished: Black wins 63-1"),
        "{}",
        text(&app)
    );
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Enter);
    let game = app.game().expect("the game is up");
    assert!(game.session.is_over());
    assert_eq!(game.session.position().size(), BoardSize::EIGHT);
    assert_eq!(game.session.position().rules(), Rules::Othello);
}
