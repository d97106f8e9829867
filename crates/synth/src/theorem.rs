//! `synth --prove`: counterexample-guided synthesis whose verifier is the prover.
//!
//! A program the search finds is right on the data, which is a finite box. The prover
//! ([`crate::prove`]) decides whether its zero set is the set of P-positions for every
//! position; when it is not, the prover's counterexample (the position, and the position it
//! moves to) joins the data with its value from a search engine, and the search starts again
//! on the larger data. Every search is shortest-first on all the data it has, so a "minimal"
//! it reports is minimal for the enlarged data, hence for every program that is right
//! everywhere.

use std::time::Instant;

use super::cegis::Answer;
use super::data::{Dataset, Points};
use super::lang::Program;
use super::problem::{Problem, Target};
use super::task::Task;
use crate::prove::{self, Counterexample, Theorem, Verdict};
use grundy_core::catalog::AnyGame;
use grundy_core::catalog::HeapSum;
use grundy_core::cluster::Team;
use grundy_core::error::{Error, Kind, OptionKey};
use grundy_core::game::hypergraph::HypergraphNim;
use grundy_core::game::symmetry::Symmetry;
use grundy_core::game::{MoveOrder, Nimber};
use grundy_core::sg::{SearchConfig, SearchEngine};

/// Most refutations before the loop gives up: each costs one search from length 1.
pub(crate) const MAX_ROUNDS: usize = 32;

/// How the proof of the last program ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProofStatus {
    /// The program's zero set is the set of P-positions, for every position.
    Proved,
    /// The last program found is refuted, and the search could not go on (the rounds, the
    /// time or the word width ran out; `why` says which).
    Refuted,
    /// Neither proved nor refuted: the prover's time ran out, the program has no reading it
    /// can prove, or the search found no program.
    Unknown,
}

/// One program the prover refuted, and the data it brought.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Refuted {
    /// The program, in its instruction names.
    pub program: String,
    /// Where the program's zero set and the P-positions differ, re-checked by the game's moves.
    pub counterexample: Counterexample,
    /// Positions added to the data (the counterexample's, and with orbits their images).
    pub added: usize,
}

/// What `--prove` established about the program reported.
#[derive(Clone, Debug)]
pub struct Proof {
    /// How far the proof went: proved, refuted, or unknown.
    pub status: ProofStatus,
    /// The prover's last statement and verdict, when it ran on the program reported.
    pub theorem: Option<Theorem>,
    /// Why the status is not `proved`, in words.
    pub why: Option<String>,
    /// The programs refuted on the way, in order.
    pub history: Vec<Refuted>,
}

/// A game the prover takes: hypergraph nim ([`prove::prove`]) or a sum of heap games
/// ([`prove::heaps::prove`]).
#[derive(Clone, Copy)]
pub(crate) enum ProverGame<'a> {
    /// Hypergraph nim.
    Graph(&'a HypergraphNim),
    /// A sum of heap games.
    Heaps(&'a HeapSum),
}

impl ProverGame<'_> {
    /// The game as the search engines take it, to value the counterexamples.
    fn game(&self) -> &dyn AnyGame {
        match *self {
            ProverGame::Graph(g) => g,
            ProverGame::Heaps(g) => g,
        }
    }

    fn symmetry(&self) -> &Symmetry {
        self.game().symmetry()
    }

    /// The prover for this kind of game.
    fn prove(&self, program: &Program, opts: &prove::Options) -> Result<Theorem, Error> {
        match *self {
            ProverGame::Graph(g) => prove::prove(g, program, opts),
            ProverGame::Heaps(g) => prove::heaps::prove(g, program, opts),
        }
    }
}

/// The prover's target for the search's target.
fn prover_target(target: Target) -> prove::Target {
    match target {
        Target::Zero => prove::Target::Zero,
        Target::Indicator => prove::Target::Indicator,
        Target::Sg => prove::Target::Sg,
    }
}

/// The game as the prover takes it, or why `--prove` does not apply to this task: asked for
/// explicitly, a proof that cannot run is refused before the search (a usage error).
pub(crate) fn prover_game(task: &Task) -> Result<ProverGame<'_>, Error> {
    let game = task.game();
    let refuse = |why: &str| Err(Error::refused(OptionKey::Prove, format!(": {why}")));
    let Some(game) = game else {
        return refuse("the prover needs a game, whose moves it reasons about");
    };
    if task.family().is_some() {
        return refuse(
            "a program over a family's parameters is not a statement about every position; \
             prove it without the family",
        );
    }
    if task.target() == Target::Sg && task.orbits() {
        return refuse(
            "the prover proves the sg target under the plain criterion only, not orbits",
        );
    }
    if let Some(g) = game.kind().hypergraph() {
        return Ok(ProverGame::Graph(g));
    }
    match game.kind().heaps() {
        Some(_) if task.target() != Target::Zero => {
            refuse("the prover proves heap games for the zero target (the default target)")
        }
        Some(g) => match prove::heaps::takes(g.game().rule()) {
            Ok(_) => Ok(ProverGame::Heaps(g)),
            Err(e) => refuse(&e.to_string()),
        },
        None => refuse(&format!(
            "the prover handles games of hypergraph nim and sums of heap games, not {}",
            game.name()
        )),
    }
}

