//! `grundy decode --cnf FILE --model MODEL`: a program from an external SAT solver's model.
//!
//! The CNF's comment lines record the game, box, target, width and instruction set, so the
//! program is re-checked on the same data without repeating any option.

use std::path::PathBuf;

use clap::Args;

use super::synth::{target_name, ProblemArgs};
use crate::error::Error;
use crate::synth::problem::Target;
use crate::synth::sat::decode_model;

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
    json: bool,
}

/// Rebuilds the problem options from `c note grundy KEY VALUE` lines (as `synth` exports them).
fn options_from_comments(
    cnf: &str,
    path: &std::path::Path,
) -> Result<(ProblemArgs, Option<Vec<usize>>), Error> {
    let mut subset = None;
    let mut args = ProblemArgs {
        game: None,
        max: None,
        data: None,
        target: Target::Zero,
        orbits: false,
        width: 8,
        ops: String::new(),
        threads: None,
    };
    let bad = |msg: String| Error::Data {
        path: path.into(),
        msg,
    };
    for line in cnf
        .lines()
        .take_while(|l| l.starts_with('c') || l.trim().is_empty())
    {
        let Some(rest) = line.strip_prefix("c note grundy ") else {
            continue;
        };
        let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
        let value = value.trim().to_string();
        match key {
            "game" => args.game = Some(value),
            "max" => {
                args.max = Some(
                    value
                        .parse()
                        .map_err(|_| bad(format!("bad box size `{value}`")))?,
                )
            }
            "data" => args.data = Some(value.into()),
            "target" => {
                args.target = match value.as_str() {
                    "zero" => Target::Zero,
                    "indicator" => Target::Indicator,
                    "sg" => Target::Sg,
                    _ => return Err(bad(format!("unknown target `{value}`"))),
                }
            }
            "orbits" => args.orbits = value == "true",
            "width" => {
                args.width = value
                    .parse()
                    .map_err(|_| bad(format!("bad width `{value}`")))?
            }
            "ops" => {
                args.ops = if value == "thesis" {
                    String::new()
                } else {
                    value
                }
            }
            "example-set" => {
                let list: Result<Vec<usize>, _> = value.split(',').map(str::parse).collect();
                subset = Some(list.map_err(|_| bad(format!("bad example list `{value}`")))?);
            }
            _ => {}
        }
    }
    if args.game.is_none() && args.data.is_none() {
        return Err(bad(
            "no `c note grundy game` or `c note grundy data` line: not exported by grundy synth"
                .into(),
        ));
    }
    Ok((args, subset))
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

pub fn run(args: &DecodeArgs) -> Result<(), Error> {
    let cnf = std::fs::read_to_string(&args.cnf).map_err(|e| Error::io(&args.cnf, e))?;
    let model = std::fs::read_to_string(&args.model).map_err(|e| Error::io(&args.model, e))?;
    let (opts, subset) = options_from_comments(&cnf, &args.cnf)?;
    let program = decode_model(&cnf, &competition_format(&model))?;
    let game = opts.game()?;
    let problem = opts.problem(game.as_ref())?;
    let failures = problem.failures(&program);
    // A model must satisfy the examples its instance held; anything else is a wrong model.
    if let Some(&bad) = subset.iter().flatten().find(|e| failures.contains(e)) {
        let why = super::verify::describe(&problem, &program, &problem.examples[bad]);
        let msg = format!("the model's program fails an example the instance holds: {why}");
        return Err(Error::Data {
            path: args.model.clone(),
            msg,
        });
    }
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
    let ok = failures.is_empty();
    if args.json {
        let obj = serde_json::json!({
            "program": program.names(),
            "expression": program.infix(),
            "length": program.len(),
            "width": problem.width,
            "target": target_name(problem.target),
            "orbits": problem.orbits,
            "verified_points": if ok { problem.points.len() } else { 0 },
            "satisfies_data": ok,
        });
        println!("{obj}");
    } else {
        println!("program:      {program}");
        println!("expression:   {}", program.infix());
        println!(
            "target:       {} (orbits: {}), width {}",
            target_name(problem.target),
            problem.orbits,
            problem.width
        );
        if ok {
            println!(
                "data:         {}: verified on all {} points",
                problem.source,
                problem.points.len()
            );
        }
    }
    if let Some(&e) = failures.first() {
        let why = super::verify::describe(&problem, &program, &problem.examples[e]);
        let held = if subset.is_some() {
            "satisfies the exported examples but "
        } else {
            ""
        };
        return Err(Error::Failed(format!(
            "the decoded program {held}fails on the data: {why}"
        )));
    }
    Ok(())
}
