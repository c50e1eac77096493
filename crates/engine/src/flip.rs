//! Flips: the discs a move turns over.
//!
//! Each square has a ray per direction (the squares from it to the edge). In a ray going to
//! higher bits, the first square that is not an opponent disc is the lowest set bit of
//! `ray & !o`; in a ray going to lower bits it is the highest. When that square holds a player
//! disc, the opponent discs before it flip.

/// The rays from each square: towards higher bits E, S, SE, SW, then towards lower bits W, N,
/// NW, NE. Aligned so that each half loads as one 256-bit value.
#[repr(C, align(64))]
pub(crate) struct Rays(pub(crate) [[u64; 8]; 64]);

const fn ray(sq: usize, dc: i32, dr: i32) -> u64 {
    let mut c = (sq % 8) as i32 + dc;
    let mut r = (sq / 8) as i32 + dr;
    let mut m = 0u64;
    while c >= 0 && c < 8 && r >= 0 && r < 8 {
        m |= 1u64 << (r * 8 + c);
        c += dc;
        r += dr;
    }
    m
}

pub(crate) static RAYS: Rays = {
    const DIRS: [(i32, i32); 8] = [
        (1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
        (-1, 0),
        (0, -1),
        (-1, -1),
        (1, -1),
    ];
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            t[sq][d] = ray(sq, DIRS[d].0, DIRS[d].1);
            d += 1;
        }
        sq += 1;
    }
    Rays(t)
};

/// The up to eight squares around each square: a move flips nothing unless one of them holds
/// an opponent disc, a test much cheaper than [`flips`].
pub(crate) static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = crate::mobility::neighbours(1u64 << sq);
        sq += 1;
    }
    t
};

/// The opponent discs that a player disc on `sq` (0..64, empty) flips.
///
/// Returns 0 when the move flips nothing, that is, when it is not legal.
///
/// # Panics
/// When `sq` is 64 or more (off the board).
#[inline(always)]
#[must_use]
pub(crate) fn flips(p: u64, o: u64, sq: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if crate::kernel::simd() {
        // SAFETY: `simd()` is true only when the CPU has AVX2 (`kernel::cpu_has_x86v3`).
        #[allow(unsafe_code)]
        let f = unsafe { avx2::flips(p, o, sq) };
        return f;
    }
    flips_scalar(p, o, sq)
}

#[inline(always)]
fn towards_higher(p: u64, o: u64, ray: u64) -> u64 {
    let blocker = ray & !o;
    let first = blocker & blocker.wrapping_neg();
    let between = first.wrapping_sub(1) & ray;
    between & 0u64.wrapping_sub(u64::from(first & p != 0))
}

#[inline(always)]
fn towards_lower(p: u64, o: u64, ray: u64) -> u64 {
    let blocker = ray & !o;
    // Bit 0 stands in for "no blocker": it is then either outside the ray or an opponent disc,
    // so the `& p & ray` test below fails either way.
    let first = 1u64 << (63 - (blocker | 1).leading_zeros());
    let between = ray & !(first | first.wrapping_sub(1));
    between & 0u64.wrapping_sub(u64::from(first & p & ray != 0))
}

/// The portable version of [`flips`].
///
/// # Panics
/// When `sq` is 64 or more (off the board).
#[inline]
#[must_use]
pub(crate) fn flips_scalar(p: u64, o: u64, sq: u32) -> u64 {
    let r = &RAYS.0[sq as usize];
    towards_higher(p, o, r[0])
        | towards_higher(p, o, r[1])
        | towards_higher(p, o, r[2])
        | towards_higher(p, o, r[3])
        | towards_lower(p, o, r[4])
        | towards_lower(p, o, r[5])
        | towards_lower(p, o, r[6])
        | towards_lower(p, o, r[7])
}

/// The four lines through each square (row, column, both diagonals) and the square's place
/// in each, counted in increasing bit order.
struct Lines {
    mask: [[u64; 4]; 64],
    place: [[u8; 4]; 64],
}

static LINES: Lines = {
    const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
    let mut mask = [[0u64; 4]; 64];
    let mut place = [[0u8; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            let (dc, dr) = DIRS[d];
            let line = ray(sq, dc, dr) | ray(sq, -dc, -dr) | (1u64 << sq);
            mask[sq][d] = line;
            place[sq][d] = (line & ((1u64 << sq) - 1)).count_ones() as u8;
            d += 1;
        }
        sq += 1;
    }
    Lines { mask, place }
};

/// `LAST_FLIPS[i][bits]`: the discs a move on place `i` of a line of up to eight squares
/// flips when the player holds the squares of `bits` and the opponent every other one.
/// Places past the end of a shorter line read as opponent discs with no player disc beyond,
/// so they never close a run.
static LAST_FLIPS: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut bits = 0;
        while bits < 256 {
            let mut n = 0;
            let mut j = i + 1;
            while j < 8 && bits & (1 << j) == 0 {
                j += 1;
            }
            if j < 8 {
                n += j - i - 1;
            }
            let mut j = i as i32 - 1;
            while j >= 0 && bits & (1 << j) == 0 {
                j -= 1;
            }
            if j >= 0 {
                n += i - j as usize - 1;
            }
            t[i][bits] = n as u8;
            bits += 1;
        }
        i += 1;
    }
    t
};

