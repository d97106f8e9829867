//! Boxes of positions `[0,d_0) x ... x [0,d_{n-1})`, in one row-major order (last coordinate
//! fastest) for every table, sweep, data set and check: the count is checked once, and a
//! position and its index convert both ways.

use std::fmt;

use crate::error::Error;

/// The sides of a box, its strides and its number of positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    sides: Vec<usize>,
    /// Positions between consecutive values of each coordinate: the product of the later sides.
    strides: Vec<usize>,
    len: usize,
}

impl Grid {
    /// The box with these sides; refused when a side is empty, a coordinate would not fit in
    /// a `u32` (the stones of a pile), or the positions cannot be counted in a `usize`.
    pub fn new(sides: &[usize]) -> Result<Self, Error> {
        if let Some(i) = sides.iter().position(|&d| d == 0) {
            return Err(Error::Usage(format!("side {i} of the box is empty")));
        }
        if let Some(&d) = sides.iter().find(|&&d| d as u64 > u64::from(u32::MAX) + 1) {
            return Err(Error::Resource(format!(
                "a side of {d} holds piles past 2^32 stones"
            )));
        }
        let mut strides = vec![1usize; sides.len()];
        let mut len = 1usize;
        for i in (0..sides.len()).rev() {
            strides[i] = len;
            len = len.checked_mul(sides[i]).ok_or_else(|| {
                Error::Resource(format!(
                    "the box {} has too many positions to count",
                    Shape(sides)
                ))
            })?;
        }
        Ok(Grid {
            sides: sides.to_vec(),
            strides,
            len,
        })
    }

    /// The cube `[0,d)^n`.
    pub fn cube(n: usize, d: usize) -> Result<Self, Error> {
        Self::new(&vec![d; n])
    }

    /// The number of positions of the box, without building it (`None` past `u128`).
    pub fn count(sides: &[usize]) -> Option<u128> {
        sides
            .iter()
            .try_fold(1u128, |a, &d| a.checked_mul(d as u128))
    }

    /// The side lengths `d_i`.
    pub fn sides(&self) -> &[usize] {
        &self.sides
    }

    /// The strides: index distance between positions one apart in each coordinate.
    pub fn strides(&self) -> &[usize] {
        &self.strides
    }

    /// Number of coordinates.
    pub fn dims(&self) -> usize {
        self.sides.len()
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the box has no positions (never: sides are at least 1).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The row-major index of `p`, or `None` when it lies outside the box or has the wrong
    /// length.
    pub fn index<T: Copy + Into<u64>>(&self, p: &[T]) -> Option<usize> {
        if p.len() != self.sides.len() {
            return None;
        }
        p.iter()
            .zip(&self.sides)
            .zip(&self.strides)
            .try_fold(0usize, |at, ((&x, &d), &s)| {
                let x: u64 = x.into();
                (x < d as u64).then(|| at + x as usize * s)
            })
    }

    /// Writes the position with index `i` into `out`.
    ///
    /// # Panics
    /// When `i` is outside the box or `out` has the wrong length.
    pub fn point_into(&self, i: usize, out: &mut [u32]) {
        assert!(i < self.len, "index {i} is outside {self}");
        assert_eq!(out.len(), self.sides.len(), "a position per coordinate");
        for ((o, &s), &d) in out.iter_mut().zip(&self.strides).zip(&self.sides) {
            *o = (i / s % d) as u32;
        }
    }

    /// The position with index `i`.
    ///
    /// # Panics
    /// When `i` is outside the box.
    pub fn point(&self, i: usize) -> Vec<u32> {
        let mut p = vec![0; self.sides.len()];
        self.point_into(i, &mut p);
        p
    }

    /// Steps `p` to the next position in row-major order; false (and `p` back at the origin)
    /// after the last one. Coordinates fit `T` when the sides do (`u32` always: see
    /// [`Grid::new`]).
    pub fn advance<T: Copy + Into<u64> + TryFrom<u64> + Default>(&self, p: &mut [T]) -> bool {
        for (x, &d) in p.iter_mut().zip(&self.sides).rev() {
            let next: u64 = (*x).into() + 1;
            if next < d as u64 {
                *x = T::try_from(next).unwrap_or_default();
                return true;
            }
            *x = T::default();
        }
        false
    }
}

/// `[0,16)^6` for a cube, `[0,3)x[0,5)x[0,2)` otherwise.
struct Shape<'a>(&'a [usize]);

impl fmt::Display for Shape<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [d, rest @ ..] if !rest.is_empty() && rest.iter().all(|e| e == d) => {
                write!(f, "[0,{d})^{}", self.0.len())
            }
            sides => {
                for (i, d) in sides.iter().enumerate() {
                    write!(f, "{}[0,{d})", if i == 0 { "" } else { "x" })?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Shape(&self.sides).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_and_positions_are_row_major_both_ways() {
        let g = Grid::new(&[2, 3, 4]).unwrap();
        assert_eq!((g.len(), g.dims(), g.strides()), (24, 3, &[12, 4, 1][..]));
        let mut p = [0u32; 3];
        for i in 0..g.len() {
            assert_eq!(g.point(i), p);
            assert_eq!(g.index(&p), Some(i));
            assert_eq!(g.advance(&mut p), i + 1 < g.len());
        }
        assert_eq!(p, [0, 0, 0], "past the end, back at the origin");
        assert_eq!(g.index(&[1u32, 3, 0]), None, "outside");
        assert_eq!(g.index(&[1u32, 2]), None, "wrong length");
        let mut wide = [0u64, 2, 3];
        assert!(g.advance(&mut wide));
        assert_eq!(wide, [1, 0, 0]);
    }

    #[test]
    fn sizes_are_checked() {
        assert!(Grid::new(&[3, 0]).is_err());
        assert!(Grid::new(&[1 << 32]).is_ok());
        assert!(Grid::new(&[(1 << 32) + 1])
            .unwrap_err()
            .to_string()
            .contains("2^32"));
        let err = Grid::cube(64, 1 << 20).unwrap_err();
        assert!(err.to_string().contains("too many positions"), "{err}");
        assert_eq!(Grid::count(&[1 << 20; 4]), Some(1 << 80));
        assert_eq!(Grid::count(&[usize::MAX; 3]), None);
        assert_eq!(Grid::new(&[]).unwrap().len(), 1, "the empty product");
    }

    #[test]
    fn boxes_print_as_intervals() {
        assert_eq!(Grid::cube(6, 16).unwrap().to_string(), "[0,16)^6");
        assert_eq!(
            Grid::new(&[3, 5, 2]).unwrap().to_string(),
            "[0,3)x[0,5)x[0,2)"
        );
        assert_eq!(Grid::new(&[7]).unwrap().to_string(), "[0,7)");
    }
}
