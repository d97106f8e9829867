//! A block's rows of options gathered as bits before they are stamped ([`super::far`]): in
//! tables of N entries every xor of two values is below N / 2 (below 64 in a table of 64 or
//! 128 entries), so a row's options fit N / 128 words (one at least), and eight rows take a
//! vector step a word (a value widened, a xor, a shift, an or), the words of 64 rows held in
//! registers through all of a block's reads. Marking a byte a pair cost about two cycles each
//! (`octal:0.127`: half of its run); the rows are then stamped from their words, 64 entries in
//! one masked store. Stored values and the new ones of a block, at full width, alike.

/// The options of a block's rows, a bit each, while they are gathered.
pub(super) struct BitRows {
    rows: usize,
    /// Word w of row r (its options 64 w to 64 w + 63) at w * rows + r: eight rows' words
    /// side by side.
    words: Vec<u64>,
}

/// Words a row of a table of `len` entries needs, when [`BitRows`] serves it: tables of 64 to
/// 256 entries. (`octal:0.127`, 128 entries: 24-25 ms -> 20 ms; `octal:0.354`, 256 entries:
/// 2.9 s either way; Grundy's game's 512, four words a row, took 14% longer than bytes.)
pub(super) fn words_for(len: usize) -> Option<usize> {
    matches!(len, 64 | 128 | 256).then_some((len / 128).max(1))
}

