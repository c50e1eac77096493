//! Command-line arguments.

use clap::{Parser, Subcommand};
use reversi_core::{BoardSize, Rules};

#[derive(Debug, Parser)]
#[command(
    name = "reversi",
    version,
    about = "Reversi/Othello: play, analyse and measure"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaves of the game tree to each depth (move-generation proof and speed).
    ///
    /// A pass counts as one ply and a game that ends early counts as one leaf (Aart Bik's
    /// convention). From the 8x8 Othello start this prints 4, 12, 56, 244, 1396, …
    Perft {
        /// Deepest depth to count.
        depth: u32,
        /// Board size: 4, 6, 8, 10, 12, 14 or 16.
        #[arg(long, default_value = "8")]
        size: BoardSize,
        /// Start rule: othello (four-disc start) or reversi (empty board, centre placement).
        #[arg(long, default_value = "othello")]
        rules: Rules,
    },
    /// Benchmarks.
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Perft and move-generation speed on 8x8, scalar and SIMD code side by side.
    Perft {
        /// Perft depth from the start position.
        #[arg(long, default_value_t = 11)]
        depth: u32,
    },
}
