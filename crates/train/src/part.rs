//! A part of a job split across processes or machines (`--shard K/N`): the units whose
//! number is K modulo N. Shard files (shard.rs) and self-play games files (games.rs) both
//! name the part they hold.

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
    /// Whether unit `number` (counting from 0) belongs to this shard.
    pub fn holds(self, number: usize) -> bool {
        number % self.count == self.index
    }

    /// The shard's file name for a target `STEM.bin`: `STEM-K-of-N.bin`.
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
/// use reversi_train::Shard;
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
