//! `reversi perft` from the command line prints the published counts.

#![allow(clippy::unwrap_used)]

use reversi_testkit::{Output, TestCommand};

fn reversi(args: &[&str]) -> Output {
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .run()
}

fn leaves(stdout: &str) -> Vec<u64> {
    stdout
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            f.next()?.parse::<u32>().ok()?;
            f.next()?.parse().ok()
        })
        .collect()
}

#[test]
fn perft_prints_the_bik_counts() {
    let out = reversi(&["perft", "9"]).assert_success().stdout;
    assert_eq!(
        leaves(&out),
        [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]
    );
    assert!(out.contains("leaves/s"));
}

#[test]
fn perft_on_other_sizes_and_rules() {
    let out = reversi(&["perft", "4", "--size", "6", "--rules", "reversi"])
        .assert_success()
        .stdout;
    assert_eq!(leaves(&out), [4, 12, 24, 24]);
    let out = reversi(&["perft", "3", "--size", "16"])
        .assert_success()
        .stdout;
    assert_eq!(leaves(&out), [4, 12, 56]);
}

#[test]
fn bad_arguments_are_named() {
    let err = reversi(&["perft", "3", "--size", "7"])
        .assert_failure()
        .stderr;
    assert!(err.contains("invalid board size"), "{err}");
    let err = reversi(&["perft", "3", "--rules", "go"])
        .assert_failure()
        .stderr;
    assert!(err.contains("unknown start rule"), "{err}");
}
