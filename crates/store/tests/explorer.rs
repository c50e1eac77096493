//! The opening explorer's index: symmetric games merged, moves given back in the asked
//! orientation, counts checked against a brute-force scan of the games, kept up to date by
//! finishing and deleting games, and built for an older database by its migration.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeMap, HashSet};

use reversi_core::bit_symmetry::{image, image_square, inverse};
use reversi_core::{
    parse_transcript, BoardSize, Color, Game, Move, Position, Rules, Score, Square,
};
use reversi_store::{
    ExplorerMove, GameId, ImportGame, MoveRecord, NewGame, Player, Store, EXPLORER_MAX_DISCS,
};
use reversi_testkit::Rng;

fn start() -> Position {
    Position::start(BoardSize::EIGHT, Rules::Othello)
}

fn game(moves: &str) -> Game {
    parse_transcript(moves, start()).unwrap()
}

fn import(store: &mut Store, game: &Game, score: Score, name: &str) {
    let g = ImportGame::from_game(
        game,
        Player::human(name),
        Player::human("Opponent"),
        Some(score),
    );
    store.import_games(&[g], &mut |_| {}).unwrap();
}

fn at(moves: &str) -> Position {
    game(moves).current().clone()
}

fn shown(moves: &[ExplorerMove]) -> Vec<(String, u64)> {
    moves
        .iter()
        .map(|m| (m.square.to_string(), m.games))
        .collect()
}

/// The image of a move under symmetry `s` of the 8x8 board.
fn move_image(mv: Move, s: usize) -> Move {
    match mv {
        Move::Play(sq) => {
            let bit = sq.index(BoardSize::EIGHT) as u32;
            Move::Play(Square::from_index(image_square(bit, s) as usize, BoardSize::EIGHT).unwrap())
        }
        Move::Pass => Move::Pass,
    }
}

#[test]
fn a_game_and_its_mirror_image_count_as_one_line() {
    let mut store = Store::open_in_memory().unwrap();
    // The Tiger, and the same moves reflected in the a1-h8 diagonal (symmetry 4, which
    // keeps the start).
    let tiger = game("f5d6c3d3c4");
    let mirrored: Vec<Move> = tiger.moves().iter().map(|&m| move_image(m, 4)).collect();
    let mirrored = Game::from_moves(start(), &mirrored).unwrap();
    assert_eq!(
        reversi_core::format_transcript(mirrored.moves(), false),
        "e6f4c3c4d3"
    );
    import(
        &mut store,
        &tiger,
        Score {
            black: 40,
            white: 24,
        },
        "Ann",
    );
    import(
        &mut store,
        &mirrored,
        Score {
            black: 20,
            white: 44,
        },
        "Ben",
    );

    // Asked in the Tiger's orientation: both games, with the Tiger's moves.
    let after = store.explore(&at("f5d6c3")).unwrap();
    assert_eq!(shown(&after), [("d3".to_string(), 2)]);
    assert_eq!(after[0].black_wins, 1);
    assert_eq!(after[0].mean_disc_margin(), (16.0 - 24.0) / 2.0);
    // Asked in the mirrored orientation: the same games, the moves mirrored.
    let mirrored_after = store.explore(&at("e6f4c3")).unwrap();
    assert_eq!(shown(&mirrored_after), [("c4".to_string(), 2)]);
    // And turned half round (symmetry 3): c4e3f6, then e6.
    assert_eq!(
        shown(&store.explore(&at("c4e3f6")).unwrap()),
        [("e6".to_string(), 2)]
    );
    // The first move from the start: f5 and e6 are one move there (the start is symmetric).
    let first = store.explore(&start()).unwrap();
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].games, 2);
    assert!(["f5", "e6", "c4", "d3"].contains(&first[0].square.to_string().as_str()));
}

#[test]
fn counts_win_rate_and_mean_margin_of_a_hand_made_set() {
    let mut store = Store::open_in_memory().unwrap();
    import(
        &mut store,
        &game("f5d6c3"),
        Score {
            black: 40,
            white: 24,
        },
        "a",
    );
    import(
        &mut store,
        &game("f5d6c4"),
        Score {
            black: 32,
            white: 32,
        },
        "b",
    );
    import(
        &mut store,
        &game("f5d6c3d3"),
        Score {
            black: 10,
            white: 54,
        },
        "c",
    );
    import(
        &mut store,
        &game("f5f6e6"),
        Score {
            black: 50,
            white: 14,
        },
        "d",
    );
    // Unfinished games do not count.
    let unfinished = ImportGame::from_game(
        &game("f5d6c5"),
        Player::human("e"),
        Player::human("f"),
        None,
    );
    store.import_games(&[unfinished], &mut |_| {}).unwrap();

    let moves = store.explore(&at("f5")).unwrap();
    assert_eq!(
        shown(&moves),
        [("d6".to_string(), 3), ("f6".to_string(), 1)]
    );
    let d6 = moves[0];
    assert_eq!((d6.black_wins, d6.draws, d6.disc_sum), (1, 1, 16 - 44));
    assert!((d6.black_win_rate() - 1.0 / 3.0).abs() < 1e-9);
    assert!((d6.mean_disc_margin() - (-28.0 / 3.0)).abs() < 1e-9);
    let moves = store.explore(&at("f5d6")).unwrap();
    assert_eq!(
        shown(&moves),
        [("c3".to_string(), 2), ("c4".to_string(), 1)]
    );
    assert_eq!(store.explore(&at("f5d6c3d3")).unwrap(), []);
    let size = store.explorer_size().unwrap();
    assert_eq!(size.games, 4);
    // From the start f5; then d6, f6; after f5d6 c3, c4; after f5d6c3 d3; after f5f6 e6.
    assert_eq!(size.rows, 1 + 2 + 2 + 1 + 1);
    assert!(size.bytes > 0);
}

