//! The values of a box of points, and which of its points are positions of the game.
//!
//! Every point of a box is a position of hypergraph nim or of a sum of heaps, but not of every
//! game: Chomp's column heights never grow to the right, and a Cram row mask has no cells past
//! the board's last column. A table says which points are positions, and has no value for the
//! others, so that no command can print, learn from or check a number that means nothing.

use crate::error::Error;
use crate::game::{Grid, Nimber};

/// Every SG value of a box, row-major with the last coordinate fastest; points that are not
/// positions of the game have none.
#[derive(Clone, Debug)]
pub struct BoxTable {
    grid: Grid,
    /// One entry per point; meaningless where `positions` says the point is not a position.
    values: Vec<Nimber>,
    /// Which points are positions, when some are not (`None`: every point is).
    positions: Option<Vec<bool>>,
}

impl BoxTable {
    /// The table of `values` over `grid`, row-major, every point a position.
    pub fn new(grid: Grid, values: Vec<Nimber>) -> Result<Self, Error> {
        Self::check_len(&grid, values.len())?;
        Ok(BoxTable {
            grid,
            values,
            positions: None,
        })
    }

    /// The table of a box some of whose points are not positions: `values[i]` counts only
    /// where `positions[i]` holds.
    pub fn with_positions(
        grid: Grid,
        values: Vec<Nimber>,
        positions: Vec<bool>,
    ) -> Result<Self, Error> {
        Self::check_len(&grid, values.len())?;
        Self::check_len(&grid, positions.len())?;
        let positions = positions.contains(&false).then_some(positions);
        Ok(BoxTable {
            grid,
            values,
            positions,
        })
    }

    fn check_len(grid: &Grid, len: usize) -> Result<(), Error> {
        if len == grid.len() {
            return Ok(());
        }
        Err(Error::internal(format!(
            "{len} entries for the {} points of {grid}",
            grid.len()
        )))
    }

    /// The box.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The side lengths `d_i` of the box.
    pub fn dims(&self) -> &[usize] {
        self.grid.sides()
    }

    /// Number of points of the box, positions or not.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the box has no points (never true for a tabulated box).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Number of points that are positions.
    pub fn position_count(&self) -> usize {
        match &self.positions {
            None => self.len(),
            Some(p) => p.iter().filter(|&&b| b).count(),
        }
    }

    /// Whether every point of the box is a position.
    pub fn is_full(&self) -> bool {
        self.positions.is_none()
    }

    /// The value of `p`, `None` when `p` is not a position of the game.
    ///
    /// # Panics
    /// When `p` lies outside the box or has the wrong length; callers check first.
    pub fn get(&self, p: &[u32]) -> Option<Nimber> {
        self.value_at(self.index_of(p))
    }

    /// The value at a row-major index, `None` when that point is not a position.
    ///
    /// # Panics
    /// When `index >= self.len()`.
    pub fn value_at(&self, index: usize) -> Option<Nimber> {
        let value = self.values[index];
        match &self.positions {
            Some(p) if !p[index] => None,
            _ => Some(value),
        }
    }

    /// Every point's value in row-major order, `None` where the point is not a position.
    pub fn entries(&self) -> impl Iterator<Item = Option<Nimber>> + '_ {
        (0..self.len()).map(|i| self.value_at(i))
    }

    /// Writes the position with row-major index `index` into `out` (the inverse of
    /// [`BoxTable::index_of`]).
    ///
    /// # Panics
    /// When `index >= self.len()` or `out` has the wrong length.
    pub fn position_of(&self, index: usize, out: &mut [u32]) {
        self.grid.point_into(index, out);
    }

    /// The row-major index of point `p`.
    ///
    /// # Panics
    /// When `p` lies outside the box or has the wrong length.
    pub fn index_of(&self, p: &[u32]) -> usize {
        self.grid
            .index(p)
            .unwrap_or_else(|| panic!("position {p:?} is outside the box {}", self.grid))
    }

    /// All values, row-major, when every point of the box is a position (`None` otherwise:
    /// [`BoxTable::entries`] says which are).
    pub fn values(&self) -> Option<&[Nimber]> {
        self.is_full().then_some(&self.values[..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A partial table answers only for its positions, and one whose every point is a
    /// position is full.
    #[test]
    fn points_that_are_not_positions_have_no_value() {
        let grid = Grid::new(&[2, 2]).unwrap();
        let t = BoxTable::with_positions(
            grid.clone(),
            vec![0, 7, 1, 2],
            vec![true, false, true, true],
        )
        .unwrap();
        assert_eq!(t.get(&[0, 1]), None);
        assert_eq!(t.get(&[1, 1]), Some(2));
        assert_eq!(t.position_count(), 3);
        assert_eq!(t.values(), None);
        let entries: Vec<_> = t.entries().collect();
        assert_eq!(entries, [Some(0), None, Some(1), Some(2)]);
        let full = BoxTable::with_positions(grid.clone(), vec![0, 1, 1, 0], vec![true; 4]).unwrap();
        assert!(full.is_full());
        assert_eq!(full.values(), Some(&[0, 1, 1, 0][..]));
        assert!(BoxTable::with_positions(grid, vec![0; 4], vec![true; 3]).is_err());
    }
}
