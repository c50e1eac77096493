//! `reversi solve` from the command line: the answers checked against the file, and the
//! evaluation that orders the moves taken from a weights file.

use std::path::PathBuf;

use reversi_testkit::{data_file, TestCommand};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The first three FFO positions (14 empties each) in a file of their own.
fn three_positions(dir: &std::path::Path) -> PathBuf {
    let all = std::fs::read_to_string(data_file("obf/fforum-1-19.obf")).expect("the FFO suite");
    let three: String = all.lines().take(3).map(|l| format!("{l}\n")).collect();
    let path = dir.join("three.obf");
    std::fs::write(&path, three).expect("writing the positions");
    path
}

/// The node counts a run printed, one a position.
fn nodes(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.contains(" ok "))
        .map(|l| l.split_whitespace().nth(6).unwrap_or_default().to_string())
        .collect()
}

/// Solves `file` on one thread with a 16 MB table and the options `extra`; checks that the
/// run succeeds with `right` answers right, and returns what it printed.
fn solve(file: &std::path::Path, right: usize, extra: &[&str]) -> String {
    let mut args = vec![
        "solve",
        file.to_str().expect("a UTF-8 path"),
        "--threads",
        "1",
    ];
    args.extend_from_slice(&["--hash-mb", "16"]);
    args.extend_from_slice(extra);
    let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(&args)
        .run();
    assert!(out.status.success(), "{out}");
    assert_eq!(out.stdout.matches(" ok ").count(), right, "{out}");
    out.stdout
}

#[test]
fn another_evaluation_orders_the_moves_and_the_answers_stay_right() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = three_positions(dir.path());
    let shipped = solve(&file, 3, &[]);
    let net = root().join("crates/engine/weights/eval-net.bin");
    let other = solve(&file, 3, &["--weights", net.to_str().unwrap()]);
    assert_eq!(nodes(&shipped).len(), 3, "{shipped}");
    assert_ne!(nodes(&shipped), nodes(&other), "{shipped}\n{other}");
}

#[test]
fn the_solver_can_order_by_another_evaluation() {
    // FFO #21 and #22 (15 and 17 empties): the solver's ordering asks the evaluation from
    // 14 empties.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let all = std::fs::read_to_string(data_file("obf/fforum-20-39.obf")).expect("the FFO suite");
    let two: String = all
        .lines()
        .skip(1)
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    let file = dir.path().join("two.obf");
    std::fs::write(&file, two).expect("writing the positions");
    let shipped = solve(&file, 2, &[]);
    // Only the solver's ordering from another file: the shipped midgame, other nodes.
    let gen2 = root().join("crates/engine/weights/eval-gen2.bin");
    let ordered = solve(&file, 2, &["--order-weights", gen2.to_str().unwrap()]);
    assert_ne!(nodes(&shipped), nodes(&ordered), "{shipped}\n{ordered}");
}

#[test]
fn a_damaged_weights_file_is_refused_by_name() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = three_positions(dir.path());
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, b"RVPATNET but not really").expect("writing");
    for flag in ["--weights", "--order-weights"] {
        let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
            .args(["solve", file.to_str().unwrap(), flag, bad.to_str().unwrap()])
            .run();
        assert!(!out.status.success(), "{flag}: {out}");
        assert!(out.stderr.contains("bad.bin"), "{flag}: {out}");
        assert!(!out.stderr.contains("panicked"), "{flag}: {out}");
    }
}
