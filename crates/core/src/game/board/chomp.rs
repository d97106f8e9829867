//! Chomp: a move picks a cell of the board and eats it with every cell above it and to its
//! right; the bottom-left cell is poisoned and never eaten, so the player left with it alone
//! cannot move and loses.
//!
//! A position is what is left: column heights from the left, each at most the one before (a
//! Young diagram), the first at least 1 for the poisoned cell. This is the pruning paper's
//! model: Chomp with C columns and R rows has C(R + C, R) - 1 positions (209 for its 6 x 4).
//! The engines see the heights packed into one word, a field of just enough bits per
//! column (column 0 lowest), so that a move is a mask and a table key is a number; the
//! commands see one height per column.

use crate::error::Error;
use crate::game::symmetry::Symmetry;
use crate::game::Stones;
use crate::game::{Game, MoveOrder, Nimber, Parts};

/// Chomp on a board of R rows and C columns.
#[derive(Debug)]
pub struct Chomp {
    pub(crate) name: String,
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    /// Bits of a column's field: enough for heights 0 to R.
    bits: usize,
    /// The lowest bit of every column's field.
    ones: u64,
    /// The commands' symmetry on the heights (none claimed).
    pub(crate) identity: Symmetry,
}

impl Chomp {
    /// Chomp with `rows` rows and `cols` columns, named `name`, if its heights fit a word.
    pub fn new(name: &str, rows: usize, cols: usize) -> Result<Self, Error> {
        let bits = (usize::BITS - rows.leading_zeros()) as usize;
        if rows == 0 || cols == 0 || cols * bits > 64 {
            return Err(Error::spec(format!(
                "{name}: a board's column heights must fit 64 bits ({cols} columns of {bits} \
                 bits do not); the largest square board is 15 x 15"
            )));
        }
        Ok(Chomp {
            name: name.to_string(),
            rows,
            cols,
            bits,
            ones: (0..cols).fold(0, |m, c| m | 1 << (c * bits)),
            identity: Symmetry::identity(cols),
        })
    }

    /// One column's field, at column 0.
    fn field(&self) -> u64 {
        (1 << self.bits) - 1
    }

    /// The heights packed, column 0 lowest.
    pub fn pack(&self, heights: &[u32]) -> u64 {
        heights
            .iter()
            .enumerate()
            .fold(0, |p, (c, &h)| p | (h as u64) << (c * self.bits))
    }

    /// One height per column.
    pub fn unpack(&self, p: u64) -> Stones {
        (0..self.cols).map(|c| self.height(p, c)).collect()
    }

    /// The value of `p` when it is an L (the first column and the bottom row): nim with two
    /// heaps, the column above the corner and the row right of it.
    pub(crate) fn l_value(&self, p: u64) -> Option<Nimber> {
        let rest = p >> self.bits;
        if rest & !self.ones != 0 {
            return None;
        }
        Some((self.height(p, 0) - 1) ^ rest.count_ones())
    }

    fn height(&self, p: u64, c: usize) -> u32 {
        (p >> (c * self.bits) & self.field()) as u32
    }

    /// The number of columns higher than `r`: row r's length (heights never grow rightwards).
    fn row_len(&self, p: u64, r: u32) -> usize {
        (0..self.cols)
            .find(|&c| self.height(p, c) <= r)
            .unwrap_or(self.cols)
    }

    /// `p` after eating cell (row `r`, column `c`) when row r holds `len` cells: columns c to
    /// len - 1 come down to height r.
    fn eat(&self, p: u64, r: u32, c: usize, len: usize) -> u64 {
        let span = (self.ones >> (c * self.bits)) << (c * self.bits)
            & !(u64::MAX.checked_shl((len * self.bits) as u32).unwrap_or(0));
        let span_fields = span * self.field();
        (p & !span_fields) | (span * r as u64)
    }

    /// The conjugate diagram (rows become columns): entry j is row j's length.
    fn transpose(&self, p: u64) -> u64 {
        let mut len = self.cols;
        let mut t = 0;
        for j in 0..self.cols.min(self.rows) as u32 {
            while len > 0 && self.height(p, len - 1) <= j {
                len -= 1;
            }
            t |= (len as u64) << (j as usize * self.bits);
        }
        t
    }
}

impl Game for Chomp {
    type Position = u64;

    /// Natural: column by column from the left, each from the bottom. Heuristic (the paper's):
    /// row by row from the bottom, each by increasing cells left, i.e. from the left.
    fn moves(&self, p: &u64, order: MoveOrder, out: &mut Vec<u64>) {
        let p = *p;
        match order {
            MoveOrder::Natural => {
                for c in 0..self.cols {
                    let h = self.height(p, c);
                    for r in (c == 0) as u32..h {
                        out.push(self.eat(p, r, c, self.row_len(p, r)));
                    }
                }
            }
            MoveOrder::Heuristic => {
                let mut len = self.cols;
                for r in 0..self.height(p, 0) {
                    while self.height(p, len - 1) <= r {
                        len -= 1;
                    }
                    for c in (r == 0) as usize..len {
                        out.push(self.eat(p, r, c, len));
                    }
                }
            }
        }
    }

