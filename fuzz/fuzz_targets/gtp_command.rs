//! Fuzzes the GTP line reader (`Request::parse`: id, comments, control characters, command
//! and arguments) line by line, and asserts that every command read, written back in its
//! plain form with its id, reads as the same request.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_core::{Color, Move};
use reversi_protocol::gtp::{Command, Request};

fn color(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// The command as a controller would write it.
fn line(command: &Command) -> String {
    match command {
        Command::ProtocolVersion => "protocol_version".into(),
        Command::Name => "name".into(),
        Command::Version => "version".into(),
        Command::KnownCommand(name) => format!("known_command {name}"),
        Command::ListCommands => "list_commands".into(),
        Command::Quit => "quit".into(),
        Command::BoardSize(n) => format!("boardsize {n}"),
        Command::ClearBoard => "clear_board".into(),
        Command::Komi(k) => format!("komi {k}"),
        Command::Play(c, Move::Pass) => format!("play {} pass", color(*c)),
        Command::Play(c, Move::Play(sq)) => format!("play {} {sq}", color(*c)),
        Command::GenMove(c) => format!("genmove {}", color(*c)),
        Command::Undo => "undo".into(),
        Command::ShowBoard => "showboard".into(),
        Command::FinalScore => "final_score".into(),
        Command::TimeSettings {
            main,
            byo_yomi,
            stones,
        } => format!("time_settings {main} {byo_yomi} {stones}"),
        Command::TimeLeft {
            color: c,
            seconds,
            stones,
        } => format!("time_left {} {seconds} {stones}", color(*c)),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for text_line in text.lines() {
        let Some(request) = Request::parse(text_line) else {
            continue;
        };
        let Ok(command) = &request.command else {
            continue;
        };
        let id = request.id.map(|n| format!("{n} ")).unwrap_or_default();
        let written = format!("{id}{}", line(command));
        let again = Request::parse(&written);
        // Debug text, so that a komi of NaN compares equal to itself.
        assert_eq!(
            format!("{again:?}"),
            format!("{:?}", Some(&request)),
            "{text_line:?} written as {written:?}"
        );
    }
});
