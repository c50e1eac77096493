//! `reversi train data`: training positions from the WTHOR games, labelled by exact solves
//! near the end and by the games' theoretical scores before that, one file per year.
//!
//! A data file is the magic `RVTRAIN1` then 18-byte records: the player's and the opponent's
//! discs (u64 little-endian, side to move first), the label (i8, final disc difference for
//! the side to move) and how it was found ([`Kind`]). Each year's file is written beside its
//! final name and renamed once complete, so an interrupted run resumes with the next file.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::{bail, Context};
use reversi_engine::engine::{Engine, Limits};
use reversi_engine::pattern::fit::Sample;
use reversi_engine::search::final_score;
use reversi_engine::{Board, Sq};
use reversi_formats::wthor::{parse_wtb, Game};

const MAGIC: &[u8; 8] = b"RVTRAIN1";
const RECORD: usize = 18;

/// How a label was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// Solved exactly by this program.
    Solved = 0,
    /// The game's theoretical score (perfect play from 24 empties): exact for the position
    /// at 24 empties, the best available value before it.
    Theoretical = 1,
    /// The theoretical score at exactly 24 empties, where WTHOR's solve started: exact.
    Exact24 = 2,
    /// A deeper search's value (self-play).
    Searched = 3,
}

impl Kind {
    fn from_byte(b: u8) -> Option<Kind> {
        [
            Kind::Solved,
            Kind::Theoretical,
            Kind::Exact24,
            Kind::Searched,
        ]
        .into_iter()
        .find(|k| *k as u8 == b)
    }

    /// Whether the label is the position's exact value.
    pub fn is_exact(self) -> bool {
        matches!(self, Kind::Solved | Kind::Exact24)
    }
}

/// A labelled position of a data file.
#[derive(Debug, Clone, Copy)]
pub struct Record {
    pub board: Board,
    pub label: i8,
    pub kind: Kind,
}

impl Record {
    pub fn sample(&self) -> Sample {
        Sample {
            board: self.board,
            label: self.label,
        }
    }
}

pub fn encode(records: &[Record]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + RECORD * records.len());
    out.extend_from_slice(MAGIC);
    for r in records {
        out.extend_from_slice(&r.board.player.to_le_bytes());
        out.extend_from_slice(&r.board.opponent.to_le_bytes());
        out.push(r.label as u8);
        out.push(r.kind as u8);
    }
    out
}

/// Reads a data file.
pub fn read(path: &Path) -> anyhow::Result<Vec<Record>> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        bail!("{} is not a training data file", path.display());
    }
    let body = &bytes[8..];
    if body.len() % RECORD != 0 {
        bail!(
            "{} is cut short: {} bytes after the magic is not a whole number of {RECORD}-byte records",
            path.display(),
            body.len()
        );
    }
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, c)| {
            let word = |at: usize| {
                let mut w = [0u8; 8];
                w.copy_from_slice(&c[at..at + 8]);
                u64::from_le_bytes(w)
            };
            let board = Board::new(word(0), word(8));
            let kind = Kind::from_byte(c[17]);
            match kind {
                Some(kind) if board.player & board.opponent == 0 && (c[16] as i8).abs() <= 64 => {
                    Ok(Record {
                        board,
                        label: c[16] as i8,
                        kind,
                    })
                }
                _ => bail!("{}: record {i} is damaged", path.display()),
            }
        })
        .collect()
}

/// The data files of a folder: (year or name, path), sorted by name.
pub fn files(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    for e in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = e?.path();
        if path.extension().is_some_and(|x| x == "bin") {
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            out.push((stem, path));
        }
    }
    out.sort();
    Ok(out)
}

/// The year of a data file named `wthor-YYYY`.
pub fn wthor_year(stem: &str) -> Option<u16> {
    stem.strip_prefix("wthor-")?.parse().ok()
}

