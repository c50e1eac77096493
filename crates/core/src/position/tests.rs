//! Hand-checked rules on small boards and both start rules.

use super::*;
use crate::{parse_transcript, Game, Outcome, Score};

fn sq(name: &str, size: BoardSize) -> Square {
    Square::parse(name, size).unwrap()
}

fn names(squares: &[Square]) -> Vec<String> {
    squares.iter().map(ToString::to_string).collect()
}

fn perft(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = p.moves();
    if moves.is_empty() {
        return 1;
    }
    moves
        .into_iter()
        .map(|m| perft(&p.play(m).unwrap(), depth - 1))
        .sum()
}

#[test]
fn othello_start_on_every_size() {
    for size in BoardSize::ALL {
        let p = Position::start(size, Rules::Othello);
        let c = size.get() / 2;
        assert_eq!(p.get(Square::new(c - 1, c - 1)), Some(Color::White));
        assert_eq!(p.get(Square::new(c, c)), Some(Color::White));
        assert_eq!(p.get(Square::new(c, c - 1)), Some(Color::Black));
        assert_eq!(p.get(Square::new(c - 1, c)), Some(Color::Black));
        assert_eq!(p.disc_count(Color::Black), 2);
        assert_eq!(p.empty_count(), size.cells() - 4);
        assert_eq!(p.turn(), Color::Black);
        assert_eq!(p.legal_moves().len(), 4);
    }
    let p8 = Position::start(BoardSize::EIGHT, Rules::Othello);
    let s8 = BoardSize::EIGHT;
    assert_eq!(p8.get(sq("d4", s8)), Some(Color::White));
    assert_eq!(p8.get(sq("e5", s8)), Some(Color::White));
    assert_eq!(p8.get(sq("e4", s8)), Some(Color::Black));
    assert_eq!(p8.get(sq("d5", s8)), Some(Color::Black));
    assert_eq!(names(&p8.legal_moves()), ["d3", "c4", "f5", "e6"]);
}

#[test]
fn four_by_four_first_plies_by_hand() {
    let s4 = BoardSize::FOUR;
    let p = Position::start(s4, Rules::Othello);
    // White b2, c3; Black c2, b3.
    assert_eq!(names(&p.legal_moves()), ["b1", "a2", "d3", "c4"]);
    let after = p.play(Move::Play(sq("a2", s4))).unwrap();
    assert_eq!(after.get(sq("b2", s4)), Some(Color::Black));
    assert_eq!(after.disc_count(Color::Black), 4);
    assert_eq!(after.disc_count(Color::White), 1);
    assert_eq!(names(&after.legal_moves()), ["a1", "c1", "a3"]);
    assert_eq!(perft(&p, 1), 4);
    assert_eq!(perft(&p, 2), 12);
}

#[test]
fn six_by_six_first_plies_by_hand() {
    let s6 = BoardSize::SIX;
    let p = Position::start(s6, Rules::Othello);
    assert_eq!(names(&p.legal_moves()), ["c2", "b3", "e4", "d5"]);
    let after = p.play(Move::Play(sq("e4", s6))).unwrap();
    assert_eq!(names(&after.legal_moves()), ["e3", "c5", "e5"]);
    assert_eq!(perft(&p, 2), 12);
}

#[test]
fn reversi_placement_phase() {
    for size in [BoardSize::FOUR, BoardSize::SIX, BoardSize::EIGHT] {
        let p = Position::start(size, Rules::Reversi);
        assert_eq!(p.empty_count(), size.cells());
        assert!(p.in_placement_phase());
        let centre = p.centre();
        let mut legal = p.legal_moves();
        legal.sort();
        let mut want = centre.to_vec();
        want.sort();
        assert_eq!(legal, want);
        // Only centre squares, and nothing flips.
        assert_eq!(
            p.play(Move::Play(Square::new(0, 0))),
            Err(IllegalMove::NotCentre(Square::new(0, 0)))
        );
        assert_eq!(p.flips(centre[0]), Ok(Vec::new()));
        assert_eq!(perft(&p, 1), 4);
        assert_eq!(perft(&p, 2), 12);
        assert_eq!(perft(&p, 3), 24);
        assert_eq!(perft(&p, 4), 24);
    }
    let s8 = BoardSize::EIGHT;
    let start = Position::start(s8, Rules::Reversi);
    // Diagonal setup, the same as Othello's start.
    let diag = parse_transcript("e4d4d5e5", start.clone()).unwrap();
    assert!(!diag.current().in_placement_phase());
    assert_eq!(
        diag.current().cells(),
        Position::start(s8, Rules::Othello).cells()
    );
    // Parallel setup: Black on d4, d5; White on e4, e5.
    let par = parse_transcript("d4e4d5e5", start.clone()).unwrap();
    let cur = par.current();
    assert_eq!(cur.get(sq("d4", s8)), Some(Color::Black));
    assert_eq!(cur.get(sq("d5", s8)), Some(Color::Black));
    assert_eq!(cur.get(sq("e4", s8)), Some(Color::White));
    assert_eq!(cur.get(sq("e5", s8)), Some(Color::White));
    assert_eq!(cur.turn(), Color::Black);
    // Black's first normal move flips: f4 takes e4, f5 takes e5... and c3 flips nothing.
    assert_eq!(cur.flips(sq("f4", s8)), Ok(vec![sq("e4", s8)]));
    assert_eq!(
        cur.flips(sq("c3", s8)),
        Err(IllegalMove::NoFlips(sq("c3", s8)))
    );
    // During placement a centre square already taken is occupied, not "not centre".
    let one = parse_transcript("d4", start).unwrap();
    assert_eq!(
        one.current().play(Move::Play(sq("d4", s8))),
        Err(IllegalMove::Occupied(sq("d4", s8)))
    );
}

