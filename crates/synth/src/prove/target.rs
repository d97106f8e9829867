//! What a program claims, and the checks that prove it for hypergraph nim, written once for
//! both number domains (unbounded naturals and bit-vectors below a bound).
//!
//! - `zero`: the zero set Z is the P-positions: (A) no move joins two positions of Z, (B) every
//!   position outside Z has a move into Z.
//! - `indicator`: (A) and (B), and (C) the program's value is 0 or 1 everywhere (so 1 off Z).
//! - `sg`: the value is the SG value: (S1) no option has the position's value, (S2) every
//!   smaller value is some option's value. Then value = mex of the options' values, which is
//!   the SG value by induction on the number of stones.
//!
//! Each check asks z3 for a position that breaks it; "unsat" proves it, "sat" is a
//! counterexample, made small by asking for a smaller total while z3 finds one.

use z3::ast::{forall_const, Ast, Bool};
use z3::{Model, Solver};

use super::clock::{Answer, Clock};
use super::witness::{self, Goal};
use super::{Counterexample, Reason, Verdict};
use grundy_core::error::Error;
use grundy_core::game::hypergraph::vertices_of;

/// Most times a counterexample is re-solved for a smaller total (the halving of
/// [`smallest`] needs about 64 for heaps near 2^64).
const SHRINK_STEPS: usize = 80;

/// What the program claims.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// It is 0 exactly on the P-positions.
    #[default]
    Zero,
    /// It is 0 on the P-positions and 1 elsewhere.
    Indicator,
    /// It is the SG value.
    Sg,
}

/// A number domain z3 decides the checks in: its numbers, the positions in scope, and the
/// program's zero set and value on them.
pub(super) trait Domain {
    type N: Ast + Clone;
    /// A fresh number.
    fn number(&self, name: &str) -> Self::N;
    fn konst(&self, c: u64) -> Self::N;
    /// A heap in scope: a natural (below the bound, for bit-vectors).
    fn in_scope(&self, x: &Self::N) -> Bool;
    fn le(&self, a: &Self::N, b: &Self::N) -> Bool;
    fn lt(&self, a: &Self::N, b: &Self::N) -> Bool;
    fn sub(&self, a: &Self::N, b: &Self::N) -> Self::N;
    fn eq(&self, a: &Self::N, b: &Self::N) -> Bool;
    /// The heaps' total is below `t`.
    fn total_below(&self, p: &[Self::N], t: u64) -> Bool;
    /// A number of a model, or an error when it does not fit a heap.
    fn read(&self, m: &Model, x: &Self::N) -> Result<u64, Error>;
    /// A solver for a check with (`quantified`) or without a universal block, or why there is
    /// none (no time left, a stop asked for).
    fn solver(&self, clock: &Clock, quantified: bool) -> Result<Solver, String> {
        let _ = quantified;
        clock.solver()
    }
    /// `p` is in the candidate zero set Z.
    fn zero(&self, p: &[Self::N]) -> Bool;
    /// The program's value at `p` (only asked for by the indicator and sg targets).
    fn value(&self, p: &[Self::N]) -> Self::N;
    /// Candidate moves through the vertices `face` from `p` towards `goal`, as the face's new
    /// sizes written as terms of `p`, that (B) and (S2) try before a universal block
    /// ([`super::witness`]); none by default.
    fn proposals(&self, p: &[Self::N], face: &[usize], goal: &Goal<Self::N>) -> Vec<Vec<Self::N>> {
        let _ = (p, face, goal);
        Vec::new()
    }
    /// Whether (B) and (S2) may fall back to a universal block where the candidate moves do
    /// not settle them.
    fn universal(&self) -> bool {
        true
    }
}

pub(super) fn position<D: Domain>(d: &D, prefix: &str, n: usize) -> Vec<D::N> {
    (0..n).map(|i| d.number(&format!("{prefix}{i}"))).collect()
}

