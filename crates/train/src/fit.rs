//! The fit driver (`reversi train fit`): a data folder split into training and validation
//! positions by WTHOR year, fitted by the table fit ([`linear`]: generations 1-3) or the
//! network fit ([`net`]: generation 3), and the weights file written.

pub mod linear;
pub mod net;
#[cfg(test)]
mod tests;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use reversi_engine::pattern::net::{load_tables, NetWeights, DEFAULT_NET_HIDDEN};
#[cfg(doc)]
use reversi_engine::pattern::PATTERN_NAMES;
use reversi_engine::pattern::{stage_empties, Extras};

use crate::error::{Error, FileError};
use crate::{data, records, Progress};
use linear::{fit_model, FitOptions, Sample};
use net::{fit_net, NetFitOptions};

/// The evaluation a fit makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// Every weight of every stage free (generations 1-2).
    Tables,
    /// A small network per pattern and a quadratic per scalar, which generate the tables
    /// (generation 3).
    Net,
}

/// What `reversi train fit` fits, and how.
#[derive(Debug, Clone)]
pub struct FitJob {
    /// Data folder (`wthor-YYYY.bin` files, `selfplay-*` files).
    pub data: PathBuf,
    /// Weights file to write.
    pub out: PathBuf,
    /// Seed of the shuffles (and of a network's first weights).
    pub seed: u64,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Adam step size (`None`: 0.02 disc for tables, 0.002 for networks).
    pub lr: Option<f32>,
    /// L2 regularisation (tables only).
    pub l2: f32,
    /// The L2 penalty pulls towards the start weights instead of zero (tables only).
    pub l2_to_start: bool,
    /// The pattern tables keep the start's values; the scalars, mobility patterns and head
    /// learn (tables only).
    pub keep_patterns: bool,
    /// Positions per Adam step (`None`: 256 for tables, 1024 for networks).
    pub batch: Option<usize>,
    /// What to fit.
    pub model: Model,
    /// WTHOR years from this one on are the validation split, never trained on.
    pub valid_from: u16,
    /// The generation number written into the file.
    pub generation: u16,
    /// Weights to start from instead of zero.
    pub start: Option<PathBuf>,
    /// Weight sets sharing the game evenly (tables).
    pub stages: u16,
    /// A stage also learns from positions this many empties outside its own range.
    pub window: u32,
    /// Stages (or batches) fitted at once.
    pub threads: usize,
    /// Train on [`records::average_theoretical`]'s labels.
    pub average_labels: bool,
    /// Generation 3's mobility patterns and head (none: generations 1-2); a network learns
    /// them beside its networks.
    pub extras: Extras,
    /// The patterns fitted, one bit per entry of [`PATTERN_NAMES`] (tables only; `u32::MAX`:
    /// all); the others keep zero weights, which the evaluation skips.
    pub patterns: u32,
    /// The patterns whose mobility patterns are fitted, one bit per entry of
    /// [`PATTERN_NAMES`] (tables with mobility patterns only; `u32::MAX`: all); the others
    /// keep zero weights, which the evaluation skips.
    pub mobility_patterns: u32,
    /// Hidden units a layer of each pattern network (networks only; `None`: the start's
    /// width, or 16 without a start). A start narrower than this is widened, its values
    /// kept ([`NetWeights::widen`]).
    pub net_hidden: Option<usize>,
}

/// A weights file a fit wrote; its `Display` is the line `train fit` ends with.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    /// The file.
    pub out: PathBuf,
    /// Its size in bytes.
    pub bytes: usize,
    /// A network's parameter count (`None`: tables).
    pub parameters: Option<usize>,
    /// Stages of the evaluation.
    pub stages: usize,
    /// The generation number written.
    pub generation: u16,
    /// The file's checksum.
    pub crc32: u32,
    /// Seconds the fit took, reading included.
    pub seconds: f64,
}

impl fmt::Display for Fitted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wrote {} ({} bytes, ", self.out.display(), self.bytes)?;
        if let Some(p) = self.parameters {
            write!(f, "{p} parameters, ")?;
        }
        write!(
            f,
            "{} stages, generation {}, crc32 {:08x}) in {:.0} s",
            self.stages, self.generation, self.crc32, self.seconds
        )
    }
}

/// The training and validation samples of a data folder; with `average`, the training
/// split's labels go through [`records::average_theoretical`].
///
/// # Errors
/// The folder or a file in it cannot be read, or a file is damaged.
pub fn split(
    dir: &Path,
    valid_from: u16,
    average: bool,
) -> Result<(Vec<Sample>, Vec<Sample>), Error> {
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    for (stem, path) in records::files(dir)? {
        let mut records = data::read(&path)?;
        let is_valid = data::wthor_year(&stem).is_some_and(|y| y >= valid_from);
        if average && !is_valid {
            records::average_theoretical(&mut records);
        }
        let into = if is_valid { &mut valid } else { &mut train };
        into.extend(records.iter().map(records::LabelledPosition::sample));
    }
    Ok((train, valid))
}

