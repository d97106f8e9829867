//! Cram: a move covers two empty cells that share a side with a domino; the player who cannot
//! move loses (Winning Ways, pp. 502-506).
//!
//! The engines see a board as a set of empty cells in one word (bit `r * C + c`), which is what
//! makes the moves, the split into regions and the symmetries a handful of word operations: a
//! `u64` for boards of up to 64 cells, a `u128` up to 128 ([`Cells`]). The commands see it as
//! one count per row: the row's empty cells as a bit mask (bit c = column c). Regions that no
//! domino joins are independent games, so a board is the sum of its regions; a region is valued
//! in a normal form (the least image under the board's symmetries, moved to the top-left
//! corner), and a straight strip of n cells is Dawson's Kayles (octal 0.07) of n.

mod cells;
mod facts;
mod regions;

pub use cells::Cells;

use crate::error::Error;
use crate::game::heap::{nim_sequence, TakeBreak};
use crate::game::symmetry::Symmetry;
use crate::game::Stones;
use crate::game::{Game, MoveOrder, Nimber, Parts};

/// Cells a board may have: the engines' bit set is at most a `u128`.
pub(crate) const MAX_CELLS: usize = 128;

/// Columns a board may have: a row is one count of the commands' positions.
pub(crate) const MAX_COLS: usize = 32;

/// Cram on an R x C board, its cells a bit set in `W`.
#[derive(Debug)]
pub struct Cram<W = u64> {
    pub(crate) name: String,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    /// Every cell of the board.
    pub(crate) full: W,
    /// The cells of column 0, and of column C - 1.
    first_col: W,
    last_col: W,
    /// The cells of row 0.
    first_row: W,
    /// The row of each cell, so that finding a row takes no division.
    row_of: [u8; MAX_CELLS],
    /// For each byte m, the cells (j, 0) of column 0 for the bits j of m: a row's eight cells
    /// stood up as a column, for the transpose of the normal form.
    down_column: [W; 256],
    /// Dawson's Kayles, the value of a straight strip of n cells, for n up to the longer side.
    strip: Vec<Nimber>,
    /// The commands' symmetry on the rows' counts (none claimed).
    pub(crate) identity: Symmetry,
}

impl<W: Cells> Cram<W> {
    /// Cram on `rows` x `cols` (at most `W::BITS` cells, and `MAX_COLS` columns), named
    /// `name`.
    pub fn new(name: &str, rows: usize, cols: usize) -> Result<Self, Error> {
        if rows == 0 || cols == 0 || rows.saturating_mul(cols) > W::BITS || cols > MAX_COLS {
            return Err(Error::spec(format!(
                "{name}: boards of 1 to {} cells and up to {MAX_COLS} columns are supported{}",
                MAX_CELLS.min(W::BITS),
                if W::BITS < MAX_CELLS {
                    " in this word"
                } else {
                    ""
                }
            )));
        }
        let one = W::one();
        let full = W::max_value() >> (W::BITS - rows * cols);
        let first_col = (0..rows).fold(W::zero(), |m, r| m | one << (r * cols));
        let dawson = TakeBreak::octal("octal:0.07", "0.07")?;
        Ok(Cram {
            name: name.to_string(),
            rows,
            cols,
            full,
            first_col,
            last_col: first_col << (cols - 1),
            first_row: W::from_row(u32::MAX) >> (32 - cols),
            row_of: std::array::from_fn(|k| (k / cols) as u8),
            down_column: std::array::from_fn(|m| {
                (0..8)
                    .filter(|&j| m >> j & 1 == 1 && j * cols < W::BITS)
                    .fold(W::zero(), |c, j| c | one << (j * cols))
            }),
            strip: nim_sequence(&dawson, rows.max(cols)),
            identity: Symmetry::identity(rows),
        })
    }

    /// The full board.
    pub fn full(&self) -> W {
        self.full
    }

    /// Rows and columns.
    pub fn dims(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The board of one row mask per row.
    pub fn pack(&self, rows: &[u32]) -> W {
        rows.iter().enumerate().fold(W::zero(), |b, (r, &m)| {
            b | W::from_row(m) << (r * self.cols)
        })
    }

    /// One row mask per row.
    pub fn unpack(&self, b: W) -> Stones {
        (0..self.rows)
            .map(|r| ((b >> (r * self.cols)) & self.first_row).low_row())
            .collect()
    }

    /// The highest cell of `b` (not empty).
    fn last_cell(b: W) -> usize {
        W::BITS - 1 - b.leading_zeros() as usize
    }

    /// The first and the last row holding a cell of `b` (not empty).
    fn rows_spanned(&self, b: W) -> (usize, usize) {
        (
            self.row_of[b.trailing_zeros() as usize] as usize,
            self.row_of[Self::last_cell(b)] as usize,
        )
    }

    /// Cells whose right neighbour is empty too (horizontal dominoes by their left cell), and
    /// cells whose lower neighbour is (vertical ones by their top cell).
    fn dominoes(&self, b: W) -> (W, W) {
        (b & (b >> 1) & !self.last_col, b & (b >> self.cols))
    }
}

impl<W: Cells> Game for Cram<W> {
    type Position = W;

