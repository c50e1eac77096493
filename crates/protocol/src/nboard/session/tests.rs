//! Scripted NBoard sessions, in-process.

use std::sync::atomic::AtomicBool;

use reversi_core::{BoardSize, Game, Move, Position, Rules};
use reversi_engine::engine::Engine;
use reversi_formats::ggf::{write_ggf, GgfGame, GgfMove};
use reversi_testkit::Rng;

use super::*;
use reversi_engine::book::Book;

fn session() -> Session {
    Session::new(Engine::new(8, 1))
}

/// Feeds `lines` to `s` and returns the replies.
fn run(s: &mut Session, lines: &[&str]) -> Vec<String> {
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for line in lines {
        if s.handle_line(line, &mut out, &stop).unwrap() == Flow::Quit {
            break;
        }
    }
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn ggf(game: &Game) -> String {
    write_ggf(&GgfGame {
        start: game.start().clone(),
        moves: game
            .moves()
            .iter()
            .map(|&mv| GgfMove {
                mv,
                eval: None,
                seconds: None,
            })
            .collect(),
        tags: vec![("PB".into(), "a".into()), ("PW".into(), "b".into())],
    })
}

/// A game of random moves from the 8x8 start (fixed seed), stopped as soon as `enough` says.
fn random_game(seed: u64, enough: impl Fn(&Game) -> bool) -> Game {
    let mut rng = Rng::new(seed | 1);
    let mut game = Game::new(Position::start(BoardSize::EIGHT, Rules::Othello));
    while !enough(&game) {
        let moves = game.current().moves();
        if moves.is_empty() {
            break;
        }
        game.play(*rng.pick(&moves)).unwrap();
    }
    game
}

/// The first seed whose random game satisfies `wanted` once `enough` stops it.
fn find_game(enough: impl Fn(&Game) -> bool, wanted: impl Fn(&Game) -> bool) -> Game {
    (1..10_000)
        .map(|seed| random_game(seed, &enough))
        .find(|g| wanted(g))
        .expect("some seed gives such a game")
}

/// The move of a `=== MV/EVAL/TIME` reply.
fn answer(replies: &[String]) -> (Move, f64) {
    let line = replies
        .iter()
        .find(|l| l.starts_with("=== "))
        .expect("a === reply");
    let m = parse_annotated(&line[4..], BoardSize::EIGHT).unwrap();
    (m.mv, m.eval.unwrap_or(f64::NAN))
}

#[test]
fn the_specifications_example_session() {
    let mut s = session();
    let replies = run(
        &mut s,
        &[
            "nboard 2",
            "set game (;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]\
             RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------\
             ------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)",
            "set depth 6",
            "ping 1",
            "go",
        ],
    );
    assert_eq!(s.version(), 2);
    assert_eq!(s.game().moves().len(), 8);
    assert_eq!(replies[0], "set myname Reversi6");
    assert_eq!(replies[1], "pong 1");
    assert!(replies[2].starts_with("status "), "{replies:?}");
    let (mv, eval) = answer(&replies);
    let pos = s.game().current();
    assert!(matches!(mv, Move::Play(sq) if pos.is_legal(sq)), "{mv}");
    // The answer is the last search line's move and evaluation, at depth 6.
    let last = replies
        .iter()
        .rev()
        .find(|l| l.starts_with("search "))
        .unwrap();
    let f: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(&f[1][..2], move_text(mv));
    assert_eq!(f[2].parse::<f64>().unwrap(), eval);
    assert_eq!((f[3], f[4]), ("0", "6"));
    assert!(replies.iter().any(|l| l.starts_with("nodestats ")));
    // `go` does not play the move.
    assert_eq!(s.game().moves().len(), 8);
    let replies = run(&mut s, &[&format!("move {}/{eval}/0.5", move_text(mv))]);
    assert!(replies.is_empty());
    assert_eq!(s.game().moves().last(), Some(&mv));
}

#[test]
fn set_game_with_passes_and_pass_moves() {
    // A game with a pass in it, continued a few moves past the pass.
    let game = find_game(
        |g| {
            g.moves()
                .iter()
                .position(|&m| m == Move::Pass)
                .is_some_and(|i| g.moves().len() >= i + 3)
        },
        |g| {
            g.moves().contains(&Move::Pass)
                && g.moves().last() != Some(&Move::Pass)
                && !g.current().is_game_over()
        },
    );
    let mut s = session();
    let replies = run(&mut s, &["nboard 2", &format!("set game {}", ggf(&game))]);
    assert!(replies.is_empty());
    assert_eq!(s.game(), &game);
    // The same game with its passes left out reads the same.
    let bare = ggf(&game).replace("B[PA]", "").replace("W[PA]", "");
    let mut s = session();
    run(&mut s, &[&format!("set game {bare}")]);
    assert_eq!(s.game(), &game);

    // A game whose side to move must pass: `go` answers PA, `hint` searches the pass, and
    // `move PA` passes.
    let game = find_game(|g| g.current().must_pass(), |g| g.current().must_pass());
    let mut s = session();
    run(
        &mut s,
        &["set depth 4", &format!("set game {}", ggf(&game))],
    );
    let replies = run(&mut s, &["go"]);
    assert_eq!(replies, ["=== PA"]);
    let replies = run(&mut s, &["hint 3"]);
    let searches: Vec<&String> = replies
        .iter()
        .filter(|l| l.starts_with("search "))
        .collect();
    assert!(!searches.is_empty());
    assert!(
        searches.iter().all(|l| l.starts_with("search PA")),
        "{replies:?}"
    );
    assert_eq!(replies.last().map(String::as_str), Some("status"));
    run(&mut s, &["move PA"]);
    assert_eq!(s.game().moves().last(), Some(&Move::Pass));
    assert_eq!(s.game().moves().len(), game.moves().len() + 1);
    let replies = run(&mut s, &["go"]);
    let (mv, _) = answer(&replies);
    assert!(matches!(mv, Move::Play(sq) if s.game().current().is_legal(sq)));

    // A move for the other side while the side to move must pass implies the pass.
    let mut s = session();
    run(&mut s, &[&format!("set game {}", ggf(&game))]);
    let after_pass = game.current().play(Move::Pass).unwrap();
    let sq = after_pass.legal_moves()[0];
    run(&mut s, &[&format!("move {}", move_text(Move::Play(sq)))]);
    assert_eq!(
        &s.game().moves()[game.moves().len()..],
        &[Move::Pass, Move::Play(sq)]
    );
}

#[test]
fn set_game_with_a_game_that_is_over() {
    let game = find_game(
        |g| g.current().is_game_over(),
        |g| g.current().is_game_over(),
    );
    let mut s = session();
    let replies = run(
        &mut s,
        &[
            "nboard 2",
            "set depth 2",
            &format!("set game {}", ggf(&game)),
            "go",
            "hint 2",
            "ping 9",
        ],
    );
    assert_eq!(s.game(), &game);
    assert!(!replies.iter().any(|l| l.starts_with("===")), "{replies:?}");
    assert!(
        !replies.iter().any(|l| l.starts_with("search")),
        "{replies:?}"
    );
    assert_eq!(replies.last().map(String::as_str), Some("pong 9"));
    // No move is accepted any more.
    run(&mut s, &["move PA", "move a1"]);
    assert_eq!(s.game(), &game);
}

#[test]
fn hint_streams_the_best_moves_and_ends() {
    let mut s = session();
    let replies = run(&mut s, &["nboard 2", "set depth 4", "set game (;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)", "hint 3"]);
    let searches: Vec<Vec<&str>> = replies
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    // Depths 1..4, three moves each; the depths never go down.
    let depths: Vec<u32> = searches.iter().map(|f| f[4].parse().unwrap()).collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    assert_eq!(depths.first(), Some(&1));
    assert_eq!(depths.last(), Some(&4));
    let last: Vec<&Vec<&str>> = searches.iter().filter(|f| f[4] == "4").collect();
    assert_eq!(last.len(), 3, "{replies:?}");
    let moves: std::collections::HashSet<&str> = last.iter().map(|f| &f[1][..2]).collect();
    assert_eq!(moves.len(), 3);
    // Best first, each move legal.
    let evals: Vec<f64> = last.iter().map(|f| f[2].parse().unwrap()).collect();
    assert!(evals.windows(2).all(|w| w[0] >= w[1]), "{evals:?}");
    for m in &moves {
        let sq = s.game().current().parse_square(m).unwrap();
        assert!(s.game().current().is_legal(sq));
    }
    assert!(replies.iter().any(|l| l.starts_with("nodestats ")));
    assert_eq!(replies.last().map(String::as_str), Some("status"));
    // Hints do not change the game.
    assert_eq!(s.game().moves().len(), 2);
}

#[test]
fn endgame_hints_are_marked_exact() {
    let game = find_game(
        |g| g.current().empty_count() <= 10,
        |g| !g.current().is_game_over() && !g.current().must_pass(),
    );
    let mut s = session();
    let replies = run(
        &mut s,
        &["set depth 6", &format!("set game {}", ggf(&game)), "hint 1"],
    );
    let last = replies
        .iter()
        .rev()
        .find(|l| l.starts_with("search "))
        .unwrap();
    assert!(last.ends_with(" 100%"), "{last}");
}

#[test]
fn analyze_reports_every_position_last_first() {
    let game = find_game(
        |g| g.current().is_game_over(),
        |g| g.moves().contains(&Move::Pass),
    );
    let mut s = session();
    let replies = run(
        &mut s,
        &[
            "set depth 1",
            &format!("set game {}", ggf(&game)),
            "analyze",
        ],
    );
    let analysis: Vec<(usize, f64)> = replies
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|l| {
            let (n, e) = l.split_once(' ').unwrap();
            (n.parse().unwrap(), e.parse().unwrap())
        })
        .collect();
    let n = game.moves().len();
    assert_eq!(analysis.len(), n + 1);
    assert!(analysis.iter().map(|a| a.0).eq((0..=n).rev()));
    assert_eq!(analysis[0].1, f64::from(final_margin(game.current())));
    assert_eq!(replies.last().map(String::as_str), Some("status"));
}

