//! The command line: the program's options and its commands, each command's own options
//! defined beside the command in `commands/`.

use std::path::PathBuf;

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
    /// Game database of the full-screen game opened without a command (and of `play` when it
    /// names none) [default: $REVERSI_DB, else $XDG_DATA_HOME/reversi/games.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Games started from the menu are not saved to the history.
    #[arg(long)]
    pub no_save: bool,
    /// The opening book the computer levels and hints use [default: the shipped book]
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// Play and hint without an opening book.
    #[arg(long, global = true)]
    pub no_book: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game: full-screen in a terminal, or as plain text with --plain or from a pipe.
    #[command(after_help = reversi_game::levels_help())]
    Play(crate::commands::play::PlayArgs),
    /// Score every legal move of a position (board and side, OBF, GGF or transcript) with what
    /// the score is worth and the line expected after it.
    #[command(after_help = reversi_game::levels_help())]
    Analyze(crate::commands::analyze::AnalyzeArgs),
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
    Solve(crate::commands::solve::SolveArgs),
    /// Game history: list, show, delete, export and import stored games.
    History(crate::commands::history::HistoryArgs),
    /// Speak the NBoard protocol (version 2) on standard input and output, as an engine for
    /// NBoard and other GUIs.
    Nboard(crate::commands::nboard::NboardArgs),
    /// Speak GTP (the Go Text Protocol as Othello engines speak it) on standard input and
    /// output, as an engine for match runners and GUIs that drive Edax this way.
    Gtp(crate::commands::gtp::GtpArgs),
    /// Play a match between two engines (internal levels, NBoard or GTP programs) on XOT openings,
    /// each twice with colours swapped; report the score and an Elo difference.
    Match(crate::commands::match_cmd::MatchArgs),
    /// Serve the game in the browser: the page and its JSON API, games saved to the history.
    Serve(crate::commands::serve::ServeArgs),
    /// The trained pattern evaluation: training data, fitting and measures.
    Train(crate::commands::train::TrainArgs),
    /// Benchmarks.
    ///
    /// Without a subcommand: the engine's node-count signature (fixed positions, one thread,
    /// fixed depths) and its speed, with the midgame searches' and the exact solves' apart.
    Bench {
        #[command(subcommand)]
        what: Option<crate::commands::bench::BenchCommand>,
        /// Without a subcommand: evaluate with this weights file instead of the shipped one
        /// (the signature is then the file's, not the pinned one); the exact solver still
        /// orders its moves by the shipped ordering evaluation, so only the evaluation
        /// changes.
        #[arg(long)]
        weights: Option<std::path::PathBuf>,
    },
    /// The computer levels: midgame depth and endgame solving depths of each.
    Levels,
    /// The opening book: build, deepen, extend, learn, merge, show, stats, export, import.
    Book(crate::commands::book::BookArgs),
}
