//! The scan's pairs of byte values tested 32 at a time with AVX2 ([`super::scan`]): the values
//! looked for (all below 256, as xors of two bytes are) held as a 256-bit set, and each block of
//! 32 pairs' xors looked up in it by two byte shuffles, without a load per pair. A block that
//! hits is read again pair by pair by the caller, exactly as without AVX2, so the values found
//! and their witnesses are the same on every machine.

/// The values below 256 still looked for: bit `v & 7` of byte `v >> 3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ByteSet([u8; 32]);

impl ByteSet {
    /// The entries of `pending` (1: looked for) below 256.
    /// Eight entries a step: a scan builds one set for each run of pairs it reads.
    pub(super) fn of(pending: &[u8]) -> ByteSet {
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

/// For the pairs (low[i], high[len - 1 - i]) (`low` and `high` equally long), read in whole
/// blocks of 32 from the start: the start of the first block in which some pair's xor is in
/// `set`, with bit j set for each pair start + j that gives one; `None` when no whole block
/// does (the last len % 32 pairs are left to the caller). Only where [`available`] says so.
pub(super) fn first_hit(low: &[u8], high: &[u8], set: &ByteSet) -> Option<(usize, u32)> {
    assert_eq!(low.len(), high.len());
    #[cfg(target_arch = "x86_64")]
    {
        assert!(available(), "AVX2 is asked for where the CPU has it");
        // SAFETY: the CPU has AVX2 (just checked), and the slices are equally long.
        unsafe { avx2::first_hit(low, high, &set.0) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = set;
        unreachable!("AVX2 is asked for where the CPU has it")
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// [`super::first_hit`]; the caller makes sure the CPU has AVX2 and `low` and `high`
    /// are equally long.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn first_hit(
        low: &[u8],
        high: &[u8],
        set: &[u8; 32],
    ) -> Option<(usize, u32)> {
        let n = low.len();
        let bits = _mm256_loadu_si256(set.as_ptr().cast());
        // Both lanes hold bytes 0-15 of the set, or bytes 16-31: a shuffle reads within a lane.
        let set_low = _mm256_permute2x128_si256::<0x00>(bits, bits);
        let set_high = _mm256_permute2x128_si256::<0x11>(bits, bits);
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
        let mut o = 0;
        while o + 32 <= n {
            // SAFETY: o + 32 <= n, and n - o - 32 >= 0: both reads are within the slices.
            let a = _mm256_loadu_si256(low.as_ptr().add(o).cast());
            let b = _mm256_loadu_si256(high.as_ptr().add(n - o - 32).cast());
            // b reversed: pair i is low[o + i] with high[n - 1 - o - i], b's byte 31 - i.
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
            if _mm256_testz_si256(looked, bit) == 0 {
                let missed = _mm256_cmpeq_epi8(_mm256_and_si256(looked, bit), zero);
                return Some((o, !(_mm256_movemask_epi8(missed) as u32)));
            }
            o += 32;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the plain reading: for pseudo-random bytes and sets, the first block of 32 pairs
    /// with a value in the set is found, with exactly its pairs that hit, whatever the lengths
    /// (not multiples of 32 too) and wherever in the block the hits are.
    #[test]
    fn blocks_hit_as_the_plain_reading_says() {
        if !available() {
            return;
        }
        let mut x = 0x9e37_79b9_u32;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for round in 0..400 {
            let n = (next() % 300) as usize;
            let low: Vec<u8> = (0..n).map(|_| next() as u8).collect();
            let high: Vec<u8> = (0..n).map(|_| next() as u8).collect();
            let mut pending = vec![0u8; 256];
            for _ in 0..(round % 9) {
                pending[(next() % 256) as usize] = 1;
            }
            let set = ByteSet::of(&pending);
            let hits = |i: usize| pending[(low[i] ^ high[n - 1 - i]) as usize] == 1;
            let want = (0..n / 32 * 32).find(|&i| hits(i)).map(|i| {
                let start = i / 32 * 32;
                let mask = (0..32).filter(|&j| hits(start + j)).map(|j| 1u32 << j);
                (start, mask.fold(0, |m, b| m | b))
            });
            assert_eq!(first_hit(&low, &high, &set), want, "round {round}");
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
