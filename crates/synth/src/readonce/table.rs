//! The functions read-once formulas compute over a small set of variables: one entry per
//! distinct vector of values on the example points, with the root instructions its formulas
//! may have and one formula to print. The search takes the smaller side of a split from here.

use std::cell::OnceCell;

use ahash::AHashMap;

use super::sets::Set;
use crate::lang::Op;

/// The root mark of a leaf: no instruction rule ever excludes it.
pub(crate) const LEAF: u32 = 1 << 31;

/// Distinct functions over one set of variables.
pub(crate) struct Table {
    /// Example points per function.
    points: usize,
    /// `values[f * points + j]`: function f at point j.
    values: Vec<u8>,
    /// Bit k: some formula of the search's normal form computing this vector has root
    /// instruction k (of the search's binary instructions); `LEAF` for a variable.
    pub roots: Vec<u32>,
    /// One formula per function, postfix.
    pub programs: Vec<Vec<Op>>,
    /// Per point, functions sorted by their value there; built on the first lookup.
    index: OnceCell<Index>,
}

struct Index {
    /// `ids[j * len ..]`: function ids sorted by value at point j.
    ids: Vec<u32>,
    /// `starts[j * 257 + v]`: where value v begins in point j's order.
    starts: Vec<u32>,
}

/// Collects formulas into a [`Table`], keeping the first formula of each distinct vector.
pub(crate) struct Builder {
    points: usize,
    seen: AHashMap<Box<[u8]>, usize>,
    table: Table,
}

impl Builder {
    pub fn new(points: usize) -> Self {
        Builder {
            points,
            seen: AHashMap::new(),
            table: Table {
                points,
                values: Vec::new(),
                roots: Vec::new(),
                programs: Vec::new(),
                index: OnceCell::new(),
            },
        }
    }

    /// Adds a formula with root mark `root` and values `values`; `program` is called only for
    /// a new vector.
    pub fn add(&mut self, values: &[u8], root: u32, program: impl FnOnce() -> Vec<Op>) {
        debug_assert_eq!(values.len(), self.points);
        match self.seen.get(values) {
            Some(&f) => self.table.roots[f] |= root,
            None => {
                let t = &mut self.table;
                self.seen.insert(values.into(), t.roots.len());
                t.values.extend_from_slice(values);
                t.roots.push(root);
                t.programs.push(program());
            }
        }
    }

    /// Distinct vectors so far.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn finish(self) -> Table {
        self.table
    }
}

impl Table {
    pub fn len(&self) -> usize {
        self.roots.len()
    }

    /// Function f's values on the example points.
    pub fn values(&self, f: usize) -> &[u8] {
        &self.values[f * self.points..(f + 1) * self.points]
    }

    /// Whether function f has a formula whose root is not among `forbid`.
    pub fn allowed(&self, f: usize, forbid: u32) -> bool {
        self.roots[f] & !forbid != 0
    }

    /// The first function (by id) with a formula whose root is not in `forbid` and whose value
    /// at every point j lies in `c[j]`.
    pub fn find(&self, c: &[Set], forbid: u32) -> Option<usize> {
        debug_assert_eq!(c.len(), self.points);
        if self.points == 0 {
            return (0..self.len()).find(|&f| self.allowed(f, forbid));
        }
        let index = self.index.get_or_init(|| self.build_index());
        // Walk the point whose allowed values hold the fewest functions.
        let n = self.len();
        let candidates = |j: usize| -> usize {
            let s = &index.starts[j * 257..(j + 1) * 257];
            c[j].iter()
                .map(|v| (s[v as usize + 1] - s[v as usize]) as usize)
                .sum()
        };
        let pivot = (0..self.points)
            .min_by_key(|&j| (c[j].len(), j))
            .expect("points");
        let pivot = if c[pivot].len() > 1 {
            (0..self.points)
                .filter(|&j| c[j].len() <= 2 * c[pivot].len())
                .min_by_key(|&j| candidates(j))
                .unwrap_or(pivot)
        } else {
            pivot
        };
        let starts = &index.starts[pivot * 257..(pivot + 1) * 257];
        let ids = &index.ids[pivot * n..(pivot + 1) * n];
        let mut best: Option<usize> = None;
        for v in c[pivot].iter() {
            let run = &ids[starts[v as usize] as usize..starts[v as usize + 1] as usize];
            // Runs are in id order: the first acceptable member is the run's lowest.
            for &f in run {
                let f = f as usize;
                if best.is_some_and(|b| b <= f) {
                    break;
                }
                if self.allowed(f, forbid)
                    && self.values(f).iter().zip(c).all(|(&x, s)| s.contains(x))
                {
                    best = Some(f);
                    break;
                }
            }
        }
        best
    }

    fn build_index(&self) -> Index {
        let n = self.len();
        let mut ids = Vec::with_capacity(self.points * n);
        let mut starts = Vec::with_capacity(self.points * 257);
        for j in 0..self.points {
            let mut counts = [0u32; 257];
            for f in 0..n {
                counts[self.values[f * self.points + j] as usize + 1] += 1;
            }
            for v in 1..257 {
                counts[v] += counts[v - 1];
            }
            starts.extend_from_slice(&counts);
            let mut next = counts;
            let base = ids.len();
            ids.resize(base + n, 0);
            for f in 0..n {
                let v = self.values[f * self.points + j] as usize;
                ids[base + next[v] as usize] = f as u32;
                next[v] += 1;
            }
        }
        Index { ids, starts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `find` returns the lowest id among the functions a linear scan accepts, whatever the
    /// pivot.
    #[test]
    fn find_is_a_filtered_scan() {
        let points = 5;
        let mut b = Builder::new(points);
        let mut rng = 12345u64;
        let mut next = || {
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (rng >> 59) as u8
        };
        for i in 0..300 {
            let vals: Vec<u8> = (0..points).map(|_| next() % 4).collect();
            b.add(&vals, 1 << (i % 3), || vec![Op::Push(0)]);
        }
        let t = b.finish();
        assert!(t.len() > 100, "the vectors mostly differ");
        for trial in 0..200 {
            let c: Vec<Set> = (0..points)
                .map(|_| {
                    let mut s = Set::EMPTY;
                    for v in 0..4 {
                        if next() % 3 != 0 {
                            s.insert(v);
                        }
                    }
                    s
                })
                .collect();
            let forbid = trial % 4;
            let want = (0..t.len()).find(|&f| {
                t.allowed(f, forbid) && t.values(f).iter().zip(&c).all(|(&x, s)| s.contains(x))
            });
            assert_eq!(t.find(&c, forbid), want, "trial {trial}");
        }
    }
}
