//! Which tier of SIMD code this process runs, decided once at run time ([`Kernel`],
//! [`selected`], [`cap`]): the bottom of the engine, which the kernels ask ([`simd`]) and
//! [`crate::kernel`] re-exports with the kernel sets of each tier.

use std::sync::atomic::{AtomicU8, Ordering};

/// A tier of SIMD code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kernel {
    /// Plain Rust on 64-bit integers: runs everywhere.
    Portable,
    /// AVX2, BMI1, BMI2, POPCNT and LZCNT (the x86-64-v3 level): Intel Haswell (2013) and
    /// later, AMD Excavator (2015) and later.
    X86V3,
    /// x86-64-v3 plus AVX-512 F, BW, CD, DQ and VL (the x86-64-v4 level): Intel Skylake-X
    /// (2017) and later server chips, AMD Zen 4 (2022) and later.
    X86V4,
}

impl Kernel {
    /// The tier's name (`portable`, `x86-64-v3`, `x86-64-v4`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::X86V3 => "x86-64-v3",
            Kernel::X86V4 => "x86-64-v4",
        }
    }

    /// The tier this CPU runs at best.
    #[must_use]
    pub(crate) fn best_for_cpu() -> Kernel {
        if cpu_has_x86v4() {
            Kernel::X86V4
        } else if cpu_has_x86v3() {
            Kernel::X86V3
        } else {
            Kernel::Portable
        }
    }
}

/// 0: not decided yet; else 1 + the tier's position in [`Kernel`]. A cache of what the CPU
/// runs (as the standard library's feature detection caches it), lowered only by [`cap`].
static SELECTED: AtomicU8 = AtomicU8::new(0);

/// The tier this process uses: the best the CPU runs, or lower if [`cap`] held it lower.
/// The first call checks the CPU; later calls read the answer.
///
/// # Examples
/// ```
/// use reversi_engine::kernel;
///
/// let kernel = kernel::selected();
/// println!("the search runs its {} copy", kernel.name());
/// // The choice is made once.
/// assert_eq!(kernel::selected(), kernel);
/// ```
#[inline(always)]
#[must_use]
pub fn selected() -> Kernel {
    match SELECTED.load(Ordering::Relaxed) {
        3 => Kernel::X86V4,
        2 => Kernel::X86V3,
        1 => Kernel::Portable,
        _ => decide(),
    }
}

/// Whether the AVX2/BMI2 kernels are in use (x86-64-v3 or v4): the one branch the kernels'
/// callers outside the multiversioned code take.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
#[must_use]
pub(crate) fn simd() -> bool {
    selected() >= Kernel::X86V3
}

#[cold]
fn decide() -> Kernel {
    store(Kernel::best_for_cpu())
}

/// Holds the process to `limit` where the CPU runs a higher tier (so that tests and
/// benchmarks can compare the tiers: the program's `--kernel` and `REVERSI_KERNEL`), and
/// returns the tier now in use. Call it before the first search; the kernels' results do not
/// depend on the tier, only their speed.
pub fn cap(limit: Kernel) -> Kernel {
    store(Kernel::best_for_cpu().min(limit))
}

fn store(kernel: Kernel) -> Kernel {
    SELECTED.store(
        match kernel {
            Kernel::Portable => 1,
            Kernel::X86V3 => 2,
            Kernel::X86V4 => 3,
        },
        Ordering::Relaxed,
    );
    kernel
}

/// Whether this CPU runs the x86-64-v3 tier, whatever [`cap`] set.
#[must_use]
pub(crate) fn cpu_has_x86v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU runs the x86-64-v4 tier, whatever [`cap`] set.
#[must_use]
pub(crate) fn cpu_has_x86v4() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        cpu_has_x86v3()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512cd")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512vl")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_choice_is_never_above_what_the_cpu_runs() {
        assert!(selected() <= Kernel::best_for_cpu());
    }
}
