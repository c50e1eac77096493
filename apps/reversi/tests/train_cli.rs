//! `reversi train selfplay`, `label` and `data` split into shards and joined by `train
//! merge`: the same bytes as one run for N = 1, 2 and 7, whatever order the shards are
//! given in; finished shards skipped; shards of different jobs, missing and damaged shards
//! refused.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use reversi_testkit::{data_dir, data_file, Output, TestCommand};

/// The program, finding the XOT openings in the shared data whatever the folder it runs in.
fn reversi(args: &[&str]) -> Output {
    TestCommand::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .env("REVERSI_DATA", data_dir())
        .run()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Seven self-play games at depth 2, solved exactly from 8 empties.
const SELFPLAY: &[&str] = &[
    "train",
    "selfplay",
    "--games",
    "7",
    "--depth",
    "2",
    "--exact-empties",
    "8",
    "--seed",
    "3",
];

/// Labels at depth 3, solved exactly from 10 empties.
const LABEL: &[&str] = &["train", "label", "--depth", "3", "--exact-empties", "10"];

fn run(base: &[&str], extra: &[&str]) -> Output {
    let mut args = base.to_vec();
    args.extend_from_slice(extra);
    reversi(&args).assert_success()
}

/// Runs `base` as `count` shards (last first) into `dir`/shards and merges them into
/// `dir`/merged; returns the merged file's bytes.
fn sharded(base: &[&str], extra: &[&str], dir: &Path, count: usize, name: &str) -> Vec<u8> {
    let shards = dir.join("shards");
    for k in (0..count).rev() {
        let shard = format!("{k}/{count}");
        let mut more = extra.to_vec();
        more.extend_from_slice(&["--out", s(&shards), "--shard", &shard]);
        run(base, &more);
    }
    let merged = dir.join("merged");
    let out = reversi(&["train", "merge", "--out", s(&merged), s(&shards)]).assert_success();
    assert!(out.stdout.contains(name), "{out}");
    std::fs::read(merged.join(name)).unwrap()
}

#[test]
fn selfplay_and_labels_merge_into_the_bytes_of_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    run(SELFPLAY, &["--out", s(&whole)]);
    let played = whole.join("selfplay-3.bin");
    let one = std::fs::read(&played).unwrap();
    assert!(one.len() > 7 * 40 * 18, "seven games of positions");
    let labelled = tmp.path().join("labelled");
    run(LABEL, &["--data", s(&played), "--out", s(&labelled)]);
    let relabelled = std::fs::read(labelled.join("selfplay-3.bin")).unwrap();
    assert_eq!(relabelled.len(), one.len(), "one label per position");
    assert_ne!(relabelled, one, "deeper searches change some labels");

    for count in [1, 2, 7] {
        let dir = tmp.path().join(format!("n{count}"));
        let merged = sharded(SELFPLAY, &[], &dir.join("play"), count, "selfplay-3.bin");
        assert_eq!(merged, one, "self-play in {count} shards");
        let extra = ["--data", s(&played)];
        let merged = sharded(LABEL, &extra, &dir.join("label"), count, "selfplay-3.bin");
        assert_eq!(merged, relabelled, "labels in {count} shards");
    }

    // Random moves after the opening: other games, the same bytes in shards.
    let random = ["--random-moves", "4"];
    let varied = tmp.path().join("varied");
    run(SELFPLAY, &[&random[..], &["--out", s(&varied)]].concat());
    let varied = std::fs::read(varied.join("selfplay-3.bin")).unwrap();
    assert_ne!(varied, one, "random moves change the games");
    let merged = sharded(
        SELFPLAY,
        &random,
        &tmp.path().join("r3"),
        3,
        "selfplay-3.bin",
    );
    assert_eq!(merged, varied, "self-play with random moves in 3 shards");

    // A shard already written is skipped, not played again.
    let shards = tmp.path().join("n2/play/shards");
    let out = run(SELFPLAY, &["--out", s(&shards), "--shard", "1/2"]);
    assert!(out.stderr.contains("done before, skipped"), "{out}");

    // `train fit` reads shard files as data files.
    let weights = tmp.path().join("w.bin");
    let out = reversi(&[
        "train",
        "fit",
        "--data",
        s(&shards),
        "--out",
        s(&weights),
        "--epochs",
        "1",
        "--stages",
        "2",
    ])
    .assert_success();
    assert!(out.stdout.contains("wrote"), "{out}");

    // Some patterns only: a smaller evaluation, for the solver's ordering.
    let small = tmp.path().join("small.bin");
    let fit_small = |extra: &[&str]| {
        let base = [
            "train",
            "fit",
            "--data",
            s(&shards),
            "--out",
            s(&small),
            "--epochs",
            "1",
            "--stages",
            "2",
        ];
        reversi(&[&base[..], extra].concat())
    };
    let out = fit_small(&["--patterns", "corner3x3,edge2x"]).assert_success();
    assert!(out.stdout.contains("wrote"), "{out}");
    let obf = tmp.path().join("two.obf");
    let ffo = std::fs::read_to_string(data_file("obf/fforum-1-19.obf")).unwrap();
    std::fs::write(&obf, ffo.lines().take(2).collect::<Vec<_>>().join("\n")).unwrap();
    let out = reversi(&[
        "solve",
        s(&obf),
        "--threads",
        "1",
        "--hash-mb",
        "16",
        "--order-weights",
        s(&small),
    ])
    .assert_success();
    assert_eq!(out.stdout.matches(" ok ").count(), 2, "{out}");
    // A pattern that does not exist, or patterns for a network, are refused by name.
    let out = fit_small(&["--patterns", "corner3x3,nonsense"]);
    assert!(
        !out.status.success() && out.stderr.contains("nonsense"),
        "{out}"
    );
    let out = fit_small(&["--patterns", "edge2x", "--model", "net"]);
    assert!(
        !out.status.success() && out.stderr.contains("--patterns"),
        "{out}"
    );

    // Networks of 16 units, then widened to 32 from them; never narrowed.
    let fit_net = |out: &Path, extra: &[&str]| {
        let base = [
            "train",
            "fit",
            "--model",
            "net",
            "--data",
            s(&shards),
            "--out",
            s(out),
            "--epochs",
            "1",
            "--generation",
            "3",
        ];
        reversi(&[&base[..], extra].concat())
    };
    let (narrow, wide) = (tmp.path().join("n16.bin"), tmp.path().join("n32.bin"));
    let out = fit_net(&narrow, &[]).assert_success();
    assert!(out.stdout.contains("18089 parameters"), "{out}");
    let out = fit_net(&wide, &["--start", s(&narrow), "--net-hidden", "32"]).assert_success();
    assert!(out.stdout.contains("38441 parameters"), "{out}");
    let out = fit_net(&narrow, &["--start", s(&wide), "--net-hidden", "16"]);
    assert!(
        !out.status.success() && out.stderr.contains("16 units a layer are not supported"),
        "{out}"
    );
    let out = fit_net(&narrow, &["--net-hidden", "24"]);
    assert!(!out.status.success() && out.stderr.contains("24"), "{out}");
    let out = fit_small(&["--net-hidden", "32"]);
    assert!(
        !out.status.success() && out.stderr.contains("--model net"),
        "{out}"
    );
}

