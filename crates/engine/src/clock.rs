//! The time a search reads, handed in by its caller: the system's monotonic clock natively,
//! the page's `performance.now()` in a browser (where `std::time::Instant` panics).

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A monotonic clock: the time since an origin of its own. Searches read it every few
/// thousand nodes for their deadline, and to report how long they took.
pub trait Clock: Send + Sync + fmt::Debug {
    /// The time since this clock's origin; never decreases.
    fn now(&self) -> Duration;
}

/// The system's monotonic clock ([`Instant`]), its origin when it was made.
///
/// # Panics
/// [`SystemClock::new`] panics where the platform has no clock (`wasm32-unknown-unknown`):
/// there the caller hands the engine a clock of its own ([`crate::engine::Engine::with_clock`]).
#[derive(Debug, Clone, Copy)]
pub struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// A clock that starts now.
    #[must_use]
    pub fn new() -> SystemClock {
        SystemClock {
            origin: Instant::now(),
        }
    }

    /// [`SystemClock::new`] behind the shared handle the engine keeps.
    #[must_use]
    pub fn shared() -> SharedClock {
        Arc::new(SystemClock::new())
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A clock the engine and its players share.
pub type SharedClock = Arc<dyn Clock>;

/// A point on a [`Clock`], for measuring how long something takes.
#[derive(Clone, Copy)]
pub struct Stopwatch<'a> {
    clock: &'a dyn Clock,
    started: Duration,
}

impl<'a> Stopwatch<'a> {
    /// A stopwatch started now.
    #[must_use]
    pub fn start(clock: &'a dyn Clock) -> Stopwatch<'a> {
        Stopwatch {
            clock,
            started: clock.now(),
        }
    }

    /// The time since the stopwatch started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.clock.now().saturating_sub(self.started)
    }

    /// The clock's time `after` the start, as a deadline for [`Stopwatch::passed`].
    #[must_use]
    pub fn deadline(&self, after: Duration) -> Duration {
        self.started.saturating_add(after)
    }

    /// Whether the clock has reached `deadline` (a time of the same clock).
    #[must_use]
    pub fn passed(&self, deadline: Duration) -> bool {
        self.clock.now() >= deadline
    }

    /// The clock it reads.
    #[must_use]
    pub fn clock(&self) -> &'a dyn Clock {
        self.clock
    }
}

impl fmt::Debug for Stopwatch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stopwatch")
            .field("started", &self.started)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A clock that moves only when told to.
    #[derive(Debug)]
    struct Manual(AtomicU64);

    impl Clock for Manual {
        fn now(&self) -> Duration {
            Duration::from_millis(self.0.load(Ordering::Relaxed))
        }
    }

    #[test]
    fn a_stopwatch_reads_its_clock() {
        let clock = Manual(AtomicU64::new(1_000));
        let watch = Stopwatch::start(&clock);
        let deadline = watch.deadline(Duration::from_millis(50));
        assert_eq!(watch.elapsed(), Duration::ZERO);
        assert!(!watch.passed(deadline));
        clock.0.store(1_049, Ordering::Relaxed);
        assert_eq!(watch.elapsed(), Duration::from_millis(49));
        assert!(!watch.passed(deadline));
        clock.0.store(1_050, Ordering::Relaxed);
        assert!(watch.passed(deadline));
    }

    #[test]
    fn the_system_clock_moves_forwards() {
        let clock = SystemClock::new();
        let a = clock.now();
        let b = clock.now();
        assert!(b >= a);
    }
}
