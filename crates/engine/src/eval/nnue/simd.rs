//! The network's two inner loops, in a scalar form and an AVX2 form that give bit-identical
//! results: accumulator updates (`dst = src + Σ adds − Σ subs`, int16) and the activated dot
//! product of an accumulator with the output weights (int32).
//!
//! Identity by construction: every int16 and int32 operation of the AVX2 code wraps
//! (`_mm256_add_epi16`, `_mm256_mullo_epi16`, `_mm256_add_epi32`), so the scalar code uses
//! `wrapping_*` with the same widths; wrapping addition is associative and commutative, so the
//! different summation order of the lanes cannot change the result. `_mm256_madd_epi16` adds
//! two int16×int16 products into an int32 exactly: one factor is always a clamped activation
//! in 0..=255, so each product is below 2²³ in size.

/// Which implementation runs; chosen once per process by [`Kernel::detect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// AVX2 if the CPU has it (known at compile time with `-C target-cpu=native`, otherwise
    /// asked of the CPU once; `is_x86_feature_detected!` caches the answer).
    #[inline]
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if cfg!(target_feature = "avx2") || std::arch::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Scalar
    }

    /// `dst = src + Σ adds − Σ subs`, lane by lane, wrapping, where each add and sub is the
    /// row of `dst.len()` elements of `rows` that starts at that offset (the feature weights:
    /// offsets save the caller slicing every row). `dst` and `src` have the same length, a
    /// multiple of 16.
    ///
    /// # Panics
    /// If a row does not fit in `rows`, or the lengths differ.
    #[inline]
    pub fn add_sub(
        self,
        dst: &mut [i16],
        src: &[i16],
        rows: &[i16],
        adds: &[usize],
        subs: &[usize],
    ) {
        let n = dst.len();
        assert!(src.len() == n && n.is_multiple_of(16), "add_sub: lengths");
        assert!(
            adds.iter()
                .chain(subs)
                .all(|&o| o <= rows.len() && rows.len() - o >= n),
            "add_sub: a row outside the weights"
        );
        match self {
            Kernel::Scalar => scalar::add_sub(dst, src, rows, adds, subs),
            // SAFETY: `Avx2` is only constructed when the CPU supports AVX2; lengths and row
            // offsets checked above.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { avx2::add_sub(dst, src, rows, adds, subs) },
        }
    }

    /// `acc += Σ adds − Σ subs` in place, any number of rows (the accumulator cache's
    /// catch-up); the same rows and bounds as [`Kernel::add_sub`].
    ///
    /// # Panics
    /// If a row does not fit in `rows`, or the length is not a multiple of 16.
    #[inline]
    pub fn add_sub_in_place(self, acc: &mut [i16], rows: &[i16], adds: &[usize], subs: &[usize]) {
        let n = acc.len();
        assert!(n.is_multiple_of(16), "add_sub_in_place: length");
        assert!(
            adds.iter()
                .chain(subs)
                .all(|&o| o <= rows.len() && rows.len() - o >= n),
            "add_sub_in_place: a row outside the weights"
        );
        match self {
            Kernel::Scalar => scalar::add_sub_in_place(acc, rows, adds, subs),
            // SAFETY: as in `add_sub`; source and destination are the same lanes, each read
            // before it is written.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe {
                let p = acc.as_mut_ptr();
                avx2::add_sub_rows(n, p, p, rows.as_ptr(), adds, subs)
            },
        }
    }

    /// `Σ clamp(acc, 0, qa) · w` (CReLU), wrapping int32.
    #[inline]
    pub fn dot_crelu(self, acc: &[i16], w: &[i16], qa: i16) -> i32 {
        self.dot::<false>(acc, w, qa)
    }

    /// `Σ (clamp(acc, 0, qa) · w as int16) · clamp(acc, 0, qa)` (SCReLU), wrapping int32.
    /// The int16 product is the usual trick that keeps the multiply in 16-bit lanes; the
    /// network loader rejects files whose output weights could make it overflow.
    #[inline]
    pub fn dot_screlu(self, acc: &[i16], w: &[i16], qa: i16) -> i32 {
        self.dot::<true>(acc, w, qa)
    }

    /// The two activations differ only in the product per lane (`SQUARE`: SCReLU), a
    /// constant the compiler folds, so each kernel is written once.
    #[inline]
    fn dot<const SQUARE: bool>(self, acc: &[i16], w: &[i16], qa: i16) -> i32 {
        debug_assert!(acc.len() == w.len() && acc.len().is_multiple_of(16));
        match self {
            Kernel::Scalar => scalar::dot::<SQUARE>(acc, w, qa),
            // SAFETY: as in `add_sub`.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { avx2::dot::<SQUARE>(acc, w, qa) },
        }
    }
}

