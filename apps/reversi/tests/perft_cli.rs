//! `reversi perft` from the command line prints the published counts.

#![allow(clippy::unwrap_used)]

use std::process::Command;

fn reversi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
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
    let (ok, out, _) = reversi(&["perft", "9"]);
    assert!(ok);
    assert_eq!(
        leaves(&out),
        [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288]
    );
    assert!(out.contains("leaves/s"));
}

#[test]
fn perft_on_other_sizes_and_rules() {
    let (ok, out, _) = reversi(&["perft", "4", "--size", "6", "--rules", "reversi"]);
    assert!(ok);
    assert_eq!(leaves(&out), [4, 12, 24, 24]);
    let (ok, out, _) = reversi(&["perft", "3", "--size", "16"]);
    assert!(ok);
    assert_eq!(leaves(&out), [4, 12, 56]);
}

#[test]
fn bad_arguments_are_named() {
    let (ok, _, err) = reversi(&["perft", "3", "--size", "7"]);
    assert!(!ok);
    assert!(err.contains("invalid board size"), "{err}");
    let (ok, _, err) = reversi(&["perft", "3", "--rules", "go"]);
    assert!(!ok);
    assert!(err.contains("unknown start rule"), "{err}");
}
