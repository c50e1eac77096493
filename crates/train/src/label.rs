//! Relabelling (`reversi train label`): the positions of a data file labelled again by deeper searches
//! and exact solves (self-play positions, say, played at depth 8 and labelled at depth 14).
//!
//! Every position is searched on its own, one thread on a table cleared before it, so its
//! label does not depend on `--threads` or on the sharding: `--shard K/N` labels the
//! positions numbered K modulo N into a shard file (shard.rs), and `train merge` joins the
//! N shards into the file one run writes.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use reversi_engine::engine::{Engine, Limits};
use reversi_engine::pattern::crc32;

use crate::data;
use crate::error::{Error, FileError};
use crate::evals::eval_of;
use crate::records::{Kind, LabelledPosition};
use crate::shard::{self, ShardFile};
use crate::{parallel, Progress};
use reversi_engine::shard::Shard;

/// What `reversi train label` labels, and how.
#[derive(Debug, Clone)]
pub struct LabelOptions {
    /// The data file whose positions to label (a `train selfplay` or `train data` file).
    pub data: PathBuf,
    /// Folder to write the labelled file to, under the input's name (or its shard file).
    pub out: PathBuf,
    /// Depth of the midgame searches.
    pub depth: u32,
    /// Positions with this many empties or fewer are solved exactly.
    pub exact_empties: u32,
    /// Weights of the searches (`None`: the shipped weights).
    pub weights: Option<PathBuf>,
    /// Transposition table of each thread, in MB (cleared before every position).
    pub hash_mb: usize,
    /// Label only this shard of the positions.
    pub shard: Option<Shard>,
    /// Positions labelled at once, one thread each.
    pub threads: usize,
}

/// Labels the positions of `a.data` into `a.out` (skipped if the file is there), telling
/// `progress` how far it got.
///
/// # Errors
/// An input that is not a data file or cannot be read, an output that would overwrite it or
/// cannot be written, weights that do not load.
pub fn run(a: &LabelOptions, progress: &dyn Progress) -> Result<(), Error> {
    let name = a
        .data
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".bin"))
        .ok_or_else(|| Error::NotADataFileName(a.data.clone()))?;
    let stem = name.trim_end_matches(".bin");
    let target = a.out.join(match a.shard {
        Some(s) => s.file_name(stem),
        None => name.clone(),
    });
    if target.exists() {
        progress.line(&format!("{}: done before, skipped", target.display()));
        return Ok(());
    }
    if a.out.join(&name) == a.data {
        return Err(Error::WouldOverwrite(a.out.clone(), a.data.clone()));
    }
    let bytes = std::fs::read(&a.data).map_err(FileError::on("reading", &a.data))?;
    let input = data::read(&a.data)?;
    std::fs::create_dir_all(&a.out).map_err(FileError::on("creating", &a.out))?;
    let (eval, weights) = eval_of(a.weights.as_deref())?;
    let limits = Limits::midgame(a.depth);
    let mine: Vec<usize> = (0..input.len())
        .filter(|&i| a.shard.is_none_or(|s| s.holds(i)))
        .collect();
    let t = Instant::now();
    let last = Mutex::new(Instant::now());
    let labels = parallel::map(
        &mine,
        a.threads,
        || {
            let mut e = Engine::new(a.hash_mb, 1);
            e.set_evaluator(eval.clone());
            e
        },
        |engine, &i| {
            let board = input[i].board;
            engine.clear();
            let (label, kind) = if board.empties().count_ones() <= a.exact_empties {
                (data::solve(engine, board), Kind::Solved)
            } else {
                (data::value(engine, board, &limits), Kind::Searched)
            };
            LabelledPosition {
                board,
                label: label.clamp(-64, 64) as i8,
                kind,
            }
        },
        |so_far| {
            let Ok(mut last) = last.lock() else { return };
            let done = so_far.iter().flatten().count();
            if last.elapsed() >= Duration::from_secs(10) && done < mine.len() {
                *last = Instant::now();
                let secs = t.elapsed().as_secs_f64();
                progress.line(&format!(
                    "{}: {done}/{} positions, {secs:.0} s, about {:.0} s to go",
                    target.display(),
                    mine.len(),
                    secs / done as f64 * (mine.len() - done) as f64
                ));
            }
        },
    );
    match a.shard {
        Some(shard) => {
            let file = ShardFile {
                target: name.clone(),
                job: format!(
                    "train label input={name} records={} crc32:{:08x} depth={} exact-empties={} weights={weights}",
                    input.len(),
                    crc32(&bytes),
                    a.depth,
                    a.exact_empties
                ),
                shard,
                units: input.len(),
                parts: mine.into_iter().zip(labels.iter().map(|&r| vec![r])).collect(),
            };
            shard::write(&target, &file)?;
        }
        None => data::write_data(&target, &labels)?,
    }
    progress.line(&format!(
        "wrote {} ({} positions, {} solved) in {:.1} s",
        target.display(),
        labels.len(),
        labels.iter().filter(|r| r.kind == Kind::Solved).count(),
        t.elapsed().as_secs_f64()
    ));
    Ok(())
}