    fn move_count(&self, p: &u64) -> usize {
        self.weight(p) as usize - 1
    }

    /// A square board's diagram and its conjugate are one game, reflected: the smaller word
    /// stands for both. The conjugate's entries come from the highest field down, and the
    /// first that differs from `p`'s decides (most often one of the first few); only then is
    /// the whole conjugate built, if it is the smaller.
    fn canonicalize(&self, p: &mut u64) {
        if self.rows != self.cols {
            return;
        }
        // Entry j of the conjugate: the number of columns higher than j, growing as j falls.
        let mut len = 0;
        for j in (0..self.cols).rev() {
            while len < self.cols && self.height(*p, len) > j as u32 {
                len += 1;
            }
            match (len as u32).cmp(&self.height(*p, j)) {
                std::cmp::Ordering::Equal => continue,
                std::cmp::Ordering::Greater => return,
                std::cmp::Ordering::Less => {
                    *p = self.transpose(*p);
                    return;
                }
            }
        }
    }

    /// A square board's orbits are a diagram and its conjugate: storing both is cheaper than
    /// the conjugate's canonical form at each of the many look-ups.
    fn stores_orbits(&self) -> bool {
        self.rows == self.cols
    }

    fn images(&self, p: &u64, out: &mut Parts<u64>) {
        let t = self.transpose(*p);
        if self.rows == self.cols && t != *p {
            out.push(t);
        }
    }

    /// An L (the first column and the bottom row) is nim with two heaps.
    fn known_value(&self, p: &u64) -> Option<Nimber> {
        self.l_value(*p)
    }

