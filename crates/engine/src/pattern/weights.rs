//! The weights file: a versioned header, the shared weights of every stage in 1/[`SCALE`]
//! discs, generation 3's head, and a CRC-32 of everything before it.
//!
//! Version 2 (generations 1 and 2: the patterns and scalars):
//!
//! ```text
//! offset  size  field
//!  0      8     magic "RVPATTRN"
//!  8      2     format version (2; version 1 files are still read)
//! 10      2     stages (1 to 60: the weight sets sharing the game evenly)
//! 12      4     shared weights per stage
//! 16      4     signature of the pattern set and stage count
//! 20      2     scale (weight units per disc)
//! 22      2     generation (1 = trained on WTHOR, 2 = exact labels to 20 empties, …)
//! 24      4     m: length of the compressed weights
//! 28      m     the weights, stage by stage, zigzag-coded as u16: all low bytes, then all
//!               high bytes, the whole deflated (RFC 1951)
//! 28+m    4     CRC-32 (IEEE) of bytes 0..28+m
//! ```
//!
//! Version 3 (generation 3: the same tables, optionally followed by the mobility patterns,
//! and optionally a head; see [`Extras`]):
//!
//! ```text
//! offset  size  field
//!  0      8     magic "RVPATTRN"
//!  8      2     format version (3)
//! 10      2     stages (1 to 60)
//! 12      4     shared weights per stage (patterns, scalars, then the mobility patterns)
//! 16      4     signature of the pattern set, mobility patterns, head shape and stage count
//! 20      2     scale (weight units per disc)
//! 22      2     generation
//! 24      2     families (bit 0: mobility patterns; the others 0)
//! 26      2     H: the head's hidden units (0: no head; at most 64)
//! 28      4     m: length of the compressed weights
//! 32      m     the weights, coded as in version 2
//! 32+m    4·S·P the head of each stage, P = HEAD_INPUTS·H + 2·H + 1 f32 little-endian: the
//!               first layer (H rows of HEAD_INPUTS), its biases, the output weights, the
//!               output bias
//! end-4   4     CRC-32 (IEEE) of everything before
//! ```
//!
//! Weights without mobility patterns or head are written as version 2, byte for byte as
//! before.
//!
//! Version 1 had no length field and stored the weights as plain little-endian `i16` from
//! offset 24. Its files (generation 1) hold the first eleven patterns only, with their own
//! signature; they load with zero weights for the patterns added since.

use std::fmt;

use super::set::{pattern_set, GROUPS, MAX_STAGES, SCALE};

const MAGIC: &[u8; 8] = b"RVPATTRN";
/// The version written for generation 1-2 weights; version 1 (uncompressed) is still read.
const VERSION: u16 = 2;
/// The version written for weights with generation 3's additions ([`Extras`]).
const VERSION_EXTRAS: u16 = 3;
/// Header bytes common to every version.
const HEADER: usize = 24;
/// Header bytes of version 3.
const HEADER_EXTRAS: usize = 32;
/// The head's inputs: each pattern's sum over its instances, the scalars' sum, the phase.
pub const HEAD_INPUTS: usize = GROUPS.len() + 2;
/// The most hidden units a head may have.
pub const MAX_HIDDEN: usize = 64;

/// Generation 3's additions to the pattern and scalar tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Extras {
    /// Mobility patterns: for every pattern image, the side to move's legal moves on its
    /// squares as a binary index, and the opponent's; one table per pattern and side,
    /// shared by its images.
    pub mobility: bool,
    /// Hidden units of the head (0: none): a network of one leaky-ReLU layer added to the
    /// sum, whose inputs are each pattern's sum over its instances, the scalars' sum and the
    /// phase ([`HEAD_INPUTS`]).
    pub hidden: usize,
}

impl Extras {
    /// Parameters of one stage's head (0 without one).
    #[must_use]
    pub fn head_params(&self) -> usize {
        if self.hidden == 0 {
            0
        } else {
            HEAD_INPUTS * self.hidden + 2 * self.hidden + 1
        }
    }

