//! The evaluations training measures and plays with: a weights file's (either format), the
//! shipped one, and how a shard file's header names the one a job used.

use std::path::Path;
use std::sync::Arc;

use reversi_engine::eval::Evaluator;
use reversi_engine::pattern::net::load_tables;
use reversi_engine::pattern::{crc32, shipped, PatternEval};

use crate::error::{Error, FileError};

/// A weights file's evaluation (tables or a network, which generates its tables).
///
/// # Errors
/// The file cannot be read or is not a weights file.
pub fn load_eval(path: &Path) -> Result<PatternEval, Error> {
    let bytes = std::fs::read(path).map_err(FileError::on("reading", path))?;
    let w = load_tables(&bytes).map_err(|e| Error::Weights(Some(path.to_path_buf()), e))?;
    Ok(PatternEval::new(&w))
}

/// The shipped weights' evaluation.
///
/// # Errors
/// The shipped weights do not load (a broken build).
pub fn shipped_eval() -> Result<Arc<dyn Evaluator>, Error> {
    Ok(shipped().map_err(|e| Error::Weights(None, e))?)
}

/// The evaluation of `--weights FILE` (the shipped weights without one), and how a shard
/// file's header names it: `crc32:XXXXXXXX` or `shipped`.
///
/// # Errors
/// The file cannot be read or is not a weights file.
pub fn eval_of(path: Option<&Path>) -> Result<(Arc<dyn Evaluator>, String), Error> {
    match path {
        Some(p) => {
            let bytes = std::fs::read(p).map_err(FileError::on("reading", p))?;
            let w = load_tables(&bytes).map_err(|e| Error::Weights(Some(p.to_path_buf()), e))?;
            // Both formats end with the CRC-32 of what comes before it.
            let stored = crc32(&bytes[..bytes.len().saturating_sub(4)]);
            Ok((
                Arc::new(PatternEval::new(&w)),
                format!("crc32:{stored:08x}"),
            ))
        }
        None => Ok((shipped_eval()?, "shipped".to_string())),
    }
}
