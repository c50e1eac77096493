//! Deep labels: positions sampled from the self-play games, each valued by a search deeper than
//! the ones that played the game, kept as text lines `GAME PLY SCORE KIND` beside the games
//! (a few bytes a label: the positions are rebuilt from the games' moves). A label file grows
//! a chunk of games at a time and a stopped run goes on where it was.
//!
//! The file `NAME.labels` for the games file `NAME.games`:
//! ```text
//! # reversi deep labels 1: games=selfplay-328.games crc32:1a2b3c4d depth=14 exact-empties=20 empties=24-50 per-game=1 seed=1 weights=shipped
//! 0 31 -4 s
//! 1 27 6 e
//! ```
//! The header names the games file and its CRC-32 (the one the games file ends with, of
//! everything before it), then the options. `GAME` is the game's number in its run, `PLY` the moves played before the position (passes
//! not counted, as in the games file), `SCORE` the value for the side to move (discs, the
//! empties to the winner), `KIND` `e` for an exact solve and `s` for a search of `depth`.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use reversi_core::XorShift64;
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::Board;

use crate::data::{solve, value};
use crate::error::{Error, FileError};
use crate::games::{GameRecord, GamesFile};
use crate::label_file::{games_crc, DeepLabel, MAGIC};
use crate::{eval_of, parallel, Progress};

/// Games labelled between two writes of the file.
const CHUNK: usize = 10;

/// What `reversi train deep` labels, and how.
#[derive(Debug, Clone)]
pub struct DeepOptions {
    /// The games file whose positions to sample (`data/selfplay/selfplay-N.games`).
    pub games: PathBuf,
    /// Folder of the label files.
    pub out: PathBuf,
    /// Depth of the midgame searches.
    pub depth: u32,
    /// Positions with this many empties or fewer are solved exactly.
    pub exact_empties: u32,
    /// The empties of the positions sampled, at least and at most.
    pub empties: (u32, u32),
    /// Positions sampled a game.
    pub per_game: usize,
    /// Seeds the sampling (with each game's number).
    pub seed: u64,
    /// Weights of the searches (`None`: the shipped weights).
    pub weights: Option<PathBuf>,
    /// Transposition table of each thread, in MB (cleared before every position).
    pub hash_mb: usize,
    /// Positions labelled at once, one thread each (the labels do not depend on it).
    pub threads: usize,
}

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeepReport {
    /// The label file.
    pub file: PathBuf,
    /// Labels in it now, and how many this run added.
    pub labels: usize,
    /// Labels this run added.
    pub added: usize,
}

impl std::fmt::Display for DeepReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} labels ({} new)",
            self.file.display(),
            self.labels,
            self.added
        )
    }
}

/// The board before each move of `game` (passing where the side to move has none), with the
/// ply.
fn boards(game: &GameRecord) -> Vec<(usize, Board)> {
    let mut board = Board::START;
    let mut out = Vec::with_capacity(game.moves.len());
    for (ply, sq) in game.moves.iter().enumerate() {
        if board.moves() == 0 {
            board = board.pass();
        }
        out.push((ply, board));
        if board.moves() & sq.bit() == 0 {
            break;
        }
        board = board.play(sq.index());
    }
    out
}

