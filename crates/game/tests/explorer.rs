//! The opening explorer over games stored in SQLite, valued by the book or a search.

#![allow(clippy::unwrap_used)]

use reversi_core::{parse_transcript, BoardSize, Move, Position, Rules, Score};
use reversi_engine::levels::Level;
use reversi_engine::ScoreKind;
use reversi_game::{explore, Valuation, EXPLORER_LEVEL};
use reversi_players::Advisor;
use reversi_store::{ImportGame, Player, Store};

#[test]
fn moves_get_the_books_value_or_a_searchs() {
    let start = Position::start(BoardSize::EIGHT, Rules::Othello);
    let mut store = Store::open_in_memory().expect("an in-memory store");
    for (i, moves) in ["f5d6c3d3c4", "f5f6e6f4"].into_iter().enumerate() {
        let game = parse_transcript(moves, start.clone()).expect("a legal game");
        let import = ImportGame::from_game(
            &game,
            Player::human(&format!("p{i}")),
            Player::human("q"),
            Some(Score {
                black: 33,
                white: 31,
            }),
        );
        store
            .import_games(&[import], &mut |_| {})
            .expect("an import");
    }
    let after_f5 = parse_transcript("f5", start).expect("a legal move");
    let level = Level::new(EXPLORER_LEVEL).expect("a level");
    let advisor = Advisor::standard();
    let lines = explore(
        &store,
        &advisor,
        after_f5.current(),
        Valuation::BookOrSearch(level),
    )
    .expect("an answer")
    .lines;
    assert_eq!(lines.len(), 2);
    for line in &lines {
        let value = line.value.as_ref().expect("a value for every move played");
        assert_eq!(value.mv, Move::Play(line.played.square));
        // The shipped book has both replies to f5; without it a search values them.
        if advisor.book_moves(after_f5.current()).is_empty() {
            assert!(matches!(
                value.kind,
                ScoreKind::Depth { .. } | ScoreKind::Exact
            ));
        } else {
            assert_eq!(value.kind, ScoreKind::Book);
        }
    }
    let bare = explore(&store, &advisor, after_f5.current(), Valuation::None).expect("an answer");
    assert_eq!(bare.games(), 2);
    assert!(bare.lines.iter().all(|l| l.value.is_none()));
}
