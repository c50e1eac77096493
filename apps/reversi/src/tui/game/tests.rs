//! Whole screens rendered into a test buffer, and games driven by key events.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::style::Color as Tint;
use ratatui::Terminal;
use reversi_core::{BoardSize, Rules, Square};

use super::GameScreen;
use crate::tui::testing::{buffer, key, keys, lines, text};
use crate::tui::{App, Start, Theme};
use reversi_game::{result_line, Player, Session, Settings};

fn settings(size: u8, black: &str, white: &str) -> Settings {
    Settings {
        size: BoardSize::new(size).unwrap(),
        rules: Rules::Othello,
        black: black.parse().unwrap(),
        white: white.parse().unwrap(),
        seed: 1,
        clock: None,
    }
}

/// Waits for the computer and the hints to finish.
fn settle(app: &mut App) {
    for _ in 0..100_000 {
        app.pump();
        let busy = app
            .game()
            .is_some_and(|g| g.is_thinking() || g.is_hinting());
        if !busy {
            return;
        }
        app.wait(Duration::from_millis(100));
    }
    panic!("the computer never finished");
}

fn game(app: &App) -> &GameScreen {
    app.game().expect("a game is up")
}

fn sq(name: &str, n: u8) -> Square {
    Square::parse(name, BoardSize::new(n).unwrap()).unwrap()
}

#[test]
fn the_start_of_a_4x4_game_without_colour() {
    let app = App::new(Start::Game(settings(4, "human", "human")), Theme::MONO);
    let l = lines(&app);
    assert_eq!(l[0], " Reversi 4x4 othello · Black vs White");
    assert_eq!(
        &l[1..8],
        [
            "┌───────────────────┐ ▶ X Black                  2",
            "│    a   b   c   d  │   O White                  2",
            "│ 1  .  [*]  .   .  │ Move 1 · Black to move",
            "│ 2  *   O   X   .  │",
            "│ 3  .   X   O   *  │",
            "│ 4  .   .   *   .  │",
            "└───────────────────┘",
        ]
    );
    assert!(l[23].starts_with(" arrows/hjkl move · Enter play"));
}

#[test]
fn a_move_marks_itself_the_flipped_disc_and_the_replies() {
    let mut app = App::new(Start::Game(settings(4, "human", "human")), Theme::MONO);
    // The cursor starts on b1, the first legal square.
    key(&mut app, KeyCode::Enter);
    let l = lines(&app);
    // The cursor stays on b1 (it hides the last move's parentheses); b2 was flipped; White's
    // replies are marked.
    assert_eq!(
        &l[3..7],
        [
            "│ 1  *  [X]  *   .  │ Move 2 · White to move",
            "│ 2  .   x   X   .  │ Last: Black b1, flipped b2",
            "│ 3  *   X   O   .  │",
            "│ 4  .   .   .   .  │",
        ]
    );
    let legal = game(&app).session.position().legal_moves();
    assert_eq!(legal, [sq("a1", 4), sq("c1", 4), sq("a3", 4)]);
    key(&mut app, KeyCode::Down);
    assert_eq!(
        lines(&app)[3],
        "│ 1  *  (X)  *   .  │ Move 2 · White to move"
    );
    // Move assist off hides the marks.
    key(&mut app, KeyCode::Char('v'));
    assert_eq!(
        lines(&app)[3],
        "│ 1  .  (X)  .   .  │ Move 2 · White to move"
    );
}

#[test]
fn colour_mode_uses_round_discs_and_tints() {
    let app = App::new(Start::Game(settings(8, "human", "human")), Theme::COLOUR);
    let l = lines(&app);
    assert!(l[6].contains("○   ●"), "{}", l[6]);
    let buf = buffer(&app);
    // d4 holds a white disc on a green board.
    let cell = &buf[(1 + 3 + 3 * 4 + 1, 2 + 4)];
    assert_eq!(cell.symbol(), "○");
    assert_eq!(cell.bg, Tint::Green);
    let mono = buffer(&App::new(
        Start::Game(settings(8, "human", "human")),
        Theme::MONO,
    ));
    let cell = &mono[(1 + 3 + 3 * 4 + 1, 2 + 4)];
    assert_eq!(cell.symbol(), "O");
    assert_eq!(cell.bg, Tint::Reset);
}

