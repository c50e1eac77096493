//! A part of a job split across processes or machines (`--shard K/N`): the units whose
//! number is K modulo N. The book build splits its positions this way (by a hash of their
//! key), and the training commands their games and files; shard files and self-play games
//! files name the part they hold.

use std::fmt;
use std::str::FromStr;

/// One part of a job split across processes or machines: the units whose number is `index`
/// modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 0 to `count` − 1.
    pub index: usize,
    /// How many parts the job has.
    pub count: usize,
}

impl Shard {
    /// The whole job in one part.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether unit `number` (counting from 0) belongs to this shard.
    #[must_use]
    pub fn holds(self, number: usize) -> bool {
        self.holds_hash(number as u64)
    }

    /// Whether a unit named by a 64-bit `hash` (a book position's key) belongs to this
    /// shard; with one part (or none) every unit does.
    #[must_use]
    pub fn holds_hash(self, hash: u64) -> bool {
        self.count <= 1 || hash % self.count as u64 == self.index as u64
    }

    /// The shard's file name for a target `STEM.bin`: `STEM-K-of-N.bin`.
    #[must_use]
    pub fn file_name(self, stem: &str) -> String {
        format!("{stem}-{}-of-{}.bin", self.index, self.count)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A shard written `K/N` with 0 <= K < N, as `1/4`.
///
/// # Examples
/// ```
/// use reversi_engine::shard::Shard;
///
/// let shard: Shard = "1/4".parse().unwrap();
/// assert_eq!(shard, Shard { index: 1, count: 4 });
/// assert!(shard.holds(5) && !shard.holds(6));
/// assert_eq!(shard.file_name("wthor-1990"), "wthor-1990-1-of-4.bin");
/// assert!("4/4".parse::<Shard>().is_err());
/// ```
impl FromStr for Shard {
    type Err = ParseShardError;

    fn from_str(text: &str) -> Result<Shard, ParseShardError> {
        let bad = || ParseShardError(text.to_string());
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// Text that is not a shard `K/N` with 0 <= K < N (the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseShardError(pub String);

impl fmt::Display for ParseShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a shard; give K/N with 0 <= K < N, as 0/4",
            self.0
        )
    }
}

impl std::error::Error for ParseShardError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parsing() {
        let parse = |text: &str| text.parse::<Shard>().map_err(|e| e.to_string());
        assert_eq!(parse("1/4"), Ok(Shard { index: 1, count: 4 }));
        assert!(parse("4/4").is_err_and(|e| e.contains("0 <= K < N")));
        assert!(parse("0/0").is_err());
        assert!(parse("x").is_err());
        assert_eq!(Shard { index: 1, count: 4 }.to_string(), "1/4");
    }

    #[test]
    fn every_unit_in_exactly_one_shard() {
        for count in 1..6 {
            for unit in 0..40u64 {
                let holders = (0..count)
                    .filter(|&index| Shard { index, count }.holds_hash(unit))
                    .count();
                assert_eq!(holders, 1, "unit {unit} of {count} shards");
                let by_number = Shard { index: 0, count }.holds(unit as usize);
                assert_eq!(by_number, Shard { index: 0, count }.holds_hash(unit));
            }
        }
        assert!(Shard::ALL.holds(12345) && Shard::ALL.holds_hash(u64::MAX));
    }
}
