//! `grundy prove`: a theorem for all positions, that a program's zero set is exactly the
//! P-positions of a game.
//!
//! A set Z of positions is the set of P-positions iff (A) no move leads from Z to Z and (B)
//! every position outside Z has a move into Z (induction on the number of stones). The
//! program's zero condition is read as linear integer arithmetic over unbounded naturals
//! ([`reading`]); moves of hypergraph nim are linear too, so z3 decides (A) and (B) for every
//! position at once (`hypergraph.rs`). A counterexample z3 finds is re-checked by the game's
//! own moves and the reference interpreter ([`check`]) before it is reported.
//!
//! `--target indicator` and `--target sg` claim more of the program's value ([`target`]);
//! programs with no exact linear reading are proved over bit-vectors for every position with
//! heaps below 2^B ([`bitvec`]), a theorem with that scope.

pub mod bitvec;
pub mod check;
mod clock;
pub mod formula;
pub mod heaps;
mod hypergraph;
mod lia;
mod linear;
pub mod reading;
pub mod target;
mod widths;
mod witness;

use std::time::Instant;

use z3::ast::{Bool, Int};

use crate::lang::Program;
use formula::Formula;
use grundy_core::catalog::AnyGame;
use grundy_core::error::{Error, OptionKey};
use grundy_core::game::hypergraph::HypergraphNim;
pub use target::Target;

/// Most automorphisms `--orbits` unions the zero set over: each is one more copy of the
/// reading in every formula z3 is given.
pub const MAX_AUTOMORPHISMS: u128 = 720;

/// Most faces a game may have: each is one quantified block of condition (B).
pub const MAX_FACES: usize = 512;

/// What to prove and how long to try.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Z is the union of the program's zero set over the automorphism group.
    pub orbits: bool,
    /// Seconds for the whole proof (none: no limit).
    pub timeout: Option<f64>,
    /// What the program claims: its zero set, an indicator, or the SG value.
    pub target: Target,
    /// Prove over bit-vectors for heaps below 2^bound (also without a linear reading: by
    /// default the widest bound candidate moves prove, else [`bitvec::DEFAULT_BOUND`]).
    pub bound: Option<u32>,
    /// The word width of a proof over bit-vectors (by default the least the bound needs).
    pub width: Option<u32>,
    /// The bound of the fallback to bit-vectors for a program with no exact linear reading,
    /// when `bound` is none (by default as for `bound`); unlike `bound`, it leaves
    /// a program with a linear reading proved over unbounded naturals (`synth --bound`).
    pub fallback_bound: Option<u32>,
}

/// The statement proved: where the program is 0, over unbounded naturals.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Reading {
    /// In plain words.
    pub words: String,
    /// As an infix formula.
    pub infix: String,
    /// As LaTeX.
    pub latex: String,
}

/// Why a position contradicts the claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The position and `move_to`, one move away, are both in the zero set (fails (A)).
    MoveBetweenZeros,
    /// The position is outside the zero set and no move leads into it (fails (B)).
    NoMoveToZero,
    /// `--target indicator`: the program's value at the position is neither 0 nor 1.
    NotIndicator,
    /// `--target sg`: the option `move_to` has the position's value `value`.
    SameValueOption,
    /// `--target sg`: `value` is below the position's value and no option has it.
    MissingValue,
}

/// A position where the program's zero set and the P-positions differ, re-checked by the
/// game's moves.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counterexample {
    /// The position: heap sizes, or for hypergraph nim the tokens on each vertex.
    pub position: Vec<u32>,
    /// Which condition it fails.
    pub reason: Reason,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The option that shows it, for reasons about a move.
    pub move_to: Option<Vec<u32>>,
    /// The program's value (`not_indicator`, `same_value_option`) or the value no option
    /// has (`missing_value`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<u64>,
}