/// The discs of a position as masks, Black's first.
fn masks(p: &Position) -> (u64, u64) {
    let mut b = 0;
    let mut w = 0;
    for (i, c) in p.cells().iter().enumerate() {
        match c {
            Some(Color::Black) => b |= 1u64 << i,
            Some(Color::White) => w |= 1u64 << i,
            None => {}
        }
    }
    (b, w)
}

fn masks_image((b, w): (u64, u64), s: usize) -> (u64, u64) {
    (image(b, s), image(w, s))
}

/// Random games from the start, turned by a random symmetry that keeps the start; the first
/// moves chosen from few, so that games meet in the same positions.
fn random_games(n: usize, seed: u64) -> Vec<Game> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let s = *rng.pick(&[0, 3, 4, 5]);
            let mut g = Game::new(start());
            while !g.is_over() {
                let moves = g.current().moves();
                let choices = if g.moves().len() < 12 {
                    moves.len().min(2)
                } else {
                    moves.len()
                };
                let mv = moves[rng.below(choices)];
                g.play(mv).unwrap();
            }
            let turned: Vec<Move> = g.moves().iter().map(|&m| move_image(m, s)).collect();
            Game::from_moves(start(), &turned).unwrap()
        })
        .collect()
}

/// The least image of square `sq` of `q` under the symmetries that keep `q`: moves those
/// symmetries make alike are one move of the explorer.
fn orbit(q: &Position, sq: u32) -> u32 {
    let m = masks(q);
    (0..8)
        .filter(|&u| masks_image(m, u) == m)
        .map(|u| image_square(sq, u))
        .min()
        .unwrap()
}

/// (games, Black's wins, draws, disc sum) by move orbit, scanning every game.
type Counts = BTreeMap<u32, (u64, u64, u64, i64)>;

fn brute_force(q: &Position, games: &[Game]) -> Counts {
    let qm = masks(q);
    let mut out = Counts::new();
    for g in games {
        let score = Score::of(g.current());
        let margin = i64::from(score.black) - i64::from(score.white);
        for (p, &mv) in g.positions().iter().zip(g.moves()) {
            let Move::Play(sq) = mv else { continue };
            let pm = masks(p);
            if (pm.0 | pm.1).count_ones() > EXPLORER_MAX_DISCS || p.turn() != q.turn() {
                continue;
            }
            let Some(t) = (0..8).find(|&t| masks_image(qm, t) == pm) else {
                continue;
            };
            let here = image_square(sq.index(BoardSize::EIGHT) as u32, inverse(t));
            let c = out.entry(orbit(q, here)).or_default();
            c.0 += 1;
            c.1 += u64::from(margin > 0);
            c.2 += u64::from(margin == 0);
            c.3 += margin;
        }
    }
    out
}

fn explored(store: &Store, q: &Position) -> Counts {
    let mut out = Counts::new();
    for m in store.explore(q).unwrap() {
        assert!(q.is_legal(m.square), "{} is not legal in\n{q}", m.square);
        let key = orbit(q, m.square.index(BoardSize::EIGHT) as u32);
        let old = out.insert(key, (m.games, m.black_wins, m.draws, m.disc_sum));
        assert!(old.is_none(), "two rows for one move of\n{q}");
    }
    out
}

/// Every position of the games' first moves, and each of its eight images.
fn queries(games: &[Game]) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for g in games {
        for p in g.positions().iter().take(16) {
            for s in 0..8 {
                let (b, w) = masks_image(masks(p), s);
                let cells: Vec<Option<Color>> = (0..64)
                    .map(|i| {
                        if b >> i & 1 == 1 {
                            Some(Color::Black)
                        } else if w >> i & 1 == 1 {
                            Some(Color::White)
                        } else {
                            None
                        }
                    })
                    .collect();
                let q =
                    Position::setup(BoardSize::EIGHT, Rules::Othello, &cells, p.turn()).unwrap();
                if seen.insert(q.clone()) {
                    out.push(q);
                }
            }
        }
    }
    out
}

