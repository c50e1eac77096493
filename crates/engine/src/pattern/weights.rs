//! The weights file: a versioned header, the shared weights of every stage as little-endian
//! `i16` (1/[`SCALE`](super::SCALE) discs), and a CRC-32 of everything before it.
//!
//! ```text
//! offset  size  field
//!  0      8     magic "RVPATTRN"
//!  8      2     format version (1)
//! 10      2     stages
//! 12      4     shared weights per stage
//! 16      4     pattern-set signature (which patterns, in which order)
//! 20      2     scale (weight units per disc)
//! 22      2     generation (1 = trained on WTHOR, 2 = plus self-play, …)
//! 24      2n    weights, stage by stage
//! 24+2n   4     CRC-32 (IEEE) of bytes 0..24+2n
//! ```

use std::fmt;

use super::{pattern_set, SCALE, STAGES};

const MAGIC: &[u8; 8] = b"RVPATTRN";
const VERSION: u16 = 1;
const HEADER: usize = 24;

/// Why a weights file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsError {
    /// Shorter than its header and checksum.
    TooShort {
        /// The file's length in bytes.
        len: usize,
    },
    /// Not a weights file.
    BadMagic,
    /// A format version this program does not read.
    Version(u16),
    /// Weights for another pattern set or stage count.
    Shape {
        /// Stages in the file.
        stages: u16,
        /// Shared weights per stage in the file.
        features: u32,
        /// The file's pattern-set signature.
        signature: u32,
    },
    /// Weights in other units.
    Scale(u16),
    /// The file is not as long as its header says (cut short, or with bytes after it).
    Length {
        /// The length the header announces, in bytes.
        expected: usize,
        /// The file's length in bytes.
        actual: usize,
    },
    /// The checksum does not match the contents.
    Checksum {
        /// The CRC-32 at the end of the file.
        stored: u32,
        /// The CRC-32 of the file's contents.
        computed: u32,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::TooShort { len } => {
                write!(f, "weights file of {len} bytes is shorter than its header")
            }
            WeightsError::BadMagic => f.write_str("not a pattern weights file (bad magic)"),
            WeightsError::Version(v) => write!(f, "weights file version {v} is not supported"),
            WeightsError::Shape {
                stages,
                features,
                signature,
            } => write!(
                f,
                "weights for {stages} stages of {features} weights (pattern set {signature:08x}) \
                 do not fit this program's {STAGES} stages of {} (pattern set {:08x})",
                pattern_set().features(),
                pattern_set().signature()
            ),
            WeightsError::Scale(s) => write!(f, "weights scale {s} is not {SCALE}"),
            WeightsError::Length { expected, actual } => write!(
                f,
                "weights file is {actual} bytes, its header announces {expected} (truncated?)"
            ),
            WeightsError::Checksum { stored, computed } => write!(
                f,
                "weights file checksum {stored:08x} does not match its contents ({computed:08x})"
            ),
        }
    }
}

impl std::error::Error for WeightsError {}

/// The shared weights of every stage, in 1/[`SCALE`] discs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    /// Which generation of training made them.
    pub generation: u16,
    values: Vec<i16>,
}

/// CRC-32 (IEEE 802.3, reflected).
#[must_use]
pub fn crc32(bytes: &[u8]) -> u32 {
    static TABLE: [u32; 256] = {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xedb8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };
    !bytes.iter().fold(!0u32, |c, &b| {
        TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8)
    })
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Weights {
    /// All-zero weights (an evaluation of 0 everywhere).
    #[must_use]
    pub fn zero(generation: u16) -> Weights {
        Weights {
            generation,
            values: vec![0; STAGES * pattern_set().features()],
        }
    }

    /// Weights from per-stage values in discs, rounded to 1/[`SCALE`] and saturated.
    #[must_use]
    pub fn from_discs(generation: u16, discs: &[Vec<f32>]) -> Weights {
        let mut w = Weights::zero(generation);
        let n = pattern_set().features();
        for (s, stage) in discs.iter().enumerate().take(STAGES) {
            for (i, &v) in stage.iter().enumerate().take(n) {
                w.values[s * n + i] = (v * SCALE as f32)
                    .round()
                    .clamp(f32::from(i16::MIN), f32::from(i16::MAX))
                    as i16;
            }
        }
        w
    }

    /// The shared weights of one stage.
    #[must_use]
    pub fn stage(&self, s: usize) -> &[i16] {
        let n = pattern_set().features();
        &self.values[s * n..(s + 1) * n]
    }

    /// The weights of one stage in discs.
    #[must_use]
    pub fn stage_discs(&self, s: usize) -> Vec<f32> {
        self.stage(s)
            .iter()
            .map(|&v| f32::from(v) / SCALE as f32)
            .collect()
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// When the bytes are not a complete, undamaged weights file for this pattern set.
    pub fn from_bytes(b: &[u8]) -> Result<Weights, WeightsError> {
        if b.len() < HEADER + 4 {
            return Err(WeightsError::TooShort { len: b.len() });
        }
        if &b[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let version = u16_at(b, 8);
        if version != VERSION {
            return Err(WeightsError::Version(version));
        }
        let stages = u16_at(b, 10);
        let features = u32_at(b, 12);
        let signature = u32_at(b, 16);
        let set = pattern_set();
        if usize::from(stages) != STAGES
            || features as usize != set.features()
            || signature != set.signature()
        {
            return Err(WeightsError::Shape {
                stages,
                features,
                signature,
            });
        }
        let scale = u16_at(b, 20);
        if i32::from(scale) != SCALE {
            return Err(WeightsError::Scale(scale));
        }
        let generation = u16_at(b, 22);
        let n = STAGES * set.features();
        let expected = HEADER + 2 * n + 4;
        if b.len() != expected {
            return Err(WeightsError::Length {
                expected,
                actual: b.len(),
            });
        }
        let stored = u32_at(b, expected - 4);
        let computed = crc32(&b[..expected - 4]);
        if stored != computed {
            return Err(WeightsError::Checksum { stored, computed });
        }
        let values = b[HEADER..expected - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(Weights { generation, values })
    }

    /// The file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let set = pattern_set();
        let mut b = Vec::with_capacity(HEADER + 2 * self.values.len() + 4);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(STAGES as u16).to_le_bytes());
        b.extend_from_slice(&(set.features() as u32).to_le_bytes());
        b.extend_from_slice(&set.signature().to_le_bytes());
        b.extend_from_slice(&(SCALE as u16).to_le_bytes());
        b.extend_from_slice(&self.generation.to_le_bytes());
        for v in &self.values {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let crc = crc32(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    /// The CRC-32 stored at the end of [`Weights::to_bytes`].
    #[must_use]
    pub fn checksum(&self) -> u32 {
        let b = self.to_bytes();
        u32_at(&b, b.len() - 4)
    }
}