    /// Canonical forms are a good share of a Cram search, and regions recur.
    const PART_CACHE_BITS: u32 = 14;

    fn moves(&self, b: &W, order: MoveOrder, out: &mut Vec<W>) {
        let (b, cols) = (*b, self.cols);
        let (h, v) = self.dominoes(b);
        let one = W::one();
        let (across, down) = (one | one << 1, one | one << cols);
        if order == MoveOrder::Natural || b.is_zero() {
            place_each(b, h, across, out);
            place_each(b, v, down, out);
            return;
        }
        // Vertical dominoes from the middle column of the occupied span outwards, then
        // horizontal ones from the middle row: a domino across the middle cuts the board into
        // halves, sums of smaller games (igs's order for Cram).
        let used = self.columns_used(b);
        let (left, right) = (used.trailing_zeros(), Self::last_cell(used) as u32);
        let (top, bottom) = self.rows_spanned(b);
        for c in middle_out(left, right) {
            place_each(b, v & self.first_col << c as usize, down, out);
        }
        for r in middle_out(top as u32, bottom as u32) {
            place_each(b, h & self.first_row << (r as usize * cols), across, out);
        }
    }

    fn move_count(&self, b: &W) -> usize {
        let (h, v) = self.dominoes(*b);
        (h.count_ones() + v.count_ones()) as usize
    }

    /// The regions of two or more cells (a lone cell takes no domino), once the theorems of
    /// `facts` have dropped what does not count. (Twin regions, G + G = 0, are the engines'
    /// business: they cancel equal parts once canonical.)
    fn split(&self, b: &W) -> Option<Parts<W>> {
        let mut parts = Parts::new();
        let dropped = self.split_into(*b, &mut parts);
        match parts.len() {
            0 => Some(Parts::from_elem(W::zero(), 1)),
            1 if !dropped => None,
            _ => Some(parts),
        }
    }

    fn canonicalize(&self, b: &mut W) {
        *b = self.normal_form(*b);
    }

    fn known_value(&self, b: &W) -> Option<Nimber> {
        self.fact(*b).map(|(v, _)| v)
    }

    fn weight(&self, b: &W) -> u64 {
        b.count_ones() as u64
    }

