//! Shard files of the training commands (`train data`, `selfplay`, `label` with `--shard
//! K/N`) and `reversi train merge`, which joins them into the files one run makes.
//!
//! A job's work is a numbered list of units (a year's games, a self-play run's games, the
//! positions of a file to label), each labelled on its own, so its records do not depend on
//! which process made them. Shard K of N does the units numbered K modulo N and writes one
//! file:
//!
//! ```text
//! RVSHARD1                        magic
//! u32 H, H bytes of UTF-8 text    the header, "key=value" lines: target (the file one run
//!                                 writes), job (the command and every option that changes
//!                                 the records), shard (K/N), units (how many the job has)
//! u32 U, U × (u32, u32)           the shard's units in order: number, records it gave
//! records                         as in a data file (data.rs), unit after unit
//! u32                             CRC-32 of everything before
//! ```
//!
//! The merge puts the units back in their order and writes the records as one run would,
//! so its output is the same bytes whatever N and whatever order the shards finished in.
//! It refuses shards of different jobs, missing or doubled shards, and damaged files.
//!
//! # Examples
//! ```
//! use reversi_engine::Board;
//! use reversi_engine::shard::Shard;
//! use reversi_train::{join, Kind, LabelledPosition, ShardFile};
//!
//! let record = |n: u64| LabelledPosition { board: Board::new(n << 20, 1), label: 0, kind: Kind::Searched };
//! // A job of three units (one record each) in two shards, read back from their bytes.
//! let shards: Vec<(String, ShardFile)> = (0..2)
//!     .map(|index| {
//!         let shard = Shard { index, count: 2 };
//!         let file = ShardFile {
//!             target: "selfplay-1.bin".into(),
//!             job: "example".into(),
//!             shard,
//!             units: 3,
//!             parts: (0..3).filter(|&u| shard.holds(u)).map(|u| (u, vec![record(u as u64)])).collect(),
//!         };
//!         let name = shard.file_name("selfplay-1");
//!         (name.clone(), ShardFile::from_bytes(&file.to_bytes(), &name).unwrap())
//!     })
//!     .collect();
//! assert_eq!(join(&shards).unwrap(), [record(0), record(1), record(2)]);
//! assert!(join(&shards[1..]).is_err(), "shard 0/2 is missing");
//! ```

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use reversi_engine::pattern::crc32;

use crate::error::{Error, FileError, FormatError, JoinError, Problem};
use crate::games::{self, GamesFile};
use crate::records::{self, LabelledPosition};
use reversi_engine::shard::Shard;

const MAGIC: &[u8; 8] = b"RVSHARD1";

/// A shard file's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardFile {
    /// The file name one run writes (`selfplay-1.bin`).
    pub target: String,
    /// The command and the options that decide the records.
    pub job: String,
    /// The part of the job the file holds.
    pub shard: Shard,
    /// Units of the whole job.
    pub units: usize,
    /// The shard's units (number, its records) in increasing order.
    pub parts: Vec<(usize, Vec<LabelledPosition>)>,
}

impl ShardFile {
    /// The file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let header = format!(
            "target={}\njob={}\nshard={}\nunits={}\n",
            self.target, self.job, self.shard, self.units
        );
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        push_u32(&mut out, header.len());
        out.extend_from_slice(header.as_bytes());
        push_u32(&mut out, self.parts.len());
        for (number, records) in &self.parts {
            push_u32(&mut out, *number);
            push_u32(&mut out, records.len());
        }
        for (_, records) in &self.parts {
            records::encode_records(records, &mut out);
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Whether `bytes` start like a shard file.
    pub fn is_shard(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC)
    }

    /// Reads a shard file; `name` names it in errors.
    ///
    /// # Errors
    /// Not a shard file, damaged, or holding other units than its shard's.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<ShardFile, FormatError> {
        let err = |problem| FormatError {
            file: name.to_string(),
            problem,
        };
        if !Self::is_shard(bytes) {
            return Err(err(Problem::NotA("shard file")));
        }
        if bytes.len() < MAGIC.len() + 12 {
            return Err(err(Problem::CutShort));
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32(body).to_le_bytes() != crc {
            return Err(err(Problem::Damaged("checksum")));
        }
        let mut at = MAGIC.len();
        let mut take = |n: usize| -> Result<&[u8], FormatError> {
            let end = at.checked_add(n).filter(|&e| e <= body.len());
            let Some(end) = end else {
                return Err(err(Problem::CutShort));
            };
            let s = &body[at..end];
            at = end;
            Ok(s)
        };
        let len = u32_of(take(4)?);
        let header = std::str::from_utf8(take(len)?).map_err(|e| err(Problem::HeaderNotText(e)))?;
        let field = |key: &'static str| -> Result<&str, FormatError> {
            header
                .lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix('='))
                .ok_or(err(Problem::NoField(key)))
        };
        let target = field("target")?.to_string();
        let job = field("job")?.to_string();
        let shard: Shard = field("shard")?
            .parse()
            .map_err(|e| err(Problem::Shard(e)))?;
        let units: usize = field("units")?
            .parse()
            .map_err(|e| err(Problem::NotANumber("the unit count", e)))?;
        let count = u32_of(take(4)?);
        let mut table = Vec::new();
        for _ in 0..count {
            let entry = take(8)?;
            table.push((u32_of(&entry[..4]), u32_of(&entry[4..])));
        }
        let mut parts = Vec::with_capacity(table.len());
        for (number, len) in table {
            let bytes = take(len.saturating_mul(records::RECORD))?;
            let records = records::decode_records(bytes).map_err(|record| {
                err(Problem::UnitRecord {
                    record,
                    unit: number,
                })
            })?;
            parts.push((number, records));
        }
        if at != body.len() {
            return Err(err(Problem::AfterRecords));
        }
        let file = ShardFile {
            target,
            job,
            shard,
            units,
            parts,
        };
        let expected: Vec<usize> = (0..units).filter(|&u| shard.holds(u)).collect();
        let held: Vec<usize> = file.parts.iter().map(|p| p.0).collect();
        if held != expected {
            return Err(err(Problem::WrongUnits {
                shard,
                units,
                expected: list(&expected),
                held: list(&held),
            }));
        }
        Ok(file)
    }

    /// All the shard's records, unit after unit.
    pub fn records(&self) -> impl Iterator<Item = &LabelledPosition> {
        self.parts.iter().flat_map(|p| p.1.iter())
    }
}