    /// Nothing beyond generation 2's tables (a version 2 file).
    #[must_use]
    pub fn is_none(&self) -> bool {
        *self == Extras::default()
    }
}

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
    /// Feature families or a head shape this program does not know (version 3).
    Extras {
        /// The families field.
        families: u16,
        /// The head's hidden units.
        hidden: u16,
    },
    /// A head parameter that is not a finite number.
    Head,
    /// A pattern-network width this program does not build (see `net::NET_WIDTHS`), or
    /// narrower than the networks it should widen.
    NetWidth(usize),
    /// The file is not as long as its header says (cut short, or with bytes after it).
    Length {
        /// The length the header announces, in bytes.
        expected: usize,
        /// The file's length in bytes.
        actual: usize,
    },
    /// The compressed weights do not expand to the announced count.
    Payload {
        /// Weights the header announces.
        expected: usize,
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
                "weights for {stages} stages of {features} weights (signature {signature:08x}) \
                 do not fit this program's patterns: 1 to {MAX_STAGES} stages of {} weights \
                 (signature {:08x} for {stages} stages)",
                pattern_set().features(),
                pattern_set().signature(usize::from(*stages))
            ),
            WeightsError::Scale(s) => write!(f, "weights scale {s} is not {SCALE}"),
            WeightsError::Extras { families, hidden } => write!(
                f,
                "weights file's feature families {families:#x} or head of {hidden} units are \
                 not known to this program (families 0 or 1, at most {MAX_HIDDEN} units)"
            ),
            WeightsError::Head => f.write_str("weights file's head holds a non-finite number"),
            WeightsError::NetWidth(h) => write!(
                f,
                "pattern networks of {h} units a layer are not supported (widths 16 or 32, \
                 never narrower than the start's)"
            ),
            WeightsError::Length { expected, actual } => write!(
                f,
                "weights file is {actual} bytes, its header announces {expected} (truncated?)"
            ),
            WeightsError::Payload { expected } => write!(
                f,
                "weights file's compressed weights do not expand to the {expected} weights \
                 its header announces (damaged?)"
            ),
            WeightsError::Checksum { stored, computed } => write!(
                f,
                "weights file checksum {stored:08x} does not match its contents ({computed:08x})"
            ),
        }
    }
}

impl std::error::Error for WeightsError {}

/// The shared weights of every stage, in 1/64 discs, and the head of each stage if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// Which generation of training made them.
    pub generation: u16,
    stages: usize,
    extras: Extras,
    values: Vec<i16>,
    /// `stages` heads of `extras.head_params()` parameters.
    head: Vec<f32>,
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