#[test]
fn a_16x16_board_fits_80x24() {
    let app = App::new(Start::Game(settings(16, "human", "human")), Theme::MONO);
    let l = lines(&app);
    assert_eq!(
        l[2],
        "│    a b c d e f g h i j k l m n o p│   O White                  2"
    );
    assert!(
        l[18].starts_with("│16  . . . . . . . . . . . . . . . .│"),
        "{}",
        l[18]
    );
    assert!(l[19].starts_with("└"));
}

#[test]
fn typed_squares_are_played_and_bad_ones_explained() {
    let mut app = App::new(Start::Game(settings(8, "human", "human")), Theme::MONO);
    keys(&mut app, "a9");
    key(&mut app, KeyCode::Enter);
    assert_eq!(game(&app).session.game().moves().len(), 0);
    assert!(text(&app).contains("! a9 is off the 8x8 board (a1 to h8)"));
    keys(&mut app, "a1");
    assert!(text(&app).contains("Square: a1_"));
    key(&mut app, KeyCode::Enter);
    assert!(text(&app).contains("! a1 flips no disc"), "{}", text(&app));
    keys(&mut app, "f5");
    key(&mut app, KeyCode::Enter);
    assert_eq!(game(&app).session.game().moves().len(), 1);
    assert!(text(&app).contains("Last: Black f5, flipped e5"));
    // hjkl move the cursor even on columns named h.
    let before = game(&app).cursor;
    key(&mut app, KeyCode::Char('l'));
    assert_eq!(game(&app).cursor.col(), before.col() + 1);
    key(&mut app, KeyCode::Char('h'));
    assert_eq!(game(&app).cursor, before);
}

#[test]
fn the_panel_names_the_opening_line_followed() {
    let mut app = App::new(Start::Game(settings(8, "human", "human")), Theme::MONO);
    for square in ["f5", "d6", "c3", "d3", "c4"] {
        keys(&mut app, square);
        key(&mut app, KeyCode::Enter);
    }
    let l = lines(&app);
    assert_eq!(
        &l[1..8],
        [
            "┌───────────────────────────────────┐   X Black                  6",
            "│    a   b   c   d   e   f   g   h  │ ▶ O White                  3",
            "│ 1  .   .   .   .   .   .   .   .  │ Move 6 · White to move",
            "│ 2  .   .   .   .   .   .   .   .  │ Last: Black c4, flipped d4",
            "│ 3  .   *   X   O   .   *   .   .  │ Opening: Tiger",
            "│ 4  .   .  [X]  x   X   *   .   .  │",
            "│ 5  .   *   .   O   X   X   *   .  │",
        ]
    );
    // Off the named lines, the last name stays; taking moves back goes back to a shorter one.
    keys(&mut app, "f4");
    key(&mut app, KeyCode::Enter);
    assert!(text(&app).contains("Opening: Tiger"), "{}", text(&app));
    key(&mut app, KeyCode::Char('u'));
    key(&mut app, KeyCode::Char('u'));
    assert!(
        text(&app).contains("Opening: Perpendicular Opening"),
        "{}",
        text(&app)
    );
}

#[test]
fn hints_show_exact_scores_on_their_squares() {
    let mut app = App::new(Start::Game(settings(4, "human", "ai:greedy")), Theme::MONO);
    key(&mut app, KeyCode::Char('t'));
    settle(&mut app);
    let g = game(&app);
    let hints = &g.hints.as_ref().unwrap().candidates;
    assert_eq!(hints.len(), 4);
    let label = hints[0].short_score();
    let l = lines(&app);
    // b1 (under the cursor), a2, d3 and c4 carry the score, right-aligned in their cells.
    let cell = |row: usize, col: usize| {
        let chars: Vec<char> = l[2 + row].chars().collect();
        chars[4 + 4 * col..8 + 4 * col]
            .iter()
            .collect::<String>()
            .trim()
            .to_string()
    };
    for (row, col) in [(1, 1), (2, 0), (3, 3), (4, 2)] {
        assert_eq!(cell(row, col), label, "{l:?}");
    }
    assert!(text(&app).contains("Hints (exact)"));
    // A move makes the hints stale: they go.
    key(&mut app, KeyCode::Enter);
    settle(&mut app);
    assert!(!text(&app).contains("Hints"));
}

