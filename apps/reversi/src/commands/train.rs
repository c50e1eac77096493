//! `reversi train`: the pattern evaluation's training data, fitting and measures.

mod data;
mod duel;
mod games;
mod label;
mod measure;
mod parallel;
mod part;
mod probcut;
mod records;
mod selfplay;
mod shard;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Subcommand};
use reversi_engine::eval::Evaluator;
use reversi_engine::pattern::fit::{fit, FitOptions, Sample};
use reversi_engine::pattern::net::{load_tables, NetWeights};
use reversi_engine::pattern::netfit::{fit_net, NetFitOptions};
use reversi_engine::pattern::{crc32, shipped, stage_empties, PatternEval, Weights};

/// `reversi train` options.
#[derive(Debug, Args)]
pub struct TrainArgs {
    #[command(subcommand)]
    pub what: TrainCommand,
}

#[derive(Debug, Subcommand)]
pub enum TrainCommand {
    /// Label the positions of WTHOR games (one data file per year and shard, resumable).
    Data {
        /// Folder of WTH_YYYY.wtb files [default: the shared data's wthor/]
        #[arg(long)]
        wthor: Option<PathBuf>,
        /// Folder to write the data files to.
        #[arg(long)]
        out: PathBuf,
        /// Solve positions with this many empties or fewer exactly.
        #[arg(long, default_value_t = 12)]
        exact_empties: u32,
        /// Also solve the positions with exactly these numbers of empties (for measures).
        #[arg(long, value_delimiter = ',')]
        also_exact: Vec<u32>,
        /// Solve the --also-exact positions of one game in this many.
        #[arg(long, default_value_t = 1)]
        also_every: usize,
        /// Transposition table of each thread's solver, in MB (cleared before every game).
        #[arg(long, default_value_t = 4, value_parser = crate::options::hash_mb)]
        hash_mb: usize,
        /// Label only shard K of N (the games numbered K modulo N in each year) into
        /// `wthor-YEAR-K-of-N.bin`: `train merge` joins the N shards into the files of one
        /// run.
        #[arg(long, value_parser = shard::parse_shard)]
        shard: Option<shard::Shard>,
        /// Games labelled at once (the records do not depend on it).
        #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
        threads: usize,
    },
    /// Self-play games from XOT openings, positions labelled by the searches that played
    /// them and exact solves near the end (one data file per run, named by its seed).
    Selfplay(selfplay::SelfplayArgs),
    /// Label the positions of a data file again, by deeper searches and exact solves.
    Label(label::LabelArgs),
    /// Join the shard files of `train data`, `selfplay` or `label --shard K/N` into the
    /// files one run writes (the same bytes).
    Merge {
        /// Folder to write the joined files to.
        #[arg(long)]
        out: PathBuf,
        /// Shard files, or folders whose shard files to take.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Fit the weights on a data folder and write a weights file.
    Fit(FitArgs),
    /// Mean absolute error of the static evaluations on the validation positions.
    Mae {
        /// Data folder.
        #[arg(long)]
        data: PathBuf,
        /// Weights files to measure besides the shipped ones.
        #[arg(long)]
        weights: Vec<PathBuf>,
        /// WTHOR years from this one on are the validation split.
        #[arg(long, default_value_t = 2021)]
        valid_from: u16,
        /// Also measure at 30 and 40 empties against the values of searches this deep (0:
        /// not), where exact scores are out of reach.
        #[arg(long, default_value_t = 0)]
        search_depth: u32,
        /// Positions searched for each of 30 and 40 empties (spread evenly over the split).
        #[arg(long, default_value_t = 100)]
        search_positions: usize,
        /// Searches run at once, one thread each.
        #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
        threads: usize,
    },
    /// Pattern evaluation against the hand-made one at equal depth on XOT openings, each
    /// opening played with both colours.
    Match(duel::DuelArgs),
    /// Deviations of probcut's shallow searches from deep searches and exact scores, and
    /// their linear fits (the engine's probcut constants).
    Probcut(probcut::ProbcutArgs),
    /// The rate of best moves (by the file's exact scores) of a fixed-depth midgame search.
    Bestmove {
        /// OBF files.
        files: Vec<PathBuf>,
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Weights file [default: the shipped weights].
        #[arg(long)]
        weights: Option<PathBuf>,
    },
}

/// The evaluation `reversi train fit` fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Model {
    Tables,
    Net,
}

