//! A clause store with its own variable counter, and Tseitin gates that fold constants.
//!
//! Every clause the encoder makes lands here first; the incremental solver takes the ones it has
//! not seen before each solve, and the DIMACS writer and the proof re-solve read them all.

use std::ops::Not;

use varisat::{ExtendFormula, Lit, Var};

/// A bit of a circuit: a constant, or a literal. Constants keep circuits over known inputs (shift
/// fill, carry-in, the first division steps) from making variables at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bit {
    Const(bool),
    Lit(Lit),
}

impl Not for Bit {
    type Output = Bit;
    fn not(self) -> Bit {
        match self {
            Bit::Const(c) => Bit::Const(!c),
            Bit::Lit(l) => Bit::Lit(!l),
        }
    }
}

impl From<Lit> for Bit {
    fn from(l: Lit) -> Bit {
        Bit::Lit(l)
    }
}

/// All clauses of one instance, in order of creation.
#[derive(Default)]
pub(crate) struct Cnf {
    vars: usize,
    lits: Vec<Lit>,
    ends: Vec<usize>,
    /// Clauses already handed to a solver.
    flushed: usize,
    /// While set, every clause made gets this literal too: circuits built under a guard are
    /// switched off (all clauses satisfied) when it is true. See [`Cnf::guarded`].
    guard: Option<Lit>,
}

impl Cnf {
    /// A fresh variable, as its positive literal.
    pub fn fresh(&mut self) -> Lit {
        let v = Var::from_index(self.vars);
        self.vars += 1;
        v.positive()
    }

    /// Variables made so far.
    pub fn vars(&self) -> usize {
        self.vars
    }

    /// Clauses made so far.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Adds a clause of literals.
    pub fn clause(&mut self, c: &[Lit]) {
        self.lits.extend_from_slice(c);
        self.lits.extend(self.guard);
        self.ends.push(self.lits.len());
    }

    /// Runs `build` with every clause it makes conditional on `active`. Sound for circuits that
    /// define fresh variables as functions of their inputs: when `active` is false their
    /// variables are free, and when true the circuit is exact.
    pub fn guarded<T>(&mut self, active: Option<Lit>, build: impl FnOnce(&mut Cnf) -> T) -> T {
        let saved = self.guard;
        self.guard = active.map(|l| !l);
        let out = build(self);
        self.guard = saved;
        out
    }

    /// Every clause.
    pub fn iter(&self) -> impl Iterator<Item = &[Lit]> {
        self.ends.iter().scan(0, move |start, &end| {
            let c = &self.lits[*start..end];
            *start = end;
            Some(c)
        })
    }

    /// Hands clauses not yet flushed to `target`.
    pub fn flush_into(&mut self, target: &mut impl ExtendFormula) {
        let mut start = if self.flushed == 0 {
            0
        } else {
            self.ends[self.flushed - 1]
        };
        for &end in &self.ends[self.flushed..] {
            target.add_clause(&self.lits[start..end]);
            start = end;
        }
        self.flushed = self.ends.len();
    }

    /// `a & b`.
    pub fn and(&mut self, a: Bit, b: Bit) -> Bit {
        match (a, b) {
            (Bit::Const(false), _) | (_, Bit::Const(false)) => Bit::Const(false),
            (Bit::Const(true), x) | (x, Bit::Const(true)) => x,
            (Bit::Lit(x), Bit::Lit(y)) if x == y => a,
            (Bit::Lit(x), Bit::Lit(y)) if x == !y => Bit::Const(false),
            (Bit::Lit(x), Bit::Lit(y)) => {
                let o = self.fresh();
                self.clause(&[!o, x]);
                self.clause(&[!o, y]);
                self.clause(&[o, !x, !y]);
                Bit::Lit(o)
            }
        }
    }

    /// `a | b`.
    pub fn or(&mut self, a: Bit, b: Bit) -> Bit {
        !self.and(!a, !b)
    }