/// Whether this machine gathers bits ([`BitRows`]): AVX-512 F, BW and VL.
#[inline]
pub(super) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl BitRows {
    /// `rows` rows of `words` words ([`words_for`]) without an option.
    pub(super) fn new(rows: usize, words: usize) -> BitRows {
        BitRows {
            rows,
            words: vec![0; rows * words],
        }
    }

    /// Row j gains the option x ^ ys[j], for each j, for each read (ys, x) (ys at most the
    /// rows long; every xor below 64 times the words). All the reads at once: the rows' words
    /// stay in registers from the first read to the last, where a read at a time loaded and
    /// stored them again (`octal:0.127` on one thread 20.7 -> 17.1 ms). Only where
    /// [`available`] says so.
    pub(super) fn or_all<T: Lanes>(&mut self, reads: &[(&[T], usize)]) {
        let words = self.words.len() / self.rows;
        assert!(
            reads
                .iter()
                .all(|(ys, x)| ys.len() <= self.rows && *x < 64 * words),
            "a row a value, xors below the words'"
        );
        #[cfg(target_arch = "x86_64")]
        {
            assert!(available(), "asked where the CPU has AVX-512 F, BW and VL");
            // SAFETY: the CPU has what it asks for (just checked); each ys fits the rows.
            match words {
                1 => unsafe { avx512::or_all::<T, 1>(&mut self.words, self.rows, reads) },
                2 => unsafe { avx512::or_all::<T, 2>(&mut self.words, self.rows, reads) },
                _ => unreachable!("one or two words a row ([`words_for`])"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("asked where the CPU has AVX-512")
    }

    /// Writes `stamp` in `seen`'s rows (of `len` entries, 64 times the words at least) at each
    /// option gathered.
    pub(super) fn stamp(&self, seen: &mut [u8], len: usize, stamp: u8) {
        let words = self.words.len() / self.rows;
        assert!(
            len >= 64 * words && seen.len() >= self.rows * len,
            "rows as long as words"
        );
        #[cfg(target_arch = "x86_64")]
        {
            assert!(available(), "asked where the CPU has AVX-512 F, BW and VL");
            for (r, row) in seen.chunks_exact_mut(len).take(self.rows).enumerate() {
                for (w, entries) in row.chunks_exact_mut(64).take(words).enumerate() {
                    let word = self.words[w * self.rows + r];
                    // SAFETY: the CPU has AVX-512 BW (just checked); 64 entries.
                    unsafe { avx512::stamp(entries, word, stamp) }
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("asked where the CPU has AVX-512")
    }
}

/// Values [`BitRows::or_all`] reads: stored bytes, or new values at full width.
pub(super) trait Lanes: Copy {
    /// Eight values from `at` widened to 64 bits, those of `lanes` only (the others 0).
    ///
    /// # Safety
    /// The CPU has AVX-512 F, BW and VL, and the lanes read are within one slice.
    #[cfg(target_arch = "x86_64")]
    unsafe fn eight(at: *const Self, lanes: u8) -> std::arch::x86_64::__m512i;
}

#[cfg(target_arch = "x86_64")]
impl Lanes for u8 {
    #[inline(always)]
    unsafe fn eight(at: *const u8, lanes: u8) -> std::arch::x86_64::__m512i {
        use std::arch::x86_64::*;
        // SAFETY: as the caller makes sure.
        unsafe { _mm512_cvtepu8_epi64(_mm_maskz_loadu_epi8(u16::from(lanes), at.cast())) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Lanes for crate::game::Nimber {
    #[inline(always)]
    unsafe fn eight(at: *const Self, lanes: u8) -> std::arch::x86_64::__m512i {
        use std::arch::x86_64::*;
        // SAFETY: as the caller makes sure.
        unsafe { _mm512_cvtepu32_epi64(_mm256_maskz_loadu_epi32(lanes, at.cast())) }
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl Lanes for u8 {}
#[cfg(not(target_arch = "x86_64"))]
impl Lanes for crate::game::Nimber {}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::Lanes;
    use std::arch::x86_64::*;

    /// [`super::BitRows::or_all`] with `W` words a row, in `words` (word w of row r at
    /// w * rows + r); the caller makes sure of the CPU and that each ys fits the rows.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    pub(super) unsafe fn or_all<T: Lanes, const W: usize>(
        words: &mut [u64],
        rows: usize,
        reads: &[(&[T], usize)],
    ) {
        assert_eq!(words.len(), W * rows, "W words a row");
        let one = _mm512_set1_epi64(1);
        // The first `len` of 64 entries, as a mask.
        let first = |len: usize| u64::MAX.checked_shr(64 - len.min(64) as u32).unwrap_or(0);
        // 64 rows at a time, their words in registers through all the reads.
        for group in (0..rows).step_by(64) {
            // Rows group + 8 c to group + 8 c + 7's word w, of each chunk c of eight rows.
            let mut gathered = [[_mm512_setzero_si512(); 8]; W];
            for &(ys, x) in reads {
                assert!(ys.len() <= rows, "a row a value");
                let x = _mm512_set1_epi64(x as i64);
                let within = first(ys.len().saturating_sub(group));
                for c in 0..8 {
                    let lanes = (within >> (8 * c)) as u8;
                    // (Reads of the first rows only, as of rare heaps below the rows, end
                    // early.)
                    if lanes == 0 {
                        break;
                    }
                    // SAFETY: only the lanes of ys's entries group + 8 c on, below its
                    // length, are read; the CPU has AVX-512 F, BW and VL.
                    let y = unsafe { T::eight(ys.as_ptr().wrapping_add(group + 8 * c), lanes) };
                    let v = _mm512_xor_si512(y, x);
                    for (w, words) in gathered.iter_mut().enumerate() {
                        // Below 64 w the difference wraps past 63: a shift by it gives 0.
                        let at = _mm512_sub_epi64(v, _mm512_set1_epi64(64 * w as i64));
                        let bit = _mm512_maskz_sllv_epi64(lanes, one, at);
                        words[c] = _mm512_or_si512(words[c], bit);
                    }
                }
            }
            let within = first(rows - group);
            for (w, gathered) in gathered.iter().enumerate() {
                for (c, &bits) in gathered.iter().enumerate() {
                    let lanes = (within >> (8 * c)) as u8;
                    // SAFETY: the lanes written are rows below `rows`, of word w's.
                    unsafe {
                        let at = words.as_mut_ptr().wrapping_add(w * rows + group + 8 * c);
                        let old = _mm512_maskz_loadu_epi64(lanes, at.cast());
                        _mm512_mask_storeu_epi64(at.cast(), lanes, _mm512_or_si512(old, bits));
                    }
                }
            }
        }
    }

    /// `stamp` at each bit of `word` in `entries` (64); the caller makes sure of the CPU.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn stamp(entries: &mut [u8], word: u64, stamp: u8) {
        assert_eq!(entries.len(), 64, "a word's entries");
        let stamps = _mm512_set1_epi8(stamp as i8);
        // SAFETY: 64 entries.
        unsafe { _mm512_mask_storeu_epi8(entries.as_mut_ptr().cast(), word, stamps) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Nimber;

    /// Against a row of bytes a table: for tables of 64 to 256 entries, blocks of rows fewer
    /// than 64, 64 and past it (not multiples of 8 too), reads as long as the rows and shorter
    /// (down to none), bytes and full-width values, each row holds the stamp exactly at the
    /// xors of its reads.
    #[test]
    fn rows_gather_exactly_the_xors_read() {
        if !available() {
            return;
        }
        let mut draw = crate::testing::xorshift(0x2545_f491);
        let mut next = move || draw() as usize;
        for round in 0..300 {
            let len = [64, 128, 256][round % 3];
            let rows = [4, 13, 64, 65, 70, 128, 130][round % 7];
            let half = len / 2;
            let reads = next() % 12;
            let lengths: Vec<usize> = (0..reads)
                .map(|_| match next() % 3 {
                    0 => rows,
                    _ => next() % (rows + 1),
                })
                .collect();
            let bytes: Vec<(Vec<u8>, usize)> = lengths
                .iter()
                .map(|&n| {
                    (
                        (0..n).map(|_| (next() % half) as u8).collect(),
                        next() % half,
                    )
                })
                .collect();
            let wide: Vec<(Vec<Nimber>, usize)> = lengths
                .iter()
                .rev()
                .map(|&n| {
                    (
                        (0..n).map(|_| (next() % half) as Nimber).collect(),
                        next() % half,
                    )
                })
                .collect();
            let stamp = (round % 250 + 1) as u8;
            let mut expected = vec![0u8; rows * len];
            for (ys, x) in &bytes {
                for (j, &y) in ys.iter().enumerate() {
                    expected[j * len + (x ^ usize::from(y))] = stamp;
                }
            }
            for (ys, x) in &wide {
                for (j, &y) in ys.iter().enumerate() {
                    expected[j * len + (x ^ y as usize)] = stamp;
                }
            }
            let mut bits = BitRows::new(rows, words_for(len).expect("64 to 256 entries"));
            bits.or_all(
                &bytes
                    .iter()
                    .map(|(ys, x)| (&ys[..], *x))
                    .collect::<Vec<_>>(),
            );
            bits.or_all(&wide.iter().map(|(ys, x)| (&ys[..], *x)).collect::<Vec<_>>());
            let mut seen = vec![0u8; rows * len];
            bits.stamp(&mut seen, len, stamp);
            assert_eq!(seen, expected, "round {round}: {len} entries, {rows} rows");
        }
    }
}