/// `reversi train fit` options.
#[derive(Debug, Args)]
pub struct FitArgs {
    /// Data folder (wthor-YYYY.bin files, selfplay-*.bin files).
    #[arg(long)]
    pub data: PathBuf,
    /// Weights file to write.
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 12)]
    pub epochs: u32,
    /// Adam step size [default: 0.02 disc for tables, 0.002 for networks].
    #[arg(long)]
    pub lr: Option<f32>,
    /// L2 regularisation (tables only).
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f32,
    /// Positions per Adam step [default: 256 for tables, 1024 for networks].
    #[arg(long)]
    pub batch: Option<usize>,
    /// What to fit: `tables` (every weight of every stage free, generations 1-2) or `net`
    /// (generation 3: a small network per pattern and a quadratic per scalar, which generate
    /// the tables; a file of about 36 KB).
    #[arg(long, value_enum, default_value_t = Model::Tables)]
    pub model: Model,
    /// WTHOR years from this one on are the validation split, never trained on.
    #[arg(long, default_value_t = 2021)]
    pub valid_from: u16,
    /// The generation number written into the file.
    #[arg(long, default_value_t = 1)]
    pub generation: u16,
    /// Start from these weights instead of zero (when they have as many stages).
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Weight sets sharing the game evenly: 15 is one per four empties, 30 one per two, 60
    /// one per empty square.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u16).range(1..=60))]
    pub stages: u16,
    /// A stage also learns from positions this many empties outside its own range.
    #[arg(long, default_value_t = 2)]
    pub window: u32,
    /// Stages fitted at once (the weights do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = crate::options::threads)]
    pub threads: usize,
    /// Train on the mean of a game's theoretical score and its last exact solve carried up
    /// the game, between that solve and 24 empties (the training split only).
    #[arg(long)]
    pub average_labels: bool,
}

pub fn run(args: TrainArgs) -> anyhow::Result<ExitCode> {
    match args.what {
        TrainCommand::Data {
            wthor,
            out,
            exact_empties,
            also_exact,
            also_every,
            hash_mb,
            shard,
            threads,
        } => {
            let wthor = wthor.unwrap_or_else(|| crate::data::shared_data().join("wthor"));
            let how = data::Labelling {
                exact_empties,
                also_exact,
                also_every,
                hash_mb,
            };
            data::run(&wthor, &out, &how, shard, threads)?;
        }
        TrainCommand::Selfplay(a) => selfplay::run(&a)?,
        TrainCommand::Label(a) => label::run(&a)?,
        TrainCommand::Merge { out, inputs } => {
            for (path, records) in shard::merge(&out, &inputs)? {
                outln!("wrote {} ({records} positions)", path.display())?;
            }
        }
        TrainCommand::Fit(a) => run_fit(&a)?,
        TrainCommand::Probcut(a) => probcut::run(&a)?,
        TrainCommand::Mae {
            data,
            weights,
            valid_from,
            search_depth,
            search_positions,
            threads,
        } => {
            let searched = measure::Searched {
                depth: search_depth,
                positions: search_positions,
                threads,
            };
            measure::mae(&data, &weights, valid_from, &searched)?;
        }
        TrainCommand::Match(a) => return duel::run(&a),
        TrainCommand::Bestmove {
            files,
            depth,
            weights,
        } => measure::bestmove(&files, depth, weights.as_deref())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// A weights file's evaluation.
pub(crate) fn load_eval(path: &Path) -> anyhow::Result<PatternEval> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let w = load_tables(&bytes).with_context(|| format!("loading {}", path.display()))?;
    Ok(PatternEval::new(&w))
}

/// The evaluation of `--weights FILE` (the shipped weights without one), and how a shard
/// file's header names it.
pub(crate) fn eval_of(path: Option<&Path>) -> anyhow::Result<(Arc<dyn Evaluator>, String)> {
    match path {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("reading {}", p.display()))?;
            let w = load_tables(&bytes).with_context(|| format!("loading {}", p.display()))?;
            // Both formats end with the CRC-32 of what comes before it.
            let stored = crc32(&bytes[..bytes.len().saturating_sub(4)]);
            Ok((
                Arc::new(PatternEval::new(&w)),
                format!("crc32:{stored:08x}"),
            ))
        }
        None => Ok((
            shipped().context("loading the shipped weights")?,
            "shipped".to_string(),
        )),
    }
}

