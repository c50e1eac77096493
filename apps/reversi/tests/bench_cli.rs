//! `reversi bench algorithms` with tiny settings prints the table and agrees on the values.

#![allow(clippy::unwrap_used)]

use reversi_testkit::{data_file, Output, TestCommand};

fn bench(args: &[&str]) -> Output {
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["bench", "algorithms"])
        .args(args)
        .run()
}

/// (algorithm, depth, states, ratio) of each table row.
fn rows(out: &str) -> Vec<(String, u32, u64, String)> {
    out.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 5).then_some(())?;
            Some((
                f[0].to_string(),
                f[1].parse().ok()?,
                f[2].parse().ok()?,
                f[4].to_string(),
            ))
        })
        .collect()
}

fn check_table(out: &str, depth: u32) {
    let rows = rows(out);
    assert_eq!(rows.len(), 4 * depth as usize, "{out}");
    for d in 1..=depth {
        let at: Vec<_> = rows.iter().filter(|r| r.1 == d).collect();
        let names: Vec<&str> = at.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(names, ["minimax", "alphabeta", "negascout", "negascout-tt"]);
        assert_eq!(at[0].3, "1.000");
        // Pruning never explores more than minimax.
        assert!(at[1].2 <= at[0].2, "{out}");
    }
    assert!(out.contains("all algorithms found the same value"), "{out}");
}

#[test]
fn xot_openings_on_8x8() {
    let file = data_file("xot-large.txt");
    let out = bench(&[
        "--depth",
        "3",
        "--positions",
        "2",
        "--openings",
        file.to_str().unwrap(),
    ])
    .assert_success()
    .stdout;
    assert!(out.starts_with("2 positions on 8x8"), "{out}");
    check_table(&out, 3);
}

#[test]
fn random_walks_on_6x6() {
    let out = bench(&["--depth", "2", "--positions", "3", "--size", "6"])
        .assert_success()
        .stdout;
    check_table(&out, 2);
}

#[test]
fn a_missing_openings_file_is_named() {
    let err = bench(&["--depth", "1", "--openings", "/nonexistent/xot.txt"])
        .assert_failure()
        .stderr;
    assert!(err.contains("/nonexistent/xot.txt"), "{err}");
}

/// The `signature: N nodes` line `reversi bench` prints (N is pinned by the engine's own
/// test, crates/engine/tests/bench.rs).
fn signature(out: &str) -> &str {
    let line = out
        .lines()
        .find(|l| l.starts_with("signature: "))
        .unwrap_or_else(|| panic!("no signature in {out}"));
    &line[..line.find(';').unwrap_or(line.len())]
}

#[test]
fn the_bench_signature_is_the_same_in_every_kernel_set() {
    let run = |kernel: Option<&str>| {
        let mut cmd = TestCommand::new(env!("CARGO_BIN_EXE_reversi")).arg("bench");
        if let Some(k) = kernel {
            cmd = cmd.env("REVERSI_KERNEL", k);
        }
        cmd.run().assert_success().stdout
    };
    let fastest = run(None);
    assert!(signature(&fastest).ends_with(" nodes"), "{fastest}");
    // Every tier searches the same tree (only speed may differ); a tier above what the CPU
    // runs falls back to the best it does, so these runs are safe anywhere.
    for tier in ["portable", "x86-64-v3"] {
        let out = run(Some(tier));
        assert_eq!(signature(&out), signature(&fastest), "{tier}: {out}");
    }
}

/// The node count of the line of `reversi bench` that starts with `prefix` (`midgame: `,
/// `exact: ` or `signature: `).
fn nodes_of(out: &str, prefix: &str) -> u64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in {out}"));
    line[prefix.len()..line.find(" nodes").unwrap_or_else(|| panic!("{line}"))]
        .parse()
        .unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn bench_with_the_shipped_weights_file_searches_the_shipped_tree_split_in_two() {
    let shipped = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/engine/weights/eval-gen4.bin"
    );
    let run = |args: &[&str]| {
        TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
            .args(args)
            .run()
            .assert_success()
            .stdout
    };
    let (plain, named) = (run(&["bench"]), run(&["bench", "--weights", shipped]));
    // The solver keeps the shipped ordering evaluation, so naming the shipped file changes
    // nothing: the same tree, node for node.
    let total = nodes_of(&plain, "signature: ");
    assert_eq!(nodes_of(&named, "signature: "), total, "{plain}\n{named}");
    let (midgame, exact) = (nodes_of(&named, "midgame: "), nodes_of(&named, "exact: "));
    assert_eq!(midgame + exact, total, "{named}");
    assert!(midgame > 0 && exact > 0, "{named}");
}

/// The checksum `reversi bench eval` prints after timing.
fn eval_checksum(out: &str) -> String {
    let line = out
        .lines()
        .find(|l| l.starts_with("evaluation, ") && l.contains(" ns/call"))
        .unwrap_or_else(|| panic!("no evaluation line in {out}"));
    line[line.find("(checksum ").unwrap_or_else(|| panic!("{line}"))..].to_string()
}

#[test]
fn the_evaluation_bench_sums_the_same_values_in_every_kernel_set() {
    let run = |args: &[&str], kernel: &str| {
        TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
            .args(["bench", "eval", "--rounds", "1"])
            .args(args)
            .env("REVERSI_KERNEL", kernel)
            .run()
            .assert_success()
            .stdout
    };
    let shipped = eval_checksum(&run(&[], "x86-64-v4"));
    assert_eq!(eval_checksum(&run(&[], "portable")), shipped);
    // Another weights file evaluates the same positions to other values.
    let gen2 = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../crates/engine/weights/eval-gen2.bin"
    );
    assert_ne!(
        eval_checksum(&run(&["--weights", gen2], "portable")),
        shipped
    );
}

#[test]
fn the_evaluation_bench_names_a_missing_weights_file() {
    let err = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["bench", "eval", "--weights", "/nonexistent/w.bin"])
        .run()
        .assert_failure()
        .stderr;
    assert!(err.contains("/nonexistent/w.bin"), "{err}");
}