#[test]
fn selfplay_reuses_openings_only_with_random_moves() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    // Seed 5000 of 3-game runs starts at opening 15,000, past the end of the XOT list.
    let far = [
        "--out",
        s(&out),
        "--games",
        "3",
        "--depth",
        "1",
        "--seed",
        "5000",
    ];
    let failed = reversi(&[&SELFPLAY[..2], &far[..]].concat()).assert_failure();
    assert!(failed.stderr.contains("holds only"), "{failed}");
    assert!(!out.join("selfplay-5000.bin").exists());
    run(
        &SELFPLAY[..2],
        &[&far[..], &["--random-moves", "2"]].concat(),
    );
    let bytes = std::fs::read(out.join("selfplay-5000.bin")).unwrap();
    assert!(bytes.len() > 3 * 40 * 18, "three games of positions");
}

#[test]
fn merge_refuses_missing_foreign_and_damaged_shards() {
    let tmp = tempfile::tempdir().unwrap();
    let shards = tmp.path().join("shards");
    let merged = tmp.path().join("merged");
    let s3 = ["--out", s(&shards), "--games", "3"];
    let base = &SELFPLAY[..2];
    for k in ["0/3", "2/3"] {
        run(base, &[&s3[..], &["--depth", "1", "--shard", k]].concat());
    }
    let out = reversi(&["train", "merge", "--out", s(&merged), s(&shards)]).assert_failure();
    assert!(out.stderr.contains("shards 1 of 3 are missing"), "{out}");

    // Shard 1 of another job (another depth) beside them.
    run(
        base,
        &[&s3[..], &["--depth", "2", "--shard", "1/3"]].concat(),
    );
    let out = reversi(&["train", "merge", "--out", s(&merged), s(&shards)]).assert_failure();
    assert!(out.stderr.contains("different jobs"), "{out}");

    let file = shards.join("selfplay-1-1-of-3.bin");
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let out = reversi(&["train", "merge", "--out", s(&merged), s(&file)]).assert_failure();
    assert!(out.stderr.contains("damaged"), "{out}");

    let plain = tmp.path().join("plain");
    run(base, &["--out", s(&plain), "--games", "1", "--depth", "1"]);
    let file = plain.join("selfplay-1.bin");
    let out = reversi(&["train", "merge", "--out", s(&merged), s(&file)]).assert_failure();
    assert!(out.stderr.contains("is not a shard file"), "{out}");
    assert!(!merged.join("selfplay-1.bin").exists());
}

#[test]
fn wthor_shards_merge_into_the_file_of_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    // The first 9 games of 1990: a small year.
    let db = std::fs::read(data_file("wthor/WTH_1990.wtb")).unwrap();
    let mut db = reversi_formats::wthor::parse_wtb(&db).unwrap();
    db.games.truncate(9);
    let wthor = tmp.path().join("wthor");
    std::fs::create_dir_all(&wthor).unwrap();
    let wtb = reversi_formats::wthor::write_wtb(&db);
    std::fs::write(wthor.join("WTH_1990.wtb"), wtb).unwrap();
    let base = [
        "train",
        "data",
        "--wthor",
        s(&wthor),
        "--exact-empties",
        "10",
    ];
    let whole = tmp.path().join("whole");
    run(&base, &["--out", s(&whole)]);
    let one = std::fs::read(whole.join("wthor-1990.bin")).unwrap();
    for count in [2, 7] {
        let dir = tmp.path().join(format!("n{count}"));
        let merged = sharded(&base, &[], &dir, count, "wthor-1990.bin");
        assert_eq!(merged, one, "{count} shards");
    }
}
