//! Scripted GTP sessions, in-process.

use reversi_core::Square;
use reversi_testkit::Rng;

use super::*;

fn session() -> Session {
    Session::new(Engine::new(8, 1), Level::new(2).unwrap())
}

/// Feeds `lines` to `s` and returns the responses, without their closing empty lines.
fn run(s: &mut Session, lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        if s.handle_line(line, &mut out).unwrap() == Flow::Quit {
            break;
        }
    }
    let text = String::from_utf8(out).unwrap();
    assert!(text.is_empty() || text.ends_with("\n\n"), "{text:?}");
    text.split_terminator("\n\n").map(str::to_string).collect()
}

/// The moves of a random game up to the first position where the side to move must pass and
/// the game is not over (passes are rare enough that the seed is searched for).
fn moves_to_a_pass() -> Vec<Square> {
    for seed in 1.. {
        let mut rng = Rng::new(seed);
        let mut pos = Position::start(BoardSize::EIGHT, Rules::Othello);
        let mut moves = Vec::new();
        while !pos.is_game_over() {
            if pos.must_pass() {
                return moves;
            }
            let sq = *rng.pick(&pos.legal_moves());
            pos = pos.play(Move::Play(sq)).unwrap();
            moves.push(sq);
        }
    }
    unreachable!()
}

#[test]
fn identity_and_known_commands() {
    let mut s = session();
    let r = run(
        &mut s,
        &[
            "protocol_version",
            "name",
            "version",
            "known_command genmove",
            "known_command loadsgf",
            "list_commands",
        ],
    );
    assert_eq!(
        r[..5],
        [
            "= 2",
            "= reversi",
            &format!("= {VERSION}"),
            "= true",
            "= false"
        ]
    );
    assert!(r[5].starts_with("= protocol_version\nname\n"), "{r:?}");
    assert_eq!(r[5].lines().count(), COMMANDS.len());
}

#[test]
fn ids_are_repeated_and_comments_and_blank_lines_ignored() {
    let mut s = session();
    let r = run(
        &mut s,
        &[
            "",
            "# setup",
            "12 name",
            "  3 play b f5 # first move",
            "4 fly",
            "5 play b f5",
        ],
    );
    assert_eq!(
        r,
        ["=12 reversi", "=3", "?4 unknown command", "?5 illegal move"]
    );
}

#[test]
fn unknown_commands_and_syntax_errors() {
    let mut s = session();
    let r = run(
        &mut s,
        &["loadsgf x.sgf", "play", "play red f5", "genmove", "komi x"],
    );
    assert_eq!(r[0], "? unknown command");
    assert!(
        r[1..].iter().all(|l| l.starts_with("? syntax error (")),
        "{r:?}"
    );
    assert!(s.game().moves().is_empty());
}

#[test]
fn only_the_8x8_board() {
    let mut s = session();
    let r = run(
        &mut s,
        &["boardsize 6", "boardsize 8", "1 boardsize 10", "komi 6.5"],
    );
    assert_eq!(r, ["? unacceptable size", "=", "?1 unacceptable size", "="]);
    assert_eq!(s.komi(), 6.5);
}

#[test]
fn illegal_moves_leave_the_game_as_it_was() {
    let mut s = session();
    let r = run(
        &mut s,
        &[
            "play b F5",
            "play b d6",   // White to move
            "play w a1",   // flips nothing
            "play w f5",   // occupied
            "play w pass", // White has moves
            "play w D6",
        ],
    );
    assert_eq!(
        r,
        [
            "=",
            "? illegal move",
            "? illegal move",
            "? illegal move",
            "? illegal move",
            "="
        ]
    );
    let moves: Vec<String> = s.game().moves().iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["f5", "d6"]);
}

#[test]
fn genmove_plays_for_the_side_to_move_only() {
    let mut s = session();
    let r = run(&mut s, &["genmove w", "7 genmove b", "genmove b"]);
    assert_eq!(r[0], "? wrong color");
    // Black's four openings are alike: any of them, lowercase.
    assert!(
        ["=7 c4", "=7 d3", "=7 e6", "=7 f5"].contains(&r[1].as_str()),
        "{r:?}"
    );
    assert_eq!(r[2], "? wrong color");
    assert_eq!(s.game().moves().len(), 1);
}

#[test]
fn undo_takes_back_one_move_at_a_time() {
    let mut s = session();
    let r = run(
        &mut s,
        &[
            "play b f5",
            "genmove w",
            "undo",
            "undo",
            "undo",
            "play b d3",
        ],
    );
    assert_eq!(r[2..], ["=", "=", "? cannot undo", "="]);
    assert_eq!(s.game().moves().len(), 1);
    assert_eq!(run(&mut s, &["clear_board"]), ["="]);
    assert!(s.game().moves().is_empty());
}