    fn weight(&self, p: &u64) -> u64 {
        (0..self.cols).map(|c| self.height(*p, c) as u64).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Notation;
    use crate::sg::naive::Naive;
    use crate::sg::tree::count_tree;
    use crate::sg::Searcher;
    use crate::sg::{SearchConfig, SearchEngine};

    /// The pruning paper's Chomp 6 x 4 (Table 5): |S| = 209, and `def` without a table
    /// expands 161 x 10^9 nodes.
    #[test]
    fn the_papers_state_space() {
        let g = Chomp::new("chomp:4x6", 4, 6).unwrap();
        let c = count_tree(&g, &full(&g));
        assert_eq!(c.positions, 209);
        assert_eq!((c.nodes + 500_000_000) / 1_000_000_000, 161, "{}", c.nodes);
    }

    fn full(g: &Chomp) -> u64 {
        g.pack(&Notation::start(g).unwrap())
    }

    /// The pruning paper's Chomp 6 x 4 (6 columns, 4 rows) has nimber 16 (Tables 5, 6), by
    /// every engine with the theorems and by the definition without them.
    #[test]
    fn the_papers_board_has_nimber_16() {
        let g = Chomp::new("chomp:4x6", 4, 6).unwrap();
        let bare = SearchEngine::Naive
            .searcher(&g, SearchConfig::bare())
            .nimber(full(&g));
        assert_eq!(bare, 16);
        for e in ["lv", "cut_cEA", "scut_R", "def"] {
            let e: SearchEngine = e.parse().unwrap();
            assert_eq!(
                e.searcher(&g, SearchConfig::default()).nimber(full(&g)),
                16,
                "{e}"
            );
        }
        // The same board turned a quarter: the same game.
        let t = Chomp::new("chomp:6x4", 6, 4).unwrap();
        assert_eq!(
            SearchEngine::Naive
                .searcher(&t, SearchConfig::default())
                .nimber(full(&t)),
            16
        );
    }

    /// The L theorem and the square's reflection agree with the bare search on every position
    /// of the 4 x 4 board; a square board is a first-player win (take the cell diagonal to
    /// the corner, then mirror).
    #[test]
    fn theorems_agree_with_the_definition() {
        let g = Chomp::new("chomp:4x4", 4, 4).unwrap();
        let mut bare = SearchEngine::Naive.searcher(&g, SearchConfig::bare());
        let mut fast = SearchEngine::Naive.searcher(&g, SearchConfig::default());
        let mut all = vec![full(&g)];
        let mut seen = std::collections::HashSet::new();
        while let Some(p) = all.pop() {
            if !seen.insert(p) {
                continue;
            }
            assert_eq!(fast.nimber(p), bare.nimber(p), "{p:?}");
            g.moves(&p, MoveOrder::Natural, &mut all);
        }
        assert_eq!(seen.len(), 69, "C(8,4) - 1 positions");
        assert_ne!(bare.nimber(full(&g)), 0);
    }

    /// The conjugate, and the choice between it and the diagram, against their definitions
    /// on every position of the 5 x 5 board.
    #[test]
    fn conjugates_by_definition() {
        let g = Chomp::new("chomp:5x5", 5, 5).unwrap();
        let mut all = vec![full(&g)];
        let mut seen = std::collections::HashSet::new();
        while let Some(p) = all.pop() {
            if !seen.insert(p) {
                continue;
            }
            let heights = g.unpack(p);
            let t: Stones = (0..5u32)
                .map(|j| heights.iter().filter(|&&h| h > j).count() as u32)
                .collect();
            assert_eq!(g.unpack(g.transpose(p)), t, "{heights:?}");
            let mut c = p;
            g.canonicalize(&mut c);
            assert_eq!(c, p.min(g.pack(&t)), "{heights:?}");
            // Packing round-trips, and the moves are the definition's.
            assert_eq!(g.pack(&heights), p);
            let (mut natural, mut heuristic) = (Vec::new(), Vec::new());
            g.moves(&p, MoveOrder::Natural, &mut natural);
            g.moves(&p, MoveOrder::Heuristic, &mut heuristic);
            let mut want: Vec<u64> = (0..5)
                .flat_map(|c| (0..heights[c]).map(move |r| (r, c)))
                .filter(|&(r, c)| (r, c) != (0, 0))
                .map(|(r, c)| {
                    let mut q = heights.clone();
                    q[c..].iter_mut().for_each(|h| *h = (*h).min(r));
                    g.pack(&q)
                })
                .collect();
            assert_eq!(natural, want, "{heights:?}");
            want.sort();
            heuristic.sort();
            assert_eq!(heuristic, want, "{heights:?}");
            assert_eq!(Game::move_count(&g, &p), want.len());
            all.extend(natural);
        }
        assert_eq!(seen.len(), 251, "C(10,5) - 1 positions");
    }

    /// Square Chomp as it was before it stored orbits: canonical forms at every look-up.
    struct Canonical(Chomp);

    impl Game for Canonical {
        type Position = u64;
        fn moves(&self, p: &u64, order: MoveOrder, out: &mut Vec<u64>) {
            self.0.moves(p, order, out)
        }
        fn canonicalize(&self, p: &mut u64) {
            self.0.canonicalize(p)
        }
        fn known_value(&self, p: &u64) -> Option<Nimber> {
            self.0.known_value(p)
        }
    }

    /// Storing both members of an orbit and canonicalizing every look-up are the same search:
    /// the same values, nodes and look-ups on every position of 5 x 5 and on 7 x 7, with an
    /// unbounded table and with a small one.
    #[test]
    fn storing_orbits_searches_as_canonical_forms_do() {
        // Bounded, the table keeps one entry per orbit: canonical forms as before (on 4 x 4,
        // where a table of 10 entries still settles at once).
        let bounded = SearchConfig {
            tt: crate::sg::TtConfig {
                capacity: Some(10),
                policy: crate::sg::Policy::Fifo,
                memory: None,
            },
            ..SearchConfig::default()
        };
        for (n, cfg, all) in [
            (4, bounded, false),
            (5, SearchConfig::default(), true),
            (7, SearchConfig::default(), false),
        ] {
            let g = Chomp::new("chomp", n, n).unwrap();
            let c = Canonical(Chomp::new("chomp", n, n).unwrap());
            let starts = match all {
                true => all_positions(&g),
                false => vec![full(&g)],
            };
            for p in starts {
                let mut stored = Naive::new(&g, cfg);
                let mut canonical = Naive::new(&c, cfg);
                assert_eq!(stored.nimber(p), canonical.nimber(p), "{p:x}");
                assert_eq!(stored.stats(), canonical.stats(), "{p:x} {cfg:?}");
            }
        }
    }

    /// Every position reachable from the full board.
    fn all_positions(g: &Chomp) -> Vec<u64> {
        let mut all = vec![full(g)];
        let mut seen = std::collections::HashSet::new();
        while let Some(p) = all.pop() {
            if seen.insert(p) {
                g.moves(&p, MoveOrder::Natural, &mut all);
            }
        }
        seen.into_iter().collect()
    }

    #[test]
    fn bad_positions_are_refused() {
        let g = Chomp::new("chomp:4x6", 4, 6).unwrap();
        for bad in [
            &[4u64, 4, 4][..],
            &[0, 0, 0, 0, 0, 0],
            &[3, 4, 0, 0, 0, 0],
            &[5, 4, 4, 4, 4, 4],
        ] {
            assert!(g.position(bad).is_err(), "{bad:?}");
        }
        assert!(g.position(&[4, 3, 1, 1, 0, 0]).is_ok());
    }
}
