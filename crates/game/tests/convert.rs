//! A stored game's clock and loss on time written to GGF and read back.

#![allow(clippy::unwrap_used)]

use reversi_core::{BoardSize, Color, Move, Rules};
use reversi_game::convert::{from_ggf, to_ggf};
use reversi_store::{MoveRecord, NewGame, Player, Store, Termination};

#[test]
fn a_clock_and_a_loss_on_time_go_through_ggf() {
    let mut store = Store::open_in_memory().unwrap();
    let new = NewGame {
        clock: Some("5m+3s".parse().unwrap()),
        ..NewGame::standard(
            BoardSize::EIGHT,
            Rules::Othello,
            Player::human("Ann"),
            Player::human("Ben"),
        )
    };
    let id = store.create_game(&new).unwrap();
    let f5 = new.start_position().parse_square("f5").unwrap();
    store
        .append_move(
            id,
            &MoveRecord {
                mv: Move::Play(f5),
                time_ms: Some(2500),
                eval: None,
            },
        )
        .unwrap();
    store.finish_on_time(id, Color::White).unwrap();
    let stored = store.load_game(id).unwrap();
    let text = to_ggf(&stored);
    assert!(text.contains("RE[+64.00:t]"), "{text}");
    assert!(text.contains("TI[05:00/00:03]"), "{text}");
    let ggf = &reversi_formats::ggf::parse_ggf(&text).unwrap()[0];
    let game = ggf.game().unwrap();
    let import = from_ggf(ggf, &game, "t.ggf");
    assert_eq!(import.game.clock, new.clock);
    assert_eq!(import.termination, Some(Termination::Time));
    assert_eq!(import.moves[0].time_ms, Some(2500));
    assert_eq!(import.score.map(|s| s.margin()), Some(64));
}
