//! The seat, join-code, take-back and resignation rules of a shared game.

use reversi_core::Color;

use super::{Seats, Table, TableError};
use crate::player::Player;
use crate::session::{PlayError, Session};
use crate::settings::Settings;

/// Two people at one board: Black, and White when `remote` is not set.
fn table(remote: Option<Color>) -> Table {
    let settings = Settings {
        white: Player::Human,
        ..Settings::default()
    };
    Table::new(Session::new(settings), Seats::new(remote))
}

/// A table where White's seat is for a second person, who has joined: the guest's token.
fn joined() -> (Table, String) {
    let mut t = table(Some(Color::White));
    let code = t.seats.join_code().expect("a join code").to_string();
    let (color, guest) = t.seats.join(&code).expect("the open seat");
    assert_eq!(color, Color::White);
    (t, guest)
}

fn owner(t: &Table) -> Option<String> {
    Some(t.seats.owner().to_string())
}

#[test]
fn tokens_are_fresh_and_32_hex_digits() {
    let (a, b) = (super::new_token(), super::new_token());
    assert_ne!(a, b);
    assert_eq!(a.len(), 32);
    assert!(a.chars().all(|c| c.is_ascii_hexdigit()), "{a}");
}

#[test]
fn a_seat_is_joined_once_and_only_with_the_code() {
    let mut alone = table(None);
    assert_eq!(alone.seats.join_code(), None);
    assert_eq!(alone.seats.join("anything"), Err(TableError::NoSeat));

    let mut t = table(Some(Color::White));
    let code = t.seats.join_code().expect("a join code").to_string();
    assert_eq!(t.seats.join("not the code"), Err(TableError::WrongCode));
    assert!(!t.seats.joined());
    let (_, guest) = t.seats.join(&code).expect("the open seat");
    assert!(t.seats.joined() && t.seats.is_guest(Some(&guest)));
    assert_eq!(
        t.seats.join(&code),
        Err(TableError::SeatTaken(Color::White))
    );
    assert_eq!(
        TableError::SeatTaken(Color::White).to_string(),
        "White's seat is already taken"
    );
}

#[test]
fn each_token_moves_for_its_own_side_only() {
    let (mut t, guest) = joined();
    let owner = owner(&t);
    assert_eq!(t.play(None, "f5"), Err(TableError::NoToken));
    assert_eq!(
        t.play(Some("stranger"), "f5"),
        Err(TableError::UnknownToken)
    );
    assert_eq!(
        t.play(Some(&guest), "f5"),
        Err(TableError::NotYourTurn(Color::Black))
    );
    t.play(owner.as_deref(), "f5").expect("Black's move");
    assert_eq!(
        t.play(owner.as_deref(), "f4"),
        Err(TableError::NotYourTurn(Color::White))
    );
    t.play(Some(&guest), "f4").expect("White's move");
    assert_eq!(t.session.game().moves().len(), 2);
}

#[test]
fn the_owner_moves_for_every_side_when_nobody_joins_from_elsewhere() {
    let mut t = table(None);
    let owner = owner(&t);
    t.play(owner.as_deref(), "f5").expect("Black's move");
    t.play(owner.as_deref(), "f4").expect("White's move");
}

#[test]
fn a_move_is_refused_for_the_computer_before_the_token_is_looked_at() {
    let mut t = Table::new(Session::new(Settings::default()), Seats::new(None));
    let owner = owner(&t);
    t.play(owner.as_deref(), "f5").expect("Black's move");
    // White is the computer's: any token, even none, hears so.
    let refused = Err(TableError::Play(PlayError::NotYourTurn(Color::White)));
    assert_eq!(t.play(None, "f4"), refused);
    assert_eq!(t.play(owner.as_deref(), "f4"), refused);
}

#[test]
fn squares_are_read_and_checked_against_the_rules() {
    let mut t = table(None);
    let owner = owner(&t);
    assert!(matches!(
        t.play(owner.as_deref(), "z9"),
        Err(TableError::BadSquare(_))
    ));
    let illegal = t
        .play(owner.as_deref(), "a1")
        .expect_err("a1 flips nothing");
    assert!(matches!(illegal, TableError::Play(PlayError::Illegal(_))));
    assert!(
        illegal.to_string().starts_with("illegal move: "),
        "{illegal}"
    );
}

#[test]
fn undo_and_redo_at_one_board_but_never_between_two_people() {
    let mut t = table(None);
    let owner = owner(&t);
    assert!(t.takebacks());
    assert_eq!(t.undo(owner.as_deref()), Err(TableError::NothingToUndo));
    assert_eq!(t.redo(owner.as_deref()), Err(TableError::NothingToRedo));
    t.play(owner.as_deref(), "f5").expect("Black's move");
    assert_eq!(t.undo(Some("stranger")), Err(TableError::UnknownToken));
    t.undo(owner.as_deref()).expect("undo");
    assert!(t.session.game().moves().is_empty());
    t.redo(owner.as_deref()).expect("redo");
    assert_eq!(t.session.game().moves().len(), 1);

    let (mut shared, guest) = joined();
    let owner = self::owner(&shared);
    assert!(!shared.takebacks());
    shared.play(owner.as_deref(), "f5").expect("Black's move");
    assert_eq!(shared.undo(owner.as_deref()), Err(TableError::NoTakebacks));
    assert_eq!(shared.redo(Some(&guest)), Err(TableError::NoTakebacks));
    assert_eq!(shared.undo(None), Err(TableError::NoToken));
}

#[test]
fn who_resigns() {
    // Between two people each resigns their own side, whoever is to move.
    let (mut t, guest) = joined();
    assert_eq!(t.resign(Some(&guest)), Ok(Color::White));
    let (mut t, _) = joined();
    let owner = owner(&t);
    assert_eq!(t.resign(owner.as_deref()), Ok(Color::Black));
    assert!(t.ended());
    assert_eq!(t.resign(owner.as_deref()), Err(TableError::Over));
    assert_eq!(t.play(owner.as_deref(), "f5"), Err(TableError::Over));

    // Against the computer, the person's side.
    let mut t = Table::new(Session::new(Settings::default()), Seats::new(None));
    let owner = self::owner(&t);
    assert_eq!(t.resign(Some("stranger")), Err(TableError::UnknownToken));
    assert_eq!(t.resign(owner.as_deref()), Ok(Color::Black));
    assert_eq!(t.stored_seats().resigned, Some(Color::Black));
}

#[test]
fn seats_come_back_from_the_history_as_they_were() {
    let (t, guest) = joined();
    let stored = t.stored_seats();
    assert_eq!(stored.guest_token.as_deref(), Some(guest.as_str()));
    assert_eq!(stored.resigned, None);
    let back = Seats::from_stored(stored.clone());
    assert_eq!(back.stored(), stored);
    assert!(back.is_guest(Some(&guest)) && back.joined());
    assert_eq!(back.owner(), t.seats.owner());
}

#[test]
fn a_closed_game_takes_nothing() {
    let mut t = table(None);
    let owner = owner(&t);
    t.closed = true;
    assert!(t.ended() && !t.takebacks());
    assert_eq!(t.play(owner.as_deref(), "f5"), Err(TableError::Over));
    assert_eq!(t.undo(owner.as_deref()), Err(TableError::Over));
}