/// Human choices on a 4x4 board against greedy White that lead to a pass, found by playing
/// the games out.
fn line_with_a_pass() -> Vec<Square> {
    fn search(s: &Session, line: &mut Vec<Square>) -> bool {
        let stop = AtomicBool::new(false);
        let mut s = s.clone();
        loop {
            if s.is_over() {
                return false;
            }
            if s.must_pass() {
                return true;
            }
            let Some(turn) = s.computer_turn() else { break };
            let ply = turn.ply;
            let d = turn.run(&stop, &mut |_| {}).unwrap();
            s.play_computer(ply, d.mv).unwrap();
        }
        for m in s.position().legal_moves() {
            let mut next = s.clone();
            next.play(m).unwrap();
            line.push(m);
            if search(&next, line) {
                return true;
            }
            line.pop();
        }
        false
    }
    let mut line = Vec::new();
    assert!(search(
        &Session::new(settings(4, "human", "ai:greedy")),
        &mut line
    ));
    line
}

/// Moves the cursor onto `target` with arrow keys.
fn walk_to(app: &mut App, target: Square) {
    let cur = game(app).cursor;
    let (dc, dr) = (
        i16::from(target.col()) - i16::from(cur.col()),
        i16::from(target.row()) - i16::from(cur.row()),
    );
    let h = if dc < 0 {
        KeyCode::Left
    } else {
        KeyCode::Right
    };
    let v = if dr < 0 { KeyCode::Up } else { KeyCode::Down };
    for _ in 0..dc.abs() {
        key(app, h);
    }
    for _ in 0..dr.abs() {
        key(app, v);
    }
    assert_eq!(game(app).cursor, target);
}

#[test]
fn a_whole_game_against_the_computer_by_keys_with_a_pass_and_a_return_game() {
    let line = line_with_a_pass();
    let mut app = App::new(Start::Game(settings(4, "human", "ai:greedy")), Theme::MONO);
    key(&mut app, KeyCode::Char('w'));
    let mut seen_pass = false;
    let mut seen_thinking = false;
    let mut i = 0;
    for _ in 0..200 {
        settle(&mut app);
        let s = &game(&app).session;
        if s.is_over() {
            break;
        }
        if s.must_pass() {
            let screen = text(&app);
            assert!(
                screen.contains("has no legal move and must pass."),
                "{screen}"
            );
            assert!(screen.contains("Enter: acknowledge the pass"), "{screen}");
            seen_pass = true;
            key(&mut app, KeyCode::Enter);
            assert!(text(&app).contains("passed"));
            continue;
        }
        if game(&app)
            .watch
            .as_ref()
            .is_some_and(|w| w.played.is_some())
        {
            let screen = text(&app);
            assert!(screen.contains("White (ai:greedy) played"), "{screen}");
            assert!(screen.contains("(flips)"), "{screen}");
            seen_thinking = true;
        }
        // Follow the line with a pass, then the first legal move; alternate arrows and typing.
        let target = line
            .get(i)
            .copied()
            .unwrap_or_else(|| s.position().legal_moves()[0]);
        if i % 2 == 0 {
            walk_to(&mut app, target);
        } else {
            keys(&mut app, &target.to_string());
        }
        key(&mut app, KeyCode::Char(' '));
        i += 1;
    }
    assert!(seen_pass && seen_thinking);
    let score = game(&app).session.result().expect("the game ended");
    let screen = text(&app);
    assert!(
        screen.contains(&format!("GAME OVER: {}", result_line(score))),
        "{screen}"
    );
    assert!(screen.contains("n or Enter: play again (colours swapped)"));

    // Undo after the end goes back to the last turn of the person.
    key(&mut app, KeyCode::Char('u'));
    assert!(game(&app).session.is_human_turn());
    key(&mut app, KeyCode::Char('r'));
    assert!(game(&app).session.is_over());

    key(&mut app, KeyCode::Char('n'));
    settle(&mut app);
    let s = &game(&app).session;
    assert_eq!(
        s.settings().black,
        Player::Computer(reversi_players::Ai::Greedy)
    );
    assert_eq!(s.settings().white, Player::Human);
    assert_eq!(
        s.game().moves().len(),
        1,
        "the computer opened the return game"
    );
    assert!(lines(&app)[0].contains("Black (ai:greedy) vs White (you)"));
    key(&mut app, KeyCode::Char('q'));
    assert!(app.game().is_none());
    assert!(text(&app).contains("New game"));
}