/// The positions of a WTHOR game, side to move first, each with whether Black is to move;
/// `None` when the game has an illegal move or stops before its end.
pub fn replay(game: &Game) -> Option<Vec<(Board, bool)>> {
    let mut b = Board::START;
    let mut black = true;
    let mut out = Vec::with_capacity(60);
    for &sq in &game.moves {
        let sq = Sq::from_square(sq)?;
        if b.moves() == 0 {
            b = b.pass();
            black = !black;
        }
        if b.moves() & sq.bit() == 0 {
            return None;
        }
        out.push((b, black));
        b = b.play(sq.index());
        black = !black;
    }
    (b.moves() == 0 && b.pass().moves() == 0).then_some(out)
}

/// The exact value of `b` for the side to move (passing if it must).
pub fn solve(engine: &Engine, b: Board) -> i32 {
    let stop = AtomicBool::new(false);
    if b.moves() == 0 {
        if b.pass().moves() == 0 {
            return final_score(b, u64::MAX);
        }
        return -solve(engine, b.pass());
    }
    engine
        .search(b, u64::MAX, &Limits::exact(), &stop, &mut |_| {})
        .score()
        .unwrap_or(0)
}

/// Labels the positions of one WTHOR file.
fn label_games(
    games: &[Game],
    exact_empties: u32,
    also_exact: &[u32],
    also_every: usize,
    engine: &Engine,
) -> (Vec<Record>, usize) {
    let mut out = Vec::new();
    let mut skipped = 0;
    for (g, game) in games.iter().enumerate() {
        let also = if g % also_every.max(1) == 0 {
            also_exact
        } else {
            &[]
        };
        let Some(positions) = replay(game) else {
            skipped += 1;
            continue;
        };
        let black_diff = 2 * i32::from(game.theoretical_score) - 64;
        engine.clear();
        // From the end backwards, so the solves of later positions help the earlier ones.
        for &(board, black) in positions.iter().rev() {
            let empties = board.empties().count_ones();
            let (label, kind) = if empties <= exact_empties || also.contains(&empties) {
                (solve(engine, board), Kind::Solved)
            } else {
                let v = if black { black_diff } else { -black_diff };
                let kind = if empties == 24 {
                    Kind::Exact24
                } else {
                    Kind::Theoretical
                };
                (v, kind)
            };
            out.push(Record {
                board,
                label: label as i8,
                kind,
            });
        }
    }
    (out, skipped)
}

/// `reversi train data`.
pub fn run(
    wthor: &Path,
    out: &Path,
    exact_empties: u32,
    also_exact: &[u32],
    also_every: usize,
    hash_mb: usize,
) -> anyhow::Result<()> {
    fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut inputs: Vec<PathBuf> = fs::read_dir(wthor)
        .with_context(|| format!("reading {}", wthor.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
        .collect();
    inputs.sort();
    if inputs.is_empty() {
        bail!("no .wtb files in {}", wthor.display());
    }
    let engine = Engine::new(hash_mb, 1);
    let started = Instant::now();
    let (mut done, mut total) = (0usize, 0usize);
    for (k, input) in inputs.iter().enumerate() {
        let bytes = fs::read(input).with_context(|| format!("reading {}", input.display()))?;
        let db = parse_wtb(&bytes).with_context(|| format!("reading {}", input.display()))?;
        let target = out.join(format!("wthor-{}.bin", db.header.year));
        if target.exists() {
            eprintln!(
                "[{}/{}] {}: done before, skipped",
                k + 1,
                inputs.len(),
                target.display()
            );
            continue;
        }
        let t = Instant::now();
        let (records, skipped) =
            label_games(&db.games, exact_empties, also_exact, also_every, &engine);
        let tmp = target.with_extension("bin.part");
        let mut f =
            fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        f.write_all(&encode(&records))?;
        f.sync_all()?;
        fs::rename(&tmp, &target)?;
        done += db.games.len() - skipped;
        total += records.len();
        eprintln!(
            "[{}/{}] {}: {} games ({} skipped: illegal or unfinished), {} positions, {} solved, {:.1} s (total {:.0} s)",
            k + 1,
            inputs.len(),
            target.display(),
            db.games.len() - skipped,
            skipped,
            records.len(),
            records.iter().filter(|r| r.kind == Kind::Solved).count(),
            t.elapsed().as_secs_f64(),
            started.elapsed().as_secs_f64()
        );
    }
    eprintln!(
        "{done} games, {total} positions written this run in {:.0} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