/// The positions of `game` to label: `per_game` plies drawn from those the engine played
/// with empties in range, by a generator seeded with `seed` and the game's number.
#[must_use]
pub fn sample(game: &GameRecord, a: &DeepOptions) -> Vec<(usize, Board)> {
    let (lo, hi) = a.empties;
    let mut pool: Vec<(usize, Board)> = boards(game)
        .into_iter()
        .filter(|&(ply, b)| {
            let e = b.empties().count_ones();
            ply >= usize::from(game.engine_from) && (lo..=hi).contains(&e)
        })
        .collect();
    let mut rng =
        XorShift64::new((a.seed ^ (game.number as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1);
    let mut chosen = Vec::new();
    while chosen.len() < a.per_game && !pool.is_empty() {
        let i = rng.below(pool.len() as u64) as usize;
        chosen.push(pool.swap_remove(i));
    }
    chosen.sort_by_key(|&(ply, _)| ply);
    chosen
}

/// Labels `a.games` into `a.out/NAME.labels`, going on from the labels already there.
///
/// # Errors
/// A games file that does not read, a label file of other options or that does not read,
/// weights that do not load, a file that cannot be written.
pub fn run(a: &DeepOptions, progress: &dyn Progress) -> Result<DeepReport, Error> {
    let name = a
        .games
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = std::fs::read(&a.games).map_err(FileError::on("reading", &a.games))?;
    let file = GamesFile::from_bytes(&bytes, &name)?;
    let (eval, weights) = eval_of(a.weights.as_deref())?;
    let header = format!(
        "{MAGIC} games={name} crc32:{:08x} depth={} exact-empties={} empties={}-{} per-game={} seed={} weights={weights}",
        games_crc(&bytes),
        a.depth,
        a.exact_empties,
        a.empties.0,
        a.empties.1,
        a.per_game,
        a.seed,
    );
    std::fs::create_dir_all(&a.out).map_err(FileError::on("creating", &a.out))?;
    let stem = name.strip_suffix(".games").unwrap_or(&name);
    let target = a.out.join(format!("{stem}.labels"));
    let done = read_existing(&target, &header)?;
    let next_game = done.iter().map(|l| l.game + 1).max().unwrap_or(0);
    let todo: Vec<&GameRecord> = file
        .records
        .iter()
        .filter(|g| g.number >= next_game)
        .collect();
    if done.is_empty() {
        std::fs::write(&target, format!("{header}\n"))
            .map_err(FileError::on("writing", &target))?;
    }
    let limits = Limits::midgame(a.depth);
    let started = Instant::now();
    let mut added = 0;
    for chunk in todo.chunks(CHUNK) {
        let jobs: Vec<(usize, usize, Board)> = chunk
            .iter()
            .flat_map(|g| {
                sample(g, a)
                    .into_iter()
                    .map(move |(ply, b)| (g.number, ply, b))
            })
            .collect();
        let labels = parallel::map(
            &jobs,
            a.threads,
            || {
                let mut e = Engine::new(a.hash_mb, 1);
                e.set_evaluator(eval.clone());
                e
            },
            |engine, &(game, ply, board)| {
                engine.clear();
                let exact = board.empties().count_ones() <= a.exact_empties;
                let score = if exact {
                    solve(engine, board)
                } else {
                    value(engine, board, &limits)
                };
                DeepLabel {
                    game,
                    ply,
                    score,
                    exact,
                }
            },
            |_| {},
        );
        let mut text = String::new();
        for l in &labels {
            let _ = writeln!(text, "{}", l.line());
        }
        let mut out = std::fs::OpenOptions::new()
            .append(true)
            .open(&target)
            .map_err(FileError::on("writing", &target))?;
        out.write_all(text.as_bytes())
            .map_err(FileError::on("writing", &target))?;
        added += labels.len();
        let games_done = chunk.last().map_or(0, |g| g.number + 1);
        let secs = started.elapsed().as_secs_f64();
        progress.line(&format!(
            "{}: games up to {games_done} of {}, {} labels, {:.1} s a label",
            target.display(),
            file.games,
            done.len() + added,
            secs / added.max(1) as f64
        ));
    }
    Ok(DeepReport {
        file: target,
        labels: done.len() + added,
        added,
    })
}

/// The labels already in `path` (none when it does not exist), checked to have been made with
/// the options of `header`; a last line cut short by a stop is dropped.
fn read_existing(path: &Path, header: &str) -> Result<Vec<DeepLabel>, Error> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(FileError::on("reading", path)(e).into()),
    };
    let mut lines = text.lines();
    if lines.next() != Some(header) {
        return Err(Error::DeepLabels(
            path.to_path_buf(),
            format!("made with other options than these ({header})"),
        ));
    }
    let mut labels: Vec<DeepLabel> = lines.map_while(DeepLabel::parse).collect();
    // A run stopped while writing may have left its last game short: it is labelled again.
    if let Some(last) = labels.last().map(|l| l.game) {
        labels.retain(|l| l.game != last);
    }
    let mut kept = format!("{header}\n");
    for l in &labels {
        let _ = writeln!(kept, "{}", l.line());
    }
    if kept != text {
        std::fs::write(path, kept).map_err(FileError::on("writing", path))?;
    }
    Ok(labels)
}
