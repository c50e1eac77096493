//! Generation 3: the pattern tables generated from a few thousand parameters. Each pattern
//! has a small network (its squares one-hot, two inputs a square, and the game phase in, as
//! a number and as its stage one-hot; two hidden layers of 16 or 32 leaky-ReLU units;
//! one value out) and each scalar feature (mobility, potential mobility, parity) a weight a
//! stage. When the weights load,
//! the networks fill the ordinary tables of every stage (`NetWeights::tables`), so the
//! search reads plain tables as before. Every position teaches every configuration that
//! shares squares with the ones it holds, and neighbouring stages share what they learn.
//!
//! The weights file:
//!
//! ```text
//! offset  size  field
//!  0      8     magic "RVPATNET"
//!  8      2     format version (1)
//! 10      2     stages of the generated tables (1 to 60)
//! 12      4     P: parameters
//! 16      4     signature of the pattern set, stage count and network shape
//! 20      2     hidden units a layer
//! 22      2     generation (3 = the first generated evaluation)
//! 24      4P    the parameters, f32 little-endian (see [`Layout`])
//! 24+4P   4     CRC-32 (IEEE) of bytes 0..24+4P
//! ```
//!
//! Version 2 adds generation 3's mobility patterns and head ([`Extras`]), learnt with the
//! networks: bytes 24–25 say which families (bit 0: mobility patterns), bytes 26–27 the
//! head's hidden units, and the parameters (from byte 28) go on after the scalars with each
//! stage's mobility-pattern weights (in discs, the table file's order), then each stage's
//! head (the table file's layout). A file without them is written as version 1.
//!
//! The network fit (the training crate's) reads the parameters through what is public here:
//! their [`Layout`] and [`Tail`], a network's [`forward`] pass and the rows a configuration
//! feeds it ([`config_rows`]).

use super::weights::WeightsError;
use super::{
    crc32, pattern_set, stage_empties, Extras, Weights, GROUPS, HEAD_INPUTS, MAX_HIDDEN,
    SCALAR_COUNT,
};

const MAGIC: &[u8; 8] = b"RVPATNET";
/// Without extras.
const VERSION: u16 = 1;
/// With the mobility patterns and head.
const VERSION_EXTRAS: u16 = 2;
const HEADER: usize = 24;
const HEADER_EXTRAS: usize = 28;

/// The widths a pattern network's two hidden layers may have (the file says which).
pub const NET_WIDTHS: [usize; 2] = [16, 32];

/// The width of new networks unless asked otherwise.
pub const DEFAULT_NET_HIDDEN: usize = 16;

/// Stages of the generated tables (one per two empties).
pub const NET_STAGES: usize = 30;

/// The slope of the hidden units below zero.
pub const LEAK: f32 = 1.0 / 16.0;

/// Whether `bytes` start like a generated-evaluation weights file.
#[must_use]
pub(crate) fn is_net(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Where each pattern's network and the scalars' quadratics sit in the parameters.
///
/// A network of `n` squares and width `H`: `W1` (`2n + 1 + NET_STAGES` rows of `H`: player
/// and opponent on square `j` are rows `2j` and `2j + 1`, the phase row `2n`, stage `s` row
/// `2n + 1 + s`), `b1`, `W2` (`H` rows of `H`, row `i` the weights from unit `i` of the first
/// layer), `b2`, `w3`, `b3`. Then the scalar features' weights, stage after stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Hidden units a layer (one of [`NET_WIDTHS`]).
    pub hidden: usize,
    /// Start of each pattern's network.
    pub nets: Vec<usize>,
    /// Squares of each pattern.
    pub squares: Vec<usize>,
    /// Start of the scalars' coefficients.
    pub scalars: usize,
    /// Parameters in all.
    pub len: usize,
}

/// Parameters of a network of `n` squares and width `h`.
#[must_use]
pub const fn net_len(n: usize, h: usize) -> usize {
    (2 * n + 1 + NET_STAGES) * h + h + h * h + h + h + 1
}

