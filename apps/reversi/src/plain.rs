//! Plain mode: the game as lines of text on standard input and output, for pipes, scripts and
//! terminals without a full-screen UI.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;

use reversi_core::{opening_name_at, Color, Move, Position, Square};
use reversi_engine::levels::Level;
use reversi_engine::{Candidate, ScoreKind};

use reversi_game::{
    clock_text, move_at, outcome_text, player_name, printable, record_note, side_label, LastMove,
    Replay, Session,
};

const HELP: &str = "Type a square (like f5) to play it, or one of:
  undo   take back your last move (and the computer's reply)
  redo   replay what undo took back
  hint   the computer's score for every legal move
  help   this list
  quit   leave the game
Passes are played for you. On the board X is Black, O is White, * a legal move, and the
last move is in parentheses.";

/// How a plain game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Finished,
    Quit,
    EndOfInput,
}

/// Plays `session` (a new game, or one resumed from the history) reading commands from
/// `input` and writing to `out`, until the game ends, `quit` or the end of the input.
///
/// With `echo`, each line read is written after the prompt, so that a transcript of a piped
/// game reads like a typed one.
///
/// # Errors
/// Reading or writing failed.
pub fn run_session(
    session: &mut Session,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    echo: bool,
) -> io::Result<Ending> {
    let settings = *session.settings();
    let stop = AtomicBool::new(false);
    writeln!(
        out,
        "{} {}: {} against {}. Type help for the commands.",
        settings.size,
        settings.rules,
        side_label(&settings, Color::Black),
        side_label(&settings, Color::White)
    )?;
    if let Some(id) = session.log_id() {
        writeln!(
            out,
            "Resuming game {id} after {}.",
            plural(session.game().moves().len(), "move")
        )?;
    }
    write!(
        out,
        "{}",
        board_text(session.position(), session.last_move())
    )?;
    // The opening line last named, so that a name is printed once, when it changes.
    let mut named = None;
    loop {
        if let Some(warning) = session.take_save_warning() {
            writeln!(out, "Warning: {warning}")?;
        }
        let opening = session.opening();
        if opening != named {
            if let Some(name) = opening {
                writeln!(out, "Opening: {name}")?;
            }
            named = opening;
        }
        session.check_time();
        if session.is_over() {
            writeln!(
                out,
                "Game over: {}",
                session.result_text().unwrap_or_default()
            )?;
            return Ok(Ending::Finished);
        }
        let turn = session.position().turn();
        let label = side_label(session.settings(), turn);
        if session.must_pass() {
            writeln!(out, "{label} has no legal move and passes.")?;
            if let Err(e) = session.pass() {
                writeln!(out, "{e}")?;
            }
            continue;
        }
        if let Some(computer) = session.computer_turn() {
            let ply = computer.ply;
            let Some(decision) = computer.run(&stop, &mut |_| {}) else {
                continue;
            };
            match session.play_decision(ply, &decision) {
                Ok(()) => {
                    writeln!(out, "{label} plays {}", decision.mv)?;
                    write!(
                        out,
                        "{}",
                        board_text(session.position(), session.last_move())
                    )?;
                }
                Err(e) => writeln!(out, "{label} tried {}: {e}", decision.mv)?,
            }
            continue;
        }
        match session.clocks() {
            Some(c) => write!(
                out,
                "[Black {} | White {}] {label} to move> ",
                clock_text(c.black),
                clock_text(c.white)
            )?,
            None => write!(out, "{label} to move> ")?,
        }
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            writeln!(out, "End of input: the game is left unfinished.")?;
            return Ok(Ending::EndOfInput);
        }
        let command = line.trim();
        if echo {
            writeln!(out, "{command}")?;
        }
        match command.to_ascii_lowercase().as_str() {
            "" => {}
            "quit" | "exit" => {
                writeln!(out, "Game left unfinished.")?;
                return Ok(Ending::Quit);
            }
            "help" | "?" => writeln!(out, "{HELP}")?,
            "undo" => match session.undo() {
                0 => writeln!(out, "Nothing to undo.")?,
                n => {
                    writeln!(out, "Took back {}.", plural(n, "move"))?;
                    write!(
                        out,
                        "{}",
                        board_text(session.position(), session.last_move())
                    )?;
                }
            },
            "redo" => match session.redo() {
                0 => writeln!(out, "Nothing to redo.")?,
                n => {
                    writeln!(out, "Replayed {}.", plural(n, "move"))?;
                    write!(
                        out,
                        "{}",
                        board_text(session.position(), session.last_move())
                    )?;
                }
            },
            "hint" => {
                let hints = crate::advisor::get().hints(
                    session.position(),
                    Level::DEFAULT,
                    &stop,
                    &mut |_| {},
                );
                writeln!(out, "{}", hints_line(&hints))?;
            }
            _ => match session.position().parse_square(command) {
                Err(e) => writeln!(out, "{e}")?,
                Ok(sq) => match session.play(sq) {
                    Err(e) => writeln!(out, "{e}")?,
                    Ok(()) => {
                        write!(
                            out,
                            "{}",
                            board_text(session.position(), session.last_move())
                        )?;
                    }
                },
            },
        }
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The hints as one line, best first, e.g. `Hints (exact): f5 +2, d3 +2, …`.
#[must_use]
pub fn hints_line(hints: &[Candidate]) -> String {
    let Some(first) = hints.first() else {
        return "No move to hint: nothing is legal here.".into();
    };
    // Book values among searched ones are tagged one by one.
    let mixed = hints.iter().any(|c| c.kind != first.kind);
    let list: Vec<String> = hints
        .iter()
        .map(|c| {
            let tag = if mixed && c.kind == ScoreKind::Book {
                " (book)"
            } else {
                ""
            };
            format!("{} {}{tag}", c.mv, c.short_score())
        })
        .collect();
    format!("Hints ({}): {}", first.kind, list.join(", "))
}

/// The board as text: `X` Black, `O` White, `.` empty, `*` a legal move, the last move in
/// parentheses; then the disc counts and the last move with the discs it flipped.
#[must_use]
pub fn board_text(pos: &Position, last: Option<LastMove>) -> String {
    let n = pos.size().get();
    let legal = pos.legal_moves();
    let last_sq = match last {
        Some(LastMove {
            mv: Move::Play(sq), ..
        }) => Some(sq),
        _ => None,
    };
    let mut out = String::from("   ");
    for c in 0..n {
        out.push(' ');
        out.push((b'a' + c) as char);
    }
    out.push('\n');
    for r in 0..n {
        let _ = write!(out, "{:>3}", r + 1);
        for c in 0..n {
            let sq = Square::new(c, r);
            let ch = match pos.get(sq) {
                Some(color) => color.symbol(),
                None if legal.contains(&sq) => '*',
                None => '.',
            };
            let before = if Some(sq) == last_sq {
                '('
            } else if c > 0 && Some(Square::new(c - 1, r)) == last_sq {
                ')'
            } else {
                ' '
            };
            out.push(before);
            out.push(ch);
        }
        if Some(Square::new(n - 1, r)) == last_sq {
            out.push(')');
        }
        out.push('\n');
    }
    let _ = write!(
        out,
        "Black X {}  White O {}",
        pos.disc_count(Color::Black),
        pos.disc_count(Color::White)
    );
    if let Some(last) = last {
        match last.mv {
            Move::Pass => {
                let _ = write!(out, "  last: {} passed", last.color);
            }
            Move::Play(sq) => {
                let flipped: Vec<String> = last.flipped.iter().map(Square::to_string).collect();
                let _ = write!(
                    out,
                    "  last: {} {sq} flipping {}",
                    last.color,
                    flipped.join(" ")
                );
            }
        }
    }
    out.push('\n');
    out
}

/// Writes a stored game move by move (`reversi history replay --plain`): a heading, the start,
/// then each move and the board after it (with the opening line's name when it changes), and
/// where the game ended.
///
/// # Errors
/// Writing failed.
pub fn print_replay(replay: &Replay, out: &mut dyn Write) -> io::Result<()> {
    let info = &replay.info;
    writeln!(
        out,
        "Game {}: {} (Black) vs {} (White), {} {}{}",
        info.id,
        player_name(&info.black),
        player_name(&info.white),
        info.size,
        info.rules,
        match &info.started_at {
            Some(d) => format!(", started {}", printable(d)),
            None => String::new(),
        }
    )?;
    writeln!(out, "Start:")?;
    write!(out, "{}", board_text(&replay.game.positions()[0], None))?;
    let mut named = None;
    for ply in 1..=replay.len() {
        let Some(last) = move_at(&replay.game, ply) else {
            break;
        };
        let note = replay.moves.get(ply - 1).map_or(String::new(), record_note);
        writeln!(out)?;
        writeln!(out, "{ply}. {} {}{note}", last.color, last.mv)?;
        write!(
            out,
            "{}",
            board_text(&replay.game.positions()[ply], Some(last))
        )?;
        let opening = opening_name_at(&replay.game, ply);
        if opening != named {
            if let Some(name) = opening {
                writeln!(out, "Opening: {name}")?;
            }
            named = opening;
        }
    }
    writeln!(out)?;
    let pos = replay.game.current();
    writeln!(
        out,
        "After {} moves: Black {}, White {}; {}",
        replay.len(),
        pos.disc_count(Color::Black),
        pos.disc_count(Color::White),
        outcome_text(info, &replay.game)
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use reversi_core::{BoardSize, Rules};
    use reversi_game::Settings;

    fn play(settings: Settings, script: &str) -> (Ending, String) {
        let mut input = script.as_bytes();
        let mut out = Vec::new();
        let mut session = Session::new(settings);
        let ending = run_session(&mut session, &mut input, &mut out, true).unwrap();
        (ending, String::from_utf8(out).unwrap())
    }

    #[test]
    fn the_board_marks_legal_moves_and_the_last_move() {
        let mut s = Session::new(Settings {
            black: reversi_game::Player::Human,
            white: reversi_game::Player::Human,
            ..Settings::default()
        });
        s.play(s.position().parse_square("f5").unwrap()).unwrap();
        let text = board_text(s.position(), s.last_move());
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "    a b c d e f g h");
        assert_eq!(lines[3], "  3 . . . . . . . .");
        assert_eq!(lines[4], "  4 . . . O X * . .");
        assert_eq!(lines[5], "  5 . . . X X(X). .");
        assert_eq!(lines[6], "  6 . . . * . * . .");
        assert_eq!(lines[9], "Black X 4  White O 1  last: Black f5 flipping e5");
    }

    #[test]
    fn bad_input_is_answered_and_the_prompt_comes_back() {
        let (ending, out) = play(Settings::default(), "zz\na1\nquit\n");
        assert_eq!(ending, Ending::Quit);
        assert!(out.contains("\"zz\" is not a square name"), "{out}");
        assert!(out.contains("a1 flips no disc"), "{out}");
        assert_eq!(out.matches("Black (you) to move> ").count(), 3);
        assert!(out.contains("Black (you) to move> zz\n"), "{out}");
    }

    #[test]
    fn the_opening_is_named_once_when_it_changes() {
        let settings = Settings {
            black: reversi_game::Player::Human,
            white: reversi_game::Player::Human,
            ..Settings::default()
        };
        let (_, out) = play(settings, "f5\nd6\nc3\nd3\nc4\nf4\nundo\nundo\nquit\n");
        let named: Vec<&str> = out.lines().filter(|l| l.starts_with("Opening:")).collect();
        assert_eq!(
            named,
            [
                "Opening: Perpendicular Opening",
                "Opening: Tiger",
                "Opening: Perpendicular Opening"
            ],
            "{out}"
        );
        // Under the board of the move that reached it, before the next prompt.
        assert!(
            out.contains("last: Black c4 flipping d4\nOpening: Tiger\nWhite to move> "),
            "{out}"
        );
    }

    #[test]
    fn end_of_input_ends_cleanly() {
        let (ending, out) = play(Settings::default(), "");
        assert_eq!(ending, Ending::EndOfInput);
        assert!(out.ends_with("End of input: the game is left unfinished.\n"));
    }

    #[test]
    fn hint_scores_every_move_on_a_small_board() {
        let settings = Settings {
            size: BoardSize::FOUR,
            rules: Rules::Othello,
            ..Settings::default()
        };
        let (_, out) = play(settings, "hint\n");
        // 4x4 is solved at once; its four first moves are symmetric, so one value.
        let line = out.lines().find(|l| l.contains("Hints")).unwrap();
        let list = line.split_once("Hints (exact): ").unwrap().1;
        let mut squares: Vec<&str> = list.split(", ").map(|h| &h[..2]).collect();
        squares.sort_unstable();
        assert_eq!(squares, ["a2", "b1", "c4", "d3"], "{line}");
        let scores: Vec<&str> = list.split(", ").map(|h| &h[3..]).collect();
        assert!(scores.iter().all(|s| *s == scores[0]), "{line}");
    }
}