impl std::fmt::Display for Counterexample {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |p: &[u32]| {
            p.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let (p, v) = (show(&self.position), self.value.unwrap_or_default());
        match (&self.reason, &self.move_to) {
            (Reason::MoveBetweenZeros, Some(q)) => write!(
                f,
                "{} and {} are both in the zero set, and a move leads from the first to the second",
                show(&self.position),
                show(q)
            ),
            (Reason::NotIndicator, _) => write!(f, "the program gives {v} at {p}, not 0 or 1"),
            (Reason::SameValueOption, Some(q)) => write!(
                f,
                "the program gives {v} at {p} and at {}, one move away",
                show(q)
            ),
            (Reason::MissingValue, _) => write!(
                f,
                "the program gives more than {v} at {p}, and no move leads to a position where \
                 it gives {v}"
            ),
            _ => write!(
                f,
                "{} is outside the zero set, and no move leads into it",
                show(&self.position)
            ),
        }
    }
}

/// How the proof ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// z3 showed (A) and (B) for every position.
    Proved,
    /// z3 found a position that contradicts the claim, re-checked by the game's moves.
    Refuted(Counterexample),
    /// z3 gave up or the time ran out; the text says on what.
    Unknown(String),
}

/// The outcome of `prove`: the statement and its verdict.
#[derive(Clone, Debug)]
pub struct Theorem {
    /// The zero set proved about, per the program's reading.
    pub reading: Reading,
    /// Which positions the statement is about: "all positions", or "heaps below 2^B".
    pub scope: String,
    /// What the program was claimed to compute (`--target`).
    pub target: Target,
    /// The bound B of a proof over bit-vectors, for heaps below 2^B (none over unbounded
    /// naturals).
    pub bound: Option<u32>,
    /// The word width of a proof over bit-vectors (none over unbounded naturals, or when the
    /// check that no step wraps was left undecided).
    pub width: Option<u32>,
    /// Why the proof is over bit-vectors when it was not asked for: the step with no exact
    /// linear reading.
    pub no_linear_reading: Option<String>,
    /// Proved, refuted with a counterexample, or unknown.
    pub verdict: Verdict,
    /// For a program with no linear reading decided for every position column by column:
    /// the machine states the searches reached (the proof's certificate).
    pub states: Option<usize>,
    /// Automorphisms the zero set is a union over (1 without `--orbits`).
    pub automorphisms: usize,
    /// The game's faces (the sets of heaps a move may change): the proof has conditions per face.
    pub faces: usize,
    /// Wall-clock seconds the proof took.
    pub seconds: f64,
}

/// A theorem, and for a heap game the amounts its moves take.
pub type Found = (Theorem, Option<Vec<heaps::Take>>);

/// `found` as one JSON object, as `grundy prove --json` prints it and the Python package
/// returns it: the verdict, its scope and reading, the counterexample or why it is unknown.
/// `game` is the spec as typed, `program` the program proved, `orbits` whether its reading
/// was over orbits.
pub fn json(found: &Found, game: &str, program: &Program, orbits: bool) -> serde_json::Value {
    let (t, takes) = found;
    let (status, counterexample, undecided) = match &t.verdict {
        Verdict::Proved => ("proved", serde_json::Value::Null, None),
        Verdict::Refuted(c) => ("refuted", serde_json::json!(c), None),
        Verdict::Unknown(why) => ("unknown", serde_json::Value::Null, Some(why.clone())),
    };
    serde_json::json!({
        "status": status,
        "scope": t.scope,
        "target": t.target,
        "bound": t.bound,
        "width": t.width,
        "no_linear_reading": t.no_linear_reading,
        "states": t.states,
        "game": game,
        "program": program.names(),
        "expression": program.infix(),
        "orbits": orbits,
        "automorphisms": t.automorphisms,
        "faces": t.faces,
        "heaps": takes.as_ref().map(|_| t.faces),
        "reading": t.reading,
        "counterexample": counterexample,
        "undecided": undecided,
        "seconds": t.seconds,
    })
}