/// Offsets inside one network of `n` squares and width `h`: (W1, b1, W2, b2, w3, b3).
#[must_use]
pub const fn net_parts(n: usize, h: usize) -> [usize; 6] {
    let w1 = 0;
    let b1 = w1 + (2 * n + 1 + NET_STAGES) * h;
    let w2 = b1 + h;
    let b2 = w2 + h * h;
    let w3 = b2 + h;
    let b3 = w3 + h;
    [w1, b1, w2, b2, w3, b3]
}

/// Whether pattern networks may be `hidden` units wide.
#[must_use]
pub fn is_net_width(hidden: usize) -> bool {
    NET_WIDTHS.contains(&hidden)
}

/// The layout of the pattern set's parameters for networks `hidden` wide (one of
/// [`NET_WIDTHS`]; any other width is taken as the narrowest), computed once a width.
#[must_use]
pub fn layout(hidden: usize) -> &'static Layout {
    static LAYOUTS: [std::sync::OnceLock<Layout>; NET_WIDTHS.len()] =
        [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    let i = NET_WIDTHS.iter().position(|&h| h == hidden).unwrap_or(0);
    LAYOUTS[i].get_or_init(|| build_layout(NET_WIDTHS[i]))
}

fn build_layout(hidden: usize) -> Layout {
    let mut nets = Vec::new();
    let mut squares = Vec::new();
    let mut at = 0;
    for g in GROUPS {
        nets.push(at);
        squares.push(g.squares.len());
        at += net_len(g.squares.len(), hidden);
    }
    Layout {
        hidden,
        nets,
        squares,
        scalars: at,
        len: at + NET_STAGES * SCALAR_COUNT,
    }
}

/// The phase input of a position with `empties` empty squares: 0 at the end, 1 at the start.
#[inline]
#[must_use]
pub(crate) fn phase(empties: f32) -> f32 {
    empties / 60.0
}

/// The phase of stage `s` of `stages`: the middle of its empties.
#[must_use]
pub fn stage_phase(s: usize, stages: usize) -> f32 {
    let (lo, hi) = stage_empties(s, stages);
    let lo = lo.max(1);
    phase((lo + hi) as f32 / 2.0)
}

/// The leaky ReLU.
#[inline(always)]
#[must_use]
pub fn leaky(x: f32) -> f32 {
    if x > 0.0 {
        x
    } else {
        LEAK * x
    }
}

/// One pattern network's value for a configuration whose occupied squares are the W1 rows
/// `rows` (`2j` player, `2j + 1` opponent on square `j`), at stage `s` of phase `t`. `net` holds the
/// network's parameters (`net_len(n, H)` of them, `H` its width). Also returns the two
/// layers' pre-activations, for training.
#[inline(always)]
#[must_use]
pub fn forward<const H: usize>(
    net: &[f32],
    n: usize,
    rows: &[u8],
    t: f32,
    s: usize,
) -> (f32, [f32; H], [f32; H]) {
    let [w1, b1, w2, b2, w3, b3] = net_parts(n, H);
    let mut h1 = [0f32; H];
    h1.copy_from_slice(&net[b1..b1 + H]);
    let phase_row = &net[w1 + 2 * n * H..w1 + (2 * n + 1) * H];
    let stage_row = &net[w1 + (2 * n + 1 + s) * H..w1 + (2 * n + 2 + s) * H];
    for ((h, &w), &b) in h1.iter_mut().zip(phase_row).zip(stage_row) {
        *h += t * w + b;
    }
    for &r in rows {
        let row = &net[w1 + usize::from(r) * H..w1 + (usize::from(r) + 1) * H];
        for (h, &w) in h1.iter_mut().zip(row) {
            *h += w;
        }
    }
    let mut h2 = [0f32; H];
    h2.copy_from_slice(&net[b2..b2 + H]);
    for (i, &x) in h1.iter().enumerate() {
        let a = leaky(x);
        let row = &net[w2 + i * H..w2 + (i + 1) * H];
        for (h, &w) in h2.iter_mut().zip(row) {
            *h += a * w;
        }
    }
    let mut out = net[b3];
    for (&x, &w) in h2.iter().zip(&net[w3..w3 + H]) {
        out += leaky(x) * w;
    }
    (out, h1, h2)
}

