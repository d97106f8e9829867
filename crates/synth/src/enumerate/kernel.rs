//! Word-level pieces of the enumerator: packed output vectors, per-instruction kernels, example
//! checks on the compact point set, and the pruning tables.

use std::hash::Hash;

use super::index::{Index, INDEX_COLUMNS};
use crate::lang::rules::{self, Constants};
use crate::lang::Op;
use crate::problem::{Example, Problem};

/// An unsigned word wide enough for the problem's width; output vectors are `[W]` per class.
pub(super) trait Word: Copy + Eq + Hash + Send + Sync + Default + 'static {
    /// The value as a u64.
    fn get(self) -> u64;
    /// A value known to fit.
    fn put(v: u64) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            #[inline(always)]
            fn get(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn put(v: u64) -> Self {
                v as $t
            }
        }
    )*};
}
word!(u8, u16, u32, u64);

/// Binds `$f` to a closure computing binary `$op` on masked W-bit operands (`$mask` = 2^W - 1)
/// and evaluates `$body` with it, so `$body` is compiled once per instruction. Agrees with
/// [`Op::apply`] on operands <= mask (tested).
macro_rules! with_binary {
    ($op:expr, $mask:expr, $f:ident => $body:expr) => {{
        let m: u64 = $mask;
        let w: u64 = m.count_ones() as u64;
        match $op {
            Op::Plus => {
                let $f = move |a: u64, b: u64| a.wrapping_add(b) & m;
                $body
            }
            Op::Minus => {
                let $f = move |a: u64, b: u64| a.wrapping_sub(b) & m;
                $body
            }
            Op::Mul => {
                let $f = move |a: u64, b: u64| a.wrapping_mul(b) & m;
                $body
            }
            Op::Div => {
                let $f = move |a: u64, b: u64| a.checked_div(b).unwrap_or(0);
                $body
            }
            Op::Mod => {
                let $f = move |a: u64, b: u64| a.checked_rem(b).unwrap_or(a);
                $body
            }
            Op::And => {
                let $f = move |a: u64, b: u64| a & b;
                $body
            }
            Op::Or => {
                let $f = move |a: u64, b: u64| a | b;
                $body
            }
            Op::Xor => {
                let $f = move |a: u64, b: u64| a ^ b;
                $body
            }
            Op::LeftShift => {
                let $f = move |a: u64, b: u64| if b >= w { 0 } else { (a << b) & m };
                $body
            }
            Op::RightShift => {
                let $f = move |a: u64, b: u64| if b >= w { 0 } else { a >> b };
                $body
            }
            Op::BooleanEq => {
                let $f = move |a: u64, b: u64| (a == b) as u64;
                $body
            }
            Op::Min => {
                let $f = move |a: u64, b: u64| a.min(b);
                $body
            }
            Op::Max => {
                let $f = move |a: u64, b: u64| a.max(b);
                $body
            }
            Op::Lt => {
                let $f = move |a: u64, b: u64| (a < b) as u64;
                $body
            }
            other => unreachable!("{other} is not binary"),
        }
    }};
}
pub(super) use with_binary;

/// Unary `op` on a masked operand.
#[inline(always)]
pub(super) fn unary(op: Op, a: u64, mask: u64) -> u64 {
    match op {
        Op::Not => !a & mask,
        Op::BooleanNot => (a == 0) as u64,
        other => unreachable!("{other} is not unary"),
    }
}

/// One example, with its points renumbered to columns of the output vectors.
#[derive(Clone, Debug)]
enum Check {
    Equals(usize, u64),
    NonZero(usize),
    SomeZero(Vec<usize>, bool),
}

/// What one example asks of one column's value (see [`Checker::column_wants`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Want {
    Is(u64),
    NonZero,
    AtMostOne,
}

impl Want {
    pub fn admits(self, y: u64) -> bool {
        match self {
            Want::Is(v) => y == v,
            Want::NonZero => y != 0,
            Want::AtMostOne => y <= 1,
        }
    }
}

/// The examples added so far over the compact point set: column `c` of every output vector is
/// the output at `problem.points[points[c]]`.
#[derive(Clone, Debug, Default)]
pub(super) struct Checker {
    /// Problem point index of each column.
    pub points: Vec<usize>,
    checks: Vec<Check>,
    index: Option<Index>,
}