    /// `a ^ b`.
    pub fn xor(&mut self, a: Bit, b: Bit) -> Bit {
        match (a, b) {
            (Bit::Const(c), x) | (x, Bit::Const(c)) => {
                if c {
                    !x
                } else {
                    x
                }
            }
            (Bit::Lit(x), Bit::Lit(y)) if x == y => Bit::Const(false),
            (Bit::Lit(x), Bit::Lit(y)) if x == !y => Bit::Const(true),
            (Bit::Lit(x), Bit::Lit(y)) => {
                let o = self.fresh();
                self.clause(&[!o, x, y]);
                self.clause(&[!o, !x, !y]);
                self.clause(&[o, !x, y]);
                self.clause(&[o, x, !y]);
                Bit::Lit(o)
            }
        }
    }

    /// `if s { x1 } else { x0 }`.
    pub fn mux(&mut self, s: Bit, x1: Bit, x0: Bit) -> Bit {
        match (s, x1, x0) {
            (Bit::Const(true), _, _) => x1,
            (Bit::Const(false), _, _) => x0,
            _ if x1 == x0 => x1,
            (_, Bit::Const(true), Bit::Const(false)) => s,
            (_, Bit::Const(false), Bit::Const(true)) => !s,
            (_, Bit::Const(false), _) => self.and(!s, x0),
            (_, Bit::Const(true), _) => self.or(s, x0),
            (_, _, Bit::Const(false)) => self.and(s, x1),
            (_, _, Bit::Const(true)) => self.or(!s, x1),
            (Bit::Lit(s), Bit::Lit(a), Bit::Lit(b)) => {
                let o = self.fresh();
                self.clause(&[!s, !a, o]);
                self.clause(&[!s, a, !o]);
                self.clause(&[s, !b, o]);
                self.clause(&[s, b, !o]);
                // Redundant, but lets equal inputs decide the output without the selector.
                self.clause(&[!a, !b, o]);
                self.clause(&[a, b, !o]);
                Bit::Lit(o)
            }
        }
    }

    /// Sum and carry of `a + b + c`.
    pub fn full_add(&mut self, a: Bit, b: Bit, c: Bit) -> (Bit, Bit) {
        let consts = [a, b, c]
            .iter()
            .filter(|x| matches!(x, Bit::Const(_)))
            .count();
        if consts > 0 {
            // Fold through the two-input gates.
            let ab = self.xor(a, b);
            let sum = self.xor(ab, c);
            let and_ab = self.and(a, b);
            let and_c = self.and(ab, c);
            let carry = self.or(and_ab, and_c);
            return (sum, carry);
        }
        let (Bit::Lit(a), Bit::Lit(b), Bit::Lit(c)) = (a, b, c) else {
            unreachable!()
        };
        let s = self.fresh();
        let k = self.fresh();
        for (x, y, z) in [(a, b, c), (a, !b, !c), (!a, b, !c), (!a, !b, c)] {
            self.clause(&[!x, !y, !z, s]);
            self.clause(&[x, y, z, !s]);
        }
        self.clause(&[!a, !b, k]);
        self.clause(&[!a, !c, k]);
        self.clause(&[!b, !c, k]);
        self.clause(&[a, b, !k]);
        self.clause(&[a, c, !k]);
        self.clause(&[b, c, !k]);
        (Bit::Lit(s), Bit::Lit(k))
    }

    /// OR of many bits, with one variable.
    pub fn or_many(&mut self, xs: &[Bit]) -> Bit {
        if xs.contains(&Bit::Const(true)) {
            return Bit::Const(true);
        }
        let lits: Vec<Lit> = xs
            .iter()
            .filter_map(|b| match b {
                Bit::Lit(l) => Some(*l),
                Bit::Const(_) => None,
            })
            .collect();
        match lits.len() {
            0 => Bit::Const(false),
            1 => Bit::Lit(lits[0]),
            _ => {
                let o = self.fresh();
                let mut big = lits.clone();
                big.push(!o);
                self.clause(&big);
                for l in lits {
                    self.clause(&[!l, o]);
                }
                Bit::Lit(o)
            }
        }
    }

    /// Exactly one of `lits` (pairwise at-most-one; the sets here are small).
    pub fn exactly_one(&mut self, lits: &[Lit]) {
        self.clause(lits);
        for i in 0..lits.len() {
            for j in i + 1..lits.len() {
                self.clause(&[!lits[i], !lits[j]]);
            }
        }
    }
}

impl ExtendFormula for Cnf {
    fn add_clause(&mut self, clause: &[Lit]) {
        self.clause(clause)
    }

    fn new_var(&mut self) -> Var {
        self.fresh().var()
    }
}
