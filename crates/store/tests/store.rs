//! The store records games move by move, reads them back, lists, deletes and imports them,
//! and refuses files that are not its own without touching them.

#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use reversi_core::{BoardSize, Color, Game, IllegalMove, Move, Outcome, Position, Rules, Score};
use reversi_store::{
    GameFilter, GameId, ImportGame, MoveRecord, NewGame, Player, PlayerKind, Status, Store,
    StoreError, MAX_TEXT_CHARS, SCHEMA_VERSION,
};

fn new_game(black: &str, white: &str) -> NewGame {
    NewGame::standard(
        BoardSize::EIGHT,
        Rules::Othello,
        Player::human(black),
        Player::computer(white, "5"),
    )
}

/// A game played to the end by always taking the first legal move.
fn first_move_game(size: BoardSize, rules: Rules) -> Game {
    let mut g = Game::new(Position::start(size, rules));
    while let Some(&mv) = g.current().moves().first() {
        g.play(mv).unwrap();
    }
    g
}

#[test]
fn a_game_is_recorded_move_by_move_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub/games.sqlite3");
    let full = first_move_game(BoardSize::SIX, Rules::Reversi);
    assert!(full.moves().contains(&Move::Pass) || full.moves().len() > 4);
    let id;
    {
        let mut store = Store::open(&path).unwrap();
        let mut new = new_game("Ann", "Engine");
        new.size = BoardSize::SIX;
        new.rules = Rules::Reversi;
        new.started_at = Some("2026-01-02T03:04:05Z".into());
        id = store.create_game(&new).unwrap();
        for (i, &mv) in full.moves().iter().enumerate() {
            let rec = MoveRecord {
                mv,
                time_ms: Some(i as u64 * 10),
                eval: (i % 2 == 1).then_some(i as f64 / 2.0),
            };
            assert_eq!(store.append_move(id, &rec).unwrap(), i);
        }
    }
    // Reopened, as after a restart: everything is there.
    let mut store = Store::open(&path).unwrap();
    let loaded = store.load_game(id).unwrap();
    assert_eq!(loaded.game, full);
    assert_eq!(loaded.info.status, Status::InProgress);
    assert_eq!(loaded.info.black.name, "Ann");
    assert_eq!(loaded.info.white.kind, PlayerKind::Computer);
    assert_eq!(loaded.info.white.level.as_deref(), Some("5"));
    assert_eq!(loaded.info.size, BoardSize::SIX);
    assert_eq!(loaded.info.rules, Rules::Reversi);
    assert_eq!(loaded.info.start, None);
    assert_eq!(
        loaded.info.started_at.as_deref(),
        Some("2026-01-02T03:04:05Z")
    );
    assert_eq!(loaded.moves[3].time_ms, Some(30));
    assert_eq!(loaded.moves[3].eval, Some(1.5));
    assert_eq!(loaded.moves[2].eval, None);

    // A finished game takes no more moves and no second ending.
    let score = full.score().unwrap();
    store.finish_game(id, score).unwrap();
    let info = store.game_info(id).unwrap();
    assert_eq!(info.status, Status::Finished);
    assert_eq!(info.score, Some(score));
    assert_eq!(info.result, Some(score.outcome()));
    assert!(info.ended_at.is_some());
    assert!(matches!(
        store.append_move(id, &MoveRecord::bare(Move::Pass)),
        Err(StoreError::NotInProgress(_))
    ));
    assert!(matches!(
        store.abandon_game(id),
        Err(StoreError::NotInProgress(_))
    ));
}

#[test]
fn illegal_moves_are_refused_and_undo_takes_back() {
    let mut store = Store::open_in_memory().unwrap();
    let new = new_game("Ann", "Engine");
    let id = store.create_game(&new).unwrap();
    let start = new.start_position();
    let a1 = start.parse_square("a1").unwrap();
    let err = store
        .append_move(id, &MoveRecord::bare(Move::Play(a1)))
        .unwrap_err();
    assert!(matches!(
        err,
        StoreError::IllegalMove {
            ply: 0,
            reason: IllegalMove::NoFlips(_),
            ..
        }
    ));
    assert_eq!(
        err.to_string(),
        format!("game {id} move 1: a1 flips no disc")
    );
    let f5 = Move::Play(start.parse_square("f5").unwrap());
    store.append_move(id, &MoveRecord::bare(f5)).unwrap();
    assert_eq!(store.undo_move(id).unwrap().map(|m| m.mv), Some(f5));
    assert_eq!(store.undo_move(id).unwrap(), None);
    assert_eq!(store.game_info(id).unwrap().move_count, 0);
    assert!(matches!(
        store.append_move(GameId(999), &MoveRecord::bare(f5)),
        Err(StoreError::NoSuchGame(GameId(999)))
    ));
    store.abandon_game(id).unwrap();
    assert_eq!(store.game_info(id).unwrap().status, Status::Abandoned);
}

