//! Which SIMD code this machine runs, chosen once at run time. The program is built for any
//! x86-64 (or other) CPU; nothing is decided at compile time. Three tiers:
//! - portable: plain Rust on 64-bit integers, everywhere;
//! - x86-64-v3: the AVX2 kernels for moves and flips, BMI2's `pext` for pattern indices and
//!   last-square flips, and the hot search compiled with AVX2, BMI1/2, POPCNT and LZCNT;
//! - x86-64-v4: the same kernels, the hot search compiled with AVX-512 (F, BW, CD, DQ, VL) as
//!   well, where the CPU has it.
//!
//! [`selected`] is the tier in use, decided at the first call; [`cap`] holds a process to a
//! lower tier even where a higher one would run (the program's `REVERSI_KERNEL=portable` or
//! `x86-64-v3`), so that tests and benchmarks can compare them. The kernels call `simd`.
//! [`run`] enters the copy for the tier in use of work from outside the engine ([`Tiered`]:
//! the training's network fit), as `dispatch!` does for the engine's own.

mod tier;

#[cfg(target_arch = "x86_64")]
pub(crate) use tier::cpu_has_x86v3;
#[cfg(target_arch = "x86_64")]
pub(crate) use tier::simd;
pub use tier::{cap, selected, Kernel};

/// One kernel set as plain functions, for tests and benchmarks that run each set explicitly
/// (the search itself calls them inlined).
#[derive(Clone, Copy)]
pub struct Kernels {
    /// Which set these are.
    pub kernel: Kernel,
    /// Legal-move mask ([`Board::moves`](crate::Board::moves) on the two sides).
    pub moves: fn(u64, u64) -> u64,
    /// The discs a move flips (player, opponent, the move's bit index).
    pub flips: fn(u64, u64, u32) -> u64,
    /// Flips on the last empty square of a full 8x8 board.
    pub count_last_flips: fn(u64, u32) -> u32,
    /// A pattern's base-3 index of the discs under a mask (at most 10 squares).
    pub ternary: fn(u64, u64, u64) -> usize,
    /// The bits of a bitboard under a mask, packed in increasing bit order (`pext`).
    pub binary: fn(u64, u64) -> usize,
}

impl std::fmt::Debug for Kernels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kernel.name())
    }
}

