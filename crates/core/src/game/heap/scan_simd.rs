//! The scan's pairs of byte values tested 64 at a time with AVX-512, or 32 at a time with AVX2
//! ([`super::scan`]): the values looked for (all below 256, as xors of two bytes are) held as a
//! 256-bit set, and each block of pairs' xors looked up in it by byte permutes or shuffles,
//! without a load per pair. The set stays in a register; a block that hits tells the caller
//! of each value it gives with that value's first pair ([`Hit`]), as a reading pair by pair
//! finds them, so the values found and their witnesses are the same on every machine.

/// The values below 256 still looked for: bit `v & 7` of byte `v >> 3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ByteSet([u8; 32]);

impl ByteSet {
    /// The entries of `pending` (1: looked for; all are 0 or 1) below 256. A scan builds one
    /// set for each run of pairs it reads: 64 entries a step with AVX-512, else 8.
    pub(super) fn of(pending: &[u8]) -> ByteSet {
        #[cfg(target_arch = "x86_64")]
        if wide() {
            // SAFETY: the CPU has AVX-512 F and BW (just checked).
            return unsafe { avx512::set_of(pending) };
        }
        let mut bits = [0u8; 32];
        let head = &pending[..pending.len().min(256)];
        let mut chunks = head.chunks_exact(8);
        for (byte, chunk) in bits.iter_mut().zip(&mut chunks) {
            // Entries 0 or 1 at bits 8i: the product puts entry i at bit 56 + i, no two terms
            // sharing a bit below 64.
            let word = u64::from_le_bytes(chunk.try_into().expect("8 entries"));
            *byte = (word.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
        }
        let done = head.len() - chunks.remainder().len();
        for (i, _) in chunks
            .remainder()
            .iter()
            .enumerate()
            .filter(|(_, &p)| p == 1)
        {
            let v = done + i;
            bits[v >> 3] |= 1 << (v & 7);
        }
        ByteSet(bits)
    }

    /// `v` is found: no longer looked for.
    #[inline]
    pub(super) fn remove(&mut self, v: usize) {
        if let Some(byte) = self.0.get_mut(v >> 3) {
            *byte &= !(1 << (v & 7));
        }
    }
}

/// Whether this machine runs [`first_hit`] (AVX2); std asks the CPU once and keeps it.
#[inline]
pub(super) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// What [`hits`] tells of the pairs of a block that hit: [`Hit::note`] for each value looked
/// for at the block's start that a pair of the block gives, its first such pair last (any
/// other pair of the value is noted before, from the last to the first), without a branch of
/// the reader's own; then [`Hit::done`]. The values a block gives are looked for no more after
/// it: [`hits`] takes them out of its set itself, in the same pass.
pub(super) trait Hit {
    /// Pair `i`, whose xor is `x`.
    fn note(&mut self, i: usize, x: u8);

