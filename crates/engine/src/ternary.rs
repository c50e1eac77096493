//! Pattern indices: the discs under a mask (at most 10 squares) read as a base-3 number,
//! empty 0, player 1, opponent 2, digits in increasing bit order. Portable code reads the
//! squares one by one; with BMI2 it is two `pext` and two table look-ups. Mobility patterns
//! read a bitboard (a side's legal moves) under a mask as a binary number the same way: one
//! `pext`.

/// `B2T[x]`: the bits of `x` read as base-3 digits (each 0 or 1).
#[cfg(target_arch = "x86_64")]
static B2T: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut x = 0;
    while x < 1024 {
        let mut v = 0u32;
        let mut pow = 1u32;
        let mut b = 0;
        while b < 10 {
            if x & (1 << b) != 0 {
                v += pow;
            }
            pow *= 3;
            b += 1;
        }
        t[x] = v as u16;
        x += 1;
    }
    t
};

/// The base-3 index of the squares `mask` (at most 10), digits in increasing bit order.
#[inline(always)]
pub(crate) fn ternary(p: u64, o: u64, mask: u64) -> usize {
    #[cfg(target_arch = "x86_64")]
    if crate::kernel::simd() {
        // SAFETY: `simd()` is true only when the CPU has BMI2 (`kernel::cpu_has_x86v3`).
        #[allow(unsafe_code)]
        let i = unsafe { bmi2::ternary(p, o, mask) };
        return i;
    }
    ternary_portable(p, o, mask)
}

/// The base-3 index of the discs under `mask` (at most 10 squares; digit 1 for the player, 2
/// for the opponent, in increasing bit order), read square by square: the portable kernel.
#[inline]
#[must_use]
pub(crate) fn ternary_portable(p: u64, o: u64, mask: u64) -> usize {
    let mut idx = 0;
    let mut pow = 1;
    let mut rest = mask;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        if p & bit != 0 {
            idx += pow;
        } else if o & bit != 0 {
            idx += 2 * pow;
        }
        pow *= 3;
    }
    idx
}

/// The bits of `x` under `mask`, packed in increasing bit order (BMI2's `pext`).
#[inline(always)]
pub(crate) fn binary(x: u64, mask: u64) -> usize {
    #[cfg(target_arch = "x86_64")]
    if crate::kernel::simd() {
        // SAFETY: `simd()` is true only when the CPU has BMI2 (`kernel::cpu_has_x86v3`).
        #[allow(unsafe_code)]
        let i = unsafe { bmi2::binary(x, mask) };
        return i;
    }
    binary_portable(x, mask)
}

/// [`binary`] square by square: the portable kernel.
#[inline]
#[must_use]
pub(crate) fn binary_portable(x: u64, mask: u64) -> usize {
    let mut idx = 0;
    let mut digit = 1;
    let mut rest = mask;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        if x & bit != 0 {
            idx |= digit;
        }
        digit <<= 1;
    }
    idx
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod bmi2 {
    use super::B2T;

    /// [`super::ternary`] with `pext`
    ///
    /// # Safety
    /// Callers not compiled with BMI2 enabled must check that the CPU has it
    /// ([`crate::kernel::cpu_has_x86v3`]).
    #[inline]
    #[target_feature(enable = "bmi2")]
    pub(crate) fn ternary(p: u64, o: u64, mask: u64) -> usize {
        let (bp, bo) = extract(p, o, mask);
        B2T[bp] as usize + 2 * B2T[bo] as usize
    }

    /// [`super::binary`] with `pext`
    ///
    /// # Safety
    /// Callers not compiled with BMI2 enabled must check that the CPU has it
    /// ([`crate::kernel::cpu_has_x86v3`]).
    #[inline]
    #[target_feature(enable = "bmi2")]
    pub(crate) fn binary(x: u64, mask: u64) -> usize {
        std::arch::x86_64::_pext_u64(x, mask) as usize
    }

    /// The player's and the opponent's bits under `mask`, packed
    ///
    /// # Safety
    /// Callers not compiled with BMI2 enabled must check that the CPU has it
    /// ([`crate::kernel::cpu_has_x86v3`]).
    #[inline]
    #[target_feature(enable = "bmi2")]
    pub(crate) fn extract(p: u64, o: u64, mask: u64) -> (usize, usize) {
        (
            std::arch::x86_64::_pext_u64(p, mask) as usize,
            std::arch::x86_64::_pext_u64(o, mask) as usize,
        )
    }
}