/// Fits the weights `a` asks for and writes them, telling `progress` the split and every
/// epoch's errors.
///
/// # Errors
/// Data or start weights that cannot be read, an output that cannot be written.
pub fn run(a: &FitJob, progress: &dyn Progress) -> Result<Fitted, Error> {
    let t = Instant::now();
    let (train, valid) = split(&a.data, a.valid_from, a.average_labels)?;
    progress.line(&format!(
        "{} training positions, {} validation positions (WTHOR {}+), read in {:.1} s",
        train.len(),
        valid.len(),
        a.valid_from,
        t.elapsed().as_secs_f64()
    ));
    if a.model == Model::Net {
        return run_net(a, &train, &valid, t, progress);
    }
    let start = match &a.start {
        Some(p) => {
            let bytes = std::fs::read(p).map_err(FileError::on("reading", p))?;
            // A generation-3 network file starts the tables from the ones it generates.
            let w = load_tables(&bytes).map_err(|e| Error::Weights(Some(p.to_path_buf()), e))?;
            Some(w)
        }
        None => None,
    };
    let opts = FitOptions {
        epochs: a.epochs,
        seed: a.seed,
        learning_rate: a.lr.unwrap_or(0.02),
        l2: a.l2,
        l2_to_start: a.l2_to_start,
        keep_patterns: a.keep_patterns,
        batch: a.batch.unwrap_or(256),
        window: a.window,
        stages: usize::from(a.stages),
        threads: a.threads,
        extras: a.extras,
        patterns: a.patterns,
        mobility_patterns: a.mobility_patterns,
    };
    progress.line(&format!("{opts:?}"));
    let fitted = fit_model(&train, &valid, start.as_ref(), &opts, &|r| {
        let (lo, hi) = stage_empties(r.stage, opts.stages);
        progress.line(&format!(
            "stage {:2} ({lo:2}-{hi:2} empties) epoch {:2}: train {} mse {:7.2} | valid {} mse {:7.2} mae {:5.2}  [{:.0} s]",
            r.stage,
            r.epoch,
            r.train_samples,
            r.train_mse,
            r.valid_samples,
            r.valid_mse,
            r.valid_mae,
            t.elapsed().as_secs_f64()
        ));
    });
    let w = fitted.weights(a.generation, a.extras);
    let bytes = w.to_bytes();
    std::fs::write(&a.out, &bytes).map_err(FileError::on("writing", &a.out))?;
    Ok(Fitted {
        out: a.out.clone(),
        bytes: bytes.len(),
        parameters: None,
        stages: w.stages(),
        generation: a.generation,
        crc32: w.checksum(),
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// `train fit --model net`: the generated evaluation (generation 3).
fn run_net(
    a: &FitJob,
    train: &[Sample],
    valid: &[Sample],
    t: Instant,
    progress: &dyn Progress,
) -> Result<Fitted, Error> {
    let start = match &a.start {
        Some(p) => {
            let bytes = std::fs::read(p).map_err(FileError::on("reading", p))?;
            let w = NetWeights::from_bytes(&bytes)
                .map_err(|e| Error::Weights(Some(p.to_path_buf()), e))?;
            let hidden = a.net_hidden.unwrap_or(w.hidden);
            w.widen(hidden, a.seed)
                .map_err(|e| Error::Weights(Some(p.to_path_buf()), e))?
        }
        None => {
            let hidden = a.net_hidden.unwrap_or(DEFAULT_NET_HIDDEN);
            NetWeights::init(a.generation, hidden, a.seed).map_err(|e| Error::Weights(None, e))?
        }
    };
    // Extras asked for and not in the start are added to it; a start's own extras stay
    // unless others are asked for.
    let start = if a.extras.is_none() || a.extras == start.extras {
        start
    } else {
        start.with_extras(a.extras, a.seed)
    };
    let opts = NetFitOptions {
        epochs: a.epochs,
        seed: a.seed,
        learning_rate: a.lr.unwrap_or(0.002),
        batch: a.batch.unwrap_or(1024),
        threads: a.threads,
    };
    progress.line(&format!("{opts:?}, {} parameters", start.params.len()));
    let w = fit_net(train, valid, start, &opts, &mut |r| {
        let at = |e: usize| r.valid_by_empties.get(e).map_or(0.0, |x| x.1);
        progress.line(&format!(
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
        ));
    });
    let w = NetWeights {
        generation: a.generation,
        ..w
    };
    let bytes = w.to_bytes();
    std::fs::write(&a.out, &bytes).map_err(FileError::on("writing", &a.out))?;
    Ok(Fitted {
        out: a.out.clone(),
        bytes: bytes.len(),
        parameters: Some(w.params.len()),
        stages: w.stages,
        generation: a.generation,
        crc32: w.checksum(),
        seconds: t.elapsed().as_secs_f64(),
    })
}
