//! The workspace's one seeded generator (xorshift64): the computer players' random choices,
//! the benchmarks' fixed walks, self-play's random openings, the history stress test and the
//! tests' `reversi_testkit::Rng` all draw from it, so that a seed replays the same games
//! everywhere. It lives here, at the bottom, because the tests' helper crate can depend on
//! this crate alone (whose own tests do not use that helper) without a dependency loop.

/// A xorshift64 generator: fast, small, and the same sequence on every machine.
///
/// # Examples
/// ```
/// use reversi_core::XorShift64;
///
/// let mut a = XorShift64::new(7);
/// let mut b = XorShift64::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct XorShift64 {
    state: u64,
}

impl XorShift64 {
    /// A generator started from `seed` (0, which xorshift cannot leave, is taken as 1).
    #[must_use]
    pub fn new(seed: u64) -> XorShift64 {
        XorShift64 {
            state: if seed == 0 { 1 } else { seed },
        }
    }

    /// The next number (the shifts 13, 7, 17).
    pub fn next_u64(&mut self) -> u64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state
    }

    /// A number below `n` (the next number modulo `n`; `n` must not be 0).
    ///
    /// # Panics
    /// When `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}