#[test]
fn set_up_starts_are_kept() {
    let mut store = Store::open_in_memory().unwrap();
    let start = Position::start(BoardSize::EIGHT, Rules::Othello).with_turn(Color::White);
    let mut new = new_game("A", "B");
    new.start = Some(start.clone());
    let id = store.create_game(&new).unwrap();
    let mv = start.moves()[0];
    store.append_move(id, &MoveRecord::bare(mv)).unwrap();
    let loaded = store.load_game(id).unwrap();
    assert_eq!(loaded.info.start, Some(start.clone()));
    assert_eq!(loaded.game.start(), &start);
    // A start for another board is refused.
    new.start = Some(Position::start(BoardSize::SIX, Rules::Othello));
    let err = store.create_game(&new).unwrap_err();
    assert!(matches!(err, StoreError::StartMismatch(_)), "{err}");
    assert_eq!(
        err.to_string(),
        "the start position is 6x6 othello but the game is 8x8 othello"
    );
}

#[test]
fn listing_filters_and_deleting() {
    let mut store = Store::open_in_memory().unwrap();
    let mut ids = Vec::new();
    for (i, (b, w)) in [
        ("Ann", "Bob"),
        ("Bob", "Cy"),
        ("Dee", "Ann_x"),
        ("Eve", "Fay"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut g = new_game(b, w);
        g.started_at = Some(format!("2026-01-0{}T00:00:00Z", i + 1));
        ids.push(store.create_game(&g).unwrap());
    }
    store
        .finish_game(
            ids[0],
            Score {
                black: 40,
                white: 24,
            },
        )
        .unwrap();
    store.abandon_game(ids[1]).unwrap();

    let all = store.list_games(&GameFilter::default()).unwrap();
    let listed: Vec<GameId> = all.iter().map(|g| g.id).collect();
    assert_eq!(listed, [ids[3], ids[2], ids[1], ids[0]], "newest first");
    let f = |player: Option<&str>, status: Option<Status>, limit: Option<usize>| {
        store
            .list_games(&GameFilter {
                limit,
                player: player.map(str::to_string),
                status,
                ..GameFilter::default()
            })
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(f(Some("ann"), None, None), [ids[2], ids[0]]);
    // `_` and `%` are literal, not wildcards.
    assert_eq!(f(Some("n_x"), None, None), [ids[2]]);
    assert_eq!(f(Some("%"), None, None), []);
    assert_eq!(f(None, Some(Status::InProgress), None), [ids[3], ids[2]]);
    assert_eq!(f(Some("bob"), Some(Status::Abandoned), None), [ids[1]]);
    assert_eq!(f(None, None, Some(1)), [ids[3]]);
    let page = |limit, offset| {
        let filter = GameFilter {
            limit,
            offset,
            ..GameFilter::default()
        };
        let games = store.list_games(&filter).unwrap();
        games.iter().map(|g| g.id).collect::<Vec<_>>()
    };
    assert_eq!(
        page(Some(2), 1),
        [ids[2], ids[1]],
        "two games after the newest"
    );
    assert_eq!(page(Some(2), 3), [ids[0]], "the last page is short");
    assert_eq!(page(None, 2), [ids[1], ids[0]], "an offset without a limit");
    assert_eq!(page(Some(2), 4), [], "past the end");
    assert_eq!(
        store
            .count_games(&GameFilter {
                player: Some("ann".into()),
                ..GameFilter::default()
            })
            .unwrap(),
        2
    );
    assert_eq!(all[3].result, Some(Outcome::Win(Color::Black)));

    assert!(store.delete_game(ids[0]).unwrap());
    assert!(!store.delete_game(ids[0]).unwrap());
    assert!(matches!(
        store.load_game(ids[0]),
        Err(StoreError::NoSuchGame(_))
    ));
    assert_eq!(store.list_games(&GameFilter::default()).unwrap().len(), 3);
}

fn import_of(game: &Game, black: &str, date: &str) -> ImportGame {
    let mut g = ImportGame::from_game(game, Player::human(black), Player::human("W"), None);
    g.game.started_at = Some(date.to_string());
    g.source = Some("test".into());
    g
}

#[test]
fn imports_skip_duplicates_and_are_all_or_nothing() {
    let mut store = Store::open_in_memory().unwrap();
    let games: Vec<Game> = BoardSize::ALL
        .iter()
        .flat_map(|&s| [Rules::Othello, Rules::Reversi].map(|r| first_move_game(s, r)))
        .collect();
    let batch: Vec<ImportGame> = games
        .iter()
        .map(|g| import_of(g, "B", "2001"))
        .chain([import_of(&games[0], "B", "2001")])
        .collect();
    let mut calls = 0;
    let report = store.import_games(&batch, &mut |_| calls += 1).unwrap();
    assert_eq!((report.added, report.skipped), (14, 1));
    assert!(calls >= 1);
    let again = store.import_games(&batch, &mut |_| {}).unwrap();
    assert_eq!((again.added, again.skipped), (0, 15));
    // Another date or player makes another game.
    let other = [
        import_of(&games[0], "B", "2002"),
        import_of(&games[0], "C", "2001"),
    ];
    assert_eq!(store.import_games(&other, &mut |_| {}).unwrap().added, 2);

    for info in store.list_games(&GameFilter::default()).unwrap() {
        let loaded = store.load_game(info.id).unwrap();
        assert!(games.contains(&loaded.game));
        assert_eq!(loaded.info.status, Status::Finished);
        assert_eq!(loaded.info.score, loaded.game.score());
    }

    // One bad game and nothing of the batch is stored.
    let mut bad = import_of(&games[2], "Z", "1999");
    bad.moves.swap(4, 5);
    let batch = [import_of(&games[3], "Z", "1999"), bad];
    let err = store.import_games(&batch, &mut |_| {}).unwrap_err();
    assert!(
        matches!(err, StoreError::Rejected { index: 1, .. }),
        "{err}"
    );
    assert!(
        err.to_string().starts_with("game 2 of the import: move 5"),
        "{err}"
    );
    assert_eq!(store.count_games(&GameFilter::default()).unwrap(), 16);
}

#[test]
fn a_finished_game_is_a_duplicate_of_its_reimport() {
    let mut store = Store::open_in_memory().unwrap();
    let game = first_move_game(BoardSize::EIGHT, Rules::Othello);
    let mut new = new_game("Ann", "Engine");
    new.started_at = Some("2026-03-04T05:06:07Z".into());
    let id = store.create_game(&new).unwrap();
    for &mv in game.moves() {
        store.append_move(id, &MoveRecord::bare(mv)).unwrap();
    }
    store.finish_game(id, game.score().unwrap()).unwrap();
    let mut again =
        ImportGame::from_game(&game, Player::human("Ann"), Player::human("Engine"), None);
    again.game.started_at = new.started_at.clone();
    let report = store.import_games(&[again], &mut |_| {}).unwrap();
    assert_eq!((report.added, report.skipped), (0, 1));
}

/// Text from a file is kept as given (front ends escape it when they show it), cut to
/// `MAX_TEXT_CHARS` characters; a reimport of the same game is still known.
#[test]
fn imported_names_are_kept_as_given_and_cut_to_the_length_limit() {
    let mut store = Store::open_in_memory().unwrap();
    let game = first_move_game(BoardSize::SIX, Rules::Othello);
    let hostile = "\u{1b}[31mEve\u{7}\nline two";
    let long = "é".repeat(MAX_TEXT_CHARS + 50);
    let mut g = ImportGame::from_game(&game, Player::human(hostile), Player::human(&long), None);
    g.event = Some(format!("{long}x"));
    g.source = Some(long.clone());
    g.game.started_at = Some(long.clone());
    assert_eq!(
        store.import_games(&[g.clone()], &mut |_| {}).unwrap().added,
        1
    );
    let info = &store.list_games(&GameFilter::default()).unwrap()[0];
    assert_eq!(info.black.name, hostile);
    let cut = "é".repeat(MAX_TEXT_CHARS);
    assert_eq!(info.white.name, cut);
    assert_eq!(info.event.as_deref(), Some(cut.as_str()));
    assert_eq!(info.source.as_deref(), Some(cut.as_str()));
    assert_eq!(info.started_at.as_deref(), Some(cut.as_str()));
    let again = store.import_games(&[g], &mut |_| {}).unwrap();
    assert_eq!((again.added, again.skipped), (0, 1));
    // A new game's names are cut the same way.
    let id = store.create_game(&new_game(&long, "Engine")).unwrap();
    assert_eq!(store.game_info(id).unwrap().black.name, cut);
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn files_that_are_not_ours_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();

    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a database at all, just some text").unwrap();
    let err = Store::open(&text).err().unwrap();
    assert!(matches!(err, StoreError::NotADatabase { .. }), "{err}");
    assert!(err
        .to_string()
        .contains("notes.txt: not an SQLite database"));
    assert_eq!(bytes(&text), b"not a database at all, just some text");

    let foreign = dir.path().join("other.db");
    {
        let conn = rusqlite::Connection::open(&foreign).unwrap();
        conn.execute_batch("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('x');")
            .unwrap();
    }
    let before = bytes(&foreign);
    let err = Store::open(&foreign).err().unwrap();
    assert!(matches!(err, StoreError::Foreign { .. }), "{err}");
    assert!(err.to_string().contains("contacts"), "{err}");
    assert_eq!(bytes(&foreign), before);
    assert!(!dir.path().join("other.db-wal").exists());

    let newer = dir.path().join("newer.sqlite3");
    drop(Store::open(&newer).unwrap());
    {
        let conn = rusqlite::Connection::open(&newer).unwrap();
        conn.execute_batch(&format!("PRAGMA user_version = {};", SCHEMA_VERSION + 1))
            .unwrap();
    }
    let before = bytes(&newer);
    let err = Store::open(&newer).err().unwrap();
    assert!(
        matches!(err, StoreError::TooNew { version, .. } if version == SCHEMA_VERSION + 1),
        "{err}"
    );
    assert_eq!(bytes(&newer), before);

    // An SQLite header over garbage: SQLite's own complaint, with the file named.
    let broken = dir.path().join("broken.sqlite3");
    let mut garbage = b"SQLite format 3\0".to_vec();
    garbage.extend((0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    std::fs::write(&broken, &garbage).unwrap();
    let err = Store::open(&broken).err().unwrap();
    assert!(err.to_string().contains("broken.sqlite3"), "{err}");
    assert_eq!(bytes(&broken), garbage);

    // An empty file is a new database.
    let empty = dir.path().join("empty.sqlite3");
    std::fs::write(&empty, b"").unwrap();
    let mut store = Store::open(&empty).unwrap();
    store.create_game(&new_game("a", "b")).unwrap();
}

#[test]
fn the_schema_version_is_kept_in_user_version_and_wal_is_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.sqlite3");
    drop(Store::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    let v: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    drop(conn);
    // Opening again migrates nothing and keeps the data.
    let mut store = Store::open(&path).unwrap();
    let id = store.create_game(&new_game("a", "b")).unwrap();
    drop(store);
    assert_eq!(
        Store::open(&path)
            .unwrap()
            .game_info(id)
            .unwrap()
            .black
            .name,
        "a"
    );
}

#[test]
fn a_version_1_database_gains_clocks_and_keeps_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        // The database as the first schema made it, with one finished game.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(include_str!("../migrations/0001_games.sql"))
            .unwrap();
        conn.execute_batch(
            "PRAGMA application_id = 1381388883; PRAGMA user_version = 1;
             INSERT INTO games (board_size, rules, black_name, black_kind, white_name, \
             white_kind, status, result, black_score, white_score) VALUES (8, 'othello', \
             'Ann', 'human', 'Ben', 'human', 'finished', 'black', 40, 24);",
        )
        .unwrap();
    }
    let mut store = Store::open(&path).unwrap();
    let old = store.game_info(GameId(1)).unwrap();
    assert_eq!(old.black.name, "Ann");
    assert_eq!((old.clock, old.termination), (None, None));
    // New games keep their clock, and a loss on time its termination and 64-0 score.
    let timed = NewGame {
        clock: Some("5m+3s".parse().unwrap()),
        ..new_game("Cy", "Di")
    };
    let id = store.create_game(&timed).unwrap();
    let f5 = timed.start_position().parse_square("f5").unwrap();
    store
        .append_move(id, &MoveRecord::bare(Move::Play(f5)))
        .unwrap();
    store.finish_on_time(id, Color::White).unwrap();
    let info = store.game_info(id).unwrap();
    assert_eq!(info.clock, timed.clock);
    assert_eq!(info.termination, Some(reversi_store::Termination::Time));
    assert_eq!(
        info.score,
        Some(Score {
            black: 64,
            white: 0
        })
    );
    assert_eq!(info.result, Some(Outcome::Win(Color::Black)));
}

#[test]
fn a_version_2_database_gains_seats_and_leases_and_keeps_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v2.sqlite3");
    {
        common::version_2_database(
            &path,
            "INSERT INTO games (board_size, rules, black_name, black_kind, white_name, \
             white_kind, status) VALUES (8, 'othello', 'Ann', 'human', 'Ben', 'human', \
             'in_progress');",
        );
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.game_info(GameId(1)).unwrap().black.name, "Ann");
    assert_eq!(store.web_seats(GameId(1)).unwrap(), None);
    let me = reversi_store::Writer::this_process("test");
    store
        .take_lease(GameId(1), &me, std::time::Duration::from_secs(5))
        .unwrap();
}
