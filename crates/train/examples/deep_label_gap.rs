//! How far the self-play games' final scores are from the deep labels of the same positions:
//! for each band of empties, the labels, the mean absolute difference and the mean signed
//! one, for the exact labels (the truth) and the searched ones apart.
//!
//! `cargo run --release -p reversi-train --example deep_label_gap [SELFPLAY_DIR LABELS_DIR]`
//! (default: the repository's `data/selfplay` and `data/deep-labels`).

use std::path::{Path, PathBuf};

use reversi_train::label_file::read_labels_for;
use reversi_train::GamesFile;

/// Bands of empties: 24, 25–29, 30–34, …, 45–50.
const BANDS: [(u32, u32); 6] = [(24, 24), (25, 29), (30, 34), (35, 39), (40, 44), (45, 50)];

#[derive(Default, Clone, Copy)]
struct Gap {
    n: usize,
    abs: i64,
    signed: i64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let mut args = std::env::args().skip(1);
    let games_dir = args.next().map_or(root.join("selfplay"), PathBuf::from);
    let labels_dir = args.next().map_or(root.join("deep-labels"), PathBuf::from);
    // [band][exact?]
    let mut gaps = [[Gap::default(); 2]; BANDS.len()];
    let mut files = 0;
    for entry in std::fs::read_dir(&labels_dir)? {
        let path = entry?.path();
        if path.extension().is_none_or(|x| x != "labels") {
            continue;
        }
        let Some(stem) = path.file_stem() else {
            continue;
        };
        let games_path = games_dir.join(stem).with_extension("games");
        let bytes = std::fs::read(&games_path)?;
        let games = GamesFile::from_bytes(&bytes, &games_path.display().to_string())?;
        let labels = read_labels_for(&path, &bytes)?;
        let plain = games.positions();
        let deep = games.positions_with(&labels)?;
        files += 1;
        // Each label's position: the games' positions follow one another.
        let mut at = 0;
        for g in &games.records {
            let count = g.positions(games.exact).len();
            for l in labels.iter().filter(|l| l.game == g.number) {
                let i = at + l.ply - usize::from(g.engine_from);
                let e = plain[i].board.empties().count_ones();
                let final_score = i64::from(plain[i].label);
                let diff = final_score - i64::from(deep[i].label);
                if let Some(b) = BANDS.iter().position(|&(lo, hi)| (lo..=hi).contains(&e)) {
                    let gap = &mut gaps[b][usize::from(l.exact)];
                    gap.n += 1;
                    gap.abs += diff.abs();
                    gap.signed += diff;
                }
            }
            at += count;
        }
    }
    println!("{files} label files; final score minus deep label, by empties");
    println!("| empties | exact labels | mean abs | mean signed | searched labels | mean abs | mean signed |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (&(lo, hi), g) in BANDS.iter().zip(&gaps) {
        let cell = |g: Gap| {
            if g.n == 0 {
                "0 | | ".to_string()
            } else {
                format!(
                    "{} | {:.2} | {:+.2}",
                    g.n,
                    g.abs as f64 / g.n as f64,
                    g.signed as f64 / g.n as f64
                )
            }
        };
        println!("| {lo}–{hi} | {} | {} |", cell(g[1]), cell(g[0]));
    }
    Ok(())
}
