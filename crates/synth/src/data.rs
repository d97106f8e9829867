//! The data synthesis learns from: positions and their SG values, from a box tabulated by the
//! core engines or from a table file.

use std::ops::Index;
use std::path::Path;

use ahash::AHashMap;

use grundy_core::catalog::AnyGame;
use grundy_core::error::Error;
use grundy_core::game::{Grid, Nimber};
use grundy_core::sg::table::TableOptions;

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

    /// The box, when the points are a whole box [0,d_0) x ... in row-major order (last
    /// coordinate fastest), as tabulation and `grundy table` produce them: then a point's index
    /// follows from its coordinates, and no point repeats.
    pub fn box_shape(&self) -> Option<Grid> {
        let n = self.vars;
        // The largest coordinates, in one pass over the points.
        let mut dims = vec![0usize; n];
        for x in self.iter() {
            for (d, &c) in dims.iter_mut().zip(x) {
                *d = (*d).max(usize::try_from(c).ok()?.checked_add(1)?);
            }
        }
        let grid = Grid::new(&dims).ok()?;
        if grid.len() != self.len {
            return None;
        }
        let mut expect = vec![0u64; n];
        for x in self.iter() {
            if x != expect {
                return None;
            }
            grid.advance(&mut expect);
        }
        Some(grid)
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
    pub(crate) fn flat(&self) -> &[u64] {
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
    pub(crate) vars: usize,
    /// The positions, one row each (for a family's data, its parameters).
    pub points: Points,
    /// The SG value of each position, in the same order.
    pub values: Vec<Nimber>,
    /// Where the data came from, for reports.
    pub source: String,
}

impl Dataset {
    /// Every position of the box [0,max)^n of `game`, valued by box tabulation; the points of
    /// the box that are not positions of the game (a Chomp column higher than the one before)
    /// are left out.
    pub fn from_box(game: &dyn AnyGame, max: usize, opts: &TableOptions) -> Result<Self, Error> {
        let n = game.variables();
        let t = game.tabulate(&vec![max; n], opts)?;
        let mut points = Points::with_capacity(n, t.position_count());
        let mut values = Vec::with_capacity(t.position_count());
        let mut p = vec![0u64; n];
        for v in t.entries() {
            if let Some(v) = v {
                points.push(&p);
                values.push(v);
            }
            t.grid().advance(&mut p);
        }
        if values.is_empty() {
            return Err(Error::Usage(format!(
                "no point of [0,{max})^{n} is a position of {}",
                game.name()
            )));
        }
        Ok(Dataset {
            vars: n,
            points,
            values,
            source: format!("{} on [0,{max})^{n}", game.name()),
        })
    }

    /// A table file as `grundy table` writes it: tsv, csv or space-separated columns (a
    /// header row naming them `x0 .. x(n-1)` and `sg`, in any order, or no header and the
    /// variables first, the value last), or jsonl objects `{"position": [...], "nimber": v}`.
    /// Lines starting with `#` are comments. A position given twice with two values is refused,
    /// naming both lines; given twice with one value, it is kept once.
    pub fn from_file(path: &Path) -> Result<Self, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let bad = |line: usize, msg: String| Error::Data {
            path: path.into(),
            msg: format!("line {line}: {msg}"),
        };
        let mut rows = Rows::default();
        let mut columns: Option<Columns> = None;
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.starts_with('{') {
                let (x, v) = json_row(line).map_err(|msg| bad(line_no, msg))?;
                rows.push(line_no, &x, v).map_err(|msg| bad(line_no, msg))?;
                continue;
            }
            let cols: Vec<&str> = line
                .split(['\t', ',', ' '])
                .filter(|c| !c.is_empty())
                .collect();
            let layout = match &columns {
                Some(c) => c,
                None => {
                    let first = Columns::of(&cols).map_err(|msg| bad(line_no, msg))?;
                    let header = first.header;
                    columns = Some(first);
                    if header {
                        continue;
                    }
                    columns.as_ref().expect("just set")
                }
            };
            let (x, v) = layout.row(&cols).map_err(|msg| bad(line_no, msg))?;
            rows.push(line_no, &x, v).map_err(|msg| bad(line_no, msg))?;
        }
        let points = rows.points.ok_or_else(|| Error::Data {
            path: path.into(),
            msg: "no data rows".into(),
        })?;
        let (points, values) =
            dedup(points, rows.values, &rows.lines).map_err(|(line, msg)| bad(line, msg))?;
        Ok(Dataset {
            vars: points.vars(),
            points,
            values,
            source: path.display().to_string(),
        })
    }
}

