//! `reversi nboard` as a GUI runs it: a separate process on pipes, answering the
//! specification's example session, and a `ping` that interrupts a search that would not end.

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use reversi_testkit::TestCommand;

#[test]
fn example_session_and_ping_during_a_long_go() {
    let mut child = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["nboard", "--threads", "1", "--hash-mb", "8"])
        .spawn();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let until = |wanted: &dyn Fn(&str) -> bool| -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(5))
                .unwrap_or_else(|_| panic!("no answer within 5 s after {seen:?}"));
            let done = wanted(&line);
            seen.push(line);
            if done {
                return seen;
            }
        }
    };

    writeln!(
        stdin,
        "nboard 2\n\
         set game (;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]\
         TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
         B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)\n\
         set depth 6\n\
         ping 1\n\
         go"
    )
    .unwrap();
    let seen = until(&|l| l.starts_with("=== "));
    assert_eq!(seen[0], "set myname Reversi6");
    assert_eq!(seen[1], "pong 1");
    assert!(seen.iter().any(|l| l.starts_with("nodestats ")));
    let answer = seen.last().unwrap();
    let mv = &answer[4..6];
    // The legal moves of Black after f5 f6 d3 c5 e6 f7 e7 f4.
    let legal = [
        "C3", "C4", "D6", "E3", "F3", "G3", "G4", "G5", "G6", "D7", "F8",
    ];
    assert!(legal.contains(&mv), "{answer}");

    // A whole-game solve from the start never ends by itself; `ping` stops it.
    writeln!(stdin, "set game (;GM[Othello]TY[8];)\nset depth 60\ngo").unwrap();
    until(&|l| l == "set myname Reversi60");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    writeln!(stdin, "ping 2").unwrap();
    let seen = until(&|l| l == "pong 2");
    assert!(asked.elapsed() < Duration::from_secs(5));
    assert!(seen.iter().any(|l| l.starts_with("=== ")), "{seen:?}");

    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn end_of_input_ends_the_engine() {
    let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["nboard", "--threads", "1", "--hash-mb", "1"])
        .run()
        .assert_success();
    assert!(out.stdout.is_empty(), "{out}");
}
