//! Conditions (A) and (B) for hypergraph nim in z3's linear integer arithmetic.
//!
//! A move through a face F takes d_v >= 1 stones from every vertex v of F (at most p_v) and
//! none elsewhere; the registry lists every face a move may use (a complex's subsets
//! included), so the faces are exactly the moves' supports. (A): for no face is there a p in
//! Z with p - d in Z, one satisfiability check per face. (B): no p outside Z has, for every
//! face, every d leading outside Z: one check with a universal block per face. "Unsat"
//! proves a condition for all positions; "sat" is a counterexample, made small by asking for
//! a smaller total while z3 finds one.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use z3::ast::{forall_const, Ast, Bool, Int};
use z3::{Model, Params, SatResult, Solver};

use crate::solver::stop_requested;

use super::{Counterexample, Reason, Verdict, ZeroSet};
use grundy_core::error::Error;
use grundy_core::game::hypergraph::vertices_of;

/// Most times a counterexample is re-solved for a smaller total.
const SHRINK_STEPS: usize = 24;

/// Why a check stopped when a stop was asked for ([`crate::run::request_stop`], Ctrl-C).
const STOPPED: &str = "stopped on request";

/// Why a check did not run: the deadline passed.
const TIME_UP: &str = "the time limit passed";

/// How often a check in progress looks for a stop asked for.
const STOP_POLL: Duration = Duration::from_millis(20);

/// The time left for z3, and whether a stop was asked for.
pub(super) struct Clock {
    pub(super) deadline: Option<Instant>,
}

/// One satisfiability check's answer.
pub(super) enum Answer {
    Sat(Model),
    Unsat,
    Unknown(String),
}

impl Clock {
    /// A fresh solver, or why there is none: no time is left, or a stop was asked for.
    pub(super) fn solver(&self) -> Result<Solver, String> {
        match self.left_ms() {
            Some(0) => Err(TIME_UP.into()),
            _ if stop_requested() => Err(STOPPED.into()),
            _ => Ok(Solver::new()),
        }
    }

    /// Milliseconds to the deadline, if there is one.
    fn left_ms(&self) -> Option<u128> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()).as_millis())
    }

    /// Checks `s` within the time left (each check gets what is left then, so shrinking a
    /// counterexample never runs past the deadline); a stop asked for meanwhile interrupts it.
    pub(super) fn check(&self, s: &Solver) -> Answer {
        if stop_requested() {
            return Answer::Unknown(STOPPED.into());
        }
        // z3 would catch Ctrl-C itself and answer "unknown" past our handler (and Python's):
        // the stop comes through `stop_requested` instead.
        let mut params = Params::new();
        params.set_bool("ctrl_c", false);
        if let Some(ms) = self.left_ms() {
            if ms == 0 {
                return Answer::Unknown(TIME_UP.into());
            }
            params.set_u32("timeout", ms.min(u32::MAX as u128) as u32);
        }
        s.set_params(&params);
        match interruptible(s) {
            SatResult::Unknown if stop_requested() => Answer::Unknown(STOPPED.into()),
            SatResult::Sat => match s.get_model() {
                Some(m) => Answer::Sat(m),
                None => Answer::Unknown("z3 answered sat without a model".into()),
            },
            SatResult::Unsat => Answer::Unsat,
            SatResult::Unknown => Answer::Unknown(
                s.get_reason_unknown()
                    .unwrap_or_else(|| "z3 gave up".into()),
            ),
        }
    }
}

/// `s.check()`, with a watcher beside it that interrupts z3 once a stop is asked for: z3
/// polls no flag of ours, and a proof may spend minutes in one check.
fn interruptible(s: &Solver) -> SatResult {
    let handle = s.get_context().handle();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            while !done.load(Ordering::Acquire) {
                if stop_requested() {
                    handle.interrupt();
                    return;
                }
                std::thread::park_timeout(STOP_POLL);
            }
        });
        let answer = s.check();
        done.store(true, Ordering::Release);
        watcher.thread().unpark();
        answer
    })
}

pub(super) fn naturals(prefix: &str, n: usize) -> Vec<Int> {
    (0..n)
        .map(|i| Int::new_const(format!("{prefix}{i}")))
        .collect()
}

pub(super) fn total(p: &[Int]) -> Int {
    Int::add(p)
}

pub(super) fn value(m: &Model, x: &Int) -> Result<u32, Error> {
    m.eval(x, true)
        .and_then(|v| v.as_u64())
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| {
            Error::Resource("z3's counterexample has a heap too large to re-check".into())
        })
}

/// Re-solves with a smaller total until z3 finds none (or the steps or time run out);
/// `found` turns a model into the counterexample. The least total found wins.
pub(super) fn shrink(
    s: &Solver,
    clock: &Clock,
    p: &[Int],
    first: Model,
    found: &dyn Fn(&Model) -> Result<Counterexample, Error>,
) -> Result<Counterexample, Error> {
    let mut best = found(&first)?;
    for _ in 0..SHRINK_STEPS {
        let t: u64 = best.position.iter().map(|&x| x as u64).sum();
        if t == 0 {
            break;
        }
        s.assert(total(p).lt(Int::from_u64(t)));
        match clock.check(s) {
            Answer::Sat(m) => best = found(&m)?,
            _ => break,
        }
    }
    Ok(best)
}