impl Checker {
    /// The examples `indices` of `problem`, in the order that rejects candidates fastest:
    /// exact values first, `NonZero` last, and within a kind the newest first (they are the
    /// counterexamples to earlier candidates).
    pub fn new(problem: &Problem, indices: &[usize]) -> Self {
        let mut points = Vec::new();
        let mut column = ahash::AHashMap::new();
        let mut col = |p: usize| {
            *column.entry(p).or_insert_with(|| {
                points.push(p);
                points.len() - 1
            })
        };
        let mut checks = Vec::new();
        for &e in indices.iter().rev() {
            checks.push(match &problem.examples[e] {
                Example::Equals { point, value } => Check::Equals(col(*point), *value),
                Example::NonZero { point } => Check::NonZero(col(*point)),
                // An orbit of one member (a position no symmetry moves) is an exact value,
                // which the index and the per-column filters can use.
                Example::SomeZero { points, .. } if points.len() == 1 => {
                    Check::Equals(col(points[0]), 0)
                }
                Example::SomeZero { points, boolean } => {
                    Check::SomeZero(points.iter().map(|&p| col(p)).collect(), *boolean)
                }
            });
        }
        // The index columns (see `Index`): the newest `Equals` of each wanted value first (an
        // indicator's 1 and 0 reject different candidates), then the next newest.
        let mut index = Index {
            cols: [0; INDEX_COLUMNS],
            wants: [Want::NonZero; INDEX_COLUMNS],
            len: 0,
        };
        let equals: Vec<(usize, Want)> = checks
            .iter()
            .filter_map(|c| match c {
                Check::Equals(col, v) => Some((*col, Want::Is(*v))),
                _ => None,
            })
            .collect();
        let mut order: Vec<(usize, Want)> = Vec::new();
        for &(c, v) in &equals {
            if !order.iter().any(|o| o.1 == v) {
                order.push((c, v));
            }
        }
        order.extend(&equals);
        // Then points that must not give 0, where `BooleanEq` (or a `BooleanNot` root) is exact.
        order.extend(checks.iter().filter_map(|c| match c {
            Check::NonZero(col) => Some((*col, Want::NonZero)),
            _ => None,
        }));
        for (c, v) in order {
            if index.len < INDEX_COLUMNS && !index.cols[..index.len].contains(&c) {
                (index.cols[index.len], index.wants[index.len]) = (c, v);
                index.len += 1;
            }
        }
        let index = (index.len > 0).then_some(index);
        // Exact values reject most candidates, `NonZero` few: `Equals` first (the index ones,
        // which candidates visited through the index mostly pass, after the others), then
        // orbits, then `NonZero`; the newest first within each kind (stable sort).
        let is_index = |c: usize| index.is_some_and(|ix| ix.cols[..ix.len].contains(&c));
        checks.sort_by_key(|c| match c {
            Check::Equals(col, _) if is_index(*col) => 1,
            Check::Equals(..) => 0,
            Check::SomeZero(..) => 2,
            Check::NonZero(_) => 3,
        });
        Checker {
            points,
            checks,
            index,
        }
    }

    /// The index columns, if some example asks for an exact value.
    pub fn index(&self) -> Option<Index> {
        self.index
    }

    /// The columns (at most 64, in check order) where the output must not be 0: a non-zero
    /// position, or an exact value other than 0.
    pub fn nonzero_columns(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for c in &self.checks {
            let col = match *c {
                Check::Equals(col, v) if v != 0 => col,
                Check::NonZero(col) => col,
                _ => continue,
            };
            if out.len() < 64 && !out.contains(&col) {
                out.push(col);
            }
        }
        out
    }

    /// What the examples ask of single columns, in check order: a filter that looks at one
    /// column at a time may reject a candidate whose value there fails `want.admits`. An orbit
    /// asks nothing of a single member unless the target is boolean (then each gives at most 1).
    pub fn column_wants(&self) -> Vec<(usize, Want)> {
        let mut out = Vec::new();
        for c in &self.checks {
            match c {
                Check::Equals(p, v) => out.push((*p, Want::Is(*v))),
                Check::NonZero(p) => out.push((*p, Want::NonZero)),
                Check::SomeZero(ps, true) => out.extend(ps.iter().map(|&p| (p, Want::AtMostOne))),
                Check::SomeZero(_, false) => {}
            }
        }
        out
    }

    /// Whether outputs given per column satisfy every example.
    #[inline(always)]
    pub fn holds(&self, out: impl Fn(usize) -> u64) -> bool {
        self.checks.iter().all(|c| match c {
            Check::Equals(p, v) => out(*p) == *v,
            Check::NonZero(p) => out(*p) != 0,
            Check::SomeZero(ps, boolean) => {
                ps.iter().any(|&p| out(p) == 0) && (!boolean || ps.iter().all(|&p| out(p) <= 1))
            }
        })
    }
}

