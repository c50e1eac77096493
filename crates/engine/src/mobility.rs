//! Legal-move masks: which empty squares flip at least one disc; and the squares around
//! discs, whose empty ones are a side's potential mobility.
//!
//! Both versions fill from the player's discs through runs of opponent discs in each of the
//! eight directions (a Kogge-Stone style parallel prefix), six squares deep, then step once
//! more onto an empty square.

/// Opponent discs that can be part of a horizontal or diagonal run: not on the a or h file, so
/// that a shift by 1, 7 or 9 never wraps from one edge to the other.
const INNER_FILES: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// The squares adjacent (a king move away) to the discs of `b` and not in it, within 8x8.
#[inline(always)]
#[must_use]
pub(crate) const fn neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let h = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H) | b;
    (h | (h << 8) | (h >> 8)) & !b
}

/// The squares where the player with discs `p` may play against opponent discs `o`.
#[inline(always)]
#[must_use]
pub(crate) fn moves(p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if crate::kernel::simd() {
        // SAFETY: `simd()` is true only when the CPU has AVX2 (`kernel::cpu_has_x86v3`).
        #[allow(unsafe_code)]
        let m = unsafe { avx2::moves(p, o) };
        return m;
    }
    moves_scalar(p, o)
}

#[inline(always)]
fn direction(p: u64, run: u64, s: u32) -> u64 {
    // Towards higher bits.
    let mut f = run & (p << s);
    f |= run & (f << s);
    let pre = run & (run << s);
    f |= pre & (f << (2 * s));
    f |= pre & (f << (2 * s));
    let up = f << s;
    // Towards lower bits.
    let mut f = run & (p >> s);
    f |= run & (f >> s);
    let pre = pre >> s;
    f |= pre & (f >> (2 * s));
    f |= pre & (f >> (2 * s));
    up | (f >> s)
}

/// The portable version of [`moves`].
#[inline]
#[must_use]
pub(crate) fn moves_scalar(p: u64, o: u64) -> u64 {
    let inner = o & INNER_FILES;
    let m = direction(p, inner, 1)
        | direction(p, o, 8)
        | direction(p, inner, 7)
        | direction(p, inner, 9);
    m & !(p | o)
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod avx2 {
    //! The four direction pairs in the four 64-bit lanes of a 256-bit register.
    use std::arch::x86_64::*;

    use super::INNER_FILES;

    /// The AVX2 version of [`super::moves`]
    ///
    /// # Safety
    /// Callers not compiled with AVX2 enabled must check that the CPU has it
    /// ([`crate::kernel::cpu_has_x86v3`]).
    #[inline]
    #[target_feature(enable = "avx2")]
    #[must_use]
    pub(crate) fn moves(p: u64, o: u64) -> u64 {
        let shift1 = _mm256_set_epi64x(7, 9, 8, 1);
        let shift2 = _mm256_set_epi64x(14, 18, 16, 2);
        let inner = o & INNER_FILES;
        let run = _mm256_set_epi64x(inner as i64, inner as i64, o as i64, inner as i64);
        let pp = _mm256_set1_epi64x(p as i64);

        let mut fl = _mm256_and_si256(run, _mm256_sllv_epi64(pp, shift1));
        let mut fr = _mm256_and_si256(run, _mm256_srlv_epi64(pp, shift1));
        fl = _mm256_or_si256(fl, _mm256_and_si256(run, _mm256_sllv_epi64(fl, shift1)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(run, _mm256_srlv_epi64(fr, shift1)));
        let pre_l = _mm256_and_si256(run, _mm256_sllv_epi64(run, shift1));
        let pre_r = _mm256_srlv_epi64(pre_l, shift1);
        fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, shift2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, shift2)));
        fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, shift2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, shift2)));
        let m = _mm256_or_si256(_mm256_sllv_epi64(fl, shift1), _mm256_srlv_epi64(fr, shift1));
        let m = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
        let m = _mm_or_si128(m, _mm_unpackhi_epi64(m, m));
        (_mm_cvtsi128_si64(m) as u64) & !(p | o)
    }
}
