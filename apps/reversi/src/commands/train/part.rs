//! A part of a job split across processes or machines (`--shard K/N`): the units whose
//! number is K modulo N. Shard files (shard.rs) and self-play games files (games.rs) both
//! name the part they hold.

use std::fmt;

/// One part of a job split across processes or machines: the units whose number is `index`
/// modulo `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
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

/// `--shard K/N`: shard K (0 to N−1) of N.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    crate::options::shard(text).map(|(index, count)| Shard { index, count })
}