#[test]
fn a_side_that_must_pass_answers_pass() {
    let moves = moves_to_a_pass();
    let mut s = session();
    let mut script: Vec<String> = Vec::new();
    let mut color = Color::Black;
    for sq in &moves {
        script.push(format!("play {} {sq}", color.name()));
        color = color.opposite();
    }
    let lines: Vec<&str> = script.iter().map(String::as_str).collect();
    assert!(run(&mut s, &lines).iter().all(|r| r == "="));
    let pos = s.game().current().clone();
    assert!(pos.must_pass() && !pos.is_game_over());
    let passer = pos.turn();
    let other = passer.opposite();

    // genmove for the side that has no move: a pass, played.
    let r = run(&mut s, &[&format!("genmove {}", passer.name())]);
    assert_eq!(r, ["= pass"]);
    assert_eq!(s.game().moves().last(), Some(&Move::Pass));
    assert_eq!(s.game().current().turn(), other);
    // One undo takes the pass back.
    assert_eq!(run(&mut s, &["undo"]), ["="]);
    assert_eq!(s.game().moves().len(), moves.len());

    // genmove for the other side plays the pass implicitly, and one undo takes back both.
    let r = run(&mut s, &[&format!("genmove {}", other.name())]);
    assert!(r[0].starts_with("= ") && r[0] != "= pass", "{r:?}");
    assert_eq!(s.game().moves().len(), moves.len() + 2);
    assert_eq!(s.game().moves()[moves.len()], Move::Pass);
    assert_eq!(run(&mut s, &["undo"]), ["="]);
    assert_eq!(s.game().moves().len(), moves.len());
    assert_eq!(s.game().current(), &pos);

    // So does a `play` of the other side; `play PASSER pass` is the explicit pass.
    let legal = s.game().current().with_turn(other).legal_moves()[0];
    let r = run(
        &mut s,
        &[
            &format!("play {} {legal}", other.name()),
            "undo",
            &format!("play {} pass", passer.name()),
        ],
    );
    assert_eq!(r, ["=", "=", "="]);
    assert_eq!(s.game().moves().len(), moves.len() + 1);
}

#[test]
fn final_score_after_a_wipeout() {
    // The shortest game: Black takes every disc in nine moves.
    let mut s = session();
    let r = run(
        &mut s,
        &[
            "final_score",
            "play b e6",
            "play w f4",
            "play b e3",
            "play w f6",
            "play b g5",
            "play w d6",
            "play b e7",
            "play w f5",
            "play b c5",
            "final_score",
            "genmove w",
            "genmove b",
            "showboard",
        ],
    );
    assert_eq!(r[0], "= 0");
    assert!(r[1..10].iter().all(|l| l == "="), "{r:?}");
    // 13 discs to none, the 51 empty squares to the winner.
    assert_eq!(r[10], "= B+64");
    assert_eq!(r[11..13], ["= pass", "= pass"]);
    assert!(
        r[13].starts_with("= \n    a b c d e f g h\n"),
        "{:?}",
        r[13]
    );
    assert!(
        r[13].ends_with("Black (X) 13, White (O) 0; game over"),
        "{:?}",
        r[13]
    );
    assert_eq!(score_text(s.game().current()), "B+64");
}

#[test]
fn white_wins_and_draws_are_scored() {
    let cells = |black: usize, white: usize| {
        let mut c = vec![None; 64];
        c[..black].fill(Some(Color::Black));
        c[black..black + white].fill(Some(Color::White));
        Position::setup(BoardSize::EIGHT, Rules::Othello, &c, Color::Black).unwrap()
    };
    assert_eq!(score_text(&cells(30, 34)), "W+4");
    assert_eq!(score_text(&cells(32, 32)), "0");
}

#[test]
fn time_settings_give_each_move_a_share_of_the_clock() {
    let mut s = session();
    assert_eq!(s.budget(Color::Black, 60), None);
    run(&mut s, &["time_settings 300 0 0"]);
    let opening = s.budget(Color::Black, 60).unwrap();
    assert!(
        opening > Duration::from_secs(5) && opening < Duration::from_secs(20),
        "{opening:?}"
    );
    // The controller's report replaces the clock.
    run(&mut s, &["time_left b 10 0"]);
    let low = s.budget(Color::Black, 40).unwrap();
    assert!(low < Duration::from_secs(4), "{low:?}");
    assert_eq!(s.budget(Color::White, 60), Some(opening));
    // In byo-yomi: 90 % of the time left, shared among the stones.
    run(&mut s, &["time_settings 0 30 10", "time_left w 20 4"]);
    assert_eq!(
        s.budget(Color::White, 30),
        Some(Duration::from_millis(4500))
    );
    // Byo-yomi time without stones means no limit.
    run(&mut s, &["time_settings 0 1 0"]);
    assert_eq!(s.budget(Color::Black, 60), None);
}

#[test]
fn a_timed_genmove_answers_within_its_budget() {
    let mut s = session();
    run(&mut s, &["time_settings 1 0 0", "play b f5"]);
    let started = Instant::now();
    let r = run(&mut s, &["genmove w"]);
    assert!(["= d6", "= f4", "= f6"].contains(&r[0].as_str()), "{r:?}");
    assert!(started.elapsed() < Duration::from_secs(2));
    // The engine's own clock ran down by what it spent.
    let left = s.clocks[index(Color::White)].unwrap().left;
    assert!(left < Duration::from_secs(1));
}

#[test]
fn quit_is_answered_and_ends_the_session() {
    let mut s = session();
    assert_eq!(run(&mut s, &["9 quit", "name"]), ["=9"]);
}