    /// Whether to stop, asked after each block that hit.
    fn done(&self) -> bool;
}

/// Pairs [`first_hit`] tests in one step.
pub(super) const WIDTH: usize = 64;

/// Whether this machine has what [`first_hit`]'s wider code asks for (AVX-512 with byte
/// permutes); std asks the CPU once and keeps it.
#[inline]
fn wide() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// For the pairs (low[i], high[len - 1 - i]) (`low` and `high` equally long), read in whole
/// blocks of [`WIDTH`] from the start: tells `hit` of a block's pairs whose xors are looked
/// for as the block is read (at first those of `set`, less the values of the blocks read
/// before), as [`Hit`] says. Stops after a block once `hit` is done (returns `None`), else
/// returns where the whole blocks end (the last len % [`WIDTH`] pairs are left to the
/// caller). Only where [`available`] says so: with AVX-512 a block in one step, else in two
/// of AVX2.
pub(super) fn hits(
    low: &[u8],
    high: &[u8],
    set: ByteSet,
    hit: &mut (impl Hit + ?Sized),
) -> Option<usize> {
    assert_eq!(low.len(), high.len());
    #[cfg(target_arch = "x86_64")]
    {
        assert!(available(), "AVX2 is asked for where the CPU has it");
        if wide() {
            // SAFETY: the CPU has AVX-512 F, BW and VBMI (just checked), and the slices are
            // equally long.
            return unsafe { avx512::hits(low, high, &set, hit) };
        }
        // SAFETY: the CPU has AVX2 (just checked), and the slices are equally long.
        unsafe { avx2::hits(low, high, set, hit) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (set, hit);
        unreachable!("AVX2 is asked for where the CPU has it")
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{ByteSet, Hit, WIDTH};
    use std::arch::x86_64::*;

    /// [`super::hits`]; the caller makes sure the CPU has AVX2 and `low` and `high` are
    /// equally long.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn hits(
        low: &[u8],
        high: &[u8],
        mut set: ByteSet,
        hit: &mut (impl Hit + ?Sized),
    ) -> Option<usize> {
        let n = low.len();
        let powers = _mm256_setr_epi8(
            1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0,
            0, 0, 0, 0, 0, 0, 0,
        );
        let reverse = _mm256_setr_epi8(
            15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7,
            6, 5, 4, 3, 2, 1, 0,
        );
        let (five, seven, sixteen) = (
            _mm256_set1_epi8(31),
            _mm256_set1_epi8(7),
            _mm256_set1_epi8(16),
        );
        let zero = _mm256_setzero_si256();
        // Both lanes hold bytes 0-15 of the set, or bytes 16-31: a shuffle reads within a lane.
        let halves = |set: &ByteSet| {
            // SAFETY: the set is 32 bytes.
            let bits = unsafe { _mm256_loadu_si256(set.0.as_ptr().cast()) };
            (
                _mm256_permute2x128_si256::<0x00>(bits, bits),
                _mm256_permute2x128_si256::<0x11>(bits, bits),
            )
        };
        let (mut set_low, mut set_high) = halves(&set);
        // Bit j: pair p + j (of 32) gives a value in the set; p + 32 <= n.
        let found = |p: usize, set_low, set_high| {
            // SAFETY: p + 32 <= n, and n - p - 32 >= 0: both reads are within the slices.
            let a = unsafe { _mm256_loadu_si256(low.as_ptr().add(p).cast()) };
            let b = unsafe { _mm256_loadu_si256(high.as_ptr().add(n - p - 32).cast()) };
            // b reversed: pair i is low[p + i] with high[n - 1 - p - i], b's byte 31 - i.
            let b = _mm256_permute4x64_epi64::<0x4E>(_mm256_shuffle_epi8(b, reverse));
            let x = _mm256_xor_si256(a, b);
            // The set's byte x >> 3 (below 32: bit 4 picks the half), and bit x & 7 of it.
            let byte = _mm256_and_si256(_mm256_srli_epi16::<3>(x), five);
            let upper = _mm256_cmpeq_epi8(_mm256_and_si256(byte, sixteen), sixteen);
            let looked = _mm256_blendv_epi8(
                _mm256_shuffle_epi8(set_low, byte),
                _mm256_shuffle_epi8(set_high, byte),
                upper,
            );
            let bit = _mm256_shuffle_epi8(powers, _mm256_and_si256(x, seven));
            let missed = _mm256_cmpeq_epi8(_mm256_and_si256(looked, bit), zero);
            (!(_mm256_movemask_epi8(missed) as u32), x)
        };
        let mut xors = [0u8; WIDTH];
        let mut o = 0;
        while o + WIDTH <= n {
            let (first, x0) = found(o, set_low, set_high);
            let (second, x1) = found(o + 32, set_low, set_high);
            let hits = u64::from(first) | u64::from(second) << 32;
            if hits != 0 {
                // SAFETY: `xors` is 64 bytes, two stores of 32.
                unsafe {
                    _mm256_storeu_si256(xors.as_mut_ptr().cast(), x0);
                    _mm256_storeu_si256(xors.as_mut_ptr().add(32).cast(), x1);
                }
                let mut left = hits;
                while left != 0 {
                    let j = 63 - left.leading_zeros() as usize;
                    set.remove(usize::from(xors[j]));
                    hit.note(o + j, xors[j]);
                    left ^= 1 << j;
                }
                if hit.done() {
                    return None;
                }
                (set_low, set_high) = halves(&set);
            }
            o += WIDTH;
        }
        Some(o)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{ByteSet, Hit, WIDTH};
    use std::arch::x86_64::*;

    /// Byte i: 63 - i.
    const REVERSE: [u8; 64] = {
        let mut bytes = [0; 64];
        let mut i = 0;
        while i < 64 {
            bytes[i] = 63 - i as u8;
            i += 1;
        }
        bytes
    };

    /// Byte i: 1 << (i % 8) in the first 8 bytes of each 16 (a shuffle reads within them).
    const POWERS: [u8; 64] = {
        let mut bytes = [0; 64];
        let mut i = 0;
        while i < 64 {
            if i % 16 < 8 {
                bytes[i] = 1 << (i % 8);
            }
            i += 1;
        }
        bytes
    };

    /// [`super::hits`]; the caller makes sure the CPU has AVX-512 F, BW and VBMI and `low`
    /// and `high` are equally long.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn hits(
        low: &[u8],
        high: &[u8],
        set: &ByteSet,
        hit: &mut (impl Hit + ?Sized),
    ) -> Option<usize> {
        let n = low.len();
        // SAFETY: both are 64 bytes.
        let reverse = unsafe { _mm512_loadu_si512(REVERSE.as_ptr().cast()) };
        let powers = unsafe { _mm512_loadu_si512(POWERS.as_ptr().cast()) };
        // The set in the low 32 bytes, as four words: a byte permute reads it at any index
        // below 32. It stays in a register: a value found leaves it by a masked broadcast,
        // where bytes cleared in memory and loaded again as a whole waited for the stores.
        // SAFETY: the set is 32 bytes.
        let mut looked_in =
            unsafe { _mm512_castsi256_si512(_mm256_loadu_si256(set.0.as_ptr().cast())) };
        let mut count = set.0.iter().map(|b| b.count_ones()).sum::<u32>();
        let (five, seven) = (_mm512_set1_epi8(31), _mm512_set1_epi8(7));
        let mut xors = [0u8; WIDTH];
        let mut o = 0;
        while o + WIDTH <= n {
            // SAFETY: o + 64 <= n, and n - o - 64 >= 0: both reads are within the slices.
            let a = unsafe { _mm512_loadu_si512(low.as_ptr().add(o).cast()) };
            let b = unsafe { _mm512_loadu_si512(high.as_ptr().add(n - o - 64).cast()) };
            // b reversed: pair i is low[o + i] with high[n - 1 - o - i], b's byte 63 - i.
            let x = _mm512_xor_si512(a, _mm512_permutexvar_epi8(reverse, b));
            // The set's byte x >> 3, and bit x & 7 of it.
            let byte = _mm512_and_si512(_mm512_srli_epi16::<3>(x), five);
            let looked = _mm512_permutexvar_epi8(byte, looked_in);
            let bit = _mm512_shuffle_epi8(powers, _mm512_and_si512(x, seven));
            let hits = _mm512_test_epi8_mask(looked, bit);
            if hits != 0 {
                if hits.count_ones() > count {
                    // More pairs than values (small tables: a block gives few values, many
                    // times each): each value's first pair, found by a compare a value.
                    let mut words = [0u64; 4];
                    // SAFETY: `words` is 32 bytes.
                    unsafe {
                        _mm256_storeu_si256(
                            words.as_mut_ptr().cast(),
                            _mm512_castsi512_si256(looked_in),
                        )
                    };
                    for (w, mut word) in words.into_iter().enumerate() {
                        while word != 0 {
                            let v = (64 * w) as u8 + word.trailing_zeros() as u8;
                            let at = _mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8(v as i8));
                            if at != 0 {
                                looked_in = without(looked_in, v);
                                count -= 1;
                                hit.note(o + at.trailing_zeros() as usize, v);
                            }
                            word &= word - 1;
                        }
                    }
                } else {
                    // SAFETY: `xors` is 64 bytes.
                    unsafe { _mm512_storeu_si512(xors.as_mut_ptr().cast(), x) };
                    let mut left = hits;
                    while left != 0 {
                        let j = 63 - left.leading_zeros() as usize;
                        looked_in = without(looked_in, xors[j]);
                        hit.note(o + j, xors[j]);
                        left ^= 1 << j;
                    }
                    count = ones(looked_in);
                }
                if hit.done() {
                    return None;
                }
            }
            o += WIDTH;
        }
        Some(o)
    }

    /// `set`, held as [`hits`] holds it, without `v`: a masked broadcast, in registers.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn without(set: __m512i, v: u8) -> __m512i {
        let v = u64::from(v);
        _mm512_andnot_si512(
            _mm512_maskz_set1_epi64(1 << (v >> 6), 1 << (v & 63) as i64),
            set,
        )
    }