#[test]
fn the_menu_leads_to_a_new_game_and_help() {
    let mut app = App::new(Start::Menu(Settings::default()), Theme::MONO);
    let screen = text(&app);
    assert!(
        screen.contains("New game (n)") && screen.contains("Quit (q)"),
        "{screen}"
    );
    // New game, Set up a position, History, Help, Quit.
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Enter);
    assert!(text(&app).contains("Keys"));
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('n'));
    let screen = text(&app);
    assert!(screen.contains("Board size   ◀ 8x8 ▶"), "{screen}");
    // Size 6, Reversi rules, White a greedy computer, a one-minute clock.
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    // human, beginner … hard (the default), strong … perfect, greedy, random: one step past
    // the named levels above the default.
    let default_at = reversi_engine::levels::Level::NAMED
        .iter()
        .position(|&(_, l)| l == reversi_engine::levels::Level::DEFAULT)
        .unwrap();
    for _ in default_at..reversi_engine::levels::Level::NAMED.len() {
        key(&mut app, KeyCode::Right);
    }
    let screen = text(&app);
    assert!(
        screen.contains("White        ◀ computer, greedy ▶"),
        "{screen}"
    );
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Right);
    let screen = text(&app);
    assert!(screen.contains("Clock        ◀ 1m each"), "{screen}");
    key(&mut app, KeyCode::Enter);
    let s = &game(&app).session;
    assert_eq!(s.settings().clock, Some("1m".parse().unwrap()));
    assert!(text(&app).contains("1:00"), "the clocks show");
    assert_eq!(s.settings().size, BoardSize::SIX);
    assert_eq!(s.settings().rules, Rules::Reversi);
    assert_eq!(
        s.settings().white,
        Player::Computer(reversi_players::Ai::Greedy)
    );
    // ? shows the keys over the game; any key brings the game back.
    key(&mut app, KeyCode::Char('?'));
    assert!(text(&app).contains("stop the computer"));
    key(&mut app, KeyCode::Char('x'));
    assert!(text(&app).contains("Reversi 6x6 reversi"));
    app.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.quit);
}

#[test]
fn the_computer_can_be_stopped_and_plays_at_once() {
    // negascout-tt to depth 20 on 8x8 takes far longer than this test: only the stop ends it.
    let mut app = App::new(
        Start::Game(settings(8, "ai:negascout-tt:20", "human")),
        Theme::MONO,
    );
    assert!(game(&app).is_thinking());
    assert!(text(&app).contains("Black is thinking…"));
    key(&mut app, KeyCode::Char('s'));
    settle(&mut app);
    assert_eq!(game(&app).session.game().moves().len(), 1);
    assert!(game(&app).session.is_human_turn());
}

#[test]
fn the_screen_draws_through_a_terminal_backend() {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let app = App::new(Start::Game(settings(8, "human", "human")), Theme::MONO);
    terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
    let buf = terminal.backend().buffer();
    let row: String = (0..80).map(|x| buf[(x, 6)].symbol()).collect();
    assert!(
        row.starts_with("│ 4  .   .   *   O   X   .   .   .  │"),
        "{row}"
    );
    let row: String = (0..80).map(|x| buf[(x, 5)].symbol()).collect();
    assert!(
        row.starts_with("│ 3  .   .   .  [*]  .   .   .   .  │"),
        "{row}"
    );
}
