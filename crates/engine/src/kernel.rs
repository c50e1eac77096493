//! Which SIMD kernels this machine runs, chosen once at run time: the x86-64 kernels (AVX2
//! for moves and flips, BMI2's `pext` for pattern indices and last-square flips, with POPCNT,
//! LZCNT and BMI1 in the code around them) where the CPU has those features, else the
//! portable scalar kernels. The program is built for any x86-64 (or other) CPU; nothing is
//! decided at compile time.
//!
//! `REVERSI_KERNEL=portable` in the environment makes a process use the portable kernels even
//! where the SIMD ones would run, so that tests and benchmarks can compare the two.

use std::sync::atomic::{AtomicU8, Ordering};

/// A set of kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust on 64-bit integers: runs everywhere.
    Portable,
    /// AVX2, BMI1, BMI2, POPCNT and LZCNT (the x86-64-v3 level): Intel Haswell (2013) and
    /// later, AMD Excavator (2015) and later.
    X86V3,
}

impl Kernel {
    /// The kernels' name as `REVERSI_KERNEL` and the benchmarks spell it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::X86V3 => "x86-64-v3 (AVX2, BMI2)",
        }
    }
}

/// 0: not decided yet; 1: portable; 2: x86-64-v3.
static SELECTED: AtomicU8 = AtomicU8::new(0);

/// The kernels this process uses: the fastest the CPU runs, unless `REVERSI_KERNEL=portable`.
/// The first call checks the CPU and the environment; later calls read the answer.
///
/// # Examples
/// ```
/// use reversi_engine::kernel::{self, Kernel};
///
/// let kernel = kernel::selected();
/// println!("moves and flips run on the {} kernels", kernel.name());
/// // The choice is made once: the SIMD kernels only where the CPU runs them.
/// assert_eq!(kernel::selected(), kernel);
/// assert!(kernel == Kernel::Portable || kernel::cpu_has_x86v3());
/// ```
#[inline(always)]
#[must_use]
pub fn selected() -> Kernel {
    match SELECTED.load(Ordering::Relaxed) {
        2 => Kernel::X86V3,
        1 => Kernel::Portable,
        _ => decide(),
    }
}

/// Whether the x86-64-v3 kernels are in use (the hot paths' one-branch test).
#[inline(always)]
#[must_use]
pub fn simd() -> bool {
    selected() == Kernel::X86V3
}

#[cold]
fn decide() -> Kernel {
    let forced = std::env::var_os("REVERSI_KERNEL").is_some_and(|v| v == "portable");
    let kernel = if !forced && cpu_has_x86v3() {
        Kernel::X86V3
    } else {
        Kernel::Portable
    };
    SELECTED.store(
        match kernel {
            Kernel::Portable => 1,
            Kernel::X86V3 => 2,
        },
        Ordering::Relaxed,
    );
    kernel
}

/// Whether this CPU runs the x86-64-v3 kernels, whatever `REVERSI_KERNEL` says.
#[must_use]
pub fn cpu_has_x86v3() -> bool {
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

/// One kernel set as plain functions, for tests and benchmarks that run each set explicitly
/// (the search itself calls them inlined).
#[derive(Clone, Copy)]
pub struct Kernels {
    /// Which set these are.
    pub kernel: Kernel,
    /// Legal-move mask ([`crate::moves`]).
    pub moves: fn(u64, u64) -> u64,
    /// Flipped discs ([`crate::flips`]).
    pub flips: fn(u64, u64, u32) -> u64,
    /// Flips on the last empty square of a full 8x8 board ([`crate::flip::count_last_flips`]).
    pub count_last_flips: fn(u64, u32) -> u32,
    /// A pattern's base-3 index of the discs under a mask (at most 10 squares).
    pub ternary: fn(u64, u64, u64) -> usize,
}

impl std::fmt::Debug for Kernels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kernel.name())
    }
}

/// Every kernel set this CPU runs, the portable one first.
///
/// # Examples
/// ```
/// use reversi_engine::kernel::{self, Kernel};
/// use reversi_engine::Board;
///
/// let sets = kernel::available();
/// assert_eq!(sets[0].kernel, Kernel::Portable);
/// assert!(sets.iter().any(|set| set.kernel == kernel::selected()));
/// // Every set finds the same four first moves, and f5 (bit 37) flipping e5 (bit 36).
/// let (p, o) = (Board::START.player, Board::START.opponent);
/// for set in &sets {
///     assert_eq!((set.moves)(p, o), Board::START.moves(), "{set:?}");
///     assert_eq!((set.flips)(p, o, 37), 1 << 36, "{set:?}");
/// }
/// ```
#[must_use]
pub fn available() -> Vec<Kernels> {
    let mut sets = vec![Kernels {
        kernel: Kernel::Portable,
        moves: crate::mobility::moves_scalar,
        flips: crate::flip::flips_scalar,
        count_last_flips: crate::flip::count_last_flips_portable,
        ternary: crate::pattern::ternary_portable,
    }];
    #[cfg(target_arch = "x86_64")]
    if cpu_has_x86v3() {
        sets.push(checked::KERNELS);
    }
    sets
}