/// Proves `answer`'s program on `game`; on a refutation, adds the counterexample to the data
/// (rebuilt by `task`) and calls `search` again, until the program is proved, the proof is
/// undecided, the search finds nothing, or `deadline` passes. A program of hypergraph nim with
/// no exact linear reading is proved over bit-vectors for heaps below 2^`bound` (by default
/// the widest bound candidate moves prove, else [`prove::bitvec::DEFAULT_BOUND`]), as
/// `grundy prove` does. Returns the last problem (the data the reported program was searched
/// on), its answer and the proof. Under a team of several ranks, rank 0 proves and tells the
/// others the counterexample, and every rank searches the data it adds together.
#[allow(clippy::too_many_arguments)]
pub(crate) fn prove_and_search(
    game: ProverGame<'_>,
    task: &Task,
    mut problem: Problem,
    mut answer: Answer,
    deadline: Option<Instant>,
    bound: Option<u32>,
    team: &dyn Team,
    search: &mut dyn FnMut(&Problem) -> Result<Answer, Error>,
) -> Result<(Problem, Answer, Proof), Error> {
    if let Some(b) = bound {
        prove::bitvec::check_bound(b)?;
    }
    let mut history = Vec::new();
    let mut added_total = 0;
    let source = problem.source.clone();
    loop {
        let program = match &answer {
            Answer::Found(o) => o.program.clone(),
            Answer::Undecided(_) => {
                let proof = Proof::open("the search found no program to prove", history);
                return Ok((problem, answer, proof));
            }
        };
        // Rank 0 proves (the prover's clock could judge differently elsewhere); every rank
        // learns whether a counterexample sends the search on, and which.
        let judged = match team.is_root() {
            true => prove_once(
                game,
                &program,
                problem.orbits,
                task.target(),
                deadline,
                bound,
            )
            .map(Some),
            false => Ok(None),
        };
        let (judged, next) = match judged {
            Ok(j) => {
                let next = match &j {
                    Some(Ok(t)) => match &t.verdict {
                        Verdict::Refuted(c) => Some(c.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                (j, Ok(next))
            }
            Err(e) => (None, Err(e)),
        };
        let Some(c) = team.share(next)? else {
            return Ok((problem, answer, ended(judged, history)));
        };
        let theorem = judged.and_then(Result::ok);
        let stop = |why: String, history: Vec<Refuted>, theorem: Option<Theorem>| Proof {
            status: ProofStatus::Refuted,
            theorem,
            why: Some(why),
            history,
        };
        let grown = grow(game, &problem, &c)?;
        history.push(Refuted {
            program: program.to_string(),
            counterexample: c.clone(),
            added: grown
                .as_ref()
                .map_or(0, |d| d.points.len() - problem.points.len()),
        });
        let data = match grown {
            Ok(data) => data,
            Err(why) => return Ok((problem, answer, stop(why, history, theorem))),
        };
        if history.len() >= MAX_ROUNDS {
            let why = format!("{MAX_ROUNDS} programs refuted; the search stops there");
            return Ok((problem, answer, stop(why, history, theorem)));
        }
        if team.any(deadline.is_some_and(|d| Instant::now() >= d)) {
            let why = "the time ran out before a search on the data it adds".to_string();
            return Ok((problem, answer, stop(why, history, theorem)));
        }
        added_total += data.points.len() - problem.points.len();
        let mut data = data;
        let noun = if added_total == 1 {
            "position"
        } else {
            "positions"
        };
        data.source =
            format!("{source} and {added_total} {noun} from the prover's counterexamples");
        let next = task
            .with_orbits(problem.orbits)
            .problem_from(data, Some(game.game()))?;
        answer = search(&next)?;
        problem = next;
        // A search stopped by the deadline that found nothing keeps the refuted program's
        // verdict: the question stays open.
        if let Answer::Undecided(_) = &answer {
            let proof = Proof::open(
                "the search on the data the counterexamples added found no program in time",
                history,
            );
            return Ok((problem, answer, proof));
        }
    }
}

/// The proof of a program the prover did not refute: `judged` is rank 0's judgement (`None`
/// on the other ranks, whose proofs are not reported).
fn ended(judged: Option<Result<Theorem, String>>, history: Vec<Refuted>) -> Proof {
    let theorem = match judged {
        None => return Proof::open("rank 0 proves", history),
        Some(Err(why)) => return Proof::open(&why, history),
        Some(Ok(t)) => t,
    };
    match &theorem.verdict {
        Verdict::Proved => Proof {
            status: ProofStatus::Proved,
            theorem: Some(theorem),
            why: None,
            history,
        },
        Verdict::Unknown(why) => {
            let why = format!("the prover settled neither way: {why}");
            let mut proof = Proof::open(&why, history);
            proof.theorem = Some(theorem);
            proof
        }
        // Refuted programs send the search on.
        Verdict::Refuted(_) => Proof::open("the prover refuted it", history),
    }
}

impl Proof {
    fn open(why: &str, history: Vec<Refuted>) -> Self {
        Proof {
            status: ProofStatus::Unknown,
            theorem: None,
            why: Some(why.to_string()),
            history,
        }
    }
}

/// One run of the prover within what is left of `deadline`; `Err` inside when it cannot judge
/// this program, with the reason: no time left, no reading it proves (a heap game's program
/// that is neither linear nor read column by column; over bit-vectors, a step that wraps),
/// which leaves it unknown.
fn prove_once(
    game: ProverGame<'_>,
    program: &Program,
    orbits: bool,
    target: Target,
    deadline: Option<Instant>,
    bound: Option<u32>,
) -> Result<Result<Theorem, String>, Error> {
    let timeout = match deadline {
        Some(d) => match d.checked_duration_since(Instant::now()) {
            Some(left) if !left.is_zero() => Some(left.as_secs_f64()),
            _ => return Ok(Err("the time ran out before the proof".into())),
        },
        None => None,
    };
    // Fields other parts add to the prover's options keep their defaults here.
    #[allow(clippy::needless_update)]
    let opts = prove::Options {
        orbits,
        timeout,
        target: prover_target(target),
        fallback_bound: bound,
        ..Default::default()
    };
    match game.prove(program, &opts) {
        // The bound was checked before the search, and the program is the search's own: what
        // the prover refuses as input here is this program (a step that wraps, a constant
        // too wide), which it cannot judge.
        Err(e) if e.kind() == Kind::BadInput => {
            Ok(Err(format!("the prover cannot take the program: {e}")))
        }
        other => other.map(Ok),
    }
}

/// The data with the counterexample's positions added (and their images under the group, with
/// orbits), valued by a search engine; `Err` inside when they cannot join it.
fn grow(
    game: ProverGame<'_>,
    problem: &Problem,
    c: &Counterexample,
) -> Result<Result<Dataset, String>, Error> {
    let mut fresh: Vec<Vec<u32>> = vec![c.position.clone()];
    fresh.extend(c.move_to.iter().cloned());
    // Outside a box closed under moves (a data file), both may be known already: then the
    // position's options are what the data lacks.
    let known: ahash::AHashSet<&[u64]> = problem.points.iter().collect();
    let is_new = |p: &[u32]| {
        let x: Vec<u64> = p.iter().map(|&v| v.into()).collect();
        !known.contains(x.as_slice())
    };
    if !fresh.iter().any(|p| is_new(p)) {
        fresh = options(game, &c.position)?;
    }
    if problem.orbits {
        let sym = game.symmetry();
        fresh = fresh.iter().flat_map(|p| sym.orbit(p)).collect();
    }
    fresh.sort();
    fresh.dedup();
    fresh.retain(|p| is_new(p));
    if fresh.is_empty() {
        // The program is right on these positions in its words but not over the naturals
        // the prover reads (a step wraps): more data cannot tell them apart.
        return Ok(Err(format!(
            "the counterexample ({c}) and its options are in the data already: the program \
             is right there in {} bits but not over unbounded naturals (a step wraps; a wider \
             word holds it)",
            problem.width
        )));
    }
    let mask = problem.mask();
    if let Some(big) = fresh.iter().flatten().find(|&&v| u64::from(v) > mask) {
        return Ok(Err(format!(
            "the counterexample holds {big}, which does not fit in {} bits (a wider word holds \
             it)",
            problem.width
        )));
    }
    let mut points = Points::with_capacity(problem.vars(), problem.points.len() + fresh.len());
    problem.points.iter().for_each(|x| points.push(x));
    let mut values: Vec<Nimber> = problem.values.clone();
    let any = game.game();
    let mut searcher = any.searcher(SearchEngine::Naive, SearchConfig::default());
    for p in &fresh {
        let x: Vec<u64> = p.iter().map(|&v| v.into()).collect();
        values.push(searcher.nimber(any.position(&x)?));
        points.push(&x);
    }
    Ok(Ok(Dataset {
        vars: problem.vars(),
        points,
        values,
        source: problem.source.clone(),
    }))
}

/// Every position one move from `p`.
fn options(game: ProverGame<'_>, p: &[u32]) -> Result<Vec<Vec<u32>>, Error> {
    let x: Vec<u64> = p.iter().map(|&v| v.into()).collect();
    let mut out = Vec::new();
    let any = game.game();
    any.successors(&any.position(&x)?, MoveOrder::Natural, &mut out);
    Ok(out
        .into_iter()
        .map(|q| q.iter().copied().collect())
        .collect())
}

#[cfg(test)]
#[path = "theorem_tests.rs"]
mod tests;
