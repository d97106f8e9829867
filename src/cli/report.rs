//! How a synthesis result is reported: text for people, one JSON object for scripts. A result
//! is a minimal program, the shortest program found with the lengths left undecided, or, when
//! the search stopped before any program, the lower bound alone.

use super::output::Out;
use grundy_core::catalog::AnyGame;
use grundy_core::error::Error;
use grundy_synth::cegis::{Answer, Refutation, Stop};
use grundy_synth::form::Choice;
use grundy_synth::lang::{words, Program};
use grundy_synth::problem::{Problem, Target};
use grundy_synth::setup::target_name;
use grundy_synth::solver::Method;
use grundy_synth::theorem::Proof;
use grundy_synth::upper::{How, UpperBound};
use grundy_synth::verify::CrossCheck;

fn target_text(t: Target) -> &'static str {
    match t {
        Target::Zero => "zero: output 0 exactly on the zero positions",
        Target::Indicator => "indicator: output 0 on zero positions, 1 elsewhere",
        Target::Sg => "sg: output equals the SG value",
    }
}

/// Groups consecutive refutations with the same reason: "1-4 by dependency bound".
fn refutation_text(r: &[Refutation]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < r.len() {
        let mut j = i;
        while j + 1 < r.len() && r[j + 1].by == r[i].by && r[j + 1].length == r[j].length + 1 {
            j += 1;
        }
        let range = if i == j {
            format!("{}", r[i].length)
        } else {
            format!("{}-{}", r[i].length, r[j].length)
        };
        let how = if r[i].by == Method::DependencyBound {
            "the dependency bound".to_string()
        } else {
            format!("{} (exhaustive on {} examples)", r[i].by, r[j].examples)
        };
        parts.push(format!("{range} by {how}"));
        i = j + 1;
    }
    parts.join(", ")
}

/// What `synth` found, and around it what the report mentions.
pub struct Report<'a> {
    pub problem: &'a Problem,
    /// The game whose positions the variables are (none for data files and families).
    pub game: Option<&'a dyn AnyGame>,
    /// What the variables are (`grundy_synth::setup::Setup::variables`).
    pub variables: &'a str,
    pub answer: &'a Answer,
    /// The `--solver` name.
    pub solver: &'a str,
    /// Seconds spent making the data.
    pub data_seconds: f64,
    pub cross: Option<&'a CrossCheck>,
    /// The files exported, as JSON objects.
    pub exported: &'a [serde_json::Value],
    /// What `--prove` established (none without it).
    pub proof: Option<&'a Proof>,
    /// Which form the program has (plain or orbits) and why.
    pub form: Option<&'a Choice>,
}

/// The answer's common parts.
pub(super) struct Facts<'a> {
    pub(super) program: Option<&'a Program>,
    status: &'static str,
    lower_bound: usize,
    refutations: &'a [Refutation],
    /// Why lengths from `lower_bound` on are open ([`Stop::text`]).
    open: Option<&'static str>,
    upper: Option<&'a UpperBound>,
    dependent_vars: &'a [usize],
    examples: usize,
    rounds: usize,
    seconds_search: f64,
    seconds_verify: f64,
}

impl<'a> Facts<'a> {
    pub(super) fn of(answer: &'a Answer) -> Self {
        match answer {
            Answer::Found(o) => Facts {
                program: Some(&o.program),
                status: if o.minimal {
                    "minimal"
                } else {
                    "shortest found"
                },
                lower_bound: o.lower_bound(),
                refutations: &o.trace.refutations,
                open: o.stopped.map(Stop::text),
                upper: o.upper.as_ref(),
                dependent_vars: &o.trace.dependent_vars,
                examples: o.trace.examples.len(),
                rounds: o.trace.rounds,
                seconds_search: o.trace.seconds_search,
                seconds_verify: o.seconds_verify,
            },
            Answer::Undecided(p) => Facts {
                program: None,
                status: "undecided",
                lower_bound: p.lower_bound,
                refutations: &p.trace.refutations,
                open: Some(p.stopped.text()),
                upper: None,
                dependent_vars: &p.trace.dependent_vars,
                examples: p.trace.examples.len(),
                rounds: p.trace.rounds,
                seconds_search: p.trace.seconds_search,
                seconds_verify: 0.0,
            },
        }
    }