pub mod scalar {
    pub fn add_sub(dst: &mut [i16], src: &[i16], rows: &[i16], adds: &[usize], subs: &[usize]) {
        for (i, d) in dst.iter_mut().enumerate() {
            let mut v = src[i];
            for &a in adds {
                v = v.wrapping_add(rows[a + i]);
            }
            for &s in subs {
                v = v.wrapping_sub(rows[s + i]);
            }
            *d = v;
        }
    }

    pub fn add_sub_in_place(acc: &mut [i16], rows: &[i16], adds: &[usize], subs: &[usize]) {
        for (i, d) in acc.iter_mut().enumerate() {
            let mut v = *d;
            for &a in adds {
                v = v.wrapping_add(rows[a + i]);
            }
            for &s in subs {
                v = v.wrapping_sub(rows[s + i]);
            }
            *d = v;
        }
    }

    /// CReLU: `v · w`; SCReLU (`SQUARE`): `(v · w as int16) · v`, with `v = clamp(a, 0, qa)`.
    pub fn dot<const SQUARE: bool>(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        acc.iter().zip(w).fold(0i32, |sum, (&a, &w)| {
            let v = a.clamp(0, qa);
            let product = if SQUARE {
                v.wrapping_mul(w) as i32 * v as i32
            } else {
                v as i32 * w as i32
            };
            sum.wrapping_add(product)
        })
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// A move's update has one of four shapes: a null move (0, 0), a quiet move (1, 1), a
    /// capture, en passant or promotion (1, 2 or 1, 1) and castling (2, 2). Each runs as its own
    /// monomorphised loop with the row pointers hoisted, instead of walking slices of rows for
    /// every 16 lanes: `augur bench 8 --eval nnue` spent 13% of its instructions here.
    ///
    /// # Safety
    /// AVX2; `src.len() == dst.len()`, a multiple of 16; every `o + dst.len() <= rows.len()`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add_sub(
        dst: &mut [i16],
        src: &[i16],
        rows: &[i16],
        adds: &[usize],
        subs: &[usize],
    ) {
        let n = dst.len();
        let (src_p, dst_p, rows_p) = (src.as_ptr(), dst.as_mut_ptr(), rows.as_ptr());
        // SAFETY (the vector arms): the offsets are in bounds (the caller's contract).
        unsafe {
            let row = |o: usize| rows_p.add(o);
            match (adds, subs) {
                ([], []) => dst.copy_from_slice(src),
                (&[a], &[s]) => add_sub_n::<1, 1>(n, dst_p, src_p, [row(a)], [row(s)]),
                (&[a], &[s, t]) => add_sub_n::<1, 2>(n, dst_p, src_p, [row(a)], [row(s), row(t)]),
                (&[a, b], &[s, t]) => {
                    add_sub_n::<2, 2>(n, dst_p, src_p, [row(a), row(b)], [row(s), row(t)])
                }
                // No move makes another shape; any count gives the same bits.
                _ => add_sub_rows(n, dst_p, src_p, rows_p, adds, subs),
            }
        }
    }