/// The W1 rows of a canonical configuration `config` of `n` squares (base 3, digit `j` the
/// square `j`: 0 empty, 1 player, 2 opponent), into `out`; returns how many.
#[inline]
pub fn config_rows(mut config: u32, n: usize, out: &mut [u8; 16]) -> usize {
    let mut k = 0;
    for j in 0..n {
        let d = config % 3;
        config /= 3;
        if d != 0 {
            out[k] = (2 * j + d as usize - 1) as u8;
            k += 1;
        }
    }
    k
}

/// Where scalar feature `k`'s weight of stage `s` sits.
#[inline(always)]
#[must_use]
pub fn scalar_at(l: &Layout, k: usize, s: usize) -> usize {
    l.scalars + s * SCALAR_COUNT + k
}

/// The parameters of a generated evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct NetWeights {
    /// Which generation of training made them.
    pub generation: u16,
    /// Stages of the generated tables.
    pub stages: usize,
    /// Hidden units in each layer of a pattern network (one of [`NET_WIDTHS`]).
    pub hidden: usize,
    /// The parameters, laid out pattern by pattern, then the scalars, then the extras'.
    pub params: Vec<f32>,
    /// The mobility patterns and head learnt beside the networks (none: version 1).
    pub extras: Extras,
}

/// Where the extras' parameters sit in [`NetWeights::params`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tail {
    /// Mobility-pattern weights a stage (0: none).
    pub mobility_len: usize,
    /// Start of stage 0's mobility-pattern weights.
    pub mobility: usize,
    /// The head's hidden units (0: none).
    pub hidden: usize,
    /// Head parameters a stage.
    pub head_len: usize,
    /// Start of stage 0's head.
    pub head: usize,
}

impl Tail {
    /// The extras' places for `stages` stages after the networks (`hidden` wide) and
    /// scalars.
    #[must_use]
    pub(crate) fn of(extras: Extras, stages: usize, hidden: usize) -> Tail {
        let mobility_len = if extras.mobility {
            pattern_set().features_with(true) - pattern_set().features()
        } else {
            0
        };
        let mobility = layout(hidden).len;
        Tail {
            mobility_len,
            mobility,
            hidden: extras.hidden,
            head_len: extras.head_params(),
            head: mobility + stages * mobility_len,
        }
    }

    /// Parameters in all, the extras' included.
    #[must_use]
    pub(crate) fn len(&self, stages: usize) -> usize {
        self.head + stages * self.head_len
    }
}

/// The seeded generator of the starting values (`SplitMix64`).
struct SplitMix64(u64);

impl SplitMix64 {
    /// The next 64 bits (the generator's arithmetic is modulo 2^64 by definition).
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Uniform random starting values of the networks from a seed.
struct Uniform(SplitMix64);

impl Uniform {
    fn new(seed: u64) -> Uniform {
        Uniform(SplitMix64(seed ^ 0x6a09_e667_f3bc_c908))
    }