    /// "no program shorter than 12 (lengths 1-10 by ..., 11 by ...); 12-15 undecided (timed
    /// out)", or for a minimal program the refutations alone.
    pub(super) fn length_text(&self) -> String {
        let refuted = refutation_text(self.refutations);
        match (self.program, self.open) {
            (Some(_), None) if refuted.is_empty() => "minimal".to_string(),
            (Some(_), None) => format!("minimal: lengths {refuted}"),
            (program, open) => {
                let l = self.lower_bound;
                let mut text = format!("{}: no program shorter than {l}", self.status);
                if !refuted.is_empty() {
                    text += &format!(" (lengths {refuted})");
                }
                let open = open.unwrap_or("timed out");
                match program.map(Program::len) {
                    Some(u) if u > l + 1 => text += &format!("; {l}-{} undecided ({open})", u - 1),
                    Some(_) => text += &format!("; {l} undecided ({open})"),
                    None => text += &format!("; {l} and longer undecided ({open})"),
                }
                text
            }
        }
    }
}

/// How an upper bound was found, in words.
fn how_text(u: &UpperBound) -> String {
    let vars = |v: &[usize]| {
        v.iter()
            .map(|v| format!("x{v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let how = match &u.how {
        How::Lifted {
            variables,
            base_length,
        } if !variables.is_empty() => format!(
            "lifting: length {base_length} on the slice {} = 0, then {} combined in",
            variables
                .iter()
                .map(|v| format!("x{v}"))
                .collect::<Vec<_>>()
                .join(" = "),
            vars(variables)
        ),
        How::Lifted { .. } => "lifting".to_string(),
        How::Decomposed { conditions } => format!(
            "decomposition: the Or of {} necessary conditions, {}",
            conditions.len(),
            conditions
                .iter()
                .map(|c| format!("{} = 0", c.infix()))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        How::Union(u) => {
            let side = |c: &[grundy_synth::lang::Program]| {
                if c.is_empty() {
                    "nothing more".to_string()
                } else {
                    c.iter()
                        .map(|c| format!("{} = 0", c.infix()))
                        .collect::<Vec<_>>()
                        .join(" and ")
                }
            };
            format!(
                "union of decompositions: where {}, {}; elsewhere, {}",
                u.split.words,
                side(&u.sides[0]),
                side(&u.sides[1]),
            )
        }
        How::Stochastic { steps } => format!("stochastic search, {steps} proposals"),
    };
    if u.added.is_empty() {
        how
    } else {
        format!(
            "{how}; with {} added to the instructions (none found without)",
            names(&u.added)
        )
    }
}

/// Instruction names, comma-separated.
fn names(ops: &[grundy_synth::lang::Op]) -> String {
    ops.iter()
        .map(|o| o.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn how_json(u: &UpperBound) -> serde_json::Value {
    let mut obj = serde_json::json!({
        "strategy": u.how.name(),
        "seconds": u.seconds,
    });
    match &u.how {
        How::Lifted {
            variables,
            base_length,
        } => {
            obj["variables"] = variables.clone().into();
            obj["base_length"] = (*base_length).into();
        }
        How::Decomposed { conditions } => {
            obj["conditions"] = conditions
                .iter()
                .map(|c| c.infix())
                .collect::<Vec<_>>()
                .into();
        }
        How::Union(u) => {
            let infix =
                |c: &[grundy_synth::lang::Program]| c.iter().map(|c| c.infix()).collect::<Vec<_>>();
            if let Some(v) = u.variable() {
                obj["variable"] = v.into();
            }
            obj["split"] = u.split.words.clone().into();
            obj["conditions"] = serde_json::json!([infix(&u.sides[0]), infix(&u.sides[1])]);
        }
        How::Stochastic { steps } => obj["steps"] = (*steps).into(),
    }
    obj["added_instructions"] = u
        .added
        .iter()
        .map(|o| o.to_string())
        .collect::<Vec<_>>()
        .into();
    obj
}

/// Prints the result of `synth`: text, or one JSON object, which names `failed` (a write or a
/// cross-check that failed after the search) beside the answer.
pub fn print(report: &Report<'_>, json: bool, failed: Option<&Error>) -> Result<(), Error> {
    let Report {
        problem,
        game,
        variables: vars,
        answer,
        solver,
        data_seconds,
        cross,
        exported,
        proof,
        form,
    } = *report;
    let facts = Facts::of(answer);
    let mut out = Out::new();
    let game_name = game.map_or("the game", |g| g.name());
    let n = problem.vars();
    let reading = problem
        .orbits
        .then_some("p is a zero position iff some symmetric image of p gives 0");
    // Where the output is 0, in words, for the targets whose zeros are the zero positions.
    let words_text = match (problem.target, facts.program) {
        (Target::Zero | Target::Indicator, Some(p)) => {
            words::zero_set(p, problem.mask()).map(|w| {
                if problem.orbits {
                    format!("p is a zero position iff some symmetric image of p has {w}")
                } else {
                    format!("p is a zero position iff {w}")
                }
            })
        }
        _ => None,
    };
    // Vertices in no face with another: easy to make by mistake (`complex:0-1,1-9`).
    let isolated = game
        .and_then(|g| g.kind().hypergraph())
        .map(|g| g.graph().isolated())
        .unwrap_or_default();
    let isolated_note = (!isolated.is_empty() && isolated.len() < n).then(|| {
        let list: Vec<String> = isolated.iter().map(|v| format!("x{v}")).collect();
        match list.len() {
            1 => format!(
                "{} lies in no face with another vertex: it is a plain nim heap",
                list[0]
            ),
            _ => format!(
                "{} lie in no face with another vertex: each is a plain nim heap",
                list.join(", ")
            ),
        }
    });
    if json {
        let mut obj = serde_json::json!({
            "status": facts.status,
            "program": facts.program.map(Program::names),
            "expression": facts.program.map(Program::infix),
            "length": facts.program.map(Program::len),
            "lower_bound": facts.lower_bound,
            "upper_bound": facts.program.map(Program::len),
            "minimal": facts.status == "minimal",
            "undecided": facts.open.map(|_| facts.lower_bound),
            "stopped": facts.open,
            "width": problem.width,
            "target": target_name(problem.target),
            "orbits": problem.orbits,
            "form": form.map(|c| c.form.name()),
            "form_why": form.map(|c| c.why.as_str()),
            "reading": reading,
            "words": words_text,
            "note": isolated_note,
            "variables": vars,
            "instructions": problem.ops.describe(),
            "data": problem.source,
            "data_points": problem.points.len(),
            "examples": problem.examples.len(),
            "verified_points": facts.program.map(|_| problem.points.len()),
            "solver": solver,
            "refutations": facts.refutations,
            "found_by": facts.upper.map(how_json),
            "dependent_vars": facts.dependent_vars,
            "cegis_examples": facts.examples,
            "rounds": facts.rounds,
            "seconds": {
                "data": data_seconds,
                "search": facts.seconds_search,
                "verify": facts.seconds_verify,
                "cross_check": cross.map(|c| c.seconds),
            },
            "cross_check": cross,
            "exported": exported,
            "proof": proof.map(|p| super::synth::proof::json(p, game_name)),
        });
        if let Some(e) = failed {
            super::output::error_fields(&mut obj, e);
        }
        return out.json(&obj);
    }
    match facts.program {
        Some(p) => {
            out.line(format_args!("program:      {p}"))?;
            out.line(format_args!("expression:   {}", p.infix()))?;
        }
        None => out.line(format_args!("program:      none found (status undecided)"))?,
    }
    if let Some(w) = &words_text {
        out.line(format_args!("in words:     {w}"))?;
    }
    out.line(format_args!("variables:    {vars}"))?;
    if let Some(note) = &isolated_note {
        out.line(format_args!("note:         {note}"))?;
    }
    out.line(format_args!(
        "target:       {}",
        target_text(problem.target)
    ))?;
    if let Some(r) = reading {
        out.line(format_args!("reading:      {r} (orbit criterion)"))?;
    }
    if let Some(c) = form {
        out.line(format_args!("form:         {} ({})", c.form.name(), c.why))?;
    }
    match facts.program {
        Some(p) => out.line(format_args!(
            "length:       {} ({})",
            p.len(),
            facts.length_text()
        ))?,
        None => out.line(format_args!("length:       {}", facts.length_text()))?,
    }
    out.line(format_args!("width:        {} bits", problem.width))?;
    out.line(format_args!("instructions: {}", problem.ops.describe()))?;
    let verified = if facts.program.is_some() {
        "; the program verified on every point"
    } else {
        ""
    };
    out.line(format_args!(
        "data:         {}, {} points, {} examples{verified}",
        problem.source,
        problem.points.len(),
        problem.examples.len()
    ))?;
    if let Some(u) = facts.upper {
        out.line(format_args!(
            "found by:     {} ({:.2} s)",
            how_text(u),
            u.seconds
        ))?;
    }
    out.line(format_args!(
        "solver:       {solver}, {} rounds, {} examples in the final solve",
        facts.rounds, facts.examples
    ))?;
    out.line(format_args!(
        "time:         data {data_seconds:.3} s, search {:.3} s, verify {:.3} s",
        facts.seconds_search, facts.seconds_verify
    ))?;
    if let Some(c) = cross {
        let on = match &c.family {
            Some(f) => format!(
                "the members of the family ({f}) with coordinates below {}",
                c.max
            ),
            None => format!("[0,{})^{n}", c.max),
        };
        match &c.counterexample {
            None => out.line(format_args!(
                "cross-check:  holds on {on} ({} points, values by {}, {:.2} s)",
                c.points, c.engine, c.seconds
            ))?,
            Some(bad) => out.line(format_args!("cross-check:  FAILS on {on}: {bad}"))?,
        }
    }
    if let Some(p) = proof {
        for line in super::synth::proof::text(p, game_name) {
            out.line(format_args!("{line}"))?;
        }
    }
    Ok(())
}