    /// The square of the cells: a successor that leaves small regions is searched first
    /// (igs's `SmallerComponentsFirst`).
    fn part_cost(&self, b: &W) -> u64 {
        (b.count_ones() as u64).pow(2)
    }
}

/// Appends `b` less each domino `pair` shifted to a cell of `at`.
fn place_each<W: Cells>(b: W, mut at: W, pair: W, out: &mut Vec<W>) {
    while !at.is_zero() {
        out.push(b & !(pair << at.trailing_zeros() as usize));
        at &= at - W::one();
    }
}

/// The lines `first..=last` from the middle out, the lower first of two as near: the order of
/// the distance |2 l - (first + last)|, ties kept in line order.
fn middle_out(first: u32, last: u32) -> impl Iterator<Item = u32> {
    let sum = first + last;
    let (low, high) = (sum / 2, sum.div_ceil(2));
    (0..=last - first).map(move |k| match (sum % 2, k % 2) {
        (0, 0) => low + k / 2,
        (0, _) => low - k.div_ceil(2),
        (_, 0) => low - k / 2,
        _ => high + k / 2,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::sg::tree::count_tree;
    use crate::sg::{SearchConfig, SearchEngine};

    /// The pruning paper's Cram 5 x 4 (Table 7): `def` without a table expands 1 781 x 10^6
    /// nodes, and its table capacities are a quarter, a half and all of |S| = 58 830.
    #[test]
    fn the_papers_state_space() {
        let g = cram(5, 4);
        let c = count_tree(&g, &g.full());
        assert_eq!((c.nodes + 500_000) / 1_000_000, 1781, "{}", c.nodes);
        assert_eq!(c.positions, 58_830);
    }

    pub(super) fn cram(rows: usize, cols: usize) -> Cram {
        Cram::new(&format!("cram:{rows}x{cols}"), rows, cols).unwrap()
    }

    /// A board of more than 64 cells, in the wide word.
    pub(super) fn wide(rows: usize, cols: usize) -> Cram<u128> {
        Cram::new(&format!("cram:{rows}x{cols}"), rows, cols).unwrap()
    }

    /// Pseudo-random words from a fixed seed, the raw stuff of the tests' random boards: the
    /// same boards on every run.
    pub(super) fn words(seed: u64) -> impl Iterator<Item = u64> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        std::iter::repeat_with(move || rng.next_u64())
    }

    /// [`words`], two at a time in a wide word.
    pub(super) fn wide_words(seed: u64) -> impl Iterator<Item = u128> {
        let mut w = words(seed);
        std::iter::from_fn(move || Some(u128::from(w.next()?) << 64 | u128::from(w.next()?)))
    }

    /// Whether cell `k` is in `b`.
    pub(super) fn has<W: Cells>(b: W, k: usize) -> bool {
        !(b >> k & W::one()).is_zero()
    }

    fn value<W: Cells>(game: &Cram<W>, engine: SearchEngine, cfg: SearchConfig, b: W) -> Nimber {
        engine.searcher(game, cfg).nimber(b)
    }

    /// The wide word's moves, regions, normal forms and theorems against the narrow word's:
    /// pseudo-random 5 x 6 boards valued on their own and placed somewhere on a board of more
    /// than 64 cells, the rest of it filled.
    #[test]
    fn wide_boards_agree_with_narrow_ones() {
        let narrow = cram(5, 6);
        let cut = SearchEngine::Cut("cut_cEA".parse().unwrap());
        for (rows, cols) in [(9, 13), (11, 11), (5, 25)] {
            let big = wide(rows, cols);
            for (i, x) in words(5).take(60).enumerate() {
                let b = (x | x.rotate_left(13)) & narrow.full();
                let (top, left) = (i % (rows - 4), i % (cols - 5));
                let mut placed = vec![0; rows];
                for (r, m) in narrow.unpack(b).into_iter().enumerate() {
                    placed[top + r] = m << left;
                }
                let want = value(&narrow, SearchEngine::Lv, SearchConfig::default(), b);
                for engine in [cut, SearchEngine::Lv] {
                    let got = value(&big, engine, SearchConfig::default(), big.pack(&placed));
                    assert_eq!(got, want, "{engine} {rows}x{cols} {placed:?}");
                }
            }
        }
        // The full board of an even x even board is 0 by its half turn, at once.
        let g = wide(6, 12);
        assert_eq!(g.fact(g.full()).map(|(v, _)| v), Some(0));
    }

    /// The middle-out order against sorting by the distance from the middle.
    #[test]
    fn middle_out_is_sorted_by_distance() {
        for first in 0..12u32 {
            for last in first..20 {
                let mut want: Vec<u32> = (first..=last).collect();
                want.sort_by_key(|&l| (2 * l).abs_diff(first + last));
                assert_eq!(
                    middle_out(first, last).collect::<Vec<_>>(),
                    want,
                    "{first}..={last}"
                );
            }
        }
    }

    /// A 1 x n strip is Dawson's Kayles, searched with no theorem at all.
    #[test]
    fn strips_are_dawsons_kayles() {
        let dawson = [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4];
        for (n, &want) in dawson.iter().enumerate().skip(1) {
            let g = cram(1, n);
            assert_eq!(
                value(&g, SearchEngine::Naive, SearchConfig::bare(), g.full()),
                want,
                "1x{n}"
            );
            let g = cram(n, 1);
            assert_eq!(
                value(&g, SearchEngine::Naive, SearchConfig::bare(), g.full()),
                want,
                "{n}x1"
            );
        }
    }

    /// Every engine, with and without the theorems, on every sub-board of 3x3 and on
    /// boards of the paper (Cram 5x4 has nimber 2, Table 7) and known by symmetry (an
    /// even x even board is a second-player win).
    #[test]
    fn engines_and_theorems_agree() {
        let g = cram(3, 3);
        let engines = [
            SearchEngine::Naive,
            SearchEngine::Lv,
            SearchEngine::Cut("cut_cEA".parse().unwrap()),
            SearchEngine::Cut("scut_R".parse().unwrap()),
        ];
        for b in 0..=g.full() {
            let want = value(&g, SearchEngine::Naive, SearchConfig::bare(), b);
            for e in engines {
                assert_eq!(value(&g, e, SearchConfig::default(), b), want, "{e} {b:#x}");
            }
        }
        let g = cram(4, 4);
        assert_eq!(
            value(&g, SearchEngine::Naive, SearchConfig::default(), g.full()),
            0
        );
        let g = cram(5, 4);
        for e in engines {
            assert_eq!(value(&g, e, SearchConfig::default(), g.full()), 2, "{e}");
        }
    }
}
