//! WTHOR labelling (`reversi train data`): training positions from the WTHOR games, labelled by exact solves
//! near the end and by the games' theoretical scores before that (or by the deep labels of
//! `reversi train deep` where a year has them), one file per year (or per year and shard).
//!
//! The files are those of records.rs (or shard files, shard.rs). Each is written beside
//! its final name and renamed once complete, so an interrupted run resumes with the next
//! file.
//!
//! Every game is labelled on its own (a cleared table, exact solves), so the records do not
//! depend on the threads or on the sharding: `--shard K/N` takes the games whose number in
//! their year is K modulo N, and the N shards together hold exactly the records of one run.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use reversi_engine::engine::{Engine, Limits};
use reversi_engine::search::final_score;
use reversi_engine::{Board, Sq};
use reversi_formats::wthor::{list_files, parse_wtb, Game};

use crate::error::{Error, FileError};
use crate::games::GamesFile;
use crate::label_file::{read_labels_for, read_labels_for_wthor, DeepLabel};
use crate::parallel;
use crate::records::{decode_file, encode, Kind, LabelledPosition};
use crate::shard::{self, ShardFile};
use crate::Progress;
use reversi_engine::shard::Shard;

/// Reads a data file, the records of a shard file (`--shard`, see shard.rs) or the labelled
/// positions of a self-play games file (games.rs), with the deep labels of the label file
/// beside it (`selfplay-N.labels` beside `selfplay-N.games`, deep.rs) where there is one.
///
/// # Errors
/// The file cannot be read, or is none of the three or damaged.
pub fn read(path: &Path) -> Result<Vec<LabelledPosition>, Error> {
    let bytes = fs::read(path).map_err(FileError::on("reading", path))?;
    let name = path.display().to_string();
    if GamesFile::is_games(&bytes) {
        let games = GamesFile::from_bytes(&bytes, &name)?;
        // Deep labels beside the games (`NAME.labels`, deep.rs) replace their final scores.
        let labels = path.with_extension("labels");
        if labels.exists() {
            let deep = read_labels_for(&labels, &bytes)?;
            return games
                .positions_with(&deep)
                .map_err(|why| Error::DeepLabels(labels, why));
        }
        return Ok(games.positions());
    }
    if ShardFile::is_shard(&bytes) {
        let file = ShardFile::from_bytes(&bytes, &name)?;
        return Ok(file.records().copied().collect());
    }
    Ok(decode_file(&bytes, &name)?)
}

