//! Top-down search for a read-once formula meeting per-point sets of allowed values.
//!
//! A formula over a set S of variables (each read once) is a binary instruction over formulas
//! over the two parts of a split of S. The smaller part comes from its [`Table`] of distinct
//! functions; for each of them and each instruction, the values the larger part may take at a
//! point are the inverse image of the allowed results there ([`Inverse`]), and the larger part
//! is searched for recursively under those sets. Points on which S's variables agree must get
//! one value, so their sets are intersected: on example sets of small positions this is what
//! empties them. Sets of variables that fail under some sets are remembered.
//!
//! Twins (variables interchangeable on the data) are read in index order, as the other backends
//! state it: a split sends each run's lower members to the left operand. Associative
//! instructions keep chains leaning right: the left operand of `+` is a function that some
//! formula not rooted at `+` computes on the points (rotating `(a+b)+c` to `a+(b+c)` keeps the
//! leaf order, so nothing is lost; the formula printed for such a function may still be a sum).

use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use ahash::{AHashMap, AHashSet};

use super::sets::{Inverse, Set};
use super::table::{Builder, Table, LEAF};
use crate::lang::Op;
use crate::solver::past;

/// Sets of at most this many variables are looked up in their table instead of split.
pub(crate) const LOOKUP_MAX: u32 = 4;
/// Memory for remembered failures.
const FAILED_BYTES: usize = 1 << 30;
/// The deadline is read on the first call and then every this many.
const CALLS_PER_CLOCK: u64 = 1024;
/// Memory for the tables (their vectors are held twice while built).
const TABLE_BYTES: usize = 2 << 30;
/// Formulas a table builds between readings of the deadline.
const FORMULAS_PER_CLOCK: usize = 1 << 16;

/// Why a search stopped without an answer.
#[derive(Debug)]
pub(crate) enum Stop {
    /// The deadline passed.
    Timeout,
    /// The tables outgrew [`TABLE_BYTES`]: variables with no twins make the smaller side of a
    /// split large (5 variables: millions of formulas).
    TooLarge,
}

/// Groups of points on which a set of variables agrees.
struct Groups {
    of: Vec<u32>,
    count: usize,
}

/// One search over fixed example points.
pub(crate) struct Search<'a> {
    points: usize,
    /// `coords[i][j]`: variable `vars[i]` at point j.
    coords: Vec<Vec<u8>>,
    /// Bit i of a variable set stands for the problem's variable `vars[i]`.
    vars: Vec<u8>,
    /// Runs of twins, as sets.
    runs: Vec<u32>,
    ops: &'a [Op],
    inverses: &'a [Arc<Inverse>],
    /// Bit k: `ops[k]` is associative.
    assoc: u32,
    domain: Set,
    tables: AHashMap<u32, Rc<Table>>,
    groups: AHashMap<u32, Rc<Groups>>,
    splits: AHashMap<u32, Rc<Vec<(u32, u32)>>>,
    failed: AHashSet<(u32, u32, Box<[Set]>)>,
    failed_bytes: usize,
    table_bytes: usize,
    calls: u64,
    deadline: Option<Instant>,
    /// [`LOOKUP_MAX`]; tests lower it so that small searches split too.
    pub(crate) lookup_max: u32,
    /// [`TABLE_BYTES`]; tests lower it.
    pub(crate) table_limit: usize,
}

impl<'a> Search<'a> {
    /// A search over points whose variable `vars[i]` is `coords[i][j]` at point j, with binary
    /// instructions `ops` (tabulated in `inverses`) over values in `domain`.
    pub fn new(
        coords: Vec<Vec<u8>>,
        vars: Vec<u8>,
        runs: Vec<u32>,
        ops: &'a [Op],
        inverses: &'a [Arc<Inverse>],
        domain: Set,
        deadline: Option<Instant>,
    ) -> Self {
        assert!(vars.len() <= 31 && ops.len() <= 31 && ops.len() == inverses.len());
        let assoc = ops
            .iter()
            .enumerate()
            .filter(|(_, o)| o.is_associative())
            .fold(0, |m, (k, _)| m | 1 << k);
        Search {
            points: coords.first().map_or(0, |c| c.len()),
            coords,
            vars,
            runs,
            ops,
            inverses,
            assoc,
            domain,
            tables: AHashMap::new(),
            groups: AHashMap::new(),
            splits: AHashMap::new(),
            failed: AHashSet::new(),
            failed_bytes: 0,
            table_bytes: 0,
            calls: 0,
            deadline,
            lookup_max: LOOKUP_MAX,
            table_limit: TABLE_BYTES,
        }
    }