/// The header's shape (its stage count in range and `fits`: the features and signature are
/// this program's) and its scale, as every version checks them.
fn check_shape(b: &[u8], fits: bool) -> Result<(), WeightsError> {
    let (stages, features, signature) = (u16_at(b, 10), u32_at(b, 12), u32_at(b, 16));
    if !(1..=MAX_STAGES).contains(&usize::from(stages)) || !fits {
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
    Ok(())
}

/// The file is `expected` bytes long and its last four are the CRC-32 of the others.
fn check_length_and_crc(b: &[u8], expected: usize) -> Result<(), WeightsError> {
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
    Ok(())
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Weights {
    /// All-zero tables and heads of `stages` stages with `extras` (hidden units clamped to
    /// [`MAX_HIDDEN`]).
    #[must_use]
    fn zero_with(generation: u16, stages: usize, extras: Extras) -> Weights {
        let stages = stages.clamp(1, MAX_STAGES);
        let extras = Extras {
            hidden: extras.hidden.min(MAX_HIDDEN),
            ..extras
        };
        Weights {
            generation,
            stages,
            extras,
            values: vec![0; stages * pattern_set().features_with(extras.mobility)],
            head: vec![0.0; stages * extras.head_params()],
        }
    }

    /// Weights from per-stage values in discs (one `Vec` per stage, at most 60),
    /// rounded to 1/64 and saturated.
    #[must_use]
    pub fn from_discs(generation: u16, discs: &[Vec<f32>]) -> Weights {
        Weights::from_parts(generation, Extras::default(), discs, &[])
    }

    /// Weights with `extras` from per-stage table values in discs (patterns and scalars,
    /// then the mobility patterns if any), rounded to 1/64 and saturated, and per-stage head
    /// parameters (non-finite ones become 0). Missing values are 0.
    #[must_use]
    pub fn from_parts(
        generation: u16,
        extras: Extras,
        discs: &[Vec<f32>],
        heads: &[Vec<f32>],
    ) -> Weights {
        let mut w = Weights::zero_with(generation, discs.len(), extras);
        let n = pattern_set().features_with(w.extras.mobility);
        for (s, stage) in discs.iter().enumerate().take(w.stages) {
            for (i, &v) in stage.iter().enumerate().take(n) {
                w.values[s * n + i] = (v * SCALE as f32)
                    .round()
                    .clamp(f32::from(i16::MIN), f32::from(i16::MAX))
                    as i16;
            }
        }
        let p = w.extras.head_params();
        for (s, head) in heads.iter().enumerate().take(w.stages) {
            for (i, &v) in head.iter().enumerate().take(p) {
                w.head[s * p + i] = if v.is_finite() { v } else { 0.0 };
            }
        }
        w
    }

    /// What the weights hold beyond generation 2's tables.
    #[must_use]
    pub fn extras(&self) -> Extras {
        self.extras
    }

    /// The head of stage `s` (empty without one), laid out as in the file.
    #[must_use]
    pub fn head(&self, s: usize) -> &[f32] {
        let p = self.extras.head_params();
        &self.head[s * p..(s + 1) * p]
    }

    /// The number of weight sets ([`super::set::stage`] maps empties to them).
    #[must_use]
    pub fn stages(&self) -> usize {
        self.stages
    }

    /// The shared weights of one stage (the mobility patterns' after the others).
    #[must_use]
    pub fn stage(&self, s: usize) -> &[i16] {
        let n = pattern_set().features_with(self.extras.mobility);
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

    /// Reads a weights file (version 2, or the uncompressed version 1).
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
        if version == VERSION_EXTRAS {
            return Weights::from_bytes_extras(b);
        }
        if version != 1 && version != VERSION {
            return Err(WeightsError::Version(version));
        }
        let stages = u16_at(b, 10);
        let features = u32_at(b, 12);
        let signature = u32_at(b, 16);
        let set = pattern_set();
        // Generation 1 files hold fewer patterns; they load with zeros for the others.
        let gen1 = version == 1
            && features as usize == set.gen1_shared()
            && signature == set.gen1_signature(usize::from(stages));
        let fits = gen1
            || features as usize == set.features()
                && signature == set.signature(usize::from(stages));
        check_shape(b, fits)?;
        let generation = u16_at(b, 22);
        let stages = usize::from(stages);
        let n = stages * features as usize;
        let (body, expected) = if version == 1 {
            (HEADER, HEADER + 2 * n + 4)
        } else {
            if b.len() < HEADER + 8 {
                return Err(WeightsError::TooShort { len: b.len() });
            }
            (HEADER + 4, HEADER + 4 + u32_at(b, HEADER) as usize + 4)
        };
        check_length_and_crc(b, expected)?;
        let payload = &b[body..expected - 4];
        let values = if version == 1 {
            let old: Vec<i16> = payload
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            if gen1 {
                old.chunks_exact(features as usize)
                    .flat_map(|stage| set.widen_gen1(stage))
                    .collect()
            } else {
                old
            }
        } else {
            unpack(payload, n)?
        };
        Ok(Weights {
            generation,
            stages,
            extras: Extras::default(),
            values,
            head: Vec::new(),
        })
    }

    /// Reads a version 3 file (the caller checked the length, magic and version).
    fn from_bytes_extras(b: &[u8]) -> Result<Weights, WeightsError> {
        if b.len() < HEADER_EXTRAS + 4 {
            return Err(WeightsError::TooShort { len: b.len() });
        }
        let stages = u16_at(b, 10);
        let features = u32_at(b, 12);
        let signature = u32_at(b, 16);
        let (families, hidden) = (u16_at(b, 24), u16_at(b, 26));
        if families > 1 || usize::from(hidden) > MAX_HIDDEN {
            return Err(WeightsError::Extras { families, hidden });
        }
        let extras = Extras {
            mobility: families == 1,
            hidden: usize::from(hidden),
        };
        let set = pattern_set();
        let fits = features as usize == set.features_with(extras.mobility)
            && signature
                == set.signature_with(
                    usize::from(stages),
                    extras.mobility,
                    extras.hidden,
                    HEAD_INPUTS,
                );
        check_shape(b, fits)?;
        let generation = u16_at(b, 22);
        let stages = usize::from(stages);
        let n = stages * features as usize;
        let heads = 4 * stages * extras.head_params();
        let packed = u32_at(b, 28) as usize;
        let expected = HEADER_EXTRAS + packed + heads + 4;
        check_length_and_crc(b, expected)?;
        let values = unpack(&b[HEADER_EXTRAS..HEADER_EXTRAS + packed], n)?;
        let head: Vec<f32> = b[HEADER_EXTRAS + packed..expected - 4]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if !head.iter().all(|v| v.is_finite()) {
            return Err(WeightsError::Head);
        }
        Ok(Weights {
            generation,
            stages,
            extras,
            values,
            head,
        })
    }

    /// The file's bytes: version 2 without [`Extras`], version 3 with them.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let set = pattern_set();
        let packed = pack(&self.values);
        let mut b = Vec::with_capacity(HEADER_EXTRAS + 4 + packed.len() + 4 * self.head.len());
        b.extend_from_slice(MAGIC);
        let version = if self.extras.is_none() {
            VERSION
        } else {
            VERSION_EXTRAS
        };
        b.extend_from_slice(&version.to_le_bytes());
        b.extend_from_slice(&(self.stages as u16).to_le_bytes());
        b.extend_from_slice(&(set.features_with(self.extras.mobility) as u32).to_le_bytes());
        let signature = if self.extras.is_none() {
            set.signature(self.stages)
        } else {
            set.signature_with(
                self.stages,
                self.extras.mobility,
                self.extras.hidden,
                HEAD_INPUTS,
            )
        };
        b.extend_from_slice(&signature.to_le_bytes());
        b.extend_from_slice(&(SCALE as u16).to_le_bytes());
        b.extend_from_slice(&self.generation.to_le_bytes());
        if version == VERSION_EXTRAS {
            b.extend_from_slice(&u16::from(self.extras.mobility).to_le_bytes());
            b.extend_from_slice(&(self.extras.hidden as u16).to_le_bytes());
        }
        b.extend_from_slice(&(packed.len() as u32).to_le_bytes());
        b.extend_from_slice(&packed);
        for v in &self.head {
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

/// `values` zigzag-coded as `u16`, all low bytes then all high bytes, deflated.
fn pack(values: &[i16]) -> Vec<u8> {
    let n = values.len();
    let mut planes = vec![0u8; 2 * n];
    for (i, &v) in values.iter().enumerate() {
        let [l, h] = zigzag(v).to_le_bytes();
        planes[i] = l;
        planes[n + i] = h;
    }
    miniz_oxide::deflate::compress_to_vec(&planes, 9)
}

/// The `n` values [`pack`] made `payload` of.
fn unpack(payload: &[u8], n: usize) -> Result<Vec<i16>, WeightsError> {
    let planes = miniz_oxide::inflate::decompress_to_vec_with_limit(payload, 2 * n)
        .ok()
        .filter(|p| p.len() == 2 * n)
        .ok_or(WeightsError::Payload { expected: n })?;
    let (low, high) = planes.split_at(n);
    Ok(low
        .iter()
        .zip(high)
        .map(|(&l, &h)| unzigzag(u16::from_le_bytes([l, h])))
        .collect())
}

/// Small magnitudes of either sign to small codes: 0, -1, 1, -2, … to 0, 1, 2, 3, …
fn zigzag(v: i16) -> u16 {
    ((v << 1) ^ (v >> 15)) as u16
}

/// The inverse of [`zigzag`].
fn unzigzag(z: u16) -> i16 {
    ((z >> 1) as i16) ^ -((z & 1) as i16)
}
