//! How a board falls into regions and the normal form a region is stored in: the word
//! operations behind `Cram::split` and `Cram::canonicalize`.

use super::{Cells, Cram};
use crate::game::Parts;

impl<W: Cells> Cram<W> {
    /// The empty cells a domino can reach from `from` within `b`, `from` included, without
    /// the horizontal dominoes whose left cells are in `needless`.
    fn region(&self, b: W, from: W, needless: W) -> W {
        // Cells joined to their right neighbour.
        let across = b & (b >> 1) & !self.last_col & !needless;
        let mut r = from;
        loop {
            // Along a row, a carry runs from each reached cell to the end of its run of joined
            // cells, which spreads rightwards in one addition. No carry crosses into the next
            // row, as no cell of the last column is joined rightward. Leftwards, upwards and
            // downwards the region grows a cell a round: the fill starts from its lowest cell,
            // so it rarely needs to go left far.
            r |= across.wrapping_add(&(r & across)) ^ across;
            let grown = (r | (r >> 1 & across) | r << self.cols | r >> self.cols) & b;
            if grown == r {
                return r;
            }
            r = grown;
        }
    }

    /// Appends to `out` the regions of `b` once extra tufts and bridges are gone, regions
    /// joined only by needless dominoes counting apart, each region reduced again the same way.
    /// Whether anything changed: a cell dropped or more than one region.
    pub(super) fn split_into(&self, b: W, out: &mut Parts<W>) -> bool {
        self.split_region(b, None, out)
    }

    /// [`Self::split_into`] for `b`, which is one region of a board whose needless dominoes
    /// were `joined_without` (by their left cells), if given.
    fn split_region(&self, b: W, joined_without: Option<W>, out: &mut Parts<W>) -> bool {
        // Lone cells go below as regions of one cell.
        let (reduced, sides) = self.reduced(b);
        let needless = self.needless_horizontals(&sides);
        if reduced == b && joined_without.is_some_and(|n| (needless & !n).is_zero()) {
            // Its dominoes but those needless on the larger board join `b`, and no more of
            // them are needless now: it is still one region, with no need to fill it again.
            out.push(b);
            return false;
        }
        let mut changed = reduced != b;
        let mut rest = reduced;
        while !rest.is_zero() {
            let part = self.region(rest, rest & rest.wrapping_neg(), needless);
            rest &= !part;
            if (part & (part - W::one())).is_zero() {
                changed = true;
            } else if part == reduced {
                out.push(part);
            } else if needless.is_zero() {
                // A region that no domino joins to the rest keeps every neighbourhood: it is
                // as reduced as `reduced` was.
                changed = true;
                out.push(part);
            } else {
                changed = true;
                self.split_region(part, Some(needless), out);
            }
        }
        changed
    }

    /// The columns that hold a cell of `b`, as a row mask: the rows or-ed together by halving.
    pub(super) fn columns_used(&self, b: W) -> W {
        let (mut x, mut shift) = (b, self.cols);
        while shift < self.rows * self.cols {
            x |= x >> shift;
            shift *= 2;
        }
        x & self.first_row
    }

    /// The normal form of a set of cells: the least of its images under the eight symmetries
    /// of the plane's grid, each moved to the top-left corner. Cram on a set of cells is a game
    /// on the grid graph they span, which every symmetry keeps; a transposed image counts where
    /// it fits the board, so on oblong boards too a region and its transpose share one table
    /// entry.
    pub(super) fn normal_form(&self, b: W) -> W {
        if b.is_zero() {
            return b;
        }
        let cols = self.cols;
        let used = self.columns_used(b);
        let left = used.trailing_zeros() as usize;
        let (top, bottom) = self.rows_spanned(b);
        // Moved to the corner: h rows high and w columns wide.
        let b = b >> (top * cols + left);
        let (h, w) = (bottom - top + 1, Self::last_cell(used >> left) + 1);
        // The highest cell decides: an image w rows high lies below every image h rows high
        // when w < h, as each of these has a cell in row h - 1. So the transposes win when
        // the shape is taller than wide (and the transpose fits), and lose when it is wider.
        let transposable = h <= cols && w <= self.rows;
        if w > h || !transposable {
            return self.least_flip(b, h, w);
        }
        // Cell (i, j) goes to (j, i): row i, eight cells at a time, becomes column i.
        let mut t = W::zero();
        for i in 0..h {
            let mut row = b >> (i * cols) & self.first_row;
            let mut at = i;
            while !row.is_zero() {
                t |= self.down_column[row.low_byte()] << at;
                row >>= 8;
                at += 8 * cols;
            }
        }
        let transposed = self.least_flip(t, w, h);
        if w < h {
            transposed
        } else {
            transposed.min(self.least_flip(b, h, w))
        }
    }

