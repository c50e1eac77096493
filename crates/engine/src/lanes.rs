//! Eight-`f32` steps for the evaluation's head: portable loops and their AVX2 twins, which do
//! the same multiplications and additions element by element, so both give the same bits
//! (tested). The compiler left alone keeps a 32-unit head in scalar registers.

/// The floats one step handles.
pub(crate) const LANES: usize = 8;

/// Eight floats, one a lane.
pub(crate) type Lanes = [f32; LANES];

/// `z += w * x`, lane by lane (a product, then a sum: no fused multiply-add).
#[inline(always)]
pub(crate) fn axpy_portable(z: &mut Lanes, w: &Lanes, x: f32) {
    for (zi, &wi) in z.iter_mut().zip(w) {
        *zi += wi * x;
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

    use super::Lanes;

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

    /// [`super::axpy_portable`] in one vector step.
    ///
    /// # Safety
    /// Callers not compiled with AVX2 enabled must check that the CPU has it
    /// ([`crate::kernel::cpu_has_x86v3`]).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn axpy(z: &mut Lanes, w: &Lanes, x: f32) {
        let v = _mm256_add_ps(load(z), _mm256_mul_ps(load(w), _mm256_set1_ps(x)));
        store(v, z);
    }

    /// [`super::leaky_dot_portable`] in one vector step. `max` returns its second operand
    /// when the first is not greater, as `f32::max` does for these operands (both of the
    /// same sign).
    ///
    /// # Safety
    /// As [`axpy`].
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(crate) fn leaky_dot(acc: &mut Lanes, z: &Lanes, w: &Lanes, leak: f32) {
        let zv = load(z);
        let a = _mm256_max_ps(zv, _mm256_mul_ps(zv, _mm256_set1_ps(leak)));
        store(_mm256_add_ps(load(acc), _mm256_mul_ps(load(w), a)), acc);
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
    fn the_vector_steps_equal_the_portable_loops() {
        if !crate::kernel::cpu_has_x86v3() {
            eprintln!("no AVX2 here: only the portable loops run");
            return;
        }
        let mut rng = XorShift64::new(17);
        for _ in 0..10_000 {
            let (z, w, x) = (lanes(&mut rng), lanes(&mut rng), lanes(&mut rng)[0]);
            let (mut a, mut b) = (z, z);
            axpy_portable(&mut a, &w, x);
            // SAFETY: the CPU has AVX2 (checked above).
            #[allow(unsafe_code)]
            unsafe {
                avx2::axpy(&mut b, &w, x);
            }
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
            let acc = lanes(&mut rng);
            let (mut a, mut b) = (acc, acc);
            leaky_dot_portable(&mut a, &z, &w, 1.0 / 16.0);
            // SAFETY: as above.
            #[allow(unsafe_code)]
            unsafe {
                avx2::leaky_dot(&mut b, &z, &w, 1.0 / 16.0);
            }
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits));
        }
    }
}
