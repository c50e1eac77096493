//! The command line under hostile conditions: standard output closed before the program
//! writes, and thread counts or table sizes that cannot work.

use std::process::{Command, Output, Stdio};

use reversi_testkit::TestCommand;

/// Runs `args` with standard output a pipe whose reader is already gone (the shared
/// `TestCommand` always reads standard output, so this one is spawned by hand).
fn into_closed_pipe(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("the reversi binary runs")
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    for args in [&["levels"][..], &["perft", "3"], &["--help"]] {
        let out = into_closed_pipe(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(
            out.status.success() || args == ["--help"],
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn impossible_thread_counts_and_table_sizes_are_refused_by_name() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["solve", "x.obf", "--threads", "0"],
            "0 threads cannot search",
        ),
        (&["nboard", "--threads", "100000"], "this machine runs"),
        (&["solve", "x.obf", "--hash-mb", "0"], "a 0 MB table"),
        (&["match", "--hash-mb", "999999999999"], "more than half"),
        (
            &["train", "data", "--out", "x", "--hash-mb", "lots"],
            "not a size in MB",
        ),
    ];
    for (args, expected) in cases {
        let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
            .args(args)
            .run();
        assert_eq!(out.status.code(), Some(2), "{out}");
        assert!(out.stderr.contains(expected), "{out}");
        assert!(!out.stderr.contains("panicked"), "{out}");
    }
}
