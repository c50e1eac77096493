//! Deep labels for WTHOR games: `train deep` samples and values positions of a WTHOR file, and
//! `train data --deep-labels` takes them in place of the games' theoretical scores.

use std::fs;
use std::path::Path;

use reversi_train::data::{self, Labelling};
use reversi_train::deep::{self, DeepOptions};
use reversi_train::label_file::read_labels;
use reversi_train::Kind;

fn quiet(_: &str) {}

fn labelling(deep_labels: Option<&Path>) -> Labelling {
    Labelling {
        exact_empties: 8,
        also_exact: vec![],
        also_every: 1,
        hash_mb: 1,
        deep_labels: deep_labels.map(Path::to_path_buf),
    }
}

fn options(wtb: &Path, out: &Path) -> DeepOptions {
    DeepOptions {
        games: wtb.to_path_buf(),
        out: out.to_path_buf(),
        depth: 4,
        exact_empties: 24,
        empties: (24, 40),
        per_game: 2,
        seed: 1,
        weights: None,
        hash_mb: 1,
        threads: 2,
    }
}

#[test]
fn wthor_deep_labels_replace_the_theoretical_scores_they_name() {
    // The smallest committed year with a hundred games.
    let dir = tempfile::tempdir().expect("a folder");
    let wthor = dir.path().join("wthor");
    fs::create_dir(&wthor).expect("made");
    let wtb = wthor.join("WTH_1982.wtb");
    fs::copy(reversi_testkit::data_file("wthor/WTH_1982.wtb"), &wtb).expect("copied");
    let labels_dir = dir.path().join("deep-labels");

    let report = deep::run(&options(&wtb, &labels_dir), &quiet).expect("labels");
    let path = labels_dir.join("WTH_1982.labels");
    assert_eq!(report.file, path);
    let labels = read_labels(&path).expect("reads");
    assert_eq!(labels.len(), report.labels);
    // Two positions a game of about a hundred (the few illegal or unfinished have none).
    assert!(labels.len() > 150, "{}", labels.len());
    assert!(labels.iter().any(|l| l.exact) && labels.iter().any(|l| !l.exact));
    // A second run goes on where the first stopped: it labels the last game again (a stop
    // may have cut it short) and comes to the same file.
    let text = fs::read_to_string(&path).expect("reads");
    let again = deep::run(&options(&wtb, &labels_dir), &quiet).expect("resumes");
    assert_eq!(again.labels, labels.len());
    assert!(again.added <= 2, "{}", again.added);
    assert_eq!(fs::read_to_string(&path).expect("reads"), text);

    let plain_out = dir.path().join("plain");
    let deep_out = dir.path().join("deep");
    data::run(&wthor, &plain_out, &labelling(None), None, 2, &quiet).expect("plain data");
    let with = labelling(Some(&labels_dir));
    data::run(&wthor, &deep_out, &with, None, 2, &quiet).expect("data with labels");
    let plain = data::read(&plain_out.join("wthor-1982.bin")).expect("reads");
    let deep = data::read(&deep_out.join("wthor-1982.bin")).expect("reads");
    assert_eq!(plain.len(), deep.len());
    assert!(plain.iter().zip(&deep).all(|(p, d)| p.board == d.board));
    // Only theoretical scores changed, each into a label's kind; an exact label at 24
    // empties meets WTHOR's own exact score there and leaves it.
    let mut changed = 0;
    for (p, d) in plain.iter().zip(&deep) {
        if p != d {
            changed += 1;
            assert_eq!(p.kind, Kind::Theoretical, "{p:?} -> {d:?}");
            assert!(matches!(d.kind, Kind::Searched | Kind::Solved), "{d:?}");
        }
    }
    let searched = labels.iter().filter(|l| !l.exact).count();
    assert!(searched > 0);
    assert_eq!(
        changed, searched,
        "every searched label in place, nothing else"
    );
    assert_eq!(
        deep.iter().filter(|d| d.kind == Kind::Searched).count(),
        searched
    );

    // Labels made for another file are refused, naming the label file.
    fs::copy(reversi_testkit::data_file("wthor/WTH_1981.wtb"), &wtb).expect("replaced");
    let e = data::run(&wthor, &dir.path().join("other"), &with, None, 1, &quiet)
        .expect_err("labels of another file")
        .to_string();
    assert!(
        e.contains("WTH_1982.labels") && e.contains("made for other games"),
        "{e}"
    );
}
