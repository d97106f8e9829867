//! How a synthesized program is reported: text for people, one JSON object for scripts.

use super::output::Out;
use crate::error::Error;
use crate::game::HypergraphNim;
use crate::synth::cegis::{Outcome, Refutation};
use crate::synth::lang::words;
use crate::synth::problem::{Problem, Target};
use crate::synth::setup::target_name;
use crate::synth::solver::Method;
use crate::synth::verify::CrossCheck;

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
    pub game: Option<&'a HypergraphNim>,
    pub outcome: &'a Outcome,
    /// The `--solver` name.
    pub solver: &'a str,
    /// Seconds spent making the data.
    pub data_seconds: f64,
    pub cross: Option<&'a CrossCheck>,
    /// The files exported, as JSON objects.
    pub exported: &'a [serde_json::Value],
}

/// Prints the result of `synth`: text, or one JSON object.
pub fn print(report: &Report<'_>, json: bool) -> Result<(), Error> {
    let Report {
        problem,
        game,
        outcome: o,
        solver,
        data_seconds,
        cross,
        exported,
    } = *report;
    let mut out = Out::new();
    let n = problem.vars();
    let vars = match game {
        Some(g) => format!(
            "x0..x{} are the stones on vertices 0..{} of {}",
            n - 1,
            n - 1,
            g.name()
        ),
        None => format!("x0..x{} are the columns of the data", n - 1),
    };
    let status = if o.minimal {
        "minimal"
    } else {
        "shortest found"
    };
    let reading = problem
        .orbits
        .then_some("p is a zero position iff some symmetric image of p gives 0");
    // Where the output is 0, in words, for the targets whose zeros are the zero positions.
    let words = match problem.target {
        Target::Sg => None,
        Target::Zero | Target::Indicator => words::zero_set(&o.program, problem.mask()),
    };
    let words_text = words.as_ref().map(|w| {
        if problem.orbits {
            format!("p is a zero position iff some symmetric image of p has {w}")
        } else {
            format!("p is a zero position iff {w}")
        }
    });
    // Vertices in no face with another: easy to make by mistake (`complex:0-1,1-9`).
    let isolated = game.map(|g| g.graph().isolated()).unwrap_or_default();
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
        let obj = serde_json::json!({
            "program": o.program.names(),
            "expression": o.program.infix(),
            "length": o.program.len(),
            "width": problem.width,
            "minimal": o.minimal,
            "status": status,
            "target": target_name(problem.target),
            "orbits": problem.orbits,
            "reading": reading,
            "words": words_text,
            "note": isolated_note,
            "variables": vars,
            "instructions": problem.ops.describe(),
            "data": problem.source,
            "data_points": problem.points.len(),
            "examples": problem.examples.len(),
            "verified_points": problem.points.len(),
            "solver": solver,
            "refutations": o.refutations,
            "undecided": o.undecided,
            "lifted": o.lifted.as_ref().map(|l| serde_json::json!({
                "variables": l.variables,
                "base_length": l.base_length,
            })),
            "dependent_vars": o.dependent_vars,
            "cegis_examples": o.examples.len(),
            "rounds": o.rounds,
            "seconds": {
                "data": data_seconds,
                "search": o.seconds_search,
                "verify": o.seconds_verify,
                "cross_check": cross.map(|c| c.seconds),
            },
            "cross_check": cross,
            "exported": exported,
        });
        return out.json(&obj);
    }
    out.line(format_args!("program:      {}", o.program))?;
    out.line(format_args!("expression:   {}", o.program.infix()))?;
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
    let mut why = if o.refutations.is_empty() {
        String::new()
    } else {
        format!(": lengths {}", refutation_text(&o.refutations))
    };
    if let Some(u) = o.undecided {
        why.push_str(&format!("; {u} undecided (timed out)"));
    }
    out.line(format_args!(
        "length:       {} ({status}{why})",
        o.program.len()
    ))?;
    out.line(format_args!("width:        {} bits", problem.width))?;
    out.line(format_args!("instructions: {}", problem.ops.describe()))?;
    out.line(format_args!(
        "data:         {}, {} points, {} examples; the program verified on every point",
        problem.source,
        problem.points.len(),
        problem.examples.len()
    ))?;
    let how = match &o.lifted {
        Some(l) if !l.variables.is_empty() => {
            let vars: Vec<String> = l.variables.iter().map(|v| format!("x{v}")).collect();
            format!(
                " (found by lifting: length {} on the slice {} = 0, then {} combined in)",
                l.base_length,
                vars.join(" = "),
                vars.join(", ")
            )
        }
        _ => String::new(),
    };
    out.line(format_args!(
        "solver:       {solver}{how}, {} rounds, {} examples in the final solve",
        o.rounds,
        o.examples.len()
    ))?;
    out.line(format_args!(
        "time:         data {data_seconds:.3} s, search {:.3} s, verify {:.3} s",
        o.seconds_search, o.seconds_verify
    ))?;
    if let Some(c) = cross {
        match &c.counterexample {
            None => out.line(format_args!(
                "cross-check:  holds on [0,{})^{n} ({} points, values by {}, {:.2} s)",
                c.max, c.points, c.engine, c.seconds
            ))?,
            Some(bad) => out.line(format_args!(
                "cross-check:  FAILS on [0,{})^{n}: {bad}",
                c.max
            ))?,
        }
    }
    Ok(())
}
