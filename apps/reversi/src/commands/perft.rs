//! `reversi perft`: leaf counts, time and speed for each depth.

use std::process::ExitCode;
use std::time::Instant;

use reversi_core::{BoardSize, Position, Rules};
use reversi_engine::perft::perft_position;

pub fn run(depth: u32, size: BoardSize, rules: Rules) -> anyhow::Result<ExitCode> {
    let start = Position::start(size, rules);
    outln!("perft {size} {rules}: a pass is one ply, an early end one leaf")?;
    outln!(
        "{:>5} {:>20} {:>10} {:>16}",
        "depth",
        "leaves",
        "seconds",
        "leaves/s"
    )?;
    for d in 1..=depth {
        let t = Instant::now();
        let leaves = perft_position(&start, d);
        let secs = t.elapsed().as_secs_f64();
        outln!(
            "{d:>5} {leaves:>20} {secs:>10.3} {:>16}",
            format_rate(leaves as f64 / secs.max(1e-9))
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A rate with thousands separators, e.g. `651,234,000`.
pub fn format_rate(rate: f64) -> String {
    let n = rate.round() as u64;
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
