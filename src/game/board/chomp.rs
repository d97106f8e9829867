//! Chomp: a move picks a cell of the board and eats it with every cell above it and to its
//! right; the bottom-left cell is poisoned and never eaten, so the player left with it alone
//! cannot move and loses.
//!
//! A position is what is left: column heights from the left, each at most the one before (a
//! Young diagram), the first at least 1 for the poisoned cell. This is the pruning paper's
//! model: Chomp with C columns and R rows has C(R + C, R) - 1 positions (209 for its 6 x 4).

use crate::error::Error;
use crate::game::hypergraph::Stones;
use crate::game::symmetry::Symmetry;
use crate::game::{Game, MoveOrder, Nimber};
use crate::sg::any::{searcher, AnyGame, PositionSearcher};
use crate::sg::solve::Choice;
use crate::sg::table::TableOptions;
use crate::sg::{SearchConfig, SearchEngine};

/// Chomp on a board of R rows and C columns.
#[derive(Debug)]
pub struct Chomp {
    name: String,
    rows: usize,
    cols: usize,
    identity: Symmetry,
}

impl Chomp {
    /// Chomp with `rows` rows and `cols` columns, named `name`.
    pub fn new(name: &str, rows: usize, cols: usize) -> Self {
        Chomp {
            name: name.to_string(),
            rows,
            cols,
            identity: Symmetry::identity(cols),
        }
    }

    /// The heights after eating cell (row `r`, column `c`) of `p`.
    fn eat(p: &Stones, r: u32, c: usize) -> Stones {
        let mut q = p.clone();
        for h in &mut q[c..] {
            *h = (*h).min(r);
        }
        q
    }

    /// The conjugate diagram (rows become columns), in `cols` entries.
    fn transpose(p: &Stones, cols: usize) -> Stones {
        let mut wide = p.iter().take_while(|&&h| h > 0).count();
        (0..cols as u32)
            .map(|j| {
                while wide > 0 && p[wide - 1] <= j {
                    wide -= 1;
                }
                wide as u32
            })
            .collect()
    }
}

impl Game for Chomp {
    type Position = Stones;

    /// Natural: column by column from the left, each from the bottom. Heuristic (the paper's):
    /// row by row from the bottom, each by increasing cells left, i.e. from the left.
    fn moves(&self, p: &Stones, order: MoveOrder, out: &mut Vec<Stones>) {
        let poisoned = |r: u32, c: usize| r == 0 && c == 0;
        match order {
            MoveOrder::Natural => {
                for (c, &h) in p.iter().enumerate() {
                    out.extend(
                        (0..h)
                            .filter(|&r| !poisoned(r, c))
                            .map(|r| Self::eat(p, r, c)),
                    );
                }
            }
            MoveOrder::Heuristic => {
                let top = p.first().copied().unwrap_or(0);
                for r in 0..top {
                    for (c, &h) in p.iter().enumerate() {
                        if r < h && !poisoned(r, c) {
                            out.push(Self::eat(p, r, c));
                        }
                    }
                }
            }
        }
    }

    fn move_count(&self, p: &Stones) -> usize {
        p.iter().map(|&h| h as usize).sum::<usize>() - 1
    }

    /// A square board's diagram and its conjugate are one game, reflected. The conjugate is
    /// built only when it is the smaller: its entries come one at a time, and the first that
    /// differs from `p`'s decides (most often the first).
    fn canonicalize(&self, p: &mut Stones) {
        if self.rows != self.cols {
            return;
        }
        // t_j = the number of columns higher than j; `wide` walks left as j grows.
        let mut wide = p.iter().take_while(|&&h| h > 0).count();
        for (j, &h) in p.iter().enumerate() {
            while wide > 0 && p[wide - 1] <= j as u32 {
                wide -= 1;
            }
            match (wide as u32).cmp(&h) {
                std::cmp::Ordering::Equal => continue,
                std::cmp::Ordering::Greater => return,
                std::cmp::Ordering::Less => {
                    *p = Self::transpose(p, self.cols);
                    return;
                }
            }
        }
    }

    /// An L (the first column and the bottom row) is nim with two heaps: the column above the
    /// corner and the row right of it.
    fn known_value(&self, p: &Stones) -> Option<Nimber> {
        let row = p.iter().take_while(|&&h| h > 0).count();
        if p[1..].iter().all(|&h| h <= 1) {
            return Some((p[0] - 1) ^ (row as u32 - 1));
        }
        None
    }

    fn weight(&self, p: &Stones) -> u64 {
        p.iter().map(|&h| h as u64).sum()
    }
}

impl AnyGame for Chomp {
    fn name(&self) -> &str {
        &self.name
    }

    fn variables(&self) -> usize {
        self.cols
    }

    fn coordinate(&self) -> (&'static str, &'static str) {
        ("column", "columns")
    }

    fn describe_variables(&self) -> String {
        let last = self.cols - 1;
        format!(
            "x0..x{last} are the heights of columns 0..{last} of {} from the left",
            self.name
        )
    }