    /// A formula over the variable set `s` whose value at every point j lies in `c[j]`, or
    /// `None` when there is none. Only functions that some formula with a root instruction not
    /// in `forbid` (bits of `ops`) computes on the points are considered; the formula returned
    /// computes the same values but may have any root.
    pub fn solve(&mut self, s: u32, mut c: Vec<Set>, forbid: u32) -> Result<Option<Vec<Op>>, Stop> {
        self.calls += 1;
        let clock = self.calls % CALLS_PER_CLOCK == 1;
        if clock && past(self.deadline) {
            return Err(Stop::Timeout);
        }
        let groups = self.groups(s);
        let mut common = vec![self.domain; groups.count];
        for (j, &g) in groups.of.iter().enumerate() {
            common[g as usize] = common[g as usize].and(c[j]);
        }
        if common.iter().any(|set| set.is_empty()) {
            return Ok(None);
        }
        for (j, &g) in groups.of.iter().enumerate() {
            c[j] = common[g as usize];
        }
        if s.count_ones() <= self.lookup_max {
            let t = self.table(s)?;
            return Ok(t.find(&c, forbid).map(|f| t.programs[f].clone()));
        }
        let key = (s, forbid, common.into_boxed_slice());
        if self.failed.contains(&key) {
            return Ok(None);
        }
        let splits = self.splits(s);
        let mut other = Vec::with_capacity(self.points);
        for &(a, b) in splits.iter() {
            let left_small = a.count_ones() <= b.count_ones();
            let table = self.table(if left_small { a } else { b })?;
            for k in 0..self.ops.len() {
                let bit = 1u32 << k;
                if forbid & bit != 0 {
                    continue;
                }
                let assoc = self.assoc & bit != 0;
                for f in 0..table.len() {
                    if left_small && assoc && !table.allowed(f, bit) {
                        continue;
                    }
                    let inv = &self.inverses[k];
                    other.clear();
                    let fits = table.values(f).iter().zip(&c).all(|(&x, &t)| {
                        let operand = if left_small {
                            inv.right_of(x, t)
                        } else {
                            inv.left_of(x, t)
                        };
                        other.push(operand);
                        !operand.is_empty()
                    });
                    if !fits {
                        continue;
                    }
                    let (big, big_forbid) = match (left_small, assoc) {
                        (true, _) => (b, 0),
                        (false, true) => (a, bit),
                        (false, false) => (a, 0),
                    };
                    if let Some(p) = self.solve(big, other.clone(), big_forbid)? {
                        let small = &table.programs[f];
                        let mut prog = Vec::with_capacity(small.len() + p.len() + 1);
                        if left_small {
                            prog.extend_from_slice(small);
                            prog.extend(p);
                        } else {
                            prog.extend(p);
                            prog.extend_from_slice(small);
                        }
                        prog.push(self.ops[k]);
                        return Ok(Some(prog));
                    }
                }
            }
        }
        let bytes = key.2.len() * std::mem::size_of::<Set>() + 64;
        if self.failed_bytes + bytes <= FAILED_BYTES {
            self.failed_bytes += bytes;
            self.failed.insert(key);
        }
        Ok(None)
    }