/// How many discs a player move on `sq` flips when `sq` is the last empty square of a full
/// 8x8 board and `p` holds the player's discs (the opponent holds all the others): the
/// portable kernel, the lines read bit by bit ([`bmi2::count_last_flips`] gathers them with
/// `pext`).
///
/// # Panics
/// When `sq` is 64 or more (off the board).
#[inline]
#[must_use]
pub(crate) fn count_last_flips_portable(p: u64, sq: u32) -> u32 {
    let mut n = 0;
    for d in 0..4 {
        let mut bits = 0usize;
        let mut rest = LINES.mask[sq as usize][d];
        let mut k = 0;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            if p & bit != 0 {
                bits |= 1 << k;
            }
            k += 1;
        }
        n += u32::from(LAST_FLIPS[usize::from(LINES.place[sq as usize][d])][bits]);
    }
    n
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod bmi2 {
    //! The lines of [`super::count_last_flips_portable`] gathered with `pext`.
    use std::arch::x86_64::_pext_u64;

    use super::{LAST_FLIPS, LINES};

    /// The BMI2 version of [`super::count_last_flips_portable`]
    ///
    /// # Safety
    /// Callers not compiled with BMI2 enabled must check that the CPU has it
    /// ([`crate::kernel::cpu_has_x86v3`]).
    #[inline]
    #[target_feature(enable = "bmi2")]
    #[must_use]
    pub(crate) fn count_last_flips(p: u64, sq: u32) -> u32 {
        let mask = &LINES.mask[sq as usize];
        let place = &LINES.place[sq as usize];
        let mut n = 0;
        for d in 0..4 {
            // Below 256: every line has at most eight squares.
            let bits = _pext_u64(p, mask[d]) as usize;
            n += u32::from(LAST_FLIPS[usize::from(place[d])][bits]);
        }
        n
    }

    /// [`count_last_flips`] for code compiled with BMI2 enabled, always inlined there (target
    /// features forbid `#[inline(always)]` on the function itself, and a call per last square
    /// costs about 1 % of `reversi bench`).
    ///
    /// # Safety
    /// Only for callers compiled with BMI2 enabled (the `x86v3`/`x86v4` copies of
    /// [`crate::kernel::multiversion`], entered after the CPU check).
    #[inline(always)]
    #[allow(unsafe_code)]
    pub(crate) unsafe fn count_last_flips_inlined(p: u64, sq: u32) -> u32 {
        let mask = &LINES.mask[sq as usize];
        let place = &LINES.place[sq as usize];
        let mut n = 0;
        for d in 0..4 {
            // SAFETY: the caller is compiled with BMI2 and runs only on a CPU that has it.
            let bits = unsafe { _pext_u64(p, mask[d]) } as usize;
            n += u32::from(LAST_FLIPS[usize::from(place[d])][bits]);
        }
        n
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod avx2 {
    //! The four rays towards higher bits in one 256-bit register, the four towards lower bits in
    //! another.
    use std::arch::x86_64::*;

    use super::RAYS;

    /// The AVX2 version of [`super::flips`]
    ///
    /// # Safety
    /// Callers not compiled with AVX2 enabled must check that the CPU has it
    /// ([`crate::kernel::cpu_has_x86v3`]).
    #[inline]
    #[target_feature(enable = "avx2")]
    #[must_use]
    pub(crate) fn flips(p: u64, o: u64, sq: u32) -> u64 {
        let r = &RAYS.0[sq as usize];
        let up = _mm256_set_epi64x(r[3] as i64, r[2] as i64, r[1] as i64, r[0] as i64);
        let down = _mm256_set_epi64x(r[7] as i64, r[6] as i64, r[5] as i64, r[4] as i64);
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi64x(1);

        // Towards higher bits: the lowest non-opponent square of each ray.
        let blocker = _mm256_andnot_si256(oo, up);
        let first = _mm256_and_si256(blocker, _mm256_sub_epi64(zero, blocker));
        let missed = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
        let f_up = _mm256_andnot_si256(missed, _mm256_and_si256(_mm256_sub_epi64(first, one), up));

        // Towards lower bits: smear the blockers down their ray to find the highest one.
        let shift1 = _mm256_set_epi64x(7, 9, 8, 1);
        let shift2 = _mm256_set_epi64x(14, 18, 16, 2);
        let shift4 = _mm256_set_epi64x(28, 36, 32, 4);
        let blocker = _mm256_andnot_si256(oo, down);
        let mut smear = _mm256_or_si256(blocker, _mm256_srlv_epi64(blocker, shift1));
        smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, shift2));
        smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, shift4));
        let first = _mm256_andnot_si256(_mm256_srlv_epi64(smear, shift1), blocker);
        let missed = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
        let f_down = _mm256_andnot_si256(missed, _mm256_andnot_si256(smear, down));

        let f = _mm256_or_si256(f_up, f_down);
        let f = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
        let f = _mm_or_si128(f, _mm_unpackhi_epi64(f, f));
        _mm_cvtsi128_si64(f) as u64
    }
}
