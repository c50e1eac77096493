//! Stepping through a game stored in SQLite: moves, notes and the opening shown.

#![allow(clippy::unwrap_used)]

use reversi_core::{BoardSize, Color, Move, Rules};
use reversi_game::{player_name, record_note, Replay};
use reversi_store::{MoveRecord, NewGame, Player, Store, StoredGame};

fn stored(moves: &[&str]) -> StoredGame {
    let mut store = Store::open_in_memory().unwrap();
    let new = NewGame::standard(
        BoardSize::EIGHT,
        Rules::Othello,
        Player::human("Ann"),
        Player::computer("reversi", "hard"),
    );
    let id = store.create_game(&new).unwrap();
    for (i, m) in moves.iter().enumerate() {
        let sq = new.start_position().parse_square(m).unwrap();
        let rec = MoveRecord {
            mv: Move::Play(sq),
            time_ms: Some(1500),
            eval: (i % 2 == 1).then_some(-2.0),
        };
        store.append_move(id, &rec).unwrap();
    }
    store.load_game(id).unwrap()
}

#[test]
fn steps_stay_within_the_game() {
    let mut r = Replay::new(stored(&["f5", "d6", "c3"]));
    assert_eq!((r.ply(), r.len()), (0, 3));
    assert!(r.last_move().is_none());
    r.back();
    assert_eq!(r.ply(), 0);
    r.forward();
    let last = r.last_move().unwrap();
    assert_eq!(last.mv.to_string(), "f5");
    assert_eq!(last.flipped.len(), 1);
    assert_eq!(r.position().disc_count(Color::Black), 4);
    r.jump(99);
    assert_eq!(r.ply(), 3);
    assert_eq!(r.last_record().unwrap().time_ms, Some(1500));
    // The notes a plain replay prints beside each move.
    assert_eq!(record_note(&r.moves[0]), " (1.5 s)");
    assert_eq!(record_note(&r.moves[1]), " (1.5 s, eval -2)");
    assert_eq!(player_name(&r.info.white), "reversi (level hard)");
}

#[test]
fn the_opening_is_the_one_of_the_moves_shown() {
    let mut r = Replay::new(stored(&["f5", "d6", "c3", "d3", "c4", "f4"]));
    assert_eq!(r.opening(), None);
    r.jump(2);
    assert_eq!(r.opening(), Some("Perpendicular Opening"));
    r.jump(5);
    assert_eq!(r.opening(), Some("Tiger"));
    r.jump(99);
    assert_eq!(r.opening(), Some("Tiger"));
    r.jump(4);
    assert_eq!(r.opening(), Some("Perpendicular Opening"));
}