    /// The splits (left, right) of `s` that keep twins in index order, those with the smallest
    /// part first.
    fn splits(&mut self, s: u32) -> Rc<Vec<(u32, u32)>> {
        if let Some(v) = self.splits.get(&s) {
            return v.clone();
        }
        let mut out = Vec::new();
        // Every proper non-empty subset, as the left part.
        let mut a = (s.wrapping_sub(1)) & s;
        while a != 0 {
            if self.runs.iter().all(|&r| lower_part(a & r, s & r)) {
                out.push((a, s & !a));
            }
            a = (a - 1) & s;
        }
        out.sort_by_key(|&(a, b)| (a.count_ones().min(b.count_ones()), a));
        let v = Rc::new(out);
        self.splits.insert(s, v.clone());
        v
    }

    /// Classes of points equal on the variables of `s`.
    fn groups(&mut self, s: u32) -> Rc<Groups> {
        if let Some(g) = self.groups.get(&s) {
            return g.clone();
        }
        let vars: Vec<usize> = (0..self.vars.len()).filter(|&i| s >> i & 1 == 1).collect();
        let mut ids: AHashMap<Vec<u8>, u32> = AHashMap::new();
        let of = (0..self.points)
            .map(|j| {
                let key: Vec<u8> = vars.iter().map(|&i| self.coords[i][j]).collect();
                let next = ids.len() as u32;
                *ids.entry(key).or_insert(next)
            })
            .collect();
        let g = Rc::new(Groups {
            of,
            count: ids.len(),
        });
        self.groups.insert(s, g.clone());
        g
    }

    /// Every function a read-once formula over `s` computes on the points.
    fn table(&mut self, s: u32) -> Result<Rc<Table>, Stop> {
        if let Some(t) = self.tables.get(&s) {
            return Ok(t.clone());
        }
        let mut builder = Builder::new(self.points);
        if s.count_ones() == 1 {
            let i = s.trailing_zeros() as usize;
            builder.add(&self.coords[i], LEAF, || vec![Op::Push(self.vars[i])]);
        } else {
            let mut vals = vec![0u8; self.points];
            let mut built = 0usize;
            for &(a, b) in self.splits(s).iter() {
                let (ta, tb) = (self.table(a)?, self.table(b)?);
                for (k, inv) in self.inverses.iter().enumerate() {
                    let bit = 1u32 << k;
                    for fa in 0..ta.len() {
                        if self.assoc & bit != 0 && !ta.allowed(fa, bit) {
                            continue;
                        }
                        built += tb.len();
                        if built >= FORMULAS_PER_CLOCK {
                            built = 0;
                            if past(self.deadline) {
                                return Err(Stop::Timeout);
                            }
                            // Each new vector is held as a key and as a row.
                            let bytes = 2 * builder.len() * self.points;
                            if self.table_bytes + bytes > self.table_limit {
                                return Err(Stop::TooLarge);
                            }
                        }
                        let va = ta.values(fa);
                        for fb in 0..tb.len() {
                            for ((v, &x), &y) in vals.iter_mut().zip(va).zip(tb.values(fb)) {
                                *v = inv.apply(x, y);
                            }
                            builder.add(&vals, bit, || {
                                let mut p = ta.programs[fa].clone();
                                p.extend_from_slice(&tb.programs[fb]);
                                p.push(self.ops[k]);
                                p
                            });
                        }
                    }
                }
            }
        }
        let t = Rc::new(builder.finish());
        self.table_bytes += 2 * t.len() * self.points;
        if self.table_bytes > self.table_limit {
            return Err(Stop::TooLarge);
        }
        self.tables.insert(s, t.clone());
        Ok(t)
    }
}

/// Whether `part` holds the lowest members of `whole` (twins read in index order).
fn lower_part(part: u32, whole: u32) -> bool {
    let rest = whole & !part;
    part == 0 || rest == 0 || 31 - part.leading_zeros() < rest.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_parts() {
        assert!(lower_part(0b0011, 0b1111));
        assert!(lower_part(0, 0b1111));
        assert!(lower_part(0b1111, 0b1111));
        assert!(!lower_part(0b0101, 0b1111));
        assert!(!lower_part(0b1000, 0b1100));
        assert!(lower_part(0b0100, 0b1100));
    }
}