    fn position(&self, values: &[u64]) -> Result<Stones, Error> {
        if values.len() != self.cols {
            return Err(Error::position(format!(
                "the position has {} column heights but {} has {} columns",
                values.len(),
                self.name,
                self.cols
            )));
        }
        if values[0] == 0 {
            return Err(Error::position(
                "the first column holds the poisoned cell: its height is at least 1",
            ));
        }
        for (c, w) in values.windows(2).enumerate() {
            if w[1] > w[0] {
                return Err(Error::position(format!(
                    "column {} is higher than column {c}: heights never grow to the right",
                    c + 1
                )));
            }
        }
        if values[0] > self.rows as u64 {
            return Err(Error::position(format!(
                "a column of {} cells on a board of {} rows",
                values[0], self.rows
            )));
        }
        Ok(values.iter().map(|&h| h as u32).collect())
    }

    fn start(&self) -> Option<Stones> {
        Some(std::iter::repeat_n(self.rows as u32, self.cols).collect())
    }

    /// The board from its top row down: `o` a cell left, `x` the poisoned cell, `.` eaten.
    fn draw_position(&self, p: &[u32]) -> String {
        (0..self.rows as u32)
            .rev()
            .map(|r| {
                p.iter()
                    .enumerate()
                    .map(|(c, &h)| match (r, c) {
                        (0, 0) => 'x',
                        _ if h > r => 'o',
                        _ => '.',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The cell eaten, as (row, column) from the poisoned corner, from 0.
    fn describe_move(&self, p: &[u32], q: &[u32]) -> String {
        match p.iter().zip(q).position(|(a, b)| a != b) {
            Some(c) => format!("eat ({},{c}) and every cell above and right of it", q[c]),
            None => "no change".into(),
        }
    }

    fn symmetry(&self) -> &Symmetry {
        &self.identity
    }

    fn successors(&self, p: &Stones, order: MoveOrder, out: &mut Vec<Stones>) {
        self.moves(p, order, out);
    }

    fn move_count(&self, p: &Stones) -> usize {
        Game::move_count(self, p)
    }

    fn searcher(&self, engine: SearchEngine, cfg: SearchConfig) -> Box<dyn PositionSearcher + '_> {
        searcher(self, engine, cfg)
    }

    fn auto(&self, _: &Stones, _: &SearchConfig, _: &TableOptions) -> Result<Choice, Error> {
        // Chomp's values are large (16 on 4 x 6), so pruning rarely cuts and its extra look-ups
        // cost more than they save: the plain definition is 10 times faster than lv on 10 x 10.
        Ok(super::auto_choice(
            SearchEngine::Naive,
            "Chomp: large values leave little to prune, the definition is fastest",
        ))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sg::tree::count_tree;

    /// The pruning paper's Chomp 6 x 4 (Table 5): |S| = 209, and `def` without a table
    /// expands 161 x 10^9 nodes.
    #[test]
    fn the_papers_state_space() {
        let g = Chomp::new("chomp:4x6", 4, 6);
        let c = count_tree(&g, &full(&g));
        assert_eq!(c.positions, 209);
        assert_eq!((c.nodes + 500_000_000) / 1_000_000_000, 161, "{}", c.nodes);
    }

    fn full(g: &Chomp) -> Stones {
        AnyGame::start(g).unwrap()
    }

    /// The pruning paper's Chomp 6 x 4 (6 columns, 4 rows) has nimber 16 (Tables 5, 6), by
    /// every engine with the theorems and by the definition without them.
    #[test]
    fn the_papers_board_has_nimber_16() {
        let g = Chomp::new("chomp:4x6", 4, 6);
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
        let t = Chomp::new("chomp:6x4", 6, 4);
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
        let g = Chomp::new("chomp:4x4", 4, 4);
        let mut bare = SearchEngine::Naive.searcher(&g, SearchConfig::bare());
        let mut fast = SearchEngine::Naive.searcher(&g, SearchConfig::default());
        let mut all = vec![full(&g)];
        let mut seen = std::collections::HashSet::new();
        while let Some(p) = all.pop() {
            if !seen.insert(p.clone()) {
                continue;
            }
            assert_eq!(fast.nimber(p.clone()), bare.nimber(p.clone()), "{p:?}");
            g.moves(&p, MoveOrder::Natural, &mut all);
        }
        assert_eq!(seen.len(), 69, "C(8,4) - 1 positions");
        assert_ne!(bare.nimber(full(&g)), 0);
    }

    /// The conjugate, and the choice between it and the diagram, against their definitions
    /// on every position of the 5 x 5 board.
    #[test]
    fn conjugates_by_definition() {
        let g = Chomp::new("chomp:5x5", 5, 5);
        let mut all = vec![full(&g)];
        let mut seen = std::collections::HashSet::new();
        while let Some(p) = all.pop() {
            if !seen.insert(p.clone()) {
                continue;
            }
            let t: Stones = (0..5u32)
                .map(|j| p.iter().filter(|&&h| h > j).count() as u32)
                .collect();
            assert_eq!(Chomp::transpose(&p, 5), t, "{p:?}");
            let mut c = p.clone();
            g.canonicalize(&mut c);
            assert_eq!(c, p.clone().min(t), "{p:?}");
            g.moves(&p, MoveOrder::Natural, &mut all);
        }
        assert_eq!(seen.len(), 251, "C(10,5) - 1 positions");
    }

    #[test]
    fn bad_positions_are_refused() {
        let g = Chomp::new("chomp:4x6", 4, 6);
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