    /// The least of a cornered shape `h` rows high and `w` columns wide and its mirror images
    /// top-bottom, left-right and both. The first puts the rows in reverse order. Reversing
    /// the whole word turns a shape a half turn within its `h` x C frame, which two shifts move
    /// back to the corner: that is both mirrors of `b`, and the left-right one of its
    /// top-bottom image.
    fn least_flip(&self, b: W, h: usize, w: usize) -> W {
        let cols = self.cols;
        let mut tb = W::zero();
        for i in 0..h {
            tb |= (b >> (i * cols) & self.first_row) << ((h - 1 - i) * cols);
        }
        let turn = |x: W| x.reverse_bits() >> (W::BITS - h * cols) >> (cols - w);
        b.min(tb).min(turn(b)).min(turn(tb))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{cram, has, wide, wide_words, words};
    use super::{Cells, Cram};
    use crate::game::Game;
    use crate::game::Parts;

    /// The carry-spreading region fill against one step at a time, on every 3 x 5 board and
    /// on pseudo-random 8 x 8 and 9 x 13 boards with needless dominoes at random.
    #[test]
    fn regions_spread_as_step_by_step() {
        fn check<W: Cells>(g: &Cram<W>, b: W, needless: W) {
            let from = b & b.wrapping_neg();
            let across = b & (b >> 1) & !g.last_col & !needless;
            let mut r = from;
            let slow = loop {
                let grown =
                    (r | (r & across) << 1 | (r >> 1 & across) | r << g.cols | r >> g.cols) & b;
                if grown == r {
                    break r;
                }
                r = grown;
            };
            assert_eq!(g.region(b, from, needless), slow, "{b:#x}");
        }
        let g = cram(3, 5);
        for b in 1..=g.full() {
            check(&g, b, 0);
        }
        let g = cram(8, 8);
        for x in words(1).take(20_000) {
            check(
                &g,
                x | x.rotate_left(23),
                x.rotate_left(41) & x.rotate_left(5),
            );
        }
        let g = wide(9, 13);
        for x in wide_words(1).take(20_000) {
            let b = (x | x.rotate_left(23)) & g.full();
            check(&g, b, x.rotate_left(41) & x.rotate_left(5));
        }
    }

    /// The split against one that fills every region cut by needless dominoes again, on
    /// every 4 x 4 and 3 x 6 board (where closed blocks abound) and pseudo-random 5 x 6 ones:
    /// the same parts in the same order.
    #[test]
    fn regions_known_joined_are_not_filled_again() {
        fn refill(g: &Cram, b: u64, out: &mut Vec<u64>) {
            let (reduced, sides) = g.reduced(b);
            let needless = g.needless_horizontals(&sides);
            let mut rest = reduced;
            while rest != 0 {
                let part = g.region(rest, rest & rest.wrapping_neg(), needless);
                rest &= !part;
                if part & (part - 1) == 0 {
                } else if part == reduced || needless == 0 {
                    out.push(part);
                } else {
                    refill(g, part, out);
                }
            }
        }
        let mut shortcuts = 0;
        for (rows, cols) in [(4, 4), (3, 6), (5, 6)] {
            let g = cram(rows, cols);
            let boards: Vec<u64> = match rows * cols {
                n if n <= 18 => (0..=g.full()).collect(),
                _ => words(2)
                    .take(200_000)
                    .map(|x| (x | x.rotate_left(17)) & g.full())
                    .collect(),
            };
            for b in boards {
                let (mut fast, mut slow) = (Parts::new(), Vec::new());
                g.split_into(b, &mut fast);
                refill(&g, b, &mut slow);
                assert_eq!(fast.as_slice(), slow.as_slice(), "{rows}x{cols} {b:#x}");
                let (_, sides) = g.reduced(b);
                shortcuts += usize::from(g.needless_horizontals(&sides) != 0);
            }
        }
        assert!(shortcuts > 1000, "closed blocks on {shortcuts} boards");
    }

    /// Normal forms against the eight symmetries applied cell by cell, on pseudo-random
    /// shapes of several boards: the least cornered image that fits the board.
    #[test]
    fn normal_forms_by_definition() {
        fn check<W: Cells>(g: &Cram<W>, b: W) {
            let (rows, cols) = g.dims();
            let cells: Vec<(usize, usize)> = (0..rows * cols)
                .filter(|&k| has(b, k))
                .map(|k| (k / cols, k % cols))
                .collect();
            let mut best = W::max_value();
            for turn in 0..8 {
                let image: Vec<(i64, i64)> = cells
                    .iter()
                    .map(|&(r, c)| {
                        let (r, c) = (r as i64, c as i64);
                        let (r, c) = if turn & 4 != 0 { (c, r) } else { (r, c) };
                        let r = if turn & 1 != 0 { -r } else { r };
                        let c = if turn & 2 != 0 { -c } else { c };
                        (r, c)
                    })
                    .collect();
                let top = image.iter().map(|p| p.0).min().unwrap_or(0);
                let left = image.iter().map(|p| p.1).min().unwrap_or(0);
                let moved: Vec<(i64, i64)> =
                    image.iter().map(|&(r, c)| (r - top, c - left)).collect();
                if moved
                    .iter()
                    .all(|&(r, c)| r < rows as i64 && c < cols as i64)
                {
                    let word = moved.iter().fold(W::zero(), |m, &(r, c)| {
                        m | W::one() << (r as usize * cols + c as usize)
                    });
                    best = best.min(word);
                }
            }
            let mut c = b;
            g.canonicalize(&mut c);
            let want = if b.is_zero() { b } else { best };
            assert_eq!(c, want, "{rows}x{cols} {b:#x}");
        }
        for (rows, cols) in [(3, 5), (4, 4), (5, 7), (8, 8), (4, 11), (2, 32)] {
            let g = cram(rows, cols);
            for x in words(3).take(3000) {
                check(&g, x & x.rotate_left(9) & g.full());
            }
        }
        for (rows, cols) in [(9, 13), (11, 11), (4, 32), (13, 9), (65, 1), (8, 16)] {
            let g = wide(rows, cols);
            for x in wide_words(3).take(3000) {
                check(&g, x & x.rotate_left(9) & g.full());
            }
        }
    }

    #[test]
    fn regions_and_normal_forms() {
        let g = cram(3, 4);
        // .#..
        // .#.#
        // ##.#
        let b = g.pack(&[0b1101, 0b0101, 0b0100]);
        let parts = g.split(&b).unwrap();
        assert_eq!(parts.len(), 2, "{parts:?}");
        assert_eq!(
            parts.iter().fold(0, |x, p| x | p) & b,
            parts.iter().fold(0, |x, p| x | p)
        );
        // A domino anywhere, either way round, has one normal form.
        let mut forms: Vec<u64> = [
            g.pack(&[0b11, 0, 0]),
            g.pack(&[0, 0, 0b1100]),
            g.pack(&[0b1000, 0b1000, 0]),
        ]
        .into_iter()
        .map(|mut b| {
            g.canonicalize(&mut b);
            b
        })
        .collect();
        forms.dedup();
        assert_eq!(forms, [g.pack(&[0b11, 0, 0])], "transposes count");
        // An L of four and its transpose share a form; a strip too long to stand on the board
        // keeps its own.
        let ell = g.pack(&[0b0001, 0b0111, 0]);
        let mut t = g.pack(&[0b0011, 0b0001, 0b0001]);
        g.canonicalize(&mut t);
        let mut e = ell;
        g.canonicalize(&mut e);
        assert_eq!(t, e);
        let mut strip = g.pack(&[0b1111, 0, 0]);
        g.canonicalize(&mut strip);
        assert_eq!(strip, 0b1111);
        assert_eq!(g.strip_len(g.pack(&[0b0110, 0, 0])), Some(2));
        assert_eq!(g.strip_len(g.pack(&[0b0010, 0b0010, 0b0010])), Some(3));
        assert_eq!(g.strip_len(g.pack(&[0b1000, 0b0001, 0])), None);
    }
}