    /// A value between `-scale` and `scale`.
    fn next(&mut self, scale: f32) -> f32 {
        let z = self.0.next();
        ((z >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
    }
}

/// A head's starting parameters for a fit, `hidden` units in the layout of [`Extras`]' head
/// (empty for none): first-layer weights uniform within ±0.3, hidden biases and output
/// weights within ±0.1, from `seed`, and a zero output bias. Both fits start a new head so:
/// the table fit one a stage, [`NetWeights::with_extras`] too.
#[must_use]
pub fn seeded_head(hidden: usize, seed: u64) -> Vec<f32> {
    if hidden == 0 {
        return Vec::new();
    }
    let mut rng = SplitMix64(seed);
    let mut uniform =
        |scale: f32| (((rng.next() >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0) as f32 * scale;
    let mut p = Vec::with_capacity(HEAD_INPUTS * hidden + 2 * hidden + 1);
    p.extend((0..HEAD_INPUTS * hidden).map(|_| uniform(0.3)));
    p.extend((0..2 * hidden).map(|_| uniform(0.1)));
    p.push(0.0);
    p
}

/// The spread of a second-layer weight at start: 0.6 for 16 units, falling as the square
/// root of the width (the sum over the first layer's units keeps its spread).
fn w2_scale(hidden: usize) -> f32 {
    0.6 * (16.0 / hidden as f32).sqrt()
}

impl NetWeights {
    /// Starting parameters for networks `hidden` units wide: small random network weights
    /// from `seed`, zero biases and scalars (the evaluation starts near 0 everywhere).
    ///
    /// # Errors
    /// [`WeightsError::NetWidth`] when `hidden` is not one of [`NET_WIDTHS`].
    pub fn init(generation: u16, hidden: usize, seed: u64) -> Result<NetWeights, WeightsError> {
        if !is_net_width(hidden) {
            return Err(WeightsError::NetWidth(hidden));
        }
        let l = layout(hidden);
        let mut params = vec![0f32; l.len];
        let mut uniform = Uniform::new(seed);
        for (&start, &n) in l.nets.iter().zip(&l.squares) {
            let [w1, b1, w2, b2, w3, _] = net_parts(n, hidden);
            let net = &mut params[start..start + net_len(n, hidden)];
            for p in &mut net[w1..b1] {
                *p = uniform.next(0.5);
            }
            for p in &mut net[w2..b2] {
                *p = uniform.next(w2_scale(hidden));
            }
            for p in &mut net[w3..w3 + hidden] {
                *p = uniform.next(0.1);
            }
        }
        Ok(NetWeights {
            generation,
            stages: NET_STAGES,
            hidden,
            params,
            extras: Extras::default(),
        })
    }

    /// The same evaluation with networks `hidden` units wide: each network keeps its units
    /// and gains new ones whose output weights are zero (and whose first-layer units do not
    /// feed the old second-layer ones), so every generated value stays as it was while the
    /// new units' other weights start small and random from `seed`, ready to learn.
    ///
    /// # Errors
    /// [`WeightsError::NetWidth`] when `hidden` is not one of [`NET_WIDTHS`] or narrower
    /// than the networks already are.
    pub fn widen(self, hidden: usize, seed: u64) -> Result<NetWeights, WeightsError> {
        if !is_net_width(hidden) || hidden < self.hidden {
            return Err(WeightsError::NetWidth(hidden));
        }
        if hidden == self.hidden {
            return Ok(self);
        }
        let (old, new) = (layout(self.hidden), layout(hidden));
        let (h0, h) = (self.hidden, hidden);
        let mut params = vec![0f32; new.len];
        let mut uniform = Uniform::new(seed);
        for g in 0..old.nets.len() {
            let n = old.squares[g];
            let from = &self.params[old.nets[g]..old.nets[g] + net_len(n, h0)];
            let to = &mut params[new.nets[g]..new.nets[g] + net_len(n, h)];
            let [w1, b1, w2, b2, w3, b3] = net_parts(n, h0);
            let [nw1, nb1, nw2, nb2, nw3, nb3] = net_parts(n, h);
            for r in 0..(b1 - w1) / h0 {
                for j in 0..h {
                    to[nw1 + r * h + j] = if j < h0 {
                        from[w1 + r * h0 + j]
                    } else {
                        uniform.next(0.5)
                    };
                }
            }
            to[nb1..nb1 + h0].copy_from_slice(&from[b1..b1 + h0]);
            for i in 0..h {
                for j in 0..h {
                    to[nw2 + i * h + j] = match (i < h0, j < h0) {
                        (true, true) => from[w2 + i * h0 + j],
                        (false, true) => 0.0,
                        _ => uniform.next(w2_scale(h)),
                    };
                }
            }
            to[nb2..nb2 + h0].copy_from_slice(&from[b2..b2 + h0]);
            to[nw3..nw3 + h0].copy_from_slice(&from[w3..w3 + h0]);
            to[nb3] = from[b3];
        }
        // The scalars and the extras follow the networks, in the same order.
        params.truncate(new.scalars);
        params.extend_from_slice(&self.params[old.scalars..]);
        Ok(NetWeights {
            hidden,
            params,
            ..self
        })
    }

    /// The same networks with `extras` added (hidden units at most [`MAX_HIDDEN`]): zero
    /// mobility-pattern weights, a head of small values from `seed`, as the table fit starts
    /// them. Weights that already have extras keep what they have of the new ones.
    #[must_use]
    pub fn with_extras(self, extras: Extras, seed: u64) -> NetWeights {
        let extras = Extras {
            hidden: extras.hidden.min(MAX_HIDDEN),
            ..extras
        };
        let (old, new) = (self.tail(), Tail::of(extras, self.stages, self.hidden));
        let mut params = self.params[..layout(self.hidden).len].to_vec();
        params.resize(new.len(self.stages), 0.0);
        if old.mobility_len == new.mobility_len {
            let (from, to) = (old.mobility, new.mobility);
            let len = self.stages * new.mobility_len;
            params[to..to + len].copy_from_slice(&self.params[from..from + len]);
        }
        for s in 0..self.stages {
            let at = new.head + s * new.head_len;
            let head = if old.head_len == new.head_len {
                let from = old.head + s * old.head_len;
                self.params[from..from + new.head_len].to_vec()
            } else {
                seeded_head(new.hidden, seed.wrapping_add(s as u64))
            };
            params[at..at + new.head_len].copy_from_slice(&head[..new.head_len]);
        }
        NetWeights {
            params,
            extras,
            ..self
        }
    }

    /// Where these weights keep their extras' parameters.
    #[must_use]
    pub fn tail(&self) -> Tail {
        Tail::of(self.extras, self.stages, self.hidden)
    }

    /// The values of every shared feature of stage `s`, in discs.
    #[inline(always)]
    fn stage_values(&self, s: usize) -> Vec<f32> {
        (0..pattern_set().features())
            .map(|f| self.feature_value(f, s))
            .collect()
    }

    /// The value of shared feature `f` of stage `s` (a pattern configuration's network
    /// output or a scalar's quadratic), in discs.
    #[inline(always)]
    #[must_use]
    pub(crate) fn feature_value(&self, f: usize, s: usize) -> f32 {
        let set = pattern_set();
        let l = layout(self.hidden);
        let t = stage_phase(s, self.stages);
        if f >= set.scalar_feature {
            return self.params[scalar_at(l, f - set.scalar_feature, s)];
        }
        let (g, config) = set.canon[f];
        let (g, n) = (usize::from(g), l.squares[usize::from(g)]);
        let mut rows = [0u8; 16];
        let k = config_rows(config, n, &mut rows);
        let net = &self.params[l.nets[g]..];
        if self.hidden == 32 {
            forward::<32>(net, n, &rows[..k], t, s).0
        } else {
            forward::<16>(net, n, &rows[..k], t, s).0
        }
    }

    /// The tables the search reads: every shared feature of every stage, generated.
    #[must_use]
    pub fn tables(&self) -> Weights {
        let stages: Vec<usize> = (0..self.stages).collect();
        let mut discs = vec![Vec::new(); self.stages];
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        std::thread::scope(|scope| {
            let mut rest: &mut [Vec<f32>] = &mut discs;
            let chunk = self.stages.div_ceil(threads);
            let mut first = 0;
            while !rest.is_empty() {
                let take = chunk.min(rest.len());
                let (mine, later) = rest.split_at_mut(take);
                rest = later;
                let from = first;
                first += take;
                let stages = &stages;
                scope.spawn(move || {
                    for (out, &s) in mine.iter_mut().zip(&stages[from..]) {
                        *out = crate::kernel::dispatch!(versions, stage_values(self, s));
                    }
                });
            }
        });
        let tail = self.tail();
        let mut heads = Vec::with_capacity(self.stages);
        for (s, stage) in discs.iter_mut().enumerate() {
            let at = tail.mobility + s * tail.mobility_len;
            stage.extend_from_slice(&self.params[at..at + tail.mobility_len]);
            let at = tail.head + s * tail.head_len;
            heads.push(self.params[at..at + tail.head_len].to_vec());
        }
        Weights::from_parts(self.generation, self.extras, &discs, &heads)
    }

    /// The signature a file of these weights carries: the pattern set, the stages and the
    /// network shape (`hidden` units a layer).
    #[must_use]
    pub(crate) fn signature(stages: usize, hidden: usize) -> u32 {
        let s = pattern_set().signature(stages);
        (s ^ (hidden as u32) ^ 0x4e45_5400).wrapping_mul(0x0100_0193)
    }

    /// The file's bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_EXTRAS + 4 * self.params.len() + 4);
        let plain = self.extras.is_none();
        out.extend_from_slice(MAGIC);
        let version = if plain { VERSION } else { VERSION_EXTRAS };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(self.stages as u16).to_le_bytes());
        out.extend_from_slice(&(self.params.len() as u32).to_le_bytes());
        out.extend_from_slice(&Self::signature(self.stages, self.hidden).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u16).to_le_bytes());
        out.extend_from_slice(&self.generation.to_le_bytes());
        if !plain {
            out.extend_from_slice(&u16::from(self.extras.mobility).to_le_bytes());
            out.extend_from_slice(&(self.extras.hidden as u16).to_le_bytes());
        }
        for p in &self.params {
            out.extend_from_slice(&p.to_le_bytes());
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads a generated-evaluation weights file.
    ///
    /// # Errors
    /// When the bytes are not a complete, undamaged file of this pattern set and network
    /// shape.
    pub fn from_bytes(b: &[u8]) -> Result<NetWeights, WeightsError> {
        if b.len() < HEADER + 4 {
            return Err(WeightsError::TooShort { len: b.len() });
        }
        if !is_net(b) {
            return Err(WeightsError::BadMagic);
        }
        let u16_at = |at: usize| u16::from_le_bytes([b[at], b[at + 1]]);
        let u32_at = |at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        let version = u16_at(8);
        let header = match version {
            VERSION => HEADER,
            VERSION_EXTRAS => HEADER_EXTRAS,
            _ => return Err(WeightsError::Version(version)),
        };
        if b.len() < header + 4 {
            return Err(WeightsError::TooShort { len: b.len() });
        }
        let count = u32_at(12) as usize;
        let expected = header + 4 * count + 4;
        if b.len() != expected {
            return Err(WeightsError::Length {
                expected,
                actual: b.len(),
            });
        }
        let stored = u32_at(b.len() - 4);
        let computed = crc32(&b[..b.len() - 4]);
        if stored != computed {
            return Err(WeightsError::Checksum { stored, computed });
        }
        let extras = if version == VERSION_EXTRAS {
            let (families, hidden) = (u16_at(24), u16_at(26));
            if families > 1 || usize::from(hidden) > MAX_HIDDEN {
                return Err(WeightsError::Extras { families, hidden });
            }
            Extras {
                mobility: families == 1,
                hidden: usize::from(hidden),
            }
        } else {
            Extras::default()
        };
        let stages = u16_at(10);
        let signature = u32_at(16);
        let hidden = usize::from(u16_at(20));
        let shape_ok = usize::from(stages) == NET_STAGES
            && is_net_width(hidden)
            && count == Tail::of(extras, usize::from(stages), hidden).len(usize::from(stages))
            && signature == Self::signature(usize::from(stages), hidden);
        if !shape_ok {
            return Err(WeightsError::Shape {
                stages,
                features: count as u32,
                signature,
            });
        }
        let params: Vec<f32> = b[header..header + 4 * count]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(NetWeights {
            generation: u16_at(22),
            stages: usize::from(stages),
            hidden,
            params,
            extras,
        })
    }

    /// The CRC-32 the file stores (of everything before it; how reports name weights).
    #[must_use]
    pub fn checksum(&self) -> u32 {
        let bytes = self.to_bytes();
        crc32(&bytes[..bytes.len() - 4])
    }
}

/// The table generation compiled once per kernel set ([`crate::kernel::multiversion`]).
mod versions {
    use super::NetWeights;

    crate::kernel::multiversion! {
        /// Every shared feature's value of stage `s`.
        fn stage_values(w: &NetWeights, s: usize) -> Vec<f32> {
            w.stage_values(s)
        }
    }
}

/// The tables of any weights file: a generated evaluation's ([`NetWeights`]) or plain
/// tables ([`Weights`]).
///
/// # Errors
/// As [`NetWeights::from_bytes`] and [`Weights::from_bytes`] say.
pub fn load_tables(bytes: &[u8]) -> Result<Weights, WeightsError> {
    if is_net(bytes) {
        NetWeights::from_bytes(bytes).map(|w| w.tables())
    } else {
        Weights::from_bytes(bytes)
    }
}
