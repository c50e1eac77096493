//! Command-line arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use reversi_core::{BoardSize, Rules};

use crate::player::Player;

#[derive(Debug, Parser)]
#[command(
    name = "reversi",
    version,
    about = "Reversi/Othello: play, analyse and measure"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Game database of the full-screen game opened without a command (and of `play` when it
    /// names none) [default: $REVERSI_DB, else $XDG_DATA_HOME/reversi/games.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Games started from the menu are not saved to the history.
    #[arg(long)]
    pub no_save: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game: full-screen in a terminal, or as plain text with --plain or from a pipe.
    #[command(after_help = crate::player::levels_help())]
    Play(PlayArgs),
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
    /// Solve endgame positions exactly and check the answers against the file.
    ///
    /// Prints, per position, the move found, its score, the expected score, ok/WRONG, nodes,
    /// time and nodes/s; exits non-zero if any answer is wrong.
    Solve(SolveArgs),
    /// Game history: list, show, delete, export and import stored games.
    History(crate::commands::history::HistoryArgs),
    /// Speak the NBoard protocol (version 2) on standard input and output, as an engine for
    /// NBoard and other GUIs.
    Nboard(crate::commands::nboard::NboardArgs),
    /// Play a match between two engines (internal levels or NBoard programs) on XOT openings,
    /// each twice with colours swapped; report the score and an Elo difference.
    Match(crate::commands::match_cmd::MatchArgs),
    /// Serve the game in the browser: the page and its JSON API, games saved to the history.
    Serve(crate::commands::serve::ServeArgs),
    /// The trained pattern evaluation: training data, fitting and measures.
    Train(crate::commands::train::TrainArgs),
    /// Benchmarks.
    ///
    /// Without a subcommand: the engine's node-count signature (fixed positions, one thread,
    /// fixed depths) and its speed.
    Bench {
        #[command(subcommand)]
        what: Option<BenchCommand>,
    },
    /// The computer levels: midgame depth and endgame solving depths of each.
    Levels,
}

/// `reversi solve` options.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// OBF file of positions (one a line: 64 squares, side to move, `;`, best scores).
    #[arg(required_unless_present = "size")]
    pub file: Option<PathBuf>,
    /// Instead of a file, solve the start position of this board size (4, 6 or 8) and print
    /// a perfect line.
    #[arg(long, conflicts_with = "file")]
    pub size: Option<BoardSize>,
    /// Start rule with --size.
    #[arg(long, default_value = "othello", requires = "size")]
    pub rules: Rules,
    /// Search threads [default: the number of cores].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Solve for win/loss/draw only.
    #[arg(long)]
    pub wld: bool,
    /// Transposition table size in MB (1 GB: FFO #53 on 2 threads took 196 s against 239 s
    /// with 256 MB).
    #[arg(long, default_value_t = 1024)]
    pub hash_mb: usize,
    /// With --size: store the exact value of every position within --plies plies of the
    /// start in this file (the table the top level plays from; 4x4 and 6x6).
    #[arg(long, requires = "size")]
    pub store: Option<PathBuf>,
    /// Plies from the start covered by --store.
    #[arg(long, default_value_t = 8, requires = "store")]
    pub plies: u32,
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// The classic algorithms on the same positions: states explored, time, and a check that
    /// all of them find the same value.
    Algorithms {
        /// Deepest search depth (every depth from 1 is measured).
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// How many positions.
        #[arg(long, default_value_t = 10)]
        positions: usize,
        /// Board size; 8x8 takes XOT openings, other sizes a fixed random walk from the start.
        #[arg(long, default_value = "8")]
        size: BoardSize,
        /// XOT openings file for 8x8 [default: $REVERSI_DATA/xot-large.txt, or
        /// ../shared/data/xot-large.txt]
        #[arg(long)]
        openings: Option<PathBuf>,
    },
    /// Perft and move-generation speed on 8x8, scalar and SIMD code side by side.
    Perft {
        /// Perft depth from the start position.
        #[arg(long, default_value_t = 11)]
        depth: u32,
    },
}

/// `reversi play` options.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Board size: an even number from 4 to 16.
    #[arg(long, default_value = "8")]
    pub size: BoardSize,
    /// Start rule: othello (four-disc start) or reversi (empty board, centre placement).
    #[arg(long, default_value = "othello")]
    pub rules: Rules,
    /// Who plays Black, who moves first: human, ai, ai:LEVEL, ai:ALGORITHM:DEPTH (see below).
    #[arg(long, default_value = "human")]
    pub black: Player,
    /// Who plays White.
    #[arg(long, default_value = "ai")]
    pub white: Player,
    /// Plain text on standard input and output instead of the full-screen board (automatic
    /// when standard input or output is not a terminal).
    #[arg(long)]
    pub plain: bool,
    /// Seed of the computer players' random choices [default: from the clock].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Game database the game is saved to, move by move [default: $REVERSI_DB, else
    /// $XDG_DATA_HOME/reversi/games.sqlite3, else ~/.local/share/reversi/games.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Play without saving the game to the history.
    #[arg(long, conflicts_with = "db")]
    pub no_save: bool,
}