/// Every distinct set of kernels this CPU runs, the portable one first (x86-64-v4 uses the
/// x86-64-v3 kernels; only the code around them differs).
///
/// # Examples
/// ```
/// use reversi_engine::kernel::{self, Kernel};
/// use reversi_engine::Board;
///
/// let sets = kernel::available();
/// assert_eq!(sets[0].kernel, Kernel::Portable);
/// // x86-64-v4 runs the x86-64-v3 kernels, so the kernels in use are always listed.
/// let in_use = kernel::selected().min(Kernel::X86V3);
/// assert!(sets.iter().any(|set| set.kernel == in_use));
/// // Every set finds the same four first moves, and f5 (bit 37) flipping e5 (bit 36).
/// let (p, o) = (Board::START.player, Board::START.opponent);
/// for set in &sets {
///     assert_eq!((set.moves)(p, o), Board::START.moves(), "{set:?}");
///     assert_eq!((set.flips)(p, o, 37), 1 << 36, "{set:?}");
/// }
/// ```
#[must_use]
pub fn available() -> Vec<Kernels> {
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut sets = vec![Kernels {
        kernel: Kernel::Portable,
        moves: crate::mobility::moves_scalar,
        flips: crate::flip::flips_scalar,
        count_last_flips: crate::flip::count_last_flips_portable,
        ternary: crate::ternary::ternary_portable,
        binary: crate::ternary::binary_portable,
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

    pub(super) const KERNELS: Kernels = Kernels {
        kernel: Kernel::X86V3,
        moves,
        flips,
        count_last_flips,
        ternary,
        binary,
    };

    // SAFETY (all five): `available()` hands these out only when `cpu_has_x86v3()` found
    // AVX2 and BMI2 on this CPU.
    fn moves(p: u64, o: u64) -> u64 {
        unsafe { crate::mobility::avx2::moves(p, o) }
    }

    fn flips(p: u64, o: u64, sq: u32) -> u64 {
        // SAFETY: as for `moves` above.
        unsafe { crate::flip::avx2::flips(p, o, sq) }
    }

    fn count_last_flips(p: u64, sq: u32) -> u32 {
        // SAFETY: as for `moves` above.
        unsafe { crate::flip::bmi2::count_last_flips(p, sq) }
    }

    fn ternary(p: u64, o: u64, mask: u64) -> usize {
        // SAFETY: as for `moves` above.
        unsafe { crate::ternary::bmi2::ternary(p, o, mask) }
    }

    fn binary(x: u64, mask: u64) -> usize {
        // SAFETY: as for `moves` above.
        unsafe { crate::ternary::bmi2::binary(x, mask) }
    }
}

/// The portable kernels under the names the multiversioned code calls.
pub(crate) mod portable {
    pub(crate) use crate::flip::count_last_flips_portable as count_last_flips;
    pub(crate) use crate::flip::flips_scalar as flips;
    pub(crate) use crate::lanes::{leaky_dot_portable as leaky_dot, madd_portable as madd};
    pub(crate) use crate::mobility::moves_scalar as moves;
    pub(crate) use crate::ternary::binary_portable as binary;
    pub(crate) use crate::ternary::ternary_portable as ternary;

    /// No prefetch instruction here: the load happens when the data is read.
    #[inline(always)]
    pub(crate) fn prefetch<T>(_address: *const T) {}
}

/// The x86-64-v3 kernels under the same names, for code compiled with those features.
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86v3 {
    pub(crate) use crate::flip::avx2::flips;

    /// [`crate::flip::bmi2::count_last_flips`], inlined into the multiversioned code.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub(crate) fn count_last_flips(p: u64, sq: u32) -> u32 {
        // SAFETY: this facade is imported only by the `x86v3` and `x86v4` copies that
        // `multiversion!` makes, which are compiled with BMI2 and entered (by `dispatch!`)
        // only on a CPU that has it.
        unsafe { crate::flip::bmi2::count_last_flips_inlined(p, sq) }
    }
    pub(crate) use crate::lanes::avx2::{leaky_dot, madd};
    pub(crate) use crate::mobility::avx2::moves;
    pub(crate) use crate::ternary::bmi2::{binary, ternary};

    /// Asks the CPU to start loading the cache line at `address` (a table bucket probed
    /// soon), so that the probe does not wait for memory. The portable twin does nothing;
    /// results cannot differ, only the time.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub(crate) fn prefetch<T>(address: *const T) {
        // SAFETY: SSE is part of every x86-64 CPU, and a prefetch is only a hint: it never
        // faults and changes no memory, whatever the address.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address.cast());
        }
    }
}

/// Compiles free functions three times, into modules `portable` (the portable kernels, no
/// target feature), `x86v3` and `x86v4` (the AVX2/BMI2 kernels, every function compiled with
/// the tier's features so that the kernels inline and POPCNT/LZCNT/BMI1 serve `count_ones`
/// and friends). Inside, the functions call each other and `flips`/`moves`/
/// `count_last_flips`/`ternary`/`binary`/`prefetch`/`leaky_dot`/`madd` by plain name and get their own module's versions. Callers
/// enter through [`dispatch`].
///
/// Each function must be written `fn name(args) -> Type { body }` or, with type parameters,
/// `fn name<T: Bound, ..>(args) -> Type { body }`, optionally after attributes (not
/// `#[inline(always)]`, which target features do not allow).
macro_rules! multiversion {
    ($(
        $(#[$m:meta])*
        fn $name:ident $(<$($gen:ident: $bound:path),+>)? ($($args:tt)*) -> $ret:ty $body:block
    )*) => {
        /// The functions above on the portable kernels.
        pub(crate) mod portable {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use $crate::kernel::portable::*;
            $(
                $(#[$m])*
                pub(crate) fn $name $(<$($gen: $bound),+>)? ($($args)*) -> $ret $body
            )*
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
                pub(crate) fn $name $(<$($gen: $bound),+>)? ($($args)*) -> $ret $body
            )*
        }
        /// The functions above compiled for x86-64-v4 on the x86-64-v3 kernels.
        #[cfg(target_arch = "x86_64")]
        pub(crate) mod x86v4 {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use $crate::kernel::x86v3::*;
            $(
                $(#[$m])*
                #[target_feature(
                    enable = "avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx2,bmi1,bmi2,popcnt,lzcnt"
                )]
                pub(crate) fn $name $(<$($gen: $bound),+>)? ($($args)*) -> $ret $body
            )*
        }
    };
}
pub(crate) use multiversion;

