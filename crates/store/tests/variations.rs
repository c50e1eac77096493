//! Variations of stored games: kept as a tree across reopening, checked move by move, deleted
//! with their game or parent, and added to a database made by the schema before them.

#![allow(clippy::unwrap_used)]

mod common;

use reversi_core::{BoardSize, Move, Position, Rules};
use reversi_store::{
    GameId, MoveRecord, NewGame, Player, Store, StoreError, VariationId, SCHEMA_VERSION,
};

fn sq(name: &str) -> Move {
    let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    Move::Play(start.parse_square(name).unwrap())
}

fn moves(names: &str) -> Vec<Move> {
    names.split_whitespace().map(sq).collect()
}

fn game_with(store: &mut Store, names: &str) -> GameId {
    let new = NewGame::standard(
        BoardSize::EIGHT,
        Rules::Othello,
        Player::human("Ann"),
        Player::human("Ben"),
    );
    let id = store.create_game(&new).unwrap();
    for mv in moves(names) {
        store.append_move(id, &MoveRecord::bare(mv)).unwrap();
    }
    id
}

fn count(store_path: &std::path::Path, table: &str) -> i64 {
    let conn = rusqlite::Connection::open(store_path).unwrap();
    conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

#[test]
fn variations_survive_reopening_as_a_tree_and_go_with_their_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let (id, other, a, b, c);
    {
        let mut store = Store::open(&path).unwrap();
        id = game_with(&mut store, "f5 d6 c3 d3 c4");
        other = game_with(&mut store, "f5 f6");
        // a: f5 f6 e6 f4 instead of f5 d6; b: from a after f5 f6 e6, d6; c: d3 c5 from the start.
        a = store.add_variation(id, None, 1, &moves("f6")).unwrap();
        assert_eq!(store.append_variation_move(a, sq("e6")).unwrap(), 1);
        assert_eq!(store.append_variation_move(a, sq("f4")).unwrap(), 2);
        b = store.add_variation(id, Some(a), 3, &moves("d6")).unwrap();
        c = store.add_variation(id, None, 0, &moves("d3 c5")).unwrap();
        store.add_variation(other, None, 2, &moves("e6")).unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    let found = store.variations(id).unwrap();
    let shape: Vec<_> = found
        .iter()
        .map(|v| (v.id, v.parent, v.from_ply, v.moves.clone()))
        .collect();
    assert_eq!(
        shape,
        vec![
            (a, None, 1, moves("f6 e6 f4")),
            (b, Some(a), 3, moves("d6")),
            (c, None, 0, moves("d3 c5")),
        ]
    );
    assert!(found.iter().all(|v| v.created_at.ends_with('Z')));

    // Illegal moves, branch points past the line's end, no moves, a parent of another game.
    let refused = [
        store.add_variation(id, None, 0, &moves("a1")).unwrap_err(),
        store.add_variation(id, None, 6, &moves("e3")).unwrap_err(),
        store.add_variation(id, Some(b), 5, &[]).unwrap_err(),
        store.append_variation_move(b, sq("d6")).unwrap_err(),
    ];
    for e in &refused {
        assert!(
            matches!(e, StoreError::InvalidVariation { game, .. } if *game == id),
            "{e}"
        );
    }
    assert!(refused[0].to_string().contains("a1"), "{}", refused[0]);
    assert!(
        refused[1].to_string().contains("line of 5 moves"),
        "{}",
        refused[1]
    );
    let other_parent = store.add_variation(other, Some(a), 1, &moves("d6"));
    assert!(matches!(other_parent, Err(StoreError::NoSuchVariation(v)) if v == a));
    assert!(matches!(
        store.append_variation_move(VariationId(999), sq("f5")),
        Err(StoreError::NoSuchVariation(VariationId(999)))
    ));
    assert_eq!(store.variations(id).unwrap().len(), 3, "nothing written");

    // Deleting a variation takes its children; deleting the game takes the rest.
    assert!(store.delete_variation(a).unwrap());
    let left: Vec<_> = store.variations(id).unwrap().iter().map(|v| v.id).collect();
    assert_eq!(left, [c]);
    assert!(store.delete_game(id).unwrap());
    assert!(matches!(
        store.variations(id),
        Err(StoreError::NoSuchGame(_))
    ));
    assert_eq!(store.variations(other).unwrap().len(), 1);
    drop(store);
    assert_eq!(count(&path, "variations"), 1);
    assert_eq!(count(&path, "variation_moves"), 1);
}

#[test]
fn taking_back_a_move_drops_the_variations_that_left_after_it() {
    let mut store = Store::open_in_memory().unwrap();
    let id = game_with(&mut store, "f5 d6 c3");
    let early = store.add_variation(id, None, 1, &moves("f6")).unwrap();
    let at_end = store.add_variation(id, None, 3, &moves("d3")).unwrap();
    let on_late = store
        .add_variation(id, Some(at_end), 4, &moves("c4"))
        .unwrap();
    store.undo_move(id).unwrap();
    let left: Vec<_> = store.variations(id).unwrap().iter().map(|v| v.id).collect();
    assert_eq!(left, [early]);
    assert!(
        !store.delete_variation(on_late).unwrap(),
        "went with its parent"
    );
}

#[test]
fn a_version_2_database_gains_variations_and_keeps_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        // The database as the schema of version 2 made it, with a game of two moves
        // (f5 = square 37, d6 = 43).
        common::version_2_database(
            &path,
            "INSERT INTO games (board_size, rules, black_name, black_kind, white_name, \
             white_kind, status, move_count, time_base_ms) VALUES (8, 'othello', 'Ann', \
             'human', 'Ben', 'human', 'in_progress', 2, 300000);
             INSERT INTO moves (game_id, ply, square) VALUES (1, 0, 37), (1, 1, 43);",
        );
    }
    let mut store = Store::open(&path).unwrap();
    let old = store.load_game(GameId(1)).unwrap();
    assert_eq!(old.info.black.name, "Ann");
    assert_eq!(old.game.moves(), moves("f5 d6").as_slice());
    assert!(old.info.clock.is_some());
    assert!(store.variations(GameId(1)).unwrap().is_empty());
    let v = store
        .add_variation(GameId(1), None, 1, &moves("f6"))
        .unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    drop(conn);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.variations(GameId(1)).unwrap()[0].id, v);
}