#[test]
fn pass_is_forced_and_never_voluntary() {
    let s4 = BoardSize::FOUR;
    let x = Some(Color::Black);
    let o = Some(Color::White);
    let e = None;
    // White's only disc c3 is flanked by Black from d4; White can flank nothing.
    #[rustfmt::skip]
    let cells = [
        x, x, e, e,
        x, x, e, e,
        e, e, o, e,
        e, e, e, e,
    ];
    let white = Position::setup(s4, Rules::Othello, &cells, Color::White).unwrap();
    assert!(white.legal_moves().is_empty());
    assert!(white.must_pass());
    assert!(!white.is_game_over());
    assert_eq!(white.moves(), vec![Move::Pass]);
    let black = white.play(Move::Pass).unwrap();
    assert_eq!(black.turn(), Color::Black);
    assert_eq!(
        black.play(Move::Pass),
        Err(IllegalMove::PassWithMoves(Color::Black))
    );
    // A transcript may leave the pass out: it is implied.
    let game = parse_transcript("", white.clone()).unwrap();
    assert!(game.moves().is_empty());
}

#[test]
fn game_ends_with_empty_squares_given_to_the_winner() {
    let s4 = BoardSize::FOUR;
    let x = Some(Color::Black);
    let o = Some(Color::White);
    let e = None;
    #[rustfmt::skip]
    let cells = [
        x, o, e, e,
        e, e, e, e,
        e, e, e, e,
        e, e, e, e,
    ];
    let p = Position::setup(s4, Rules::Othello, &cells, Color::Black).unwrap();
    let mut game = Game::new(p);
    game.play(Move::Play(sq("c1", s4))).unwrap();
    assert!(game.is_over());
    assert_eq!(game.current().play(Move::Pass), Err(IllegalMove::GameOver));
    let score = game.score().unwrap();
    assert_eq!(
        score,
        Score {
            black: 16,
            white: 0
        }
    );
    assert_eq!(score.outcome(), Outcome::Win(Color::Black));
    // A draw splits the empties.
    #[rustfmt::skip]
    let cells = [
        x, e, e, e,
        e, e, e, e,
        e, e, e, e,
        e, e, e, o,
    ];
    let drawn = Position::setup(s4, Rules::Othello, &cells, Color::Black).unwrap();
    assert!(drawn.is_game_over());
    assert_eq!(Score::of(&drawn), Score { black: 8, white: 8 });
    assert_eq!(Score::of(&drawn).outcome(), Outcome::Draw);
}

#[test]
fn flips_in_all_eight_directions() {
    let s8 = BoardSize::EIGHT;
    let x = Some(Color::Black);
    let o = Some(Color::White);
    let mut cells = [None; 64];
    // Black d4 surrounded by White rings, Black discs two steps away in every direction.
    let centre = sq("d4", s8);
    for (dc, dr) in DIRECTIONS {
        let c1 = (centre.col() as i8 + dc) as u8;
        let r1 = (centre.row() as i8 + dr) as u8;
        let c2 = (centre.col() as i8 + 2 * dc) as u8;
        let r2 = (centre.row() as i8 + 2 * dr) as u8;
        cells[Square::new(c1, r1).index(s8)] = o;
        cells[Square::new(c2, r2).index(s8)] = x;
    }
    let p = Position::setup(s8, Rules::Othello, &cells, Color::Black).unwrap();
    let flips = p.flips(centre).unwrap();
    assert_eq!(flips.len(), 8);
    let after = p.play(Move::Play(centre)).unwrap();
    assert_eq!(after.disc_count(Color::White), 0);
    assert_eq!(after.disc_count(Color::Black), 17);
}

#[test]
fn setup_checks_length() {
    assert!(Position::setup(BoardSize::FOUR, Rules::Othello, &[None; 15], Color::Black).is_none());
}