fn push_u32(out: &mut Vec<u8>, n: usize) {
    // The counts are far below 2^32 (a year of WTHOR games, a run's positions).
    out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
}

fn u32_of(b: &[u8]) -> usize {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[..4]);
    u32::from_le_bytes(w) as usize
}

/// A short list of numbers for messages: the first few and a count.
fn list(numbers: &[usize]) -> String {
    let shown: Vec<String> = numbers.iter().take(8).map(usize::to_string).collect();
    if numbers.len() > 8 {
        format!("{}, … ({} in all)", shown.join(", "), numbers.len())
    } else if numbers.is_empty() {
        "none".to_string()
    } else {
        shown.join(", ")
    }
}

/// Writes a shard file beside its final name and renames it into place (so a file that
/// exists is complete).
///
/// # Errors
/// The file cannot be written or renamed.
pub fn write(path: &Path, file: &ShardFile) -> Result<(), FileError> {
    let tmp = path.with_extension("bin.part");
    fs::write(&tmp, file.to_bytes()).map_err(FileError::on("writing", &tmp))?;
    fs::rename(&tmp, path).map_err(FileError::on("renaming", &tmp))
}

/// The records of one run, from the complete set of shards of a target.
///
/// # Errors
/// Shards of different jobs, two different files for one shard, shards missing.
pub fn join(files: &[(String, ShardFile)]) -> Result<Vec<LabelledPosition>, JoinError> {
    let Some((first_name, first)) = files.first() else {
        return Err(JoinError::NoShards);
    };
    let count = first.shard.count;
    let mut by_index: Vec<Option<&(String, ShardFile)>> = vec![None; count];
    for f in files {
        let (name, file) = f;
        if file.job != first.job || file.units != first.units || file.shard.count != count {
            return Err(JoinError::DifferentJobs(Box::new([
                (name.clone(), file.job.clone(), file.units, file.shard.count),
                (first_name.clone(), first.job.clone(), first.units, count),
            ])));
        }
        match by_index[file.shard.index] {
            Some((other, seen)) if seen != file => {
                return Err(JoinError::Differ(name.clone(), other.clone(), file.shard));
            }
            Some(_) => {}
            None => by_index[file.shard.index] = Some(f),
        }
    }
    let missing: Vec<usize> = (0..count).filter(|&k| by_index[k].is_none()).collect();
    if !missing.is_empty() {
        return Err(JoinError::Missing(
            first.target.clone(),
            list(&missing),
            count,
        ));
    }
    let mut units: Vec<&[LabelledPosition]> = vec![&[]; first.units];
    for (_, file) in by_index.into_iter().flatten() {
        for (number, records) in &file.parts {
            units[*number] = records;
        }
    }
    Ok(units.concat())
}

