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
//! The header names the games file and its CRC-32 (the one a games file ends with, of
//! everything before it; of the whole file for a WTHOR file), then the options. `GAME` is the
//! game's number in its run (its index in a WTHOR file), `PLY` the moves played before the
//! position (passes not counted, as in the games file), `SCORE` the value for the side to
//! move (discs, the empties to the winner), `KIND` `e` for an exact solve and `s` for a
//! search of `depth`. Self-play positions are sampled among those the engine played (not
//! the random opening moves); WTHOR positions among all of a game's, in games that are legal
//! to their end (`train data` skips the others too).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use reversi_core::XorShift64;
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::Board;

use reversi_formats::wthor::parse_wtb;

use crate::data::{replay, solve, value};
use crate::error::{Error, FileError};
use crate::games::{GameRecord, GamesFile};
use crate::label_file::{games_crc, wthor_crc, DeepLabel, MAGIC};
use crate::{eval_of, parallel, Progress};

/// Games labelled between two writes of the file.
const CHUNK: usize = 10;

/// What `reversi train deep` labels, and how.
#[derive(Debug, Clone)]
pub struct DeepOptions {
    /// The games file whose positions to sample (`data/selfplay/selfplay-N.games`, or a
    /// WTHOR file `WTH_YYYY.wtb`).
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
    let played = boards(game)
        .into_iter()
        .filter(|&(ply, _)| ply >= usize::from(game.engine_from));
    sample_from(played, game.number, a)
}

/// `per_game` of the positions `pool` (with their plies) of game `number` whose empties are
/// in range, drawn by a generator seeded with `seed` and the game's number; in ply order.
fn sample_from(
    pool: impl Iterator<Item = (usize, Board)>,
    number: usize,
    a: &DeepOptions,
) -> Vec<(usize, Board)> {
    let (lo, hi) = a.empties;
    let mut pool: Vec<(usize, Board)> = pool
        .filter(|&(_, b)| (lo..=hi).contains(&b.empties().count_ones()))
        .collect();
    let mut rng =
        XorShift64::new((a.seed ^ (number as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1);
    let mut chosen = Vec::new();
    while chosen.len() < a.per_game && !pool.is_empty() {
        let i = rng.below(pool.len() as u64) as usize;
        chosen.push(pool.swap_remove(i));
    }
    chosen.sort_by_key(|&(ply, _)| ply);
    chosen
}

/// The games a label file is made for: each game's number and the positions to label.
struct Source {
    /// What the header names the file by (see the module's documentation).
    crc: u32,
    /// Games in the file.
    games: usize,
    /// Each game's number and its sampled positions with their plies.
    samples: Vec<(usize, Vec<(usize, Board)>)>,
}

impl Source {
    /// The games of the file of bytes `bytes` named `name`: a games file, or a WTHOR file
    /// (by its `.wtb` name).
    fn read(name: &str, bytes: &[u8], a: &DeepOptions) -> Result<Source, Error> {
        if name.to_ascii_lowercase().ends_with(".wtb") {
            let db = parse_wtb(bytes).map_err(|e| Error::Wthor("reading", a.games.clone(), e))?;
            let samples = db
                .games
                .iter()
                .enumerate()
                .map(|(number, game)| {
                    // A game illegal or unfinished has nothing to label (no theoretical score).
                    let positions = replay(game).unwrap_or_default();
                    let pool = positions.into_iter().map(|(b, _)| b).enumerate();
                    (number, sample_from(pool, number, a))
                })
                .collect();
            return Ok(Source {
                crc: wthor_crc(bytes),
                games: db.games.len(),
                samples,
            });
        }
        let file = GamesFile::from_bytes(bytes, name)?;
        Ok(Source {
            crc: games_crc(bytes),
            games: file.games,
            samples: file
                .records
                .iter()
                .map(|g| (g.number, sample(g, a)))
                .collect(),
        })
    }
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
    let source = Source::read(&name, &bytes, a)?;
    let (eval, weights) = eval_of(a.weights.as_deref())?;
    let header = format!(
        "{MAGIC} games={name} crc32:{:08x} depth={} exact-empties={} empties={}-{} per-game={} seed={} weights={weights}",
        source.crc,
        a.depth,
        a.exact_empties,
        a.empties.0,
        a.empties.1,
        a.per_game,
        a.seed,
    );
    std::fs::create_dir_all(&a.out).map_err(FileError::on("creating", &a.out))?;
    let stem = Path::new(&name)
        .file_stem()
        .map_or(name.clone(), |s| s.to_string_lossy().into_owned());
    let target = a.out.join(format!("{stem}.labels"));
    let done = read_existing(&target, &header)?;
    let next_game = done.iter().map(|l| l.game + 1).max().unwrap_or(0);
    let todo: Vec<&(usize, Vec<(usize, Board)>)> = source
        .samples
        .iter()
        .filter(|(number, _)| *number >= next_game)
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
            .flat_map(|(number, chosen)| chosen.iter().map(move |&(ply, b)| (*number, ply, b)))
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
        let games_done = chunk.last().map_or(0, |(number, _)| number + 1);
        let secs = started.elapsed().as_secs_f64();
        progress.line(&format!(
            "{}: games up to {games_done} of {}, {} labels, {:.1} s a label",
            target.display(),
            source.games,
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