/// Decides (A) and then (B) for the game on `n` vertices with these faces.
pub(super) fn decide(
    n: usize,
    faces: &[u64],
    set: &ZeroSet,
    deadline: Option<Instant>,
) -> Result<Verdict, Error> {
    let clock = Clock { deadline };
    let mut best: Option<Counterexample> = None;
    let mut open: Option<String> = None;
    let size = |c: &Counterexample| c.position.iter().map(|&x| x as u64).sum::<u64>();
    for &face in faces {
        match move_between_zeros(n, face, set, &clock, best.as_ref().map(size))? {
            Ok(Some(c)) => best = Some(c),
            Ok(None) => {}
            Err(why) => open = open.or(Some(why)),
        }
    }
    if let Some(c) = best {
        return Ok(Verdict::Refuted(c));
    }
    if let Some(why) = open {
        return Ok(Verdict::Unknown(format!("condition (A): {why}")));
    }
    Ok(match no_move_to_zero(n, faces, set, &clock)? {
        Ok(Some(c)) => Verdict::Refuted(c),
        Ok(None) => Verdict::Proved,
        Err(why) => Verdict::Unknown(format!("condition (B): {why}")),
    })
}

/// The position after taking `d[v]` from each vertex of `face`.
fn after(p: &[Int], face: u64, d: &[Int]) -> Vec<Int> {
    let mut q = p.to_vec();
    for (k, v) in vertices_of(face).enumerate() {
        q[v] = Int::sub(&[p[v].clone(), d[k].clone()]);
    }
    q
}

/// The decrements of a move through `face`: 1 <= d_v <= p_v.
fn legal(p: &[Int], face: u64, d: &[Int]) -> Bool {
    let parts: Vec<Bool> = vertices_of(face)
        .enumerate()
        .flat_map(|(k, v)| [d[k].ge(Int::from_u64(1)), d[k].le(&p[v])])
        .collect();
    Bool::and(&parts)
}

pub(super) fn nonnegative(s: &Solver, p: &[Int]) {
    for x in p {
        s.assert(x.ge(Int::from_u64(0)));
    }
}

/// Condition (A) through one face: `Ok(Some)` a counterexample with a total below `below`
/// (when given), `Ok(None)` none, `Err` z3's reason for giving up.
fn move_between_zeros(
    n: usize,
    face: u64,
    set: &ZeroSet,
    clock: &Clock,
    below: Option<u64>,
) -> Result<Result<Option<Counterexample>, String>, Error> {
    let s = match clock.solver() {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let p = naturals("p", n);
    let d = naturals("d", face.count_ones() as usize);
    let q = after(&p, face, &d);
    nonnegative(&s, &p);
    s.assert(legal(&p, face, &d));
    s.assert(set.z3(&p));
    s.assert(set.z3(&q));
    if let Some(t) = below {
        s.assert(total(&p).lt(Int::from_u64(t)));
    }
    let found = |m: &Model| -> Result<Counterexample, Error> {
        let position = p.iter().map(|x| value(m, x)).collect::<Result<_, _>>()?;
        let move_to = q.iter().map(|x| value(m, x)).collect::<Result<_, _>>()?;
        Ok(Counterexample {
            position,
            reason: Reason::MoveBetweenZeros,
            move_to: Some(move_to),
            value: None,
        })
    };
    Ok(match clock.check(&s) {
        Answer::Sat(m) => Ok(Some(shrink(&s, clock, &p, m, &found)?)),
        Answer::Unsat => Ok(None),
        Answer::Unknown(why) => Err(why),
    })
}

/// Condition (B): a position outside Z from which every move of every face leads outside Z.
fn no_move_to_zero(
    n: usize,
    faces: &[u64],
    set: &ZeroSet,
    clock: &Clock,
) -> Result<Result<Option<Counterexample>, String>, Error> {
    let s = match clock.solver() {
        Ok(s) => s,
        Err(why) => return Ok(Err(why)),
    };
    let p = naturals("p", n);
    nonnegative(&s, &p);
    s.assert(set.z3(&p).not());
    for (i, &face) in faces.iter().enumerate() {
        let d = naturals(&format!("d{i}_"), face.count_ones() as usize);
        let q = after(&p, face, &d);
        let body = legal(&p, face, &d).implies(set.z3(&q).not());
        let bound: Vec<&dyn Ast> = d.iter().map(|x| x as &dyn Ast).collect();
        s.assert(forall_const(&bound, &[], &body));
    }
    let found = |m: &Model| -> Result<Counterexample, Error> {
        Ok(Counterexample {
            position: p.iter().map(|x| value(m, x)).collect::<Result<_, _>>()?,
            reason: Reason::NoMoveToZero,
            move_to: None,
            value: None,
        })
    };
    Ok(match clock.check(&s) {
        Answer::Sat(m) => Ok(Some(shrink(&s, clock, &p, m, &found)?)),
        Answer::Unsat => Ok(None),
        Answer::Unknown(why) => Err(why),
    })
}
