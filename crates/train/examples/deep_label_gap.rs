//! How far the self-play games' final scores are from the deep labels of the same positions:
//! for each band of empties, the labels, the mean absolute difference and the mean signed
//! one, for the exact labels (the truth) and the searched ones apart. With `--weights FILE`
//! (repeatable), the same for each evaluation's static value: its error against the deep
//! labels and against the final scores.
//!
//! `cargo run --release -p reversi-train --example deep_label_gap [SELFPLAY_DIR LABELS_DIR]
//! [--weights FILE ...]` (default: the repository's `data/selfplay` and `data/deep-labels`).

use std::path::{Path, PathBuf};

use reversi_engine::pattern::SCALE;
use reversi_train::label_file::read_labels_for;
use reversi_train::{load_eval, GamesFile};

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
    let (mut dirs, mut weights) = (Vec::new(), Vec::new());
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--weights" {
            let path = PathBuf::from(args.next().ok_or("--weights needs a file")?);
            weights.push((path.display().to_string(), load_eval(&path)?));
        } else {
            dirs.push(PathBuf::from(a));
        }
    }
    let mut dirs = dirs.into_iter();
    let games_dir = dirs.next().unwrap_or(root.join("selfplay"));
    let labels_dir = dirs.next().unwrap_or(root.join("deep-labels"));
    // [band][exact?]
    let mut gaps = [[Gap::default(); 2]; BANDS.len()];
    // [evaluation][band][against the deep label, against the final score]
    let mut evals = vec![[[Gap::default(); 2]; BANDS.len()]; weights.len()];
    let mut files = 0;
    for entry in std::fs::read_dir(&labels_dir)? {
        let path = entry?.path();
        if path.extension().is_none_or(|x| x != "labels") {
            continue;
        }
        // Self-play labels only: WTHOR games have no final score of this kind to compare.
        let Some(stem) = path
            .file_stem()
            .filter(|s| s.to_string_lossy().starts_with("selfplay-"))
        else {
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
                    gaps[b][usize::from(l.exact)].add(diff);
                    for ((_, eval), out) in weights.iter().zip(&mut evals) {
                        // In 1/SCALE discs, as the fit measures its error.
                        let value = i64::from(eval.raw(plain[i].board));
                        let scale = i64::from(SCALE);
                        out[b][0].add(value - scale * i64::from(deep[i].label));
                        out[b][1].add(value - scale * final_score);
                    }
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
                format!("{} | {:.2} | {:+.2}", g.n, g.mean_abs(), g.mean_signed())
            }
        };
        println!("| {lo}–{hi} | {} | {} |", cell(g[1]), cell(g[0]));
    }
    for ((name, _), out) in weights.iter().zip(&evals) {
        println!();
        println!("{name}: static value minus label, in discs, by empties (all labels)");
        println!("| empties | labels | against deep: mean abs | signed | against final score: mean abs | signed |");
        println!("| --- | ---: | ---: | ---: | ---: | ---: |");
        for (&(lo, hi), g) in BANDS.iter().zip(out) {
            let [d, f] = *g;
            if d.n == 0 {
                continue;
            }
            println!(
                "| {lo}–{hi} | {} | {:.2} | {:+.2} | {:.2} | {:+.2} |",
                d.n,
                d.mean_abs() / f64::from(SCALE),
                d.mean_signed() / f64::from(SCALE),
                f.mean_abs() / f64::from(SCALE),
                f.mean_signed() / f64::from(SCALE)
            );
        }
    }
    Ok(())
}

impl Gap {
    fn add(&mut self, diff: i64) {
        self.n += 1;
        self.abs += diff.abs();
        self.signed += diff;
    }

    fn mean_abs(self) -> f64 {
        self.abs as f64 / self.n.max(1) as f64
    }

    fn mean_signed(self) -> f64 {
        self.signed as f64 / self.n.max(1) as f64
    }
}