/// Rows read so far, with the line each came from.
#[derive(Default)]
struct Rows {
    points: Option<Points>,
    values: Vec<Nimber>,
    lines: Vec<usize>,
}

impl Rows {
    fn push(&mut self, line: usize, x: &[u64], v: u64) -> Result<(), String> {
        let points = self
            .points
            .get_or_insert_with(|| Points::with_capacity(x.len(), 1024));
        if points.vars() != x.len() {
            return Err(format!(
                "{} variables, but earlier rows have {}",
                x.len(),
                points.vars()
            ));
        }
        let v = Nimber::try_from(v).map_err(|_| format!("value {v} is too large"))?;
        points.push(x);
        self.values.push(v);
        self.lines.push(line);
        Ok(())
    }
}

/// Which column holds which variable, and which the value.
struct Columns {
    /// `var[c]`: the variable of column c, or `None` for the value's column.
    var: Vec<Option<usize>>,
    /// Whether the first row was a header.
    header: bool,
}

impl Columns {
    /// From the first row: a header when no column is a number.
    fn of(cols: &[&str]) -> Result<Self, String> {
        if cols.len() < 2 {
            return Err("expected at least one variable and a value".into());
        }
        if cols.iter().any(|c| c.parse::<u64>().is_ok()) {
            let mut var: Vec<Option<usize>> = (0..cols.len() - 1).map(Some).collect();
            var.push(None);
            return Ok(Columns { var, header: false });
        }
        let n = cols.len() - 1;
        let mut var = Vec::with_capacity(cols.len());
        let mut seen = vec![false; n];
        let mut value_column = false;
        for name in cols {
            let col = match name.strip_prefix('x').map(str::parse::<usize>) {
                Some(Ok(v)) if v < n => Some(v),
                _ if *name == "sg" || *name == "nimber" => None,
                _ => {
                    return Err(format!(
                        "header column `{name}` is neither a variable x0..x{} nor the value `sg`",
                        n - 1
                    ))
                }
            };
            let twice = match col {
                Some(v) => std::mem::replace(&mut seen[v], true),
                None => std::mem::replace(&mut value_column, true),
            };
            if twice {
                return Err(format!("header column `{name}` appears twice"));
            }
            var.push(col);
        }
        Ok(Columns { var, header: true })
    }

    /// A row's position and value.
    fn row(&self, cols: &[&str]) -> Result<(Vec<u64>, u64), String> {
        if cols.len() != self.var.len() {
            return Err(format!(
                "{} columns, but the first row has {}",
                cols.len(),
                self.var.len()
            ));
        }
        let mut x = vec![0u64; self.var.len() - 1];
        let mut value = 0;
        for (c, &text) in cols.iter().enumerate() {
            let num: u64 = text
                .parse()
                .map_err(|_| format!("`{text}` is not a whole number"))?;
            match self.var[c] {
                Some(v) => x[v] = num,
                None => value = num,
            }
        }
        Ok((x, value))
    }
}

/// A jsonl row as `grundy table --format jsonl` writes it.
fn json_row(line: &str) -> Result<(Vec<u64>, u64), String> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Row {
        position: Vec<u64>,
        nimber: u64,
    }
    let row: Row = serde_json::from_str(line).map_err(|e| format!("not a table row: {e}"))?;
    if row.position.is_empty() {
        return Err("the position is empty".into());
    }
    Ok((row.position, row.nimber))
}