/// The position after taking `take[k]` from the k-th vertex of `face`, and the condition that
/// the move is legal (1 <= take <= heap).
pub(super) fn move_through<D: Domain>(
    d: &D,
    p: &[D::N],
    face: u64,
    take: &[D::N],
) -> (Vec<D::N>, Bool) {
    let mut q = p.to_vec();
    let mut legal = Vec::new();
    for (k, v) in vertices_of(face).enumerate() {
        q[v] = d.sub(&p[v], &take[k]);
        legal.push(d.le(&d.konst(1), &take[k]));
        legal.push(d.le(&take[k], &p[v]));
    }
    (q, Bool::and(&legal))
}

/// A check's answer: a counterexample, none, or z3's reason for giving up.
pub(super) type Found = Result<Option<Counterexample>, String>;

/// Solves `s`, then looks for a smaller total of `p` ([`smallest`]); `found` turns the model
/// of the least total into the counterexample.
fn solve<D: Domain>(
    d: &D,
    s: &Solver,
    clock: &Clock,
    p: &[D::N],
    found: &dyn Fn(&Model) -> Result<Counterexample, Error>,
) -> Result<Found, Error> {
    let first = match clock.check(s) {
        Answer::Sat(m) => m,
        Answer::Unsat => return Ok(Ok(None)),
        Answer::Unknown(why) => return Ok(Err(why)),
    };
    let best = smallest(d, s, clock, p, first, &mut |_| Ok(true))?;
    Ok(Ok(Some(found(&best)?)))
}

/// The total of `p` in `m`.
fn total<D: Domain>(d: &D, m: &Model, p: &[D::N]) -> Result<u128, Error> {
    p.iter().map(|x| d.read(m, x).map(u128::from)).sum()
}

/// Re-solves `s` for smaller totals of `p`, halving the gap between the least total that may
/// still have a model and the best found, so that a model with heaps near 2^64 comes down to
/// the least total in about 64 checks (or the steps or time run out); a model counts only
/// when `keep` says so (for (B): a position with no move at all). Returns the best model.
pub(super) fn smallest<D: Domain>(
    d: &D,
    s: &Solver,
    clock: &Clock,
    p: &[D::N],
    first: Model,
    keep: &mut dyn FnMut(&Model) -> Result<bool, Error>,
) -> Result<Model, Error> {
    let mut best = first;
    let mut t = total(d, &best, p)?;
    // Every total below `lo` has no model.
    let mut lo: u128 = 0;
    // Small counterexamples are the rule: totals below 2^8 and 2^16 are asked first, each
    // check over wide words being costly.
    let ladder: Vec<u128> = [1u128 << 8, 1 << 16]
        .into_iter()
        .filter(|&b| b < t / 2)
        .collect();
    let mut ladder = ladder.into_iter();
    for _ in 0..SHRINK_STEPS {
        if lo >= t {
            break;
        }
        // A bound a domain can state: totals below u64::MAX.
        let most = u128::from(u64::MAX) - 1;
        let mid = match ladder.next() {
            Some(b) => b.max(lo) - 1,
            None => lo + (t - 1 - lo) / 2,
        }
        .min(most);
        s.push();
        s.assert(d.total_below(p, (mid + 1) as u64));
        let answer = clock.check(s);
        s.pop(1);
        match answer {
            Answer::Sat(m) if keep(&m)? => {
                t = total(d, &m, p)?;
                best = m;
            }
            Answer::Unsat if mid < most => lo = mid + 1,
            _ => break,
        }
    }
    Ok(best)
}
pub(super) fn read_all<D: Domain>(d: &D, m: &Model, p: &[D::N]) -> Result<Vec<u32>, Error> {
    p.iter()
        .map(|x| {
            let v = d.read(m, x)?;
            u32::try_from(v).map_err(|_| {
                Error::Resource("z3's counterexample has a heap too large to re-check".into())
            })
        })
        .collect()
}