#[test]
fn malformed_lines_are_ignored() {
    let mut s = session();
    run(&mut s, &["nboard 2", "set game (;GM[Othello]B[f5];)"]);
    let before = s.game().clone();
    let replies = run(
        &mut s,
        &[
            "",
            "   ",
            "frobnicate",
            "set",
            "set depth",
            "set depth lots",
            "set game",
            "set game (;GM[Othello]B[f5]",
            "set game (;GM[Chess];)",
            "set game (;GM[Othello]B[a1];)",
            "set game (;GM[Othello]TY[20]BO[20 -];)",
            "move",
            "move Z9",
            "move a1",
            "move f5/x/y",
            "PA",
            "ZZ",
            "hint",
            "hint -2",
            "ping",
            "ping one",
            "\u{fffd}\u{0}\u{7f}",
            "set contempt 1e999",
            "ping 4",
        ],
    );
    assert_eq!(replies, ["pong 4"]);
    assert_eq!(s.game(), &before);
    assert_eq!(s.depth(), DEFAULT_DEPTH);
}

#[test]
fn learn_contempt_depth_and_quit() {
    let mut s = session();
    let replies = run(
        &mut s,
        &[
            "nboard 2",
            "set contempt -3",
            "set depth 99",
            "learn",
            "quit",
            "ping 1",
        ],
    );
    // No book file to learn into: refused, not faked.
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert_eq!(replies[0], "set myname Reversi60");
    assert!(replies[1].starts_with("status cannot learn"), "{replies:?}");
    assert_eq!(s.contempt(), -3.0);
    assert_eq!(s.depth(), 60);
}

