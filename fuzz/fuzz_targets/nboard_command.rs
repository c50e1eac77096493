//! Fuzzes the NBoard command reader (`Command::parse`, `Command::interrupts`) line by line,
//! and asserts that every command read, written back in its plain form, reads as the same
//! command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_protocol::nboard::Command;

/// The command as a GUI would write it.
fn line(command: &Command) -> String {
    match command {
        Command::NBoard(v) => format!("nboard {v}"),
        Command::SetDepth(d) => format!("set depth {d}"),
        Command::SetGame(g) => format!("set game {g}"),
        Command::SetContempt(c) => format!("set contempt {c}"),
        Command::Move(m) => format!("move {m}"),
        Command::Hint(n) => format!("hint {n}"),
        Command::Go => "go".into(),
        Command::Ping(n) => format!("ping {n}"),
        Command::Learn => "learn".into(),
        Command::Analyze => "analyze".into(),
        Command::Quit => "quit".into(),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for text_line in text.lines() {
        let _ = Command::interrupts(text_line);
        let Ok(command) = Command::parse(text_line) else {
            continue;
        };
        let written = line(&command);
        assert_eq!(
            Command::parse(&written),
            Ok(command),
            "{text_line:?} written as {written:?}"
        );
    }
});