    /// Any number of rows, each added or subtracted sixteen lanes at a time; `dst` may be
    /// `src` (every chunk is loaded before it is stored).
    ///
    /// # Safety
    /// AVX2; `n` elements readable at `src` and at `rows` plus every offset, writable at
    /// `dst`; `n % 16 == 0`.
    #[target_feature(enable = "avx2")]
    pub unsafe fn add_sub_rows(
        n: usize,
        dst: *mut i16,
        src: *const i16,
        rows: *const i16,
        adds: &[usize],
        subs: &[usize],
    ) {
        let mut i = 0;
        while i < n {
            // SAFETY: i + 16 <= n for every row (the caller's contract).
            unsafe {
                let mut v = _mm256_loadu_si256(src.add(i) as *const __m256i);
                for &a in adds {
                    let r = rows.add(a + i) as *const __m256i;
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(r));
                }
                for &s in subs {
                    let r = rows.add(s + i) as *const __m256i;
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(r));
                }
                _mm256_storeu_si256(dst.add(i) as *mut __m256i, v);
            }
            i += 16;
        }
    }

    /// # Safety
    /// AVX2; `n` elements readable at `src` and every row, writable at `dst`; `n % 16 == 0`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn add_sub_n<const A: usize, const S: usize>(
        n: usize,
        dst: *mut i16,
        src: *const i16,
        adds: [*const i16; A],
        subs: [*const i16; S],
    ) {
        let mut i = 0;
        while i < n {
            // SAFETY: i + 16 <= n for every row (the caller's contract).
            unsafe {
                let mut v = _mm256_loadu_si256(src.add(i) as *const __m256i);
                for a in adds {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(a.add(i) as *const __m256i));
                }
                for s in subs {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(s.add(i) as *const __m256i));
                }
                _mm256_storeu_si256(dst.add(i) as *mut __m256i, v);
            }
            i += 16;
        }
    }

    #[target_feature(enable = "avx2")]
    unsafe fn hsum(v: __m256i) -> i32 {
        let lo = _mm256_castsi256_si128(v);
        let hi = _mm256_extracti128_si256::<1>(v);
        let s = _mm_add_epi32(lo, hi);
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }

    /// The scalar `dot` sixteen lanes at a time: `madd` adds pairs of int16 products into
    /// int32 lanes exactly, `hsum` folds the lanes at the end.
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot<const SQUARE: bool>(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        let zero = _mm256_setzero_si256();
        let max = _mm256_set1_epi16(qa);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < acc.len() {
            // SAFETY: i + 16 <= len for both slices.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i) as *const __m256i);
                let w = _mm256_loadu_si256(w.as_ptr().add(i) as *const __m256i);
                let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), max);
                let product = if SQUARE {
                    _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v)
                } else {
                    _mm256_madd_epi16(v, w)
                };
                sum = _mm256_add_epi32(sum, product);
            }
            i += 16;
        }
        hsum(sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::test_support::Rng;

    fn lanes(rng: &mut Rng, n: usize, lo: i32, hi: i32) -> Vec<i16> {
        (0..n).map(|_| rng.range(lo, hi) as i16).collect()
    }

    #[test]
    fn avx2_and_scalar_agree_bit_for_bit() {
        let simd = Kernel::detect();
        if simd == Kernel::Scalar {
            eprintln!("no AVX2 on this CPU: only the scalar kernel exists here");
            return;
        }
        let mut rng = Rng(7);
        for &n in &[16usize, 32, 128, 256, 1024] {
            // Full int16 range: the wrapping behaviour must match too, not only the usual values.
            for (lo, hi) in [(-300, 300), (i16::MIN as i32, i16::MAX as i32)] {
                let src = lanes(&mut rng, n, lo, hi);
                // Up to six rows each: the move shapes (0-2 rows) and the cache's other
                // counts; the rows live in one weight block, as the feature weights do.
                let rows = lanes(&mut rng, 8 * n, lo, hi);
                let adds = [0, n, 2 * n, 3 * n, 7 * n, n];
                let subs = [4 * n, 5 * n, 6 * n, 7 * n, 0, 2 * n];
                for na in 0..=6 {
                    for ns in 0..=6 {
                        let (a, s) = (&adds[..na], &subs[..ns]);
                        let mut d1 = vec![0; n];
                        let mut d2 = vec![0; n];
                        Kernel::Scalar.add_sub(&mut d1, &src, &rows, a, s);
                        simd.add_sub(&mut d2, &src, &rows, a, s);
                        assert_eq!(d1, d2, "add_sub n={n} adds={na} subs={ns}");
                        let (mut i1, mut i2) = (src.clone(), src.clone());
                        Kernel::Scalar.add_sub_in_place(&mut i1, &rows, a, s);
                        simd.add_sub_in_place(&mut i2, &rows, a, s);
                        assert_eq!((&i1, &i2), (&d1, &d1), "in place n={n} {na} {ns}");
                    }
                }
                let w = lanes(&mut rng, n, lo.max(-128), hi.min(127));
                for qa in [127i16, 255] {
                    assert_eq!(
                        Kernel::Scalar.dot_crelu(&src, &w, qa),
                        simd.dot_crelu(&src, &w, qa)
                    );
                    assert_eq!(
                        Kernel::Scalar.dot_screlu(&src, &w, qa),
                        simd.dot_screlu(&src, &w, qa)
                    );
                    // Weights that overflow the int16 product: still identical (both wrap).
                    let big = lanes(&mut rng, n, i16::MIN as i32, i16::MAX as i32);
                    assert_eq!(
                        Kernel::Scalar.dot_screlu(&src, &big, qa),
                        simd.dot_screlu(&src, &big, qa)
                    );
                }
            }
        }
    }

    #[test]
    fn scalar_kernels_compute_the_formulas() {
        let acc: Vec<i16> = (0..16).map(|i| (i * 40 - 100) as i16).collect();
        let w: Vec<i16> = (0..16).map(|i| (i as i16) - 8).collect();
        let want_c: i32 = acc
            .iter()
            .zip(&w)
            .map(|(&a, &w)| a.clamp(0, 255) as i32 * w as i32)
            .sum();
        let want_s: i32 = acc
            .iter()
            .zip(&w)
            .map(|(&a, &w)| (a.clamp(0, 255) as i32).pow(2) * w as i32)
            .sum();
        assert_eq!(Kernel::Scalar.dot_crelu(&acc, &w, 255), want_c);
        assert_eq!(Kernel::Scalar.dot_screlu(&acc, &w, 255), want_s);
        let mut d = vec![0; 16];
        Kernel::Scalar.add_sub(&mut d, &acc, &w, &[0], &[0, 0]);
        let want: Vec<i16> = acc.iter().zip(&w).map(|(a, w)| a - w).collect();
        assert_eq!(d, want);
    }
}