/// A session whose learned books land in the returned slot.
fn learning_session() -> (Session, std::sync::Arc<std::sync::Mutex<Option<Book>>>) {
    let saved = std::sync::Arc::new(std::sync::Mutex::new(None));
    let slot = std::sync::Arc::clone(&saved);
    let s = session().learn_into(Box::new(move |b: &Book| {
        *slot.lock().unwrap() = Some(b.clone());
        Ok(())
    }));
    (s, saved)
}

#[test]
fn learn_adds_the_game_to_the_book_and_the_book_answers() {
    let (mut s, saved) = learning_session();
    let replies = run(
        &mut s,
        &[
            "nboard 2",
            "set depth 4",
            "move F5",
            "move D6",
            "move C3",
            "learn",
        ],
    );
    assert_eq!(
        replies.last().map(String::as_str),
        Some("learned"),
        "{replies:?}"
    );
    let book = saved.lock().unwrap().clone().unwrap();
    // The start and the three positions after it, each searched.
    assert_eq!(book.len(), 4);
    assert!(book.iter().all(|(_, r)| r.depth > 0 && r.value.is_some()));
    assert_eq!(s.book().map(Book::len), Some(4));

    // Back at the start, go plays f5 or one of its images from the book at once, and hints
    // stream it as a book line before the searched moves.
    let replies = run(&mut s, &["set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)", "go", "hint 4"]);
    let book_lines: Vec<&String> = replies.iter().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(book_lines.len(), 5, "{replies:?}");
    let fields: Vec<&str> = book_lines[0].split_whitespace().collect();
    assert_eq!(fields.len(), 5, "{}", book_lines[0]);
    assert_eq!(fields[3], "1", "one game: {}", book_lines[0]);
    let go = replies.iter().find(|l| l.starts_with("=== ")).unwrap();
    assert!(go.ends_with("/0.00"), "{go}");
    // Every first move is an image of f5: all four come from the book, no search needed.
    assert!(
        !replies.iter().any(|l| l.starts_with("search ")),
        "{replies:?}"
    );
}

