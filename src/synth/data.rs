//! The data synthesis learns from: positions and their SG values, from a box tabulated by the
//! core engines or from a table file.

use std::ops::Index;
use std::path::Path;

use crate::error::Error;
use crate::game::{Grid, HypergraphNim, Nimber};
use crate::sg::table::{self, TableOptions};

/// Data points of `vars` coordinates each, stored row after row in one flat vector.
///
/// Boxes run to millions of points: one `Vec` per point cost an allocation and ~100 bytes each
/// (star:8 on [0,6)^9 took 1.5 GB); flat, a point costs its `vars` words and the set one
/// allocation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Points {
    vars: usize,
    /// Kept apart from `data`, which cannot count points that have no coordinates.
    len: usize,
    data: Vec<u64>,
}

impl Points {
    /// No points yet, with room for `capacity` of them, so a known count allocates once.
    pub fn with_capacity(vars: usize, capacity: usize) -> Self {
        Points {
            vars,
            len: 0,
            data: Vec::with_capacity(vars.saturating_mul(capacity)),
        }
    }

    /// Every position of `grid` in row-major order (last coordinate fastest), the order of
    /// tabulation and sweeps, counted up in place: no per-point work but the copy.
    pub fn of_box(grid: &Grid) -> Self {
        let mut points = Points::with_capacity(grid.dims(), grid.len());
        let mut p = vec![0u64; grid.dims()];
        for _ in 0..grid.len() {
            points.push(&p);
            grid.advance(&mut p);
        }
        points
    }

    /// Coordinates per point.
    pub fn vars(&self) -> usize {
        self.vars
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no points.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends a point.
    ///
    /// # Panics
    /// When `x` does not have `vars` coordinates.
    pub fn push(&mut self, x: &[u64]) {
        assert_eq!(
            x.len(),
            self.vars,
            "a point has one coordinate per variable"
        );
        self.data.extend_from_slice(x);
        self.len += 1;
    }

    /// The points in order. Not `chunks_exact`, which panics on 0 variables (and would yield
    /// no points then rather than `len` empty ones).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u64]> + DoubleEndedIterator + Clone + '_ {
        (0..self.len).map(move |i| &self[i])
    }

    /// Every coordinate of every point, row after row: for checks that need not know which
    /// point a value belongs to.
    pub fn flat(&self) -> &[u64] {
        &self.data
    }
}

impl Index<usize> for Points {
    type Output = [u64];

    /// Point `i`.
    ///
    /// # Panics
    /// When `i >= len()`.
    fn index(&self, i: usize) -> &[u64] {
        assert!(i < self.len, "point {i} of {} is out of range", self.len);
        &self.data[i * self.vars..(i + 1) * self.vars]
    }
}

/// Rows into points; the first row sets `vars` (none gives no points and no variables).
///
/// # Panics
/// When the rows differ in length.
impl<R: AsRef<[u64]>> FromIterator<R> for Points {
    fn from_iter<I: IntoIterator<Item = R>>(rows: I) -> Self {
        let mut rows = rows.into_iter().peekable();
        let vars = rows.peek().map_or(0, |r| r.as_ref().len());
        let mut points = Points::with_capacity(vars, rows.size_hint().0);
        for r in rows {
            points.push(r.as_ref());
        }
        points
    }
}

/// Positions and their SG values.
#[derive(Clone, Debug)]
pub struct Dataset {
    pub vars: usize,
    pub points: Points,
    pub values: Vec<Nimber>,
    /// Where the data came from, for reports.
    pub source: String,
}

impl Dataset {
    /// Every position of the box [0,max)^n of `game`, valued by box tabulation.
    pub fn from_box(game: &HypergraphNim, max: usize, opts: &TableOptions) -> Result<Self, Error> {
        let n = game.graph().vertices();
        let t = table::tabulate(game.graph(), &vec![max; n], opts)?;
        // The table is row-major over its box, as `of_box` counts.
        let points = Points::of_box(t.grid());
        debug_assert_eq!(points.len(), t.len());
        Ok(Dataset {
            vars: n,
            points,
            values: t.into_values(),
            source: format!("{} on [0,{max})^{n}", game.name()),
        })
    }

