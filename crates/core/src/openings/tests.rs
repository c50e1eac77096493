//! The built-in list read whole, the names found in every orientation and by transposition,
//! the longest line winning, and the games that get no name.

#![allow(clippy::unwrap_used)]

use super::*;

fn game(transcript: &str) -> Game {
    parse_transcript(transcript, standard_start()).unwrap()
}

fn name(transcript: &str) -> Option<&'static str> {
    opening_name(&game(transcript))
}

#[test]
fn every_line_of_the_list_is_read_and_its_moves_are_legal() {
    assert!(
        LIST.starts_with("# Othello opening names"),
        "the header stays"
    );
    let mut read = 0;
    for line in LIST.lines() {
        match parse_line(line) {
            Ok(Some((opening, game))) => {
                assert!(!opening.moves.contains(&Move::Pass), "{line:?}");
                assert_eq!(game.moves(), opening.moves);
                read += 1;
            }
            Ok(None) => assert!(line.starts_with('#') || line.trim().is_empty()),
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(read, 68);
    assert_eq!(openings().len(), 68);
    assert_eq!(openings()[0].name(), "Diagonal Opening");
}

#[test]
fn every_name_is_found_in_all_eight_orientations() {
    for opening in openings() {
        for s in Symmetry::ALL {
            // Half of the symmetries keep the start; the other half mirror it, and the turned
            // moves are legal from the mirrored start.
            let start = s.position(&standard_start());
            let moves: Vec<Move> = opening
                .moves()
                .iter()
                .map(|&m| s.apply_move(m, 8))
                .collect();
            let game = Game::from_moves(start, &moves)
                .unwrap_or_else(|e| panic!("{} turned by {s:?}: {e:?}", opening.name()));
            assert_eq!(
                opening_name(&game),
                Some(opening.name()),
                "{} turned by {s:?}: {}",
                opening.name(),
                crate::format_transcript(&moves, false)
            );
        }
    }
}

#[test]
fn a_transposition_gets_the_name_of_the_position_it_reaches() {
    // Stephenson is f5d6c3d3c4f4f6: c3 and c4 swapped reach the same discs.
    assert_eq!(name("f5d6c4d3c3f4f6"), Some("Stephenson"));
    // On the way, f5d6c4d3c3 is the Tiger's position after a No-Cat start.
    assert_eq!(name("f5d6c4"), Some("Perpendicular Opening"));
    assert_eq!(name("f5d6c4d3c3"), Some("Tiger"));
    // The Cow (f5f4e3f6e6) reached from the Diagonal Opening, then on to the Tanida.
    assert_eq!(name("f5f6e6f4e3"), Some("Cow"));
    assert_eq!(name("f5f6e6f4e3c5c4e7"), Some("Tanida"));
}

#[test]
fn the_longest_named_line_wins_and_its_name_stays() {
    assert_eq!(opening_name(&Game::new(standard_start())), None);
    assert_eq!(name("f5"), None);
    assert_eq!(name("f5d6"), Some("Perpendicular Opening"));
    assert_eq!(name("f5d6c3"), Some("Perpendicular Opening"));
    assert_eq!(name("f5d6c3d3c4"), Some("Tiger"));
    assert_eq!(name("f5d6c3d3c4f4"), Some("Tiger"));
    assert_eq!(name("f5d6c3d3c4f4f6"), Some("Stephenson"));
    assert_eq!(name("f5d6c3d3c4f4f6g5"), Some("No-Kung"));
    // Far past the longest named line, the name of the last one followed stays.
    let mut g = game("f5d6c3d3c4f4f6g5");
    while g.moves().len() < 40 {
        let mv = g.current().moves()[0];
        g.play(mv).unwrap();
    }
    assert_eq!(opening_name(&g), Some("No-Kung"));
    assert_eq!(opening_name_at(&g, 6), Some("Tiger"));
    assert_eq!(opening_name_at(&g, 7), Some("Stephenson"));
    assert_eq!(opening_name_at(&g, 1000), Some("No-Kung"));
    // The longest line of the list, 16 moves.
    assert_eq!(
        name("d3c3c4c5d6f4g3c6e3f5e6d7g5f6b4e2"),
        Some("Brightstein")
    );
}

#[test]
fn other_boards_rules_and_starts_have_no_name() {
    let ten = Position::start(BoardSize::new(10).unwrap(), Rules::Othello);
    assert_eq!(opening_name(&parse_transcript("g6e7", ten).unwrap()), None);
    let six = Position::start(BoardSize::SIX, Rules::Othello);
    assert_eq!(opening_name(&parse_transcript("e4c5", six).unwrap()), None);
    // Reversi's placement phase filled the same way as the Othello start, then f5 d6.
    let reversi = Position::start(BoardSize::EIGHT, Rules::Reversi);
    let g = parse_transcript("e4d4d5e5f5d6", reversi).unwrap();
    assert_eq!(g.positions()[4].cells(), standard_start().cells());
    assert_eq!(opening_name(&g), None);
    // Starting from the position after f5, d6 reaches the Perpendicular Opening's discs, but
    // after one move of this game, not two.
    let after_f5 = game("f5").current().clone();
    assert_eq!(
        opening_name(&parse_transcript("d6", after_f5).unwrap()),
        None
    );
}

#[test]
fn the_first_line_listed_names_a_shared_position() {
    // d3c5 is f5d6 reflected in the h1-a8 diagonal.
    let table = build("# two names for one position\nf5d6\tFirst\nd3c5\tSecond\nbad\tline\n");
    let names: Vec<&str> = table.openings.iter().map(Opening::name).collect();
    assert_eq!(names, ["First", "Second"], "the bad line is left out");
    assert_eq!(table.name_at(&game("f5d6"), 2), Some("First"));
    assert_eq!(table.name_at(&game("d3c5"), 2), Some("First"));
    assert_eq!(table.name_at(&game("c4e3"), 2), Some("First"));
}

#[test]
fn bad_lines_say_what_is_wrong() {
    assert_eq!(parse_line("# a comment"), Ok(None));
    assert_eq!(parse_line(""), Ok(None));
    assert_eq!(
        parse_line("f5d6 Perpendicular").unwrap_err().to_string(),
        "\"f5d6 Perpendicular\": expected moves, a tab and a name"
    );
    assert_eq!(
        parse_line("f5a1\tNonsense").unwrap_err().to_string(),
        "\"f5a1\\tNonsense\": move 2 (\"a1\"): a1 flips no disc"
    );
}