/// `module::TIER::f(args)` for the tier [`selected`] names (`x86v4`, `x86v3` or `portable`):
/// the one place multiversioned code is entered.
macro_rules! dispatch {
    ($module:ident, $f:ident($($arg:expr),* $(,)?)) => {
        match $crate::kernel::selected() {
            #[cfg(target_arch = "x86_64")]
            $crate::kernel::Kernel::X86V4 => {
                // SAFETY: `selected()` names x86-64-v4 only on a CPU with every feature the
                // `x86v4` functions are compiled with (`kernel::cpu_has_x86v4`).
                #[allow(unsafe_code)]
                let value = unsafe { $module::x86v4::$f($($arg),*) };
                value
            }
            #[cfg(target_arch = "x86_64")]
            $crate::kernel::Kernel::X86V3 => {
                // SAFETY: `selected()` names x86-64-v3 only on a CPU with every feature the
                // `x86v3` functions are compiled with (`kernel::cpu_has_x86v3`).
                #[allow(unsafe_code)]
                let value = unsafe { $module::x86v3::$f($($arg),*) };
                value
            }
            #[cfg(target_arch = "x86_64")]
            $crate::kernel::Kernel::Portable => $module::portable::$f($($arg),*),
            #[cfg(not(target_arch = "x86_64"))]
            _ => $module::portable::$f($($arg),*),
        }
    };
}
pub(crate) use dispatch;

/// Work that [`run`] compiles once per tier, for code outside the engine (the training
/// crate's network fit) that wants the wider vectors of the tier in use as the engine's own
/// multiversioned code gets them, without `unsafe` of its own.
///
/// Each tier's copy of [`run`] is compiled with that tier's instructions, and so is what is
/// inlined into it: mark [`Tiered::run`] `#[inline(always)]`, and the functions its inner
/// loops call. Code that is not inlined runs at the baseline wherever it is called from.
pub trait Tiered {
    /// What the work gives.
    type Output;

    /// Does the work. Its result must not depend on the tier (the same operations in the
    /// same order): only its speed may.
    fn run(self) -> Self::Output;
}

/// Does `work` in the copy compiled for the tier [`selected`] names.
///
/// # Examples
/// ```
/// use reversi_engine::kernel::{self, Tiered};
///
/// /// A dot product, which the x86 tiers compile with AVX2 or AVX-512.
/// struct Dot<'a>(&'a [f32], &'a [f32]);
///
/// impl Tiered for Dot<'_> {
///     type Output = f32;
///
///     #[inline(always)]
///     fn run(self) -> f32 {
///         self.0.iter().zip(self.1).map(|(a, b)| a * b).sum()
///     }
/// }
///
/// assert_eq!(kernel::run(Dot(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0])), 32.0);
/// ```
#[inline]
pub fn run<W: Tiered>(work: W) -> W::Output {
    dispatch!(tiered, run(work))
}

/// [`run`]'s copies.
mod tiered {
    use super::Tiered;

    multiversion! {
        /// `work`, inlined into this tier's copy.
        fn run<W: Tiered>(work: W) -> W::Output {
            work.run()
        }
    }
}