/// The theorem about `game`, of hypergraph nim or a heap game, and for a heap game the amounts
/// its moves take; `None` for a game the prover does not handle (a board game).
pub fn prove_game(
    game: &dyn AnyGame,
    program: &Program,
    opts: &Options,
) -> Result<Option<Found>, Error> {
    if let Some(g) = game.kind().hypergraph() {
        return Ok(Some((prove(g, program, opts)?, None)));
    }
    if let Some(g) = game.kind().heaps() {
        let takes = heaps::takes(g.game().rule())?;
        return Ok(Some((heaps::prove(g, program, opts)?, Some(takes))));
    }
    Ok(None)
}

/// The candidate set Z: positions where the program is 0 on some image under the group.
pub struct ZeroSet {
    zero: Formula,
    /// Each image `img` of the positions: the program reads `p[img[j]]` as x_j.
    images: Vec<Vec<usize>>,
}

impl ZeroSet {
    /// Whether `p` is in the set by the reading, or `None` when a term overflows.
    pub fn holds(&self, p: &[i128]) -> Option<bool> {
        for img in &self.images {
            let x: Vec<i128> = img.iter().map(|&v| p[v]).collect();
            if self.zero.eval(&x)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Membership of the position `p` in z3.
    pub fn z3(&self, p: &[Int]) -> Bool {
        let parts: Vec<Bool> = self
            .images
            .iter()
            .map(|img| {
                let x: Vec<Int> = img.iter().map(|&v| p[v].clone()).collect();
                self.zero.z3(&x)
            })
            .collect();
        Bool::or(&parts)
    }

    /// Membership in z3 of the position `p` less `k` on coordinate `v` (what a move of a heap
    /// game leaves), with remainders of x_v rewritten through p's ([`formula::Term::shifted`]).
    pub fn z3_after(&self, p: &[Int], v: usize, k: u64) -> Bool {
        let parts: Vec<Bool> = self
            .images
            .iter()
            .map(|img| {
                let x: Vec<Int> = img.iter().map(|&w| p[w].clone()).collect();
                let j = img
                    .iter()
                    .position(|&w| w == v)
                    .expect("an image is a permutation");
                self.zero.shifted(j as u8, k as i128).z3(&x)
            })
            .collect();
        Bool::or(&parts)
    }

    /// The images, for the interpreter's re-check.
    pub fn images(&self) -> &[Vec<usize>] {
        &self.images
    }
}

/// The reading of `program` in the three styles, or why it has none (a usage error where a
/// linear reading is required).
pub fn read(program: &Program) -> Result<Formula, Error> {
    reading::zero_condition(program).map_err(|why| {
        Error::Usage(format!(
            "the program's zero condition has no exact reading in linear integer arithmetic \
             ({why})"
        ))
    })
}

/// The automorphisms as images of the vertex list, or the identity alone without `orbits`.
fn images(game: &HypergraphNim, orbits: bool) -> Result<Vec<Vec<usize>>, Error> {
    images_under(game.graph().vertices(), game.symmetry(), orbits)
}

/// The images of the `n` coordinates under `sym` (the identity alone without `orbits`).
fn images_under(
    n: usize,
    sym: &grundy_core::game::symmetry::Symmetry,
    orbits: bool,
) -> Result<Vec<Vec<usize>>, Error> {
    if !orbits {
        return Ok(vec![(0..n).collect()]);
    }
    sym.require_complete()?;
    match sym.order() {
        Some(k) if k <= MAX_AUTOMORPHISMS => {}
        k => {
            return Err(Error::Resource(format!(
                "with orbits: the automorphism group has {} elements, more than the \
                 {MAX_AUTOMORPHISMS} a proof unions over",
                k.map_or("too many".into(), |k| k.to_string())
            )))
        }
    }
    // The orbit of the vertex list itself: its distinct entries make every image distinct.
    let ids: Vec<u32> = (0..n as u32).collect();
    Ok(sym
        .orbit(&ids)
        .into_iter()
        .map(|img| img.into_iter().map(|v| v as usize).collect())
        .collect())
}

/// Proves or refutes that the zero set of `program` (unioned over the automorphisms with
/// `orbits`) is exactly the P-positions of `game`, for every position.
pub fn prove(game: &HypergraphNim, program: &Program, opts: &Options) -> Result<Theorem, Error> {
    let start = Instant::now();
    let n = game.graph().vertices();
    if let Some(v) = program.max_var().filter(|&v| v >= n) {
        return Err(Error::Usage(format!(
            "the program reads x{v}, but {} has {n} vertices (x0..x{})",
            game.name(),
            n - 1
        )));
    }
    if !program.is_valid() {
        return Err(Error::Usage(format!(
            "`{program}` is not a valid program: it must leave exactly one value"
        )));
    }
    let faces = game.graph().faces();
    if faces.len() > MAX_FACES {
        return Err(Error::Resource(format!(
            "{} has {} faces; a proof handles at most {MAX_FACES}",
            game.name(),
            faces.len()
        )));
    }
    if opts.target == Target::Sg && opts.orbits {
        return Err(Error::refused(
            OptionKey::Orbits,
            " works with the zero and indicator targets, not sg",
        ));
    }
    let images = images(game, opts.orbits)?;
    let automorphisms = images.len();
    let deadline = opts
        .timeout
        .map(|s| start + std::time::Duration::from_secs_f64(s));
    let clock = clock::Clock { deadline };
    // --bound or --width asks for bit-vectors; otherwise they are the fallback.
    let linear = match opts.bound.is_some() || opts.width.is_some() {
        true => None,
        false => Some(lia::plan(program, opts.target)),
    };
    // A verdict already re-checked by the game's moves.
    let mut checked = false;
    let mut states = None;
    let (reading, bound, width, verdict, no_linear_reading) = match linear {
        Some(Ok(plan)) => {
            let set = plan.zero.map(|zero| ZeroSet {
                zero,
                images: images.clone(),
            });
            let verdict = match (opts.target, &set) {
                (Target::Zero, Some(set)) => {
                    linear::decide(n, &hypergraph::Faces(faces), set, &clock)?
                }
                (target, set) => {
                    let d = lia::Naturals {
                        set: set.as_ref(),
                        value: plan.value.as_ref(),
                    };
                    target::decide(&d, n, faces, target, &clock)?
                }
            };
            (plan.reading, None, None, verdict, None)
        }
        other => {
            let why = other.and_then(Result::err);
            let asked = opts.bound.or(opts.fallback_bound);
            // Every width first, then the widest bound, each with half the time left.
            // Why the column-by-column reading settled nothing, for a refusal below.
            let mut unread = None;
            let (every, widest) = match (asked, opts.width) {
                (None, None) => match every_width(game, program, &images, opts.target, &clock)? {
                    Ok(found) => (Some(found), None),
                    Err(why) => {
                        unread = Some(why);
                        (None, widest(game, program, &images, opts.target, &clock))
                    }
                },
                _ => (None, None),
            };
            let bound = asked.unwrap_or(bitvec::DEFAULT_BOUND);
            let reading = own_reading(program, opts.target);
            let zero = opts.target == Target::Zero;
            checked = every.is_some() || widest.is_some();
            if let Some((verdict, k)) = every {
                states = Some(k);
                (reading, None, None, verdict, why)
            } else if let Some((bound, w, verdict)) = widest {
                (reading, Some(bound), Some(w), verdict, why)
            } else {
                let width = bitvec::width(program, n, bound, opts.width, zero, &clock);
                let width = match (width, unread) {
                    (Err(Error::Usage(e)), Some(why)) => {
                        Err(Error::Usage(format!("{e} (column by column: {why})")))
                    }
                    (width, _) => width,
                };
                match width? {
                    Ok(w) => {
                        let d = bitvec::Bits {
                            program,
                            images: &images,
                            bound,
                            width: w,
                            universal: true,
                        };
                        let verdict = target::decide(&d, n, faces, opts.target, &clock)?;
                        (reading, Some(bound), Some(w), verdict, why)
                    }
                    Err(open) => {
                        let verdict =
                            Verdict::Unknown(format!("the check that no step wraps: {open}"));
                        (reading, Some(bound), None, verdict, why)
                    }
                }
            }
        }
    };
    let mut verdict = verdict;
    // Every width's and the widest bound's refutations were re-checked there.
    if let (Verdict::Refuted(c), false) = (&mut verdict, checked) {
        recheck(game, program, &images, c)?;
    }
    Ok(Theorem {
        reading,
        scope: match bound {
            None => "all positions".to_string(),
            Some(b) => format!("heaps below 2^{b}"),
        },
        target: opts.target,
        bound,
        width,
        no_linear_reading,
        verdict,
        states,
        automorphisms,
        faces: faces.len(),
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The statement of a program with no linear reading: its own expression (= 0 for the zero
/// and indicator targets).
fn own_reading(program: &Program, target: Target) -> Reading {
    let eq0 = |s: String| match target {
        Target::Sg => s,
        _ => format!("{s} = 0"),
    };
    Reading {
        words: eq0(program.infix()),
        infix: match target {
            Target::Sg => program.infix(),
            _ => format!("({}) == 0", program.infix()),
        },
        latex: eq0(program.latex()),
    }
}

/// Re-checks a counterexample by the game's move generator and the interpreter (for the
/// value reasons, by the mex of the interpreter's values on the options).
fn recheck(
    game: &HypergraphNim,
    program: &Program,
    images: &[Vec<usize>],
    c: &mut Counterexample,
) -> Result<(), Error> {
    match c.reason {
        Reason::MoveBetweenZeros | Reason::NoMoveToZero => check::recheck(game, program, images, c),
        _ => check::recheck_value(game, program, c),
    }
}

/// The verdict for every position of a program with no linear reading, read column by column
/// ([`widths`]), and the states reached; or why that does not settle it (the candidate moves
/// miss, a step is not automatic, too many states), tried for half the time left (at most
/// [`WIDEST_SECONDS`] without a limit).
fn every_width(
    game: &HypergraphNim,
    program: &Program,
    images: &[Vec<usize>],
    target: Target,
    clock: &clock::Clock,
) -> Result<widths::Decided, Error> {
    let part = clock.share(0.5, WIDEST_SECONDS);
    widths::decide(game, program, images, target, &part)
}

/// Seconds the attempt at the widest bound may take when the proof has no time limit.
const WIDEST_SECONDS: f64 = 30.0;

/// The widest bound B, its width and the verdict there, when candidate moves alone settle
/// `program` at a bound wider than [`bitvec::DEFAULT_BOUND`]: every heap below 2^B for the
/// largest B at which no step can pass 64 bits. Tried for half the time left (at most
/// [`WIDEST_SECONDS`] without a limit). A proof there is the answer, and so is a refutation
/// the game's moves re-check; anything else (undecided, or a counterexample too large to
/// re-check) leaves the proof to the default bound.
fn widest(
    game: &HypergraphNim,
    program: &Program,
    images: &[Vec<usize>],
    target: Target,
    clock: &clock::Clock,
) -> Option<(u32, u32, Verdict)> {
    let bound = bitvec::widest_bound(program).filter(|&b| b > bitvec::DEFAULT_BOUND)?;
    let part = clock.share(0.5, WIDEST_SECONDS);
    let n = game.graph().vertices();
    let zero = target == Target::Zero;
    let w = bitvec::width(program, n, bound, None, zero, &part)
        .ok()?
        .ok()?;
    let d = bitvec::Bits {
        program,
        images,
        bound,
        width: w,
        universal: false,
    };
    match target::decide(&d, n, game.graph().faces(), target, &part) {
        Ok(Verdict::Proved) => Some((bound, w, Verdict::Proved)),
        Ok(Verdict::Refuted(mut c)) => recheck(game, program, images, &mut c)
            .ok()
            .map(|()| (bound, w, Verdict::Refuted(c))),
        _ => None,
    }
}

/// The zero set of `program` as a formula, unioned over `images` (for tests and re-checks).
pub fn zero_set(program: &Program, images: Vec<Vec<usize>>) -> Result<ZeroSet, Error> {
    Ok(ZeroSet {
        zero: read(program)?,
        images,
    })
}

#[cfg(test)]
mod target_tests;
#[cfg(test)]
mod tests;