/// `reversi train merge --out DIR INPUTS…`: every target found among the shard files (or
/// the shard files in the folders) of `inputs`, joined into `out/TARGET`. Returns the
/// targets written with their record counts.
///
/// # Errors
/// An input cannot be read or is damaged, no shard files, shards that do not join, an output
/// that cannot be written.
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<Vec<(PathBuf, usize)>, Error> {
    let mut paths = Vec::new();
    for input in inputs {
        if input.is_dir() {
            for (_, path) in records::files(input)? {
                paths.push(path);
            }
        } else {
            paths.push(input.clone());
        }
    }
    let mut targets: BTreeMap<String, Vec<(String, ShardFile)>> = BTreeMap::new();
    let mut games: BTreeMap<String, Vec<(String, GamesFile)>> = BTreeMap::new();
    for path in &paths {
        let bytes = fs::read(path).map_err(FileError::on("reading", path))?;
        let name = path.display().to_string();
        if GamesFile::is_games(&bytes) {
            let file = GamesFile::from_bytes(&bytes, &name)?;
            if file.shard.count > 1 || inputs.contains(path) {
                games
                    .entry(file.target.clone())
                    .or_default()
                    .push((name, file));
            }
            continue;
        }
        if !ShardFile::is_shard(&bytes) && !inputs.contains(path) {
            // A folder may hold merged files beside the shards.
            continue;
        }
        let file = ShardFile::from_bytes(&bytes, &name)?;
        if file.target.contains(['/', '\\']) || !file.target.ends_with(".bin") {
            return Err(FormatError {
                file: name,
                problem: Problem::TargetName(file.target, "data"),
            }
            .into());
        }
        targets
            .entry(file.target.clone())
            .or_default()
            .push((name, file));
    }
    if targets.is_empty() && games.is_empty() {
        return Err(JoinError::NoInputs.into());
    }
    fs::create_dir_all(out).map_err(FileError::on("creating", out))?;
    let mut written = Vec::new();
    for (target, files) in games {
        let whole = games::join(&files)?;
        let path = out.join(&target);
        games::write(&path, &whole)?;
        written.push((path, whole.positions().len()));
    }
    for (target, files) in targets {
        let records = join(&files)?;
        let path = out.join(&target);
        let tmp = path.with_extension("bin.part");
        fs::write(&tmp, records::encode(&records)).map_err(FileError::on("writing", &tmp))?;
        fs::rename(&tmp, &path).map_err(FileError::on("renaming", &tmp))?;
        written.push((path, records.len()));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use records::Kind;
    use reversi_engine::Board;

    fn record(n: u64) -> LabelledPosition {
        LabelledPosition {
            board: Board::new(n << 20, 1),
            label: (n % 60) as i8 - 30,
            kind: Kind::Searched,
        }
    }

    /// A job of `units` units, unit u giving u % 3 records.
    fn shards(units: usize, count: usize) -> Vec<(String, ShardFile)> {
        (0..count)
            .map(|index| {
                let shard = Shard { index, count };
                let parts = (0..units)
                    .filter(|&u| shard.holds(u))
                    .map(|u| (u, (0..u % 3).map(|i| record((u * 3 + i) as u64)).collect()))
                    .collect();
                let file = ShardFile {
                    target: "selfplay-1.bin".into(),
                    job: "test".into(),
                    shard,
                    units,
                    parts,
                };
                let bytes = file.to_bytes();
                let name = shard.file_name("selfplay-1");
                let read = ShardFile::from_bytes(&bytes, &name).expect("reads back");
                assert_eq!(read, file);
                (name, read)
            })
            .collect()
    }

    #[test]
    fn joins_in_unit_order_whatever_the_count_and_order() {
        let whole = records::encode(&join(&shards(11, 1)).expect("one shard"));
        for count in [2, 7] {
            let mut parts = shards(11, count);
            parts.reverse();
            let joined = records::encode(&join(&parts).expect("joins"));
            assert_eq!(joined, whole, "{count} shards");
        }
    }

    #[test]
    fn refuses_missing_doubled_foreign_and_damaged_shards() {
        let parts = shards(11, 3);
        let err = join(&parts[..2]).unwrap_err().to_string();
        assert!(err.contains("shards 2 of 3 are missing"), "{err}");
        let mut doubled = parts.clone();
        let mut other = parts[1].clone();
        other.1.parts[0].1.push(record(99));
        doubled.push(other);
        let err = join(&doubled).unwrap_err().to_string();
        assert!(err.contains("are both shard 1/3 but differ"), "{err}");
        let mut same = parts.clone();
        same.push(parts[0].clone());
        assert!(
            join(&same).is_ok(),
            "an identical copy of a shard is harmless"
        );
        let mut foreign = parts.clone();
        foreign[2].1.job = "another".into();
        let err = join(&foreign).unwrap_err().to_string();
        assert!(err.contains("different jobs"), "{err}");
        let mut bytes = parts[0].1.to_bytes();
        let at = bytes.len() - 10;
        bytes[at] ^= 1;
        let err = ShardFile::from_bytes(&bytes, "x.bin").unwrap_err();
        assert!(err.to_string().contains("damaged"), "{err}");
        let cut = &parts[0].1.to_bytes()[..30];
        assert!(ShardFile::from_bytes(cut, "x.bin").is_err());
        let mut wrong = parts[0].1.clone();
        wrong.parts.remove(0);
        let err = ShardFile::from_bytes(&wrong.to_bytes(), "x.bin").unwrap_err();
        assert!(
            err.to_string().contains("should hold units 0, 3, 6, 9"),
            "{err}"
        );
    }
}