#[test]
fn bare_version_one_moves_play() {
    let mut s = session();
    run(&mut s, &["F5", "d6", "move C3/1.5/0.2"]);
    let names: Vec<String> = s.game().moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["f5", "d6", "c3"]);
}

#[test]
fn a_stopped_go_still_answers_a_legal_move() {
    let mut s = session();
    let stop = AtomicBool::new(true);
    let mut out = Vec::new();
    s.handle_line("set depth 60", &mut out, &stop).unwrap();
    s.handle_line("go", &mut out, &stop).unwrap();
    let replies: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let (mv, _) = answer(&replies);
    assert!(matches!(mv, Move::Play(sq) if s.game().current().is_legal(sq)));
}

#[test]
fn boards_the_engine_cannot_search_are_kept_but_not_searched() {
    let mut s = session();
    let replies = run(
        &mut s,
        &["set game (;GM[Othello]TY[10];)", "go", "hint 1", "ping 3"],
    );
    assert_eq!(s.game().current().size().get(), 10);
    assert!(!replies
        .iter()
        .any(|l| l.starts_with("===") || l.starts_with("search")));
    assert!(
        replies[1].starts_with("status cannot search this position: 10x10"),
        "{replies:?}"
    );
    assert_eq!(replies.last().map(String::as_str), Some("pong 3"));
    // Moves are still followed.
    run(&mut s, &["move e4"]);
    assert_eq!(s.game().moves().len(), 1);
}

#[test]
fn go_budgets_its_time_by_the_clock_of_the_game() {
    // Five minutes each, and Black has spent 4:58 of them on its two moves: Black has two
    // seconds left, and the engine budgets well under them even at a deep level.
    let game = random_game(11, |g| g.moves().len() == 4);
    let mut g = GgfGame {
        start: game.start().clone(),
        moves: game
            .moves()
            .iter()
            .enumerate()
            .map(|(i, &mv)| GgfMove {
                mv,
                eval: None,
                seconds: Some(if i % 2 == 0 { 149.0 } else { 1.0 }),
            })
            .collect(),
        tags: Vec::new(),
    };
    g.set_time_control(Some("5m".parse().unwrap()));
    let mut s = session();
    run(
        &mut s,
        &[
            "nboard 2",
            "set depth 30",
            &format!("set game {}", write_ggf(&g)),
        ],
    );
    let budget = s.clock_budget().unwrap();
    assert!(budget < Duration::from_secs(1), "{budget:?}");
    let t = std::time::Instant::now();
    let replies = run(&mut s, &["go"]);
    assert!(replies.iter().any(|l| l.starts_with("===")), "{replies:?}");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    // The GUI's next move carries its time; the budget follows the clock.
    let white = s.game().current().legal_moves()[0];
    run(&mut s, &[&format!("move {white}/0/3.5")]);
    assert_eq!(s.game().moves().len(), 5);
    // Without a clock, no clock budget.
    run(&mut s, &[&format!("set game {}", ggf(&game))]);
    assert_eq!(s.clock_budget(), None);
}