    /// A table file as `grundy table` writes it (tsv or csv; a header row is optional): the
    /// columns are the variables and then the SG value.
    pub fn from_file(path: &Path) -> Result<Self, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let bad = |line: usize, msg: String| Error::Data {
            path: path.into(),
            msg: format!("line {line}: {msg}"),
        };
        let mut points = Points::default();
        let mut values = Vec::new();
        let mut vars = None;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') || (i == 0 && line.starts_with('x')) {
                continue;
            }
            let cols: Vec<&str> = line
                .split(['\t', ',', ' '])
                .filter(|c| !c.is_empty())
                .collect();
            if cols.len() < 2 {
                return Err(bad(
                    i + 1,
                    "expected at least one variable and a value".into(),
                ));
            }
            if *vars.get_or_insert(cols.len() - 1) != cols.len() - 1 {
                return Err(bad(
                    i + 1,
                    format!(
                        "{} columns, but earlier rows have {}",
                        cols.len(),
                        vars.unwrap() + 1
                    ),
                ));
            }
            if points.is_empty() {
                // At most one point a line: one allocation for the file.
                points = Points::with_capacity(cols.len() - 1, text.lines().count() - i);
            }
            let nums: Result<Vec<u64>, _> = cols.iter().map(|c| c.parse::<u64>()).collect();
            let nums = nums.map_err(|_| {
                bad(
                    i + 1,
                    format!("`{line}` has a column that is not a whole number"),
                )
            })?;
            let (&v, x) = nums.split_last().expect("two or more columns");
            values.push(
                Nimber::try_from(v).map_err(|_| bad(i + 1, format!("value {v} is too large")))?,
            );
            points.push(x);
        }
        let vars = vars.ok_or_else(|| Error::Data {
            path: path.into(),
            msg: "no data rows".into(),
        })?;
        Ok(Dataset {
            vars,
            points,
            values,
            source: path.display().to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::spec;

    #[test]
    fn points_are_rows_of_a_flat_vector() {
        let mut p = Points::with_capacity(3, 2);
        assert!(p.is_empty());
        p.push(&[1, 2, 3]);
        p.push(&[4, 5, 6]);
        assert_eq!((p.len(), p.vars(), &p[1]), (2, 3, &[4, 5, 6][..]));
        assert_eq!(p.flat(), &[1, 2, 3, 4, 5, 6]);
        let rows: Vec<&[u64]> = p.iter().rev().collect();
        assert_eq!(rows, [&[4, 5, 6][..], &[1, 2, 3]]);
        assert_eq!(p, [vec![1, 2, 3], vec![4, 5, 6]].into_iter().collect());
        // No variables: points are empty slices, and still counted.
        let mut none = Points::with_capacity(0, 4);
        none.push(&[]);
        none.push(&[]);
        assert_eq!((none.len(), none.iter().count(), &none[1]), (2, 2, &[][..]));
        assert_eq!(Points::of_box(&Grid::new(&[]).unwrap()).len(), 1);
        let empty: Points = std::iter::empty::<Vec<u64>>().collect();
        assert!(empty.is_empty() && empty.iter().next().is_none());
    }

    #[test]
    #[should_panic(expected = "one coordinate per variable")]
    fn points_refuse_the_wrong_length() {
        Points::with_capacity(2, 1).push(&[1, 2, 3]);
    }

    #[test]
    fn box_points_follow_the_table_order() {
        let game = spec::parse("star:3").unwrap();
        let t = table::tabulate(game.graph(), &[2, 3, 1, 4], &TableOptions::default()).unwrap();
        let points = Points::of_box(t.grid());
        assert_eq!(points.len(), t.len());
        let mut p = [0u32; 4];
        for (i, x) in points.iter().enumerate() {
            t.position_of(i, &mut p);
            assert!(x.iter().zip(p).all(|(&a, b)| a == b as u64), "{i}");
        }
    }

    #[test]
    fn data_files_parse_or_say_why() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("d.tsv");
        std::fs::write(&f, "x0\tx1\tsg\n0\t0\t0\n0\t1\t1\n").unwrap();
        let d = Dataset::from_file(&f).unwrap();
        assert_eq!((d.vars, d.points.len(), &d.points[1]), (2, 2, &[0, 1][..]));
        std::fs::write(&f, "0,0,0\n0,1\n").unwrap();
        assert!(Dataset::from_file(&f)
            .unwrap_err()
            .to_string()
            .contains("line 2"));
        std::fs::write(&f, "0,a,0\n").unwrap();
        assert!(Dataset::from_file(&f)
            .unwrap_err()
            .to_string()
            .contains("not a whole number"));
    }
}