/// A position in scope and a move through `face` with `bad(p, q)`: (A) with `bad` both in Z,
/// (S1) with `bad` equal values.
fn between<D: Domain>(
    d: &D,
    n: usize,
    face: u64,
    clock: &Clock,
    reason: Reason,
) -> Result<Found, Error> {
    let s = match d.solver(clock, false) {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let p = position(d, "p", n);
    for x in &p {
        s.assert(d.in_scope(x));
    }
    let (bad, q, value) = joined(d, &p, face, reason);
    s.assert(&bad);
    let found = |m: &Model| -> Result<Counterexample, Error> {
        Ok(Counterexample {
            position: read_all(d, m, &p)?,
            reason,
            move_to: Some(read_all(d, m, &q)?),
            value: value.as_ref().map(|v| d.read(m, v)).transpose()?,
        })
    };
    solve(d, &s, clock, &p, &found)
}

/// A move through `face` from `p` (its amounts fresh numbers `d0`, `d1`, ...) that joins two
/// positions (A) forbids, or (S1) two of equal value: the condition, the position after, and
/// for (S1) the value.
pub(super) fn joined<D: Domain>(
    d: &D,
    p: &[D::N],
    face: u64,
    reason: Reason,
) -> (Bool, Vec<D::N>, Option<D::N>) {
    let take = position(d, "d", face.count_ones() as usize);
    let (q, legal) = move_through(d, p, face, &take);
    let (bad, value) = match reason {
        Reason::MoveBetweenZeros => (Bool::and(&[d.zero(p), d.zero(&q)]), None),
        _ => {
            let v = d.value(p);
            (d.eq(&v, &d.value(&q)), Some(v))
        }
    };
    (Bool::and(&[legal, bad]), q, value)
}

/// A position in scope outside what some option must reach: (B) outside Z with no option in
/// Z, (S2) a value u below the position's with no option of value u.
fn unreached<D: Domain>(
    d: &D,
    n: usize,
    faces: &[u64],
    clock: &Clock,
    reason: Reason,
) -> Result<Found, Error> {
    if let Some(found) = witness::settle(d, n, faces, clock, reason)? {
        return Ok(found);
    }
    if !d.universal() {
        return Ok(Err("the candidate moves did not settle it".into()));
    }
    let s = match d.solver(clock, true) {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let p = position(d, "p", n);
    for x in &p {
        s.assert(d.in_scope(x));
    }
    let u = d.number("u");
    s.assert(outside(d, &p, &u, reason));
    for (i, &face) in faces.iter().enumerate() {
        let take = position(d, &format!("d{i}_"), face.count_ones() as usize);
        let (q, legal) = move_through(d, &p, face, &take);
        let body = legal.implies(reaches(d, &q, &u, reason).not());
        let bound: Vec<&dyn Ast> = take.iter().map(|x| x as &dyn Ast).collect();
        s.assert(forall_const(&bound, &[], &body));
    }
    let found = |m: &Model| unreached_at(d, m, &p, &u, reason);
    solve(d, &s, clock, &p, &found)
}

/// The position must reach something: outside Z ((B)), or `u` below its value ((S2)).
pub(super) fn outside<D: Domain>(d: &D, p: &[D::N], u: &D::N, reason: Reason) -> Bool {
    match reason {
        Reason::NoMoveToZero => d.zero(p).not(),
        _ => Bool::and(&[d.le(&d.konst(0), u), d.lt(u, &d.value(p))]),
    }
}

/// `q` is what the position must reach: in Z, or of value `u`.
pub(super) fn reaches<D: Domain>(d: &D, q: &[D::N], u: &D::N, reason: Reason) -> Bool {
    match reason {
        Reason::NoMoveToZero => d.zero(q),
        _ => d.eq(&d.value(q), u),
    }
}

/// The counterexample to (B) or (S2) in `m`: the position `p`, and for (S2) the value `u`
/// no option has.
pub(super) fn unreached_at<D: Domain>(
    d: &D,
    m: &Model,
    p: &[D::N],
    u: &D::N,
    reason: Reason,
) -> Result<Counterexample, Error> {
    Ok(Counterexample {
        position: read_all(d, m, p)?,
        reason,
        move_to: None,
        value: match reason {
            Reason::NoMoveToZero => None,
            _ => Some(d.read(m, u)?),
        },
    })
}

/// (C): a position in scope where the value is neither 0 nor 1.
fn not_indicator<D: Domain>(d: &D, n: usize, clock: &Clock) -> Result<Found, Error> {
    let s = match d.solver(clock, false) {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let p = position(d, "p", n);
    for x in &p {
        s.assert(d.in_scope(x));
    }
    s.assert(neither(d, &p));
    let found = |m: &Model| -> Result<Counterexample, Error> {
        Ok(Counterexample {
            position: read_all(d, m, &p)?,
            reason: Reason::NotIndicator,
            move_to: None,
            // The word itself is re-computed by the interpreter when re-checked.
            value: None,
        })
    };
    solve(d, &s, clock, &p, &found)
}

/// (C) fails at `p`: the value is neither 0 nor 1.
pub(super) fn neither<D: Domain>(d: &D, p: &[D::N]) -> Bool {
    let v = d.value(p);
    Bool::and(&[d.eq(&v, &d.konst(0)).not(), d.eq(&v, &d.konst(1)).not()])
}

/// Decides the claim of `target` on the game with `n` vertices and these faces. Checks run
/// in order; the first refutation is the answer, and one left open makes the verdict unknown
/// unless a later check refutes.
pub(super) fn decide<D: Domain>(
    d: &D,
    n: usize,
    faces: &[u64],
    target: Target,
    clock: &Clock,
) -> Result<Verdict, Error> {
    let mut open: Option<String> = None;
    let mut note = |name: &str, why: String| {
        open.get_or_insert(format!("{name}: {why}"));
    };
    let per_face = |reason: Reason| -> Result<Found, Error> {
        // The least total over the faces.
        let mut best: Option<Counterexample> = None;
        let mut undecided = None;
        for &face in faces {
            match between(d, n, face, clock, reason)? {
                Ok(Some(c)) => {
                    let t = |c: &Counterexample| c.position.iter().map(|&x| x as u64).sum::<u64>();
                    if best.as_ref().is_none_or(|b| t(&c) < t(b)) {
                        best = Some(c);
                    }
                }
                Ok(None) => {}
                Err(why) => undecided = undecided.or(Some(why)),
            }
        }
        Ok(match (best, undecided) {
            (Some(c), _) => Ok(Some(c)),
            (None, Some(why)) => Err(why),
            (None, None) => Ok(None),
        })
    };
    let checks: Vec<(&str, Reason)> = match target {
        Target::Zero => vec![
            ("condition (A)", Reason::MoveBetweenZeros),
            ("condition (B)", Reason::NoMoveToZero),
        ],
        Target::Indicator => vec![
            ("condition (A)", Reason::MoveBetweenZeros),
            ("condition (B)", Reason::NoMoveToZero),
            ("condition (C)", Reason::NotIndicator),
        ],
        Target::Sg => vec![
            ("condition (S1)", Reason::SameValueOption),
            ("condition (S2)", Reason::MissingValue),
        ],
    };
    for (name, reason) in checks {
        let found = match reason {
            Reason::MoveBetweenZeros | Reason::SameValueOption => per_face(reason)?,
            Reason::NoMoveToZero | Reason::MissingValue => unreached(d, n, faces, clock, reason)?,
            Reason::NotIndicator => not_indicator(d, n, clock)?,
        };
        match found {
            Ok(Some(c)) => return Ok(Verdict::Refuted(c)),
            Ok(None) => {}
            Err(why) => note(name, why),
        }
    }
    Ok(match open {
        Some(why) => Verdict::Unknown(why),
        None => Verdict::Proved,
    })
}