    /// The values in a set held as [`hits`] holds it.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn ones(set: __m512i) -> u32 {
        let set = _mm512_castsi512_si256(set);
        let word = |w: u64| w.count_ones();
        word(_mm256_extract_epi64::<0>(set) as u64)
            + word(_mm256_extract_epi64::<1>(set) as u64)
            + word(_mm256_extract_epi64::<2>(set) as u64)
            + word(_mm256_extract_epi64::<3>(set) as u64)
    }

    /// [`ByteSet::of`] 64 entries a step (masked past `pending`'s end); the caller makes
    /// sure the CPU has AVX-512 F and BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn set_of(pending: &[u8]) -> ByteSet {
        let mut bits = [0u8; 32];
        for (k, word) in bits.chunks_exact_mut(8).enumerate() {
            let len = pending.len().saturating_sub(64 * k).min(64);
            if len == 0 {
                break;
            }
            let within = u64::MAX >> (64 - len);
            // SAFETY: the load reads the first `len` bytes from 64 k only, all in `pending`.
            let bytes =
                unsafe { _mm512_maskz_loadu_epi8(within, pending.as_ptr().add(64 * k).cast()) };
            word.copy_from_slice(&_mm512_test_epi8_mask(bytes, bytes).to_le_bytes());
        }
        ByteSet(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the plain reading: for pseudo-random bytes and sets, every value looked for
    /// that a pair gives is found, with its first pair as its witness (so no pair of a value
    /// found in an earlier block is noted), and the reading stops after the block where the
    /// reader is done or ends at the last whole block, whatever the lengths (not multiples of
    /// 64 too), the tables' lengths, the number of values (fewer than a block's pairs that
    /// hit, and more) and wherever in a block the hits are: by AVX2 and, where the machine has
    /// it, by AVX-512.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn blocks_hit_as_the_plain_reading_says() {
        if !available() {
            return;
        }
        let wide = wide();
        eprintln!("AVX-512 tested too: {wide}");
        let mut next = crate::testing::xorshift(0x9e37_79b9);
        /// Notes what it is told, as the scan's reader does, and is done at the `stop_at`-th
        /// value found.
        struct Reader<'r> {
            pending: Vec<u8>,
            witnesses: Vec<Option<usize>>,
            found: usize,
            stop_at: usize,
            xor: &'r dyn Fn(usize) -> usize,
        }
        impl Hit for Reader<'_> {
            fn note(&mut self, i: usize, x: u8) {
                assert_eq!(usize::from(x), (self.xor)(i), "pair {i}'s xor");
                self.found += usize::from(self.pending[usize::from(x)]);
                self.pending[usize::from(x)] = 0;
                self.witnesses[usize::from(x)] = Some(i);
            }
            fn done(&self) -> bool {
                self.found >= self.stop_at
            }
        }
        for round in 0..600 {
            let n = (next() % 400) as usize;
            // Bytes of few values in some rounds, so that a block gives each many times.
            let range = [256, 16, 64][round % 3];
            let mut byte = || (next() % range) as u8;
            let low: Vec<u8> = (0..n).map(|_| byte()).collect();
            let high: Vec<u8> = (0..n).map(|_| byte()).collect();
            // Tables of 256 entries and more (values past 255 never hit), and shorter ones.
            let pending_len = [256, 512, 128, 32][round % 4];
            let mut pending = vec![0u8; 512];
            for _ in 0..(round % 11) * (round % 5) {
                pending[(next() % pending_len as u32) as usize] = 1;
            }
            // Stops once three values are found, in odd rounds.
            let stop_at = if round % 2 == 1 { 3 } else { usize::MAX };
            let xor = |i: usize| (low[i] ^ high[n - 1 - i]) as usize;
            // The plain reading: pairs in order, a block at a time.
            let plain = {
                let (mut left, mut witnesses) = (pending.clone(), vec![None; 512]);
                let (mut found, mut end) = (0, Some(n / WIDTH * WIDTH));
                for start in (0..n / WIDTH * WIDTH).step_by(WIDTH) {
                    for i in start..start + WIDTH {
                        if left[xor(i)] == 1 {
                            left[xor(i)] = 0;
                            witnesses[xor(i)] = Some(i);
                            found += 1;
                        }
                    }
                    if found >= stop_at {
                        end = None;
                        break;
                    }
                }
                (witnesses, end)
            };
            let read = |hits: &dyn Fn(ByteSet, &mut Reader) -> Option<usize>| {
                let mut reader = Reader {
                    pending: pending.clone(),
                    witnesses: vec![None; 512],
                    found: 0,
                    stop_at,
                    xor: &xor,
                };
                let end = hits(ByteSet::of(&pending[..pending_len]), &mut reader);
                (reader.witnesses, end)
            };
            let (low, high) = (&low[..], &high[..]);
            assert_eq!(read(&|s, r| hits(low, high, s, r)), plain, "round {round}");
            // SAFETY: the CPU has AVX2 (checked above), and AVX-512 where `wide` says so.
            let narrow = |s: ByteSet, r: &mut Reader| unsafe { avx2::hits(low, high, s, r) };
            assert_eq!(read(&narrow), plain, "round {round}, AVX2");
            if wide {
                let wide = |s: ByteSet, r: &mut Reader| unsafe { avx512::hits(low, high, &s, r) };
                assert_eq!(read(&wide), plain, "round {round}, AVX-512");
            }
        }
    }

    /// The set holds exactly the pending values below 256, and loses one when it is found.
    #[test]
    fn the_set_follows_pending() {
        let mut pending = vec![0u8; 512];
        for v in [0, 7, 8, 100, 255, 256, 300] {
            pending[v] = 1;
        }
        let mut set = ByteSet::of(&pending);
        let has = |s: &ByteSet, v: usize| s.0[v >> 3] >> (v & 7) & 1 == 1;
        for (v, &p) in pending.iter().enumerate().take(256) {
            assert_eq!(has(&set, v), p == 1, "{v}");
        }
        set.remove(100);
        assert!(!has(&set, 100) && has(&set, 255));
        for len in [2, 4, 8, 64, 256, 1024] {
            let mut pending = vec![0u8; len];
            for v in (0..len).filter(|v| v * 7 % 5 < 2) {
                pending[v] = 1;
            }
            let set = ByteSet::of(&pending);
            for v in 0..256 {
                assert_eq!(has(&set, v), pending.get(v) == Some(&1), "{len} {v}");
            }
        }
        assert_eq!(ByteSet::of(&pending[..8]), {
            let mut s = ByteSet([0; 32]);
            s.0[0] = 1 | 1 << 7;
            s
        });
    }
}
