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

#[test]
fn another_evaluation_orders_the_moves_and_the_answers_stay_right() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = three_positions(dir.path());
    let run = |extra: &[&str]| {
        let mut args = vec![
            "solve",
            file.to_str().unwrap(),
            "--threads",
            "1",
            "--hash-mb",
            "16",
        ];
        args.extend_from_slice(extra);
        let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
            .args(&args)
            .run();
        assert!(out.status.success(), "{out}");
        assert_eq!(out.stdout.matches(" ok ").count(), 3, "{out}");
        out.stdout
    };
    let shipped = run(&[]);
    let net = root().join("crates/engine/weights/eval-net.bin");
    let other = run(&["--weights", net.to_str().unwrap()]);
    assert_eq!(nodes(&shipped).len(), 3, "{shipped}");
    assert_ne!(nodes(&shipped), nodes(&other), "{shipped}\n{other}");
}

#[test]
fn a_damaged_weights_file_is_refused_by_name() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = three_positions(dir.path());
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, b"RVPATNET but not really").expect("writing");
    let out = TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "solve",
            file.to_str().unwrap(),
            "--weights",
            bad.to_str().unwrap(),
        ])
        .run();
    assert!(!out.status.success(), "{out}");
    assert!(out.stderr.contains("bad.bin"), "{out}");
    assert!(!out.stderr.contains("panicked"), "{out}");
}