/// The training and validation samples of a data folder; with `average`, the training
/// split's labels go through [`data::average_theoretical`].
pub(crate) fn split(
    dir: &Path,
    valid_from: u16,
    average: bool,
) -> anyhow::Result<(Vec<Sample>, Vec<Sample>)> {
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (stem, path) in data::files(dir)? {
        let mut records = data::read(&path)?;
        let is_valid = data::wthor_year(&stem).is_some_and(|y| y >= valid_from);
        if average && !is_valid {
            data::average_theoretical(&mut records);
        }
        let into = if is_valid { &mut valid } else { &mut train };
        into.extend(records.iter().map(data::Record::sample));
    }
    Ok((train, valid))
}

fn run_fit(a: &FitArgs) -> anyhow::Result<()> {
    let t = Instant::now();
    let (train, valid) = split(&a.data, a.valid_from, a.average_labels)?;
    eprintln!(
        "{} training positions, {} validation positions (WTHOR {}+), read in {:.1} s",
        train.len(),
        valid.len(),
        a.valid_from,
        t.elapsed().as_secs_f64()
    );
    if a.model == Model::Net {
        return run_fit_net(a, &train, &valid, t);
    }
    let start = match &a.start {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("reading {}", p.display()))?;
            Some(Weights::from_bytes(&bytes).with_context(|| format!("loading {}", p.display()))?)
        }
        None => None,
    };
    let opts = FitOptions {
        epochs: a.epochs,
        seed: a.seed,
        learning_rate: a.lr.unwrap_or(0.02),
        l2: a.l2,
        batch: a.batch.unwrap_or(256),
        window: a.window,
        stages: usize::from(a.stages),
        threads: a.threads,
    };
    eprintln!("{opts:?}");
    let discs = fit(&train, &valid, start.as_ref(), &opts, &|r| {
        let (lo, hi) = stage_empties(r.stage, opts.stages);
        eprintln!(
            "stage {:2} ({lo:2}-{hi:2} empties) epoch {:2}: train {} mse {:7.2} | valid {} mse {:7.2} mae {:5.2}  [{:.0} s]",
            r.stage,
            r.epoch,
            r.train_samples,
            r.train_mse,
            r.valid_samples,
            r.valid_mse,
            r.valid_mae,
            t.elapsed().as_secs_f64()
        );
    });
    let w = Weights::from_discs(a.generation, &discs);
    let bytes = w.to_bytes();
    std::fs::write(&a.out, &bytes).with_context(|| format!("writing {}", a.out.display()))?;
    outln!(
        "wrote {} ({} bytes, {} stages, generation {}, crc32 {:08x}) in {:.0} s",
        a.out.display(),
        bytes.len(),
        w.stages(),
        a.generation,
        w.checksum(),
        t.elapsed().as_secs_f64()
    )?;
    Ok(())
}

/// `train fit --model net`: the generated evaluation (generation 3).
fn run_fit_net(a: &FitArgs, train: &[Sample], valid: &[Sample], t: Instant) -> anyhow::Result<()> {
    let start = match &a.start {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("reading {}", p.display()))?;
            NetWeights::from_bytes(&bytes).with_context(|| format!("loading {}", p.display()))?
        }
        None => NetWeights::init(a.generation, a.seed),
    };
    let opts = NetFitOptions {
        epochs: a.epochs,
        seed: a.seed,
        learning_rate: a.lr.unwrap_or(0.002),
        batch: a.batch.unwrap_or(1024),
        threads: a.threads,
    };
    eprintln!("{opts:?}, {} parameters", start.params.len());
    let w = fit_net(train, valid, start, &opts, &mut |r| {
        let at = |e: usize| r.valid_by_empties.get(e).map_or(0.0, |x| x.1);
        eprintln!(
            "epoch {:2}: train mse {:7.2} | valid mae {:5.2} (10: {:5.2}, 14: {:5.2}, 20: {:5.2}, 24: {:5.2}, 30: {:5.2}, 40: {:5.2})  [{:.0} s]",
            r.epoch,
            r.train_mse,
            r.valid_mae,
            at(10),
            at(14),
            at(20),
            at(24),
            at(30),
            at(40),
            t.elapsed().as_secs_f64()
        );
    });
    let w = NetWeights {
        generation: a.generation,
        ..w
    };
    let bytes = w.to_bytes();
    std::fs::write(&a.out, &bytes).with_context(|| format!("writing {}", a.out.display()))?;
    outln!(
        "wrote {} ({} bytes, {} parameters, {} stages, generation {}, crc32 {:08x}) in {:.0} s",
        a.out.display(),
        bytes.len(),
        w.params.len(),
        w.stages,
        a.generation,
        w.checksum(),
        t.elapsed().as_secs_f64()
    )?;
    Ok(())
}
