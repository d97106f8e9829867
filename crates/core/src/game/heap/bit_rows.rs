//! A block's rows of options gathered as bits before they are stamped ([`super::far`]): in
//! tables of N entries every xor of two values is below N / 2 (below 64 in a table of 64 or
//! 128 entries), so a row's options fit N / 128 words (one at least), and eight rows take a
//! vector step a word (a value widened, a xor, a shift, an or). Marking a byte a pair cost
//! about two cycles each (`octal:0.127`: half of its run); the rows are then stamped from
//! their words, 64 entries in one masked store. (The new values of a block, beside the stored
//! ones, are still marked a byte each.)

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

    /// Row j gains the option x ^ ys[j], for each j (at most the rows; every xor below 64
    /// times the words). Only where [`available`] says so.
    pub(super) fn or(&mut self, ys: &[u8], x: usize) {
        let top = 64 * (self.words.len() / self.rows);
        assert!(
            ys.len() <= self.rows && x < top,
            "a row a value, xors below the words'"
        );
        #[cfg(target_arch = "x86_64")]
        {
            assert!(available(), "asked where the CPU has AVX-512 F, BW and VL");
            for (w, words) in self.words.chunks_exact_mut(self.rows).enumerate() {
                // SAFETY: the CPU has what it asks for (just checked); ys fits the rows.
                unsafe { avx512::or(words, ys, x as u64, 64 * w as u64) }
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

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    /// [`super::BitRows::or`] for the word of options `from` to `from` + 63 of each row, in
    /// `words`; the caller makes sure of the CPU and that `ys` fits `words`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl")]
    pub(super) unsafe fn or(words: &mut [u64], ys: &[u8], x: u64, from: u64) {
        assert!(ys.len() <= words.len(), "a row a value");
        let (one, x) = (_mm512_set1_epi64(1), _mm512_set1_epi64(x as i64));
        let from = _mm512_set1_epi64(from as i64);
        for (j, chunk) in ys.chunks(8).enumerate() {
            let lanes = ((1u32 << chunk.len()) - 1) as u8;
            // SAFETY: the lanes read are the chunk's, and rows 8 j to 8 j + its length.
            unsafe {
                let y = _mm_maskz_loadu_epi8(u16::from(lanes), chunk.as_ptr().cast());
                let v = _mm512_xor_si512(_mm512_cvtepu8_epi64(y), x);
                // Below `from` the difference wraps past 63: a shift by it gives 0.
                let bit = _mm512_sllv_epi64(one, _mm512_sub_epi64(v, from));
                let at = words.as_mut_ptr().add(8 * j);
                let old = _mm512_maskz_loadu_epi64(lanes, at.cast());
                _mm512_mask_storeu_epi64(at.cast(), lanes, _mm512_or_si512(old, bit));
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