/// The year of a data file named `wthor-YYYY` or `wthor-YYYY-K-of-N` (a shard).
pub fn wthor_year(stem: &str) -> Option<u16> {
    let rest = stem.strip_prefix("wthor-")?;
    rest.split('-').next()?.parse().ok()
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
///
/// # Examples
/// ```
/// use reversi_engine::engine::Engine;
/// use reversi_engine::Board;
///
/// // A full board, every disc the mover's: the game is over and the mover won 64-0.
/// let board = Board::new(u64::MAX, 0);
/// assert_eq!(reversi_train::data::solve(&Engine::new(1, 1), board), 64);
/// ```
#[must_use]
pub fn solve(engine: &Engine, b: Board) -> i32 {
    value(engine, b, &Limits::exact())
}

/// The value of `b` for the side to move by a search under `limits` (passing if it must;
/// the final score when the game is over).
#[must_use]
pub fn value(engine: &Engine, b: Board, limits: &Limits) -> i32 {
    let stop = AtomicBool::new(false);
    if b.moves() == 0 {
        if b.pass().moves() == 0 {
            return final_score(b, u64::MAX);
        }
        return -value(engine, b.pass(), limits);
    }
    engine
        .search(b, u64::MAX, limits, &stop, &mut |_| {})
        .score()
        .unwrap_or(0)
}

/// How `train data` labels positions.
#[derive(Debug, Clone)]
pub struct Labelling {
    /// Positions with this many empties or fewer are solved exactly.
    pub exact_empties: u32,
    /// Positions with exactly these numbers of empties are solved too…
    pub also_exact: Vec<u32>,
    /// …in one game of this many.
    pub also_every: usize,
    /// The solver's table, in MB, per thread.
    pub hash_mb: usize,
    /// A folder of deep labels: where it holds `WTH_YYYY.labels` for the file `WTH_YYYY.wtb`
    /// (`reversi train deep`), those labels replace the theoretical scores of the positions
    /// they name (exact labels as solved, searched ones as searched).
    pub deep_labels: Option<std::path::PathBuf>,
}

/// The records of one game (`label_game`'s, last position first) with that game's deep
/// labels `labels` in place of the theoretical scores. A position already solved (or exact
/// at 24 empties) keeps its exact label.
///
/// # Errors
/// A label naming a ply the game does not have, as a message.
pub fn with_deep_labels(
    mut records: Vec<LabelledPosition>,
    labels: &[DeepLabel],
) -> Result<Vec<LabelledPosition>, String> {
    let n = records.len();
    for l in labels {
        let Some(r) = n.checked_sub(l.ply + 1).and_then(|i| records.get_mut(i)) else {
            return Err(format!(
                "the label of game {} ply {} names no position of the game ({n} positions)",
                l.game, l.ply
            ));
        };
        if r.kind == Kind::Theoretical {
            r.label = l.score.clamp(-64, 64) as i8;
            r.kind = if l.exact {
                Kind::Solved
            } else {
                Kind::Searched
            };
        }
    }
    Ok(records)
}

/// Labels the positions of one game (from the end backwards, so that the solves of later
/// positions help the earlier ones); `None` when the game has an illegal move or stops
/// before its end. `number` is the game's number in its file (for `also_every`).
pub fn label_game(
    game: &Game,
    number: usize,
    how: &Labelling,
    engine: &Engine,
) -> Option<Vec<LabelledPosition>> {
    let also: &[u32] = if number.is_multiple_of(how.also_every.max(1)) {
        &how.also_exact
    } else {
        &[]
    };
    let positions = replay(game)?;
    let black_diff = 2 * i32::from(game.theoretical_score) - 64;
    engine.clear();
    let stop = AtomicBool::new(false);
    let mut out = Vec::with_capacity(positions.len());
    // The exact value of the position after the one being labelled, and whether Black was
    // to move there.
    let mut later: Option<(i32, bool)> = None;
    for &(board, black) in positions.iter().rev() {
        let empties = board.empties().count_ones();
        let (label, kind) = if empties <= how.exact_empties || also.contains(&empties) {
            // The move played is worth the next position's value (negated unless a pass
            // came between): a lower bound, usually the value itself.
            let value = match later {
                Some((v, next_black)) => {
                    let lower = if next_black == black { v } else { -v };
                    engine
                        .solve_above(board, u64::MAX, lower, &stop)
                        .unwrap_or_else(|| solve(engine, board))
                }
                None => solve(engine, board),
            };
            later = Some((value, black));
            (value, Kind::Solved)
        } else {
            later = None;
            let v = if black { black_diff } else { -black_diff };
            let kind = if empties == 24 {
                Kind::Exact24
            } else {
                Kind::Theoretical
            };
            (v, kind)
        };
        out.push(LabelledPosition {
            board,
            label: label as i8,
            kind,
        });
    }
    Some(out)
}

/// Labels the games of `shard` (all when `None`) among `games` on `threads` threads,
/// reporting progress to `progress` (games done, games in the shard). Returns each game's
/// number and records (`None`: skipped, illegal or unfinished), in game order.
fn label_games(
    games: &[Game],
    shard: Option<Shard>,
    how: &Labelling,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<(usize, Option<Vec<LabelledPosition>>)> {
    let mine: Vec<usize> = (0..games.len())
        .filter(|&g| shard.is_none_or(|s| s.holds(g)))
        .collect();
    let results = parallel::map(
        &mine,
        threads,
        || Engine::new(how.hash_mb, 1),
        |engine, &g| label_game(&games[g], g, how, engine),
        |so_far| progress(so_far.iter().flatten().count(), mine.len()),
    );
    mine.into_iter().zip(results).collect()
}

/// What `train data` writes into a shard's header: every option that changes the records
/// (the deep labels by their file's CRC-32, where the year has some).
fn job(year: u16, games: usize, how: &Labelling, deep: Option<u32>) -> String {
    let mut job = format!(
        "train data year={year} games={games} exact-empties={} also-exact={:?} also-every={}",
        how.exact_empties, how.also_exact, how.also_every
    );
    if let Some(crc) = deep {
        job.push_str(&format!(" deep-labels=crc32:{crc:08x}"));
    }
    job
}

/// The deep labels for the WTHOR file `input` (of bytes `bytes`) in `how`'s folder, with the
/// CRC-32 of the label file; `None` without a folder or a file for it.
fn deep_labels_for(
    input: &Path,
    bytes: &[u8],
    how: &Labelling,
) -> Result<Option<(std::path::PathBuf, Vec<DeepLabel>, u32)>, Error> {
    let Some(dir) = &how.deep_labels else {
        return Ok(None);
    };
    let Some(stem) = input.file_stem() else {
        return Ok(None);
    };
    let path = dir.join(stem).with_extension("labels");
    if !path.exists() {
        return Ok(None);
    }
    let labels = read_labels_for_wthor(&path, bytes)?;
    let text = fs::read(&path).map_err(FileError::on("reading", &path))?;
    Ok(Some((path, labels, reversi_engine::pattern::crc32(&text))))
}

/// `reversi train data`: one file per year of the `.wtb` files in `wthor`, or with `shard`
/// one shard file per year, into `out`; a file already there is skipped. Progress and a
/// summary line per year go to `progress`.
///
/// # Errors
/// No WTHOR files, a file that cannot be read or parsed, an output that cannot be written.
pub fn run(
    wthor: &Path,
    out: &Path,
    how: &Labelling,
    shard: Option<Shard>,
    threads: usize,
    progress: &dyn Progress,
) -> Result<(), Error> {
    fs::create_dir_all(out).map_err(FileError::on("creating", out))?;
    let inputs = list_files(wthor).map_err(FileError::on("reading", wthor))?;
    if inputs.is_empty() {
        return Err(Error::NoWthorFiles(wthor.to_path_buf()));
    }
    let started = Instant::now();
    let (mut done, mut total) = (0usize, 0usize);
    for (k, input) in inputs.iter().enumerate() {
        let bytes = fs::read(input).map_err(FileError::on("reading", input))?;
        let db = parse_wtb(&bytes).map_err(|e| Error::Wthor("reading", input.clone(), e))?;
        let stem = format!("wthor-{}", db.header.year);
        let target = out.join(match shard {
            Some(s) => s.file_name(&stem),
            None => format!("{stem}.bin"),
        });
        if target.exists() {
            progress.line(&format!(
                "[{}/{}] {}: done before, skipped",
                k + 1,
                inputs.len(),
                target.display()
            ));
            continue;
        }
        let t = Instant::now();
        let last = Mutex::new(Instant::now());
        let report = |games: usize, of: usize| {
            let Ok(mut last) = last.lock() else { return };
            if last.elapsed() >= Duration::from_secs(10) && games < of {
                *last = Instant::now();
                let secs = t.elapsed().as_secs_f64();
                progress.line(&format!(
                    "[{}/{}] {}: {games}/{of} games, {secs:.0} s, about {:.0} s to go",
                    k + 1,
                    inputs.len(),
                    target.display(),
                    secs / games as f64 * (of - games) as f64
                ));
            }
        };
        let deep = deep_labels_for(input, &bytes, how)?;
        let mut labelled = label_games(&db.games, shard, how, threads, &report);
        if let Some((path, labels, _)) = &deep {
            // Each game's labels, grouped once.
            let mut by_game: Vec<Vec<DeepLabel>> = vec![Vec::new(); db.games.len()];
            for l in labels {
                let Some(mine) = by_game.get_mut(l.game) else {
                    let why = format!("the label of game {} names no game of the file", l.game);
                    return Err(Error::DeepLabels(path.clone(), why));
                };
                mine.push(*l);
            }
            for (number, records) in &mut labelled {
                let mine = &by_game[*number];
                if mine.is_empty() {
                    continue;
                }
                let Some(r) = records.take() else {
                    let why = format!(
                        "game {number} has labels but is illegal or unfinished in {}",
                        input.display()
                    );
                    return Err(Error::DeepLabels(path.clone(), why));
                };
                let r = with_deep_labels(r, mine)
                    .map_err(|why| Error::DeepLabels(path.clone(), why))?;
                *records = Some(r);
            }
        }
        let games = labelled.len();
        let skipped = labelled.iter().filter(|r| r.1.is_none()).count();
        let records: Vec<LabelledPosition> = labelled
            .iter()
            .flat_map(|r| r.1.iter().flatten())
            .copied()
            .collect();
        match shard {
            Some(shard) => {
                let file = ShardFile {
                    target: format!("{stem}.bin"),
                    job: job(db.header.year, db.games.len(), how, deep.map(|d| d.2)),
                    shard,
                    units: db.games.len(),
                    parts: labelled
                        .into_iter()
                        .map(|(g, r)| (g, r.unwrap_or_default()))
                        .collect(),
                };
                shard::write(&target, &file)?;
            }
            None => write_data(&target, &records)?,
        }
        done += games - skipped;
        total += records.len();
        progress.line(&format!(
            "[{}/{}] {}: {} games ({} skipped: illegal or unfinished), {} positions, {} solved, {:.1} s (total {:.0} s)",
            k + 1,
            inputs.len(),
            target.display(),
            games - skipped,
            skipped,
            records.len(),
            records.iter().filter(|r| r.kind == Kind::Solved).count(),
            t.elapsed().as_secs_f64(),
            started.elapsed().as_secs_f64()
        ));
    }
    progress.line(&format!(
        "{done} games, {total} positions written this run in {:.0} s",
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// Writes a data file beside its final name, synced, and renames it into place (so a file
/// that exists is complete).
///
/// # Errors
/// The file cannot be created, written or renamed.
pub fn write_data(target: &Path, records: &[LabelledPosition]) -> Result<(), FileError> {
    let tmp = target.with_extension("bin.part");
    let mut f = fs::File::create(&tmp).map_err(FileError::on("creating", &tmp))?;
    f.write_all(&encode(records))
        .and_then(|()| f.sync_all())
        .map_err(FileError::on("writing", &tmp))?;
    fs::rename(&tmp, target).map_err(FileError::on("renaming", &tmp))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::average_theoretical;

    fn games() -> Vec<Game> {
        let path = reversi_testkit::data_file("wthor/WTH_1990.wtb");
        let db = parse_wtb(&fs::read(path).expect("WTHOR 1990")).expect("parses");
        db.games.into_iter().take(12).collect()
    }

    #[test]
    fn deep_labels_beside_a_games_file_replace_its_final_scores() {
        // The committed self-play run 1 and its committed deep labels.
        let data = reversi_testkit::data_dir().join("..");
        let games = data.join("selfplay/selfplay-1.games");
        let dir = tempfile::tempdir().expect("a folder");
        let copy = dir.path().join("selfplay-1.games");
        fs::copy(&games, &copy).expect("copied");
        let plain = read(&copy).expect("reads");
        fs::copy(
            data.join("deep-labels/selfplay-1.labels"),
            copy.with_extension("labels"),
        )
        .expect("copied");
        let deep = read(&copy).expect("reads with its labels");
        assert_eq!(deep.len(), plain.len());
        let labels =
            crate::label_file::read_labels(&copy.with_extension("labels")).expect("labels");
        assert!(labels.len() > 400);
        // Every label is in place: as many positions changed as labels differ from the
        // game's final score (or are exact), and no other.
        let changed = deep.iter().zip(&plain).filter(|(d, p)| d != p).count();
        assert!(
            changed > labels.len() / 2 && changed <= labels.len(),
            "{changed}"
        );
        assert!(deep.iter().zip(&plain).all(|(d, p)| d.board == p.board));
        // Labels made for other games are refused, naming both checksums.
        fs::copy(
            data.join("deep-labels/selfplay-2.labels"),
            copy.with_extension("labels"),
        )
        .expect("copied");
        let e = read(&copy).expect_err("another run's labels").to_string();
        assert!(
            e.contains("made for other games") && e.contains("crc32:"),
            "{e}"
        );
        assert!(e.contains("selfplay-1.labels"), "{e}");
    }

    #[test]
    fn shards_merge_into_the_records_of_one_run() {
        let games = games();
        let how = Labelling {
            exact_empties: 12,
            also_exact: vec![16],
            also_every: 3,
            hash_mb: 4,
            deep_labels: None,
        };
        let whole: Vec<LabelledPosition> = label_games(&games, None, &how, 1, &|_, _| {})
            .into_iter()
            .flat_map(|r| r.1.unwrap_or_default())
            .collect();
        assert!(whole.iter().any(|r| r.kind == Kind::Solved));
        for count in [1, 2, 7] {
            let mut files = Vec::new();
            for index in (0..count).rev() {
                let shard = Shard { index, count };
                let file = ShardFile {
                    target: "wthor-1990.bin".into(),
                    job: job(1990, games.len(), &how, None),
                    shard,
                    units: games.len(),
                    parts: label_games(&games, Some(shard), &how, 2, &|_, _| {})
                        .into_iter()
                        .map(|(g, r)| (g, r.unwrap_or_default()))
                        .collect(),
                };
                files.push((shard.file_name("wthor-1990"), file));
            }
            let joined = shard::join(&files).expect("the shards join");
            assert_eq!(encode(&joined), encode(&whole), "{count} shards");
        }
    }

    #[test]
    fn averaged_labels_meet_the_solve_carried_up_the_game() {
        let games = games();
        let how = Labelling {
            exact_empties: 12,
            also_exact: vec![],
            also_every: 1,
            hash_mb: 4,
            deep_labels: None,
        };
        let labelled = label_games(&games, None, &how, 2, &|_, _| {});
        let mut all: Vec<LabelledPosition> = Vec::new();
        let mut checked = 0;
        for (g, records) in &labelled {
            let records = records.clone().expect("a finished game");
            // Whether Black moves, from the game's moves (not from the boards), end first.
            let black: Vec<bool> = replay(&games[*g])
                .expect("legal")
                .iter()
                .rev()
                .map(|p| p.1)
                .collect();
            let top = records
                .iter()
                .rposition(|r| r.kind == Kind::Solved)
                .expect("solves at 12 empties");
            let mut alone = records.clone();
            average_theoretical(&mut alone);
            for (i, (before, after)) in records.iter().zip(&alone).enumerate() {
                let empties = before.board.empties().count_ones();
                if before.kind != Kind::Theoretical || empties >= 24 || i < top {
                    assert_eq!(before, after, "record {i} of game {g} is left alone");
                    continue;
                }
                let solved = i32::from(records[top].label);
                let carried = if black[i] == black[top] {
                    solved
                } else {
                    -solved
                };
                let mean = (f64::from(i32::from(before.label) + carried) / 2.0).round();
                assert_eq!(i32::from(after.label), mean as i32, "game {g}, record {i}");
                checked += 1;
            }
            all.extend(records);
        }
        assert!(checked > 100, "{checked} labels averaged");
        // Games laid end to end in one slice are told apart.
        let mut together = all.clone();
        average_theoretical(&mut together);
        let one_by_one: Vec<LabelledPosition> = labelled
            .iter()
            .flat_map(|(_, r)| {
                let mut r = r.clone().expect("finished");
                average_theoretical(&mut r);
                r
            })
            .collect();
        assert_eq!(together, one_by_one);
        assert_ne!(together, all);
    }

    #[test]
    fn shard_names() {
        let name = Shard { index: 1, count: 4 }.file_name("wthor-1990");
        assert_eq!(name, "wthor-1990-1-of-4.bin");
        assert_eq!(wthor_year(name.trim_end_matches(".bin")), Some(1990));
        assert_eq!(wthor_year("wthor-2021"), Some(2021));
        assert_eq!(wthor_year("selfplay-3"), None);
    }
}