/// What is known of the root instructions of a class's members: a leaf class is one leaf; an
/// inner class has a representative preferring a root other than `Not`, so its representative
/// is rooted at `Not` only when every member is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Leaf number (position among the nullary instructions).
    Leaf(usize),
    /// Some member is not rooted at `Not`; members may have any inner root.
    Inner,
    /// Every member is rooted at `Not`.
    NotOnly,
}

impl Kind {
    fn slot(self, leaves: usize) -> usize {
        match self {
            Kind::Leaf(i) => i,
            Kind::Inner => leaves,
            Kind::NotOnly => leaves + 1,
        }
    }
}

/// The pruning rules of [`rules`], tabulated per instruction over [`Kind`]s. A combination is
/// kept when *some* possible combination of member roots is allowed, so pruning never drops a
/// vector that a rule-respecting program reaches (see the module documentation).
pub(super) struct Rules {
    prune: bool,
    consts: Constants,
    leaves: usize,
    kinds: usize,
    /// `[op][kind]`: unary `op` allowed over a class of that kind.
    unary: Vec<bool>,
    /// `[op][left kind][right kind]`: binary `op` allowed in some operand order.
    binary: Vec<bool>,
    /// `[op]`: every inner-inner combination is allowed (no check needed in the hot loop).
    inner_free: Vec<bool>,
}

/// Whether a rule-respecting program may apply binary `op` to operands rooted at `l` and `r`,
/// in this order or (for commutative `op`, which is enumerated in one order only) swapped.
pub(super) fn pair_allowed(op: Op, l: Op, r: Op, consts: Constants) -> bool {
    let ok = |l, r| rules::binary_allowed_ignoring_chains(op, l, r, consts);
    ok(l, r) || (op.is_commutative() && ok(r, l))
}

impl Rules {
    /// Tables for `ops`; with `prune` false everything is allowed.
    pub fn new(ops: &[Op], prune: bool) -> Self {
        let consts = Constants::of(ops);
        let leaf_ops: Vec<Op> = ops.iter().copied().filter(|o| o.arity() == 0).collect();
        let inner_ops: Vec<Op> = ops.iter().copied().filter(|o| o.arity() > 0).collect();
        let leaves = leaf_ops.len();
        let kinds = leaves + 2;
        let roots = |k: usize| -> Vec<Op> {
            match k {
                k if k < leaves => vec![leaf_ops[k]],
                k if k == leaves => inner_ops.clone(),
                _ => vec![Op::Not],
            }
        };
        let mut unary = vec![true; ops.len() * kinds];
        let mut binary = vec![true; ops.len() * kinds * kinds];
        let mut inner_free = vec![true; ops.len()];
        for (o, &op) in ops.iter().enumerate() {
            if !prune {
                continue;
            }
            for k in 0..kinds {
                if op.arity() == 1 {
                    unary[o * kinds + k] = roots(k)
                        .iter()
                        .any(|&r| rules::unary_allowed(op, r, consts));
                }
                if op.arity() != 2 {
                    continue;
                }
                for j in 0..kinds {
                    let ok = roots(k)
                        .iter()
                        .any(|&l| roots(j).iter().any(|&r| pair_allowed(op, l, r, consts)));
                    binary[(o * kinds + k) * kinds + j] = ok;
                    if k >= leaves && j >= leaves && !ok {
                        inner_free[o] = false;
                    }
                }
            }
        }
        Rules {
            prune,
            consts,
            leaves,
            kinds,
            unary,
            binary,
            inner_free,
        }
    }

    /// Unary instruction `op` (index into the op set) over a class of kind `k`.
    #[inline(always)]
    pub fn unary(&self, op: usize, k: Kind) -> bool {
        self.unary[op * self.kinds + k.slot(self.leaves)]
    }

    /// Binary instruction `op` over classes of kinds `l`, `r`.
    #[inline(always)]
    pub fn binary(&self, op: usize, l: Kind, r: Kind) -> bool {
        self.binary[(op * self.kinds + l.slot(self.leaves)) * self.kinds + r.slot(self.leaves)]
    }

    /// Unary `op` over a candidate whose root is exactly `root` (not a class: one instruction).
    pub fn unary_over_root(&self, op: Op, root: Op) -> bool {
        !self.prune || rules::unary_allowed(op, root, self.consts)
    }

    /// Whether binary `op` needs no check when neither operand is a leaf.
    pub fn inner_free(&self, op: usize) -> bool {
        self.inner_free[op]
    }
}