/// The points with repeats removed; a position with two values is an error naming both lines.
/// Rows in box order (what `grundy table` writes) cannot repeat and are not hashed.
fn dedup(
    points: Points,
    values: Vec<Nimber>,
    lines: &[usize],
) -> Result<(Points, Vec<Nimber>), (usize, String)> {
    if points.box_shape().is_some() {
        return Ok((points, values));
    }
    let mut first: AHashMap<&[u64], usize> = AHashMap::with_capacity(points.len());
    let mut keep = Vec::with_capacity(points.len());
    for (i, x) in points.iter().enumerate() {
        match first.get(x) {
            None => {
                first.insert(x, i);
                keep.push(i);
            }
            Some(&j) if values[j] == values[i] => {}
            Some(&j) => {
                let at: Vec<String> = x.iter().map(|c| c.to_string()).collect();
                return Err((
                    lines[i],
                    format!(
                        "position ({}) has value {}, but line {} gave it {}",
                        at.join(","),
                        values[i],
                        lines[j],
                        values[j]
                    ),
                ));
            }
        }
    }
    if keep.len() == points.len() {
        return Ok((points, values));
    }
    let mut unique = Points::with_capacity(points.vars(), keep.len());
    for &i in &keep {
        unique.push(&points[i]);
    }
    Ok((unique, keep.iter().map(|&i| values[i]).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_core::catalog::spec;

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
        let game = spec::parse_hypergraph("star:3").unwrap();
        let t =
            grundy_core::sg::table::tabulate(game.graph(), &[2, 3, 1, 4], &TableOptions::default())
                .unwrap();
        let points = Points::of_box(t.grid());
        assert_eq!(points.len(), t.len());
        let mut p = [0u32; 4];
        for (i, x) in points.iter().enumerate() {
            t.position_of(i, &mut p);
            assert!(x.iter().zip(p).all(|(&a, b)| a == b as u64), "{i}");
        }
    }

    fn read(text: &str) -> Result<Dataset, Error> {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("d.tsv");
        std::fs::write(&f, text).unwrap();
        Dataset::from_file(&f)
    }

    fn err(text: &str) -> String {
        read(text).unwrap_err().to_string()
    }

    #[test]
    fn data_files_parse_or_say_why() {
        let d = read("x0\tx1\tsg\n0\t0\t0\n0\t1\t1\n").unwrap();
        assert_eq!((d.vars, d.points.len(), &d.points[1]), (2, 2, &[0, 1][..]));
        assert_eq!(d.values, [0, 1]);
        let d = read("# a comment\n0 0 0\n\n1,1,0\n").unwrap();
        assert_eq!((d.vars, d.points.len(), &d.points[1]), (2, 2, &[1, 1][..]));
        assert!(err("0,0,0\n0,1\n").contains("line 2"));
        assert!(err("0,a,0\n").contains("not a whole number"));
        assert!(err("# nothing\n").contains("no data rows"));
        assert!(err("7\n").contains("at least one variable"));
    }

    /// `x2 x1 x0 sg` is a permutation of the columns, not the same data read in order.
    #[test]
    fn headers_are_read_by_name() {
        let d = read("x2 x1 x0 sg\n1 2 3 4\n").unwrap();
        assert_eq!((&d.points[0], d.values[0]), (&[3, 2, 1][..], 4));
        let d = read("sg,x0,x1\n5,1,2\n").unwrap();
        assert_eq!((&d.points[0], d.values[0]), (&[1, 2][..], 5));
        assert!(err("x0 x1 value\n1 2 3\n").contains("`value`"));
        assert!(err("x0 x0 sg\n1 2 3\n").contains("twice"));
        assert!(err("x0 x5 sg\n1 2 3\n").contains("`x5`"));
        assert!(err("x0 sg sg\n1 2 3\n").contains("twice"));
        assert!(err("x0 x1 sg\n1 2 3 4\n").contains("4 columns"));
    }

    #[test]
    fn a_position_with_two_values_names_both_lines() {
        let msg = err("x0 x1 sg\n0 0 0\n1 0 1\n\n0 0 3\n");
        assert!(
            msg.contains("line 5") && msg.contains("(0,0) has value 3, but line 2 gave it 0"),
            "{msg}"
        );
        // The same row twice is kept once.
        let d = read("0 0 0\n1 0 1\n0 0 0\n").unwrap();
        assert_eq!((d.points.len(), d.values.clone()), (2, vec![0, 1]));
    }

    #[test]
    fn jsonl_tables_are_data_too() {
        let d =
            read("{\"position\":[1,2],\"nimber\":3}\n{\"position\":[0,0],\"nimber\":0}\n").unwrap();
        assert_eq!((&d.points[0], d.values.clone()), (&[1, 2][..], vec![3, 0]));
        assert!(err("{\"position\":[1,2]}\n").contains("line 1"));
    }

    #[test]
    fn whole_boxes_in_order_are_recognised() {
        let g = Grid::new(&[2, 3]).unwrap();
        let p = Points::of_box(&g);
        assert_eq!(p.box_shape(), Some(g));
        let shuffled: Points = p.iter().rev().collect();
        assert_eq!(shuffled.box_shape(), None);
        let part: Points = p.iter().take(5).collect();
        assert_eq!(part.box_shape(), None);
    }
}
