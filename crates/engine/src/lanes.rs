//! Eight-lane steps for the evaluation's head: portable loops and their AVX2 twins, which do
//! the same multiplications and additions element by element, so both give the same bits
//! (tested). The compiler left alone keeps a 32-unit head in scalar registers.

/// The floats one step handles.
pub(crate) const LANES: usize = 8;

/// Eight floats, one a lane.
pub(crate) type Lanes = [f32; LANES];

/// Eight 32-bit integers, one a lane: the head's first layer.
pub(crate) type Units = [i32; LANES];

/// Two 16-bit weights a lane, the lane's pair interleaved: one step of the head's first
/// layer, two inputs at once.
pub(crate) type Pairs = [i16; 2 * LANES];

/// `z += w * x` for two inputs: lane `i` gains `w[2i] * x[0] + w[2i + 1] * x[1]`, with the
/// wrapping of 32-bit integers (the callers keep the sums far from it).
#[inline(always)]
pub(crate) fn madd_portable(z: &mut Units, w: &Pairs, x: [i16; 2]) {
    for (zi, wi) in z.iter_mut().zip(w.chunks_exact(2)) {
        let pair =
            (i32::from(wi[0]) * i32::from(x[0])).wrapping_add(i32::from(wi[1]) * i32::from(x[1]));
        *zi = zi.wrapping_add(pair);
    }
}

/// `acc += w * max(z, z * leak)`, lane by lane: the leaky ReLU of `z` (for `leak` below
/// one), weighted, summed into `acc`.
#[inline(always)]
pub(crate) fn leaky_dot_portable(acc: &mut Lanes, z: &Lanes, w: &Lanes, leak: f32) {
    for ((a, &zi), &wi) in acc.iter_mut().zip(z).zip(w) {
        *a += wi * zi.max(zi * leak);
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    use std::arch::x86_64::*;

    use super::{Lanes, Pairs, Units};

    /// Eight floats into a register.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(x: &Lanes) -> __m256 {
        // SAFETY: `x` is eight readable `f32`, 32 bytes; the load needs no alignment.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_loadu_ps(x.as_ptr())
        }
    }

    /// A register into eight floats.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store(v: __m256, x: &mut Lanes) {
        // SAFETY: `x` is eight writable `f32`, 32 bytes; the store needs no alignment.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_storeu_ps(x.as_mut_ptr(), v);
        }
    }

    /// [`super::leaky_dot_portable`] in one vector step. `max` returns its second operand
    /// when the first is not greater, as `f32::max` does for these operands (both of the
    /// same sign).
    ///
    /// # Safety
    /// Callers not compiled with AVX2 enabled must check that the CPU has it
    /// ([`crate::kernel::cpu_has_x86v3`]).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn leaky_dot(acc: &mut Lanes, z: &Lanes, w: &Lanes, leak: f32) {
        let zv = load(z);
        let a = _mm256_max_ps(zv, _mm256_mul_ps(zv, _mm256_set1_ps(leak)));
        store(_mm256_add_ps(load(acc), _mm256_mul_ps(load(w), a)), acc);
    }

    /// [`super::madd_portable`] in one vector step (`vpmaddwd`: the lane's two products,
    /// each exact in 32 bits, added with wrapping, then added to the lane with wrapping).
    ///
    /// # Safety
    /// As [`leaky_dot`].
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn madd(z: &mut Units, w: &Pairs, x: [i16; 2]) {
        let both = i32::from(x[0] as u16) | (i32::from(x[1]) << 16);
        // SAFETY: `z` is eight readable and writable `i32` and `w` sixteen readable `i16`,
        // 32 bytes each; the loads and the store need no alignment.
        #[allow(unsafe_code)]
        unsafe {
            let zv = _mm256_loadu_si256(z.as_ptr().cast());
            let wv = _mm256_loadu_si256(w.as_ptr().cast());
            let v = _mm256_add_epi32(zv, _mm256_madd_epi16(wv, _mm256_set1_epi32(both)));
            _mm256_storeu_si256(z.as_mut_ptr().cast(), v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_core::XorShift64;

    fn lanes(rng: &mut XorShift64) -> Lanes {
        std::array::from_fn(|_| (rng.below(20_001) as f32 - 10_000.0) / 97.0)
    }

    #[test]
    fn the_vector_step_equals_the_portable_loop() {
        if !crate::kernel::cpu_has_x86v3() {
            eprintln!("no AVX2 here: only the portable loops run");
            return;
        }
        let mut rng = XorShift64::new(17);
        for _ in 0..10_000 {
            let (z, w, acc) = (lanes(&mut rng), lanes(&mut rng), lanes(&mut rng));
            let (mut a, mut b) = (acc, acc);
            leaky_dot_portable(&mut a, &z, &w, 1.0 / 16.0);
            // SAFETY: the CPU has AVX2 (checked above).
            #[allow(unsafe_code)]
            unsafe {
                avx2::leaky_dot(&mut b, &z, &w, 1.0 / 16.0);
            }
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
        }
    }

    #[test]
    fn the_integer_step_equals_the_portable_loop() {
        if !crate::kernel::cpu_has_x86v3() {
            eprintln!("no AVX2 here: only the portable loop runs");
            return;
        }
        let mut rng = XorShift64::new(23);
        // Any 16-bit values, extremes included (the only pair sum that wraps is
        // (-32768)² twice).
        let value = |rng: &mut XorShift64| -> i16 {
            match rng.below(8) {
                0 => i16::MIN,
                1 => i16::MAX,
                _ => (rng.below(65_536) as i32 - 32_768) as i16,
            }
        };
        for _ in 0..10_000 {
            let z: Units = std::array::from_fn(|_| rng.next_u64() as i32);
            let w: Pairs = std::array::from_fn(|_| value(&mut rng));
            let x = [value(&mut rng), value(&mut rng)];
            let (mut a, mut b) = (z, z);
            madd_portable(&mut a, &w, x);
            // SAFETY: the CPU has AVX2 (checked above).
            #[allow(unsafe_code)]
            unsafe {
                avx2::madd(&mut b, &w, x);
            }
            assert_eq!(a, b);
        }
    }
}