/// The x86-64-v3 kernels behind safe function pointers, handed out only after the CPU check.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod checked {
    use super::{Kernel, Kernels};

    pub const KERNELS: Kernels = Kernels {
        kernel: Kernel::X86V3,
        moves,
        flips,
        count_last_flips,
        ternary,
    };

    // SAFETY (all four): `available()` hands these out only when `cpu_has_x86v3()` found
    // AVX2 and BMI2 on this CPU.
    fn moves(p: u64, o: u64) -> u64 {
        unsafe { crate::mobility::avx2::moves(p, o) }
    }

    fn flips(p: u64, o: u64, sq: u32) -> u64 {
        unsafe { crate::flip::avx2::flips(p, o, sq) }
    }

    fn count_last_flips(p: u64, sq: u32) -> u32 {
        unsafe { crate::flip::bmi2::count_last_flips(p, sq) }
    }

    fn ternary(p: u64, o: u64, mask: u64) -> usize {
        unsafe { crate::pattern::bmi2::ternary(p, o, mask) }
    }
}

/// The portable kernels under the names the multiversioned code calls.
pub(crate) mod portable {
    pub(crate) use crate::flip::count_last_flips_portable as count_last_flips;
    pub(crate) use crate::flip::flips_scalar as flips;
    pub(crate) use crate::mobility::moves_scalar as moves;
    pub(crate) use crate::pattern::ternary_portable as ternary;
}

/// The x86-64-v3 kernels under the same names, for code compiled with those features.
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86v3 {
    pub(crate) use crate::flip::avx2::flips;
    pub(crate) use crate::flip::bmi2::count_last_flips;
    pub(crate) use crate::mobility::avx2::moves;
    pub(crate) use crate::pattern::bmi2::ternary;
}

/// The target features of the x86-64-v3 kernels, as `#[target_feature(enable = ...)]` takes
/// them: the features the crate's multiversioned search and perft are compiled with in their
/// x86-64-v3 copies, and those [`cpu_has_x86v3`] checks for.
pub const X86V3_FEATURES: &str = "avx2,bmi1,bmi2,popcnt,lzcnt";

/// Compiles free functions twice, into a module `portable` (the portable kernels, no
/// feature) and a module `x86v3` (the x86-64-v3 kernels, every function compiled with those
/// features so that the kernels inline and POPCNT/LZCNT/BMI1 serve `count_ones` and friends).
/// Inside, the functions call each other and `flips`/`moves`/`count_last_flips` by plain name
/// and get their own module's versions. Callers pick a module with [`simd`]; calling into
/// `x86v3` needs `unsafe` (the CPU check).
///
/// Each function must be written `fn name(args) -> Type { body }`, optionally after
/// attributes (not `#[inline(always)]`, which target features do not allow).
macro_rules! multiversion {
    ($($(#[$m:meta])* fn $name:ident ($($args:tt)*) -> $ret:ty $body:block)*) => {
        /// The functions above on the portable kernels.
        pub(crate) mod portable {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use $crate::kernel::portable::*;
            $( $(#[$m])* pub(crate) fn $name($($args)*) -> $ret $body )*
        }
        /// The functions above compiled for x86-64-v3 on its kernels.
        #[cfg(target_arch = "x86_64")]
        pub(crate) mod x86v3 {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use $crate::kernel::x86v3::*;
            $(
                $(#[$m])*
                #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
                pub(crate) fn $name($($args)*) -> $ret $body
            )*
        }
    };
}
pub(crate) use multiversion;

/// Calls `module::x86v3::f(args)` where [`simd`] says the CPU runs it, else
/// `module::portable::f(args)`: the one place multiversioned code is entered.
macro_rules! dispatch {
    ($module:ident, $f:ident($($arg:expr),* $(,)?)) => {{
        #[cfg(target_arch = "x86_64")]
        if $crate::kernel::simd() {
            // SAFETY: `simd()` is true only on a CPU with every x86-64-v3 feature the
            // `x86v3` functions are compiled with (`kernel::cpu_has_x86v3`).
            #[allow(unsafe_code)]
            let value = unsafe { $module::x86v3::$f($($arg),*) };
            return value;
        }
        $module::portable::$f($($arg),*)
    }};
}
pub(crate) use dispatch;
