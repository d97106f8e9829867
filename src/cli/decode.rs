//! `grundy decode --cnf FILE --model MODEL`: a program from an external SAT solver's model.
//!
//! The CNF's comment lines record the game, box, target, width and instruction set, so the
//! program is re-checked on the same data without repeating any option.

use std::path::PathBuf;

use clap::Args;

use super::output::Out;
use super::Status;
use crate::error::Error;
use crate::sg::table::TableOptions;
use crate::synth::sat::decode_model;
use crate::synth::setup::{target_name, Setup};
use crate::synth::verify;

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The DIMACS file `synth --export-cnf` wrote.
    #[arg(long, value_name = "FILE")]
    cnf: PathBuf,
    /// The solver's output: `s SATISFIABLE` and `v ...` lines.
    #[arg(long, value_name = "MODEL")]
    model: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// MiniSat writes `SAT` and a line of literals to its result file; rewrite that as the
/// competition's `s SATISFIABLE` / `v ...` so one reader serves every solver.
fn competition_format(model: &str) -> String {
    let mut lines = model.lines();
    match lines.next().map(str::trim) {
        Some("SAT") => format!(
            "s SATISFIABLE\n{}",
            lines.map(|l| format!("v {l}\n")).collect::<String>()
        ),
        Some("UNSAT") => "s UNSATISFIABLE\n".to_string(),
        _ => model.to_string(),
    }
}

pub fn run(args: &DecodeArgs) -> Result<Status, Error> {
    let cnf = std::fs::read_to_string(&args.cnf).map_err(|e| Error::io(&args.cnf, e))?;
    let model = std::fs::read_to_string(&args.model).map_err(|e| Error::io(&args.model, e))?;
    let (setup, subset) = Setup::from_notes(&cnf, &args.cnf)?;
    // The game first: an edited comment is refused before anything else is read or built.
    let game = setup.game()?;
    let program = decode_model(&cnf, &competition_format(&model))?;
    let problem = setup.problem(game.as_deref(), &TableOptions::default())?;
    if let Some(&bad) = subset
        .iter()
        .flatten()
        .find(|&&e| e >= problem.examples.len())
    {
        let msg = format!("example {bad} is not in the data");
        return Err(Error::Data {
            path: args.cnf.clone(),
            msg,
        });
    }
    let failures = problem.failures(&program);
    // A model must satisfy the examples its instance held (all of them when no example set
    // is recorded); anything else is a wrong model, or data changed since the export.
    let held = |e: &usize| subset.as_ref().is_none_or(|s| s.contains(e));
    if let Some(&bad) = failures.iter().find(|e| held(e)) {
        let why = verify::describe(&problem, &program, &problem.examples[bad]);
        let msg = format!("the model's program fails an example the instance holds: {why}");
        return Err(Error::Data {
            path: args.model.clone(),
            msg,
        });
    }
    let first_failure = failures
        .first()
        .map(|&e| verify::describe(&problem, &program, &problem.examples[e]));
    let mut out = Out::new();
    if args.json {
        out.json(&serde_json::json!({
            "program": program.names(),
            "expression": program.infix(),
            "length": program.len(),
            "width": problem.width,
            "target": target_name(problem.target),
            "orbits": problem.orbits,
            "data": problem.source,
            "data_points": problem.points.len(),
            "satisfies_data": first_failure.is_none(),
            "counterexample": first_failure,
        }))?;
    } else {
        out.line(format_args!("program:      {program}"))?;
        out.line(format_args!("expression:   {}", program.infix()))?;
        out.line(format_args!(
            "target:       {} (orbits: {}), width {}",
            target_name(problem.target),
            problem.orbits,
            problem.width
        ))?;
        match &first_failure {
            None => out.line(format_args!(
                "data:         {}: verified on all {} points",
                problem.source,
                problem.points.len()
            ))?,
            Some(why) => out.line(format_args!("counterexample: {why}"))?,
        }
    }
    Ok(match first_failure {
        None => Status::Answered,
        // Only an instance that held a subset of the examples can meet this.
        Some(why) => Status::Counterexample(format!(
            "the decoded program satisfies the exported examples but fails on the data: {why}"
        )),
    })
}
