//! Variations played in a replay of a game stored in SQLite: branching, following, nesting,
//! going on past the end, and the same tree read back.

#![allow(clippy::unwrap_used)]

use reversi_core::{BoardSize, Move, Rules};
use reversi_game::{Replay, VariationError};
use reversi_store::{MoveRecord, NewGame, Player, Store};

fn sq(name: &str) -> Move {
    let start = reversi_core::Position::start(BoardSize::EIGHT, Rules::Othello);
    Move::Play(start.parse_square(name).unwrap())
}

/// A store holding `f5 d6 c3 d3 c4` and a replay of it.
fn replay_of_game() -> (Store, Replay) {
    let mut store = Store::open_in_memory().unwrap();
    let new = NewGame::standard(
        BoardSize::EIGHT,
        Rules::Othello,
        Player::human("Ann"),
        Player::human("Ben"),
    );
    let id = store.create_game(&new).unwrap();
    for name in ["f5", "d6", "c3", "d3", "c4"] {
        store.append_move(id, &MoveRecord::bare(sq(name))).unwrap();
    }
    let replay = Replay::new(store.load_game(id).unwrap());
    (store, replay)
}

fn reloaded(store: &Store, replay: &Replay) -> Replay {
    let id = replay.info.id;
    Replay::with_variations(store.load_game(id).unwrap(), &store.variations(id).unwrap()).unwrap()
}

#[test]
fn another_move_branches_and_the_same_move_follows() {
    let (mut store, mut r) = replay_of_game();
    r.jump(1);
    // The game's own move: no variation.
    assert_eq!(r.play(sq("d6"), &mut store).unwrap(), 0);
    assert_eq!((r.shown(), r.ply()), (0, 2));
    r.jump(1);
    assert_eq!(r.play(sq("f6"), &mut store).unwrap(), 1);
    assert_eq!((r.ply(), r.len()), (2, 2));
    assert_eq!(r.last_move().unwrap().mv, sq("f6"));
    assert!(r.last_record().is_none(), "variations keep no times");
    // Moves at its end grow it.
    r.play(sq("e6"), &mut store).unwrap();
    r.play(sq("f4"), &mut store).unwrap();
    assert_eq!(r.lines().len(), 2);
    assert_eq!(r.line().own_moves(), &[sq("f6"), sq("e6"), sq("f4")]);
    assert_eq!(r.line_name(1), "variation 1 from move 2");
    // The same move again from the game's own line follows the variation: no duplicate.
    r.show(0);
    r.jump(1);
    assert_eq!(r.play(sq("f6"), &mut store).unwrap(), 1);
    assert_eq!(r.ply(), 2);
    assert_eq!(store.variations(r.info.id).unwrap().len(), 1);
    // Refused moves change nothing.
    assert!(matches!(
        r.play(sq("a1"), &mut store),
        Err(VariationError::Illegal(_))
    ));
    assert_eq!((r.shown(), r.ply(), r.lines().len()), (1, 2, 2));
    // The store has the same tree.
    let again = reloaded(&store, &r);
    assert_eq!(again.lines(), r.lines());
}

#[test]
fn nested_variations_siblings_and_the_parent_line() {
    let (mut store, mut r) = replay_of_game();
    r.jump(1);
    r.play(sq("f6"), &mut store).unwrap(); // 1: f5 f6
    r.play(sq("e6"), &mut store).unwrap(); //    … e6
    r.play(sq("f4"), &mut store).unwrap(); //    … f4
    r.jump(3);
    r.play(sq("d6"), &mut store).unwrap(); // 2: f5 f6 e6 d6, from variation 1
    assert_eq!(r.line().parent, Some(1));
    assert_eq!(r.line_name(2), "variation 2 from move 4");
    r.show(0);
    r.jump(1);
    r.play(sq("f4"), &mut store).unwrap(); // 3: f5 f4, a sibling of 1
    assert_eq!(r.shown(), 3);

    // After f5 the game's own d6, then the variations' f6 and f4.
    r.show(0);
    r.jump(1);
    let here: Vec<_> = r.alternatives();
    assert_eq!(here, vec![(sq("d6"), 0), (sq("f6"), 1), (sq("f4"), 3)]);
    assert_eq!(r.branch_plies(), vec![1]);
    assert!(r.next_line_here());
    assert_eq!((r.shown(), r.ply()), (1, 1));
    assert!(r.next_line_here());
    assert_eq!(r.shown(), 3);
    assert!(r.next_line_here());
    assert_eq!(r.shown(), 0, "round to the first");

    // In variation 1, moves 2 (where it left) and 4 (where 2 leaves it) are marked.
    r.show(1);
    assert_eq!(r.branch_plies(), vec![1, 3]);
    r.jump(3);
    assert_eq!(r.alternatives(), vec![(sq("f4"), 1), (sq("d6"), 2)]);

    // Back up the tree: 2 → 1 at the move 2 leaves it, → the game at the move 1 leaves it.
    r.show(2);
    r.jump(4);
    assert!(r.parent_line());
    assert_eq!((r.shown(), r.ply()), (1, 3));
    assert!(r.parent_line());
    assert_eq!((r.shown(), r.ply()), (0, 1));
    assert!(!r.parent_line());

    // Variation 2 shares the game's first move only: its times stop there.
    assert_eq!(r.main_prefix(2), 1);
    let again = reloaded(&store, &r);
    assert_eq!(again.lines(), r.lines());
    assert_eq!(again.lines()[2].parent, Some(1));
}

#[test]
fn a_variation_can_go_on_past_the_end_and_the_computer_plays_in_it() {
    let (mut store, mut r) = replay_of_game();
    r.jump(usize::MAX);
    // The game is unfinished: a move after its last one is a variation of it.
    let advisor = reversi_players::Advisor::standard();
    let turn = r
        .computer_turn(&advisor, "greedy".parse().unwrap(), 1)
        .unwrap();
    assert_eq!(turn.ply, 5);
    let mv = turn
        .run(&std::sync::atomic::AtomicBool::new(false), &mut |_| {})
        .unwrap()
        .mv;
    assert_eq!(r.play(mv, &mut store).unwrap(), 1);
    assert_eq!(r.line().from_ply, 5);
    assert_eq!(r.ply(), 6);
    assert_eq!(
        r.game.moves().len(),
        5,
        "the game's own moves are untouched"
    );
    assert_eq!(r.branch_plies(), Vec::<usize>::new());
    r.show(0);
    assert_eq!(r.branch_plies(), vec![5]);
}