#[test]
fn counts_match_a_brute_force_scan_of_the_games_in_every_orientation() {
    let games = random_games(120, 17);
    let mut store = Store::open_in_memory().unwrap();
    let imports: Vec<ImportGame> = games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            ImportGame::from_game(g, Player::human(&format!("p{i}")), Player::human("q"), None)
        })
        .collect();
    store.import_games(&imports, &mut |_| {}).unwrap();
    let qs = queries(&games);
    let mut nonempty = 0;
    for q in &qs {
        let want = brute_force(q, &games);
        assert_eq!(explored(&store, q), want, "explorer of\n{q}");
        nonempty += usize::from(!want.is_empty());
    }
    assert!(nonempty > 100, "only {nonempty} positions were reached");
    // Rebuilt from the stored games, the index says the same.
    store.rebuild_explorer().unwrap();
    for q in qs.iter().step_by(7) {
        assert_eq!(explored(&store, q), brute_force(q, &games));
    }
}

#[test]
fn finishing_and_deleting_games_keep_the_index_up_to_date() {
    let mut store = Store::open_in_memory().unwrap();
    let new = NewGame::standard(
        BoardSize::EIGHT,
        Rules::Othello,
        Player::human("Ann"),
        Player::human("Ben"),
    );
    let mut ids: Vec<GameId> = Vec::new();
    for moves in ["f5d6", "f5f6"] {
        let id = store.create_game(&new).unwrap();
        for mv in game(moves).moves() {
            store.append_move(id, &MoveRecord::bare(*mv)).unwrap();
        }
        // In progress: not counted yet.
        assert_eq!(shown(&store.explore(&at("f5")).unwrap()).len(), ids.len());
        store
            .finish_game(
                id,
                Score {
                    black: 33,
                    white: 31,
                },
            )
            .unwrap();
        ids.push(id);
    }
    assert_eq!(
        shown(&store.explore(&at("f5")).unwrap()),
        [("d6".to_string(), 1), ("f6".to_string(), 1)]
    );
    assert!(store.delete_game(ids[0]).unwrap());
    assert_eq!(
        shown(&store.explore(&at("f5")).unwrap()),
        [("f6".to_string(), 1)]
    );
    // The deleted game's rows are gone, not left at zero.
    assert_eq!(store.explorer_size().unwrap().rows, 2);
    assert!(!store.delete_game(ids[0]).unwrap());
}

#[test]
fn other_sizes_and_deep_positions_are_not_indexed() {
    let mut store = Store::open_in_memory().unwrap();
    let mut six = Game::new(Position::start(BoardSize::SIX, Rules::Othello));
    six.play(six.current().moves()[0]).unwrap();
    import(
        &mut store,
        &six,
        Score {
            black: 20,
            white: 16,
        },
        "a",
    );
    assert_eq!(store.explore(six.start()).unwrap(), []);
    let long = random_games(1, 5).remove(0);
    import(&mut store, &long, Score::of(long.current()), "b");
    let deep = long
        .positions()
        .iter()
        .find(|p| p.empty_count() < 64 - EXPLORER_MAX_DISCS as usize)
        .unwrap();
    assert_eq!(store.explore(deep).unwrap(), []);
    let shallow = &long.positions()[EXPLORER_MAX_DISCS as usize - 5];
    assert_eq!(store.explore(shallow).unwrap().len(), 1);
}

#[test]
fn the_migration_builds_the_index_of_an_existing_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        // A database of schema version 2 with one finished game, f5d6c3, and one abandoned.
        common::version_2_database(
            &path,
            "INSERT INTO games (id, board_size, rules, black_name, black_kind, white_name, \
             white_kind, status, result, black_score, white_score, move_count) VALUES \
             (1, 8, 'othello', 'Ann', 'human', 'Ben', 'human', 'finished', 'black', 40, 24, 3), \
             (2, 8, 'othello', 'Cy', 'human', 'Di', 'human', 'abandoned', NULL, NULL, NULL, 1);
             INSERT INTO moves (game_id, ply, square) VALUES (1, 0, 37), (1, 1, 43), \
             (1, 2, 18), (2, 0, 37);",
        );
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.game_info(GameId(1)).unwrap().black.name, "Ann");
    assert_eq!(store.load_game(GameId(1)).unwrap().game.moves().len(), 3);
    assert_eq!(store.game_info(GameId(2)).unwrap().black.name, "Cy");
    assert_eq!(
        shown(&store.explore(&at("f5")).unwrap()),
        [("d6".to_string(), 1)]
    );
    assert_eq!(
        shown(&store.explore(&at("f5d6")).unwrap()),
        [("c3".to_string(), 1)]
    );
    assert_eq!(store.explorer_size().unwrap().games, 1);
}
