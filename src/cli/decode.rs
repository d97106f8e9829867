//! `grundy decode --cnf FILE --model MODEL`: a program from an external SAT solver's model.
//! `grundy decode --cnf DIR/lenL.icnf --answers ANSWERS`: the answers of the cubes of an
//! `--export-cubes` split, solved as separate jobs, merged into what the whole length is.
//!
//! The CNF's comment lines record the game, box, target, width and instruction set, so the
//! program is re-checked on the same data without repeating any option.

use std::path::{Path, PathBuf};

use clap::Args;

use super::output::Out;
use super::Status;
use grundy_core::error::Error;
use grundy_core::sg::table::TableOptions;
use grundy_synth::sat::{cnf_length, cube_count, decode_model, merge, verdict, Merged, Verdict};
use grundy_synth::setup::{target_name, Setup};
use grundy_synth::verify;

#[derive(Args, Debug)]
pub struct DecodeArgs {
    /// The DIMACS file `synth --export-cnf` wrote.
    #[arg(long, value_name = "FILE")]
    cnf: PathBuf,
    /// The solver's output: `s SATISFIABLE` and `v ...` lines.
    #[arg(long, value_name = "MODEL", required_unless_present = "answers")]
    model: Option<PathBuf>,
    /// A directory of one solver output per cube of the iCNF given as --cnf, named K.out for
    /// cube K (from 0, in the order of its `a` lines): the length has a program when a cube
    /// is satisfied (its model is decoded), and is refuted when every cube is unsatisfiable.
    #[arg(long, value_name = "DIR", conflicts_with = "model")]
    answers: Option<PathBuf>,
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

/// The verdict in each cube's answer file `dir/K.out` (`Unknown` when there is none); a
/// file named for a cube the iCNF does not have is refused.
fn read_verdicts(dir: &Path, cubes: usize) -> Result<Vec<Verdict>, Error> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| Error::io(dir, e))?.path();
        let cube = path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse::<usize>().ok());
        if let (Some(k), Some("out")) = (cube, path.extension().and_then(|e| e.to_str())) {
            if k >= cubes {
                return Err(Error::Data {
                    path,
                    msg: format!("the iCNF has cubes 0 to {} only", cubes - 1),
                });
            }
        }
    }
    (0..cubes)
        .map(|k| {
            let path = dir.join(format!("{k}.out"));
            match std::fs::read_to_string(&path) {
                Ok(text) => Ok(verdict(&text)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Verdict::Unknown),
                Err(e) => Err(Error::io(&path, e)),
            }
        })
        .collect()
}

/// `--answers`: the merged verdict of the cubes; a satisfied cube's model goes on to be
/// decoded (returned with its cube), anything else is the answer.
fn merge_answers(
    args: &DecodeArgs,
    dir: &Path,
    cnf: &str,
) -> Result<Result<(usize, String), Status>, Error> {
    let cubes = cube_count(cnf);
    if cubes == 0 {
        return Err(Error::Data {
            path: args.cnf.clone(),
            msg: "no cubes (`a` lines): --answers merges the answers to an iCNF that \
                  synth --export-cubes wrote"
                .into(),
        });
    }
    let length = cnf_length(cnf).ok_or_else(|| Error::Data {
        path: args.cnf.clone(),
        msg: "no `c grundy-cnf v1 length <L>` header: not an instance grundy wrote".into(),
    })?;
    let verdicts = read_verdicts(dir, cubes)?;
    let mut out = Out::new();
    match merge(cubes, |k| verdicts[k]) {
        Merged::Satisfied { cube } => {
            let path = dir.join(format!("{cube}.out"));
            let model = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
            Ok(Ok((cube, model)))
        }
        Merged::Refuted { cubes } => Ok(Err(refuted(
            args,
            length,
            Some(cubes),
            &format!("all {cubes} cubes are unsatisfiable"),
        )?)),
        Merged::Open { undecided, cubes } => {
            if args.json {
                out.json(&serde_json::json!({
                    "length": length, "refuted": false, "cubes": cubes, "undecided": undecided,
                }))?;
            } else {
                let list: Vec<String> = undecided.iter().map(|k| k.to_string()).collect();
                out.line(format_args!(
                    "undecided:    length {length}: no cube is satisfied, and cubes {} ({} of \
                     {cubes}) have no verdict in {}",
                    list.join(", "),
                    undecided.len(),
                    dir.display()
                ))?;
            }
            Ok(Err(Status::Undecided))
        }
    }
}

/// A length refuted by the solver (one model, or every cube's answer, unsatisfiable): a
/// proved answer, printed and exited on as one, however it was reached.
fn refuted(
    args: &DecodeArgs,
    length: usize,
    cubes: Option<usize>,
    why: &str,
) -> Result<Status, Error> {
    let mut out = Out::new();
    if args.json {
        out.json(&serde_json::json!({
            "length": length, "refuted": true, "cubes": cubes, "undecided": [],
        }))?;
    } else {
        out.line(format_args!(
            "refuted:      length {length}: {why}, so no program of {length} instructions \
             fits the instance's examples"
        ))?;
    }
    Ok(Status::Answered)
}

pub fn run(args: &DecodeArgs) -> Result<Status, Error> {
    let cnf = std::fs::read_to_string(&args.cnf).map_err(|e| Error::io(&args.cnf, e))?;
    let (cube, model) = match (&args.answers, &args.model) {
        (Some(dir), _) => match merge_answers(args, dir, &cnf)? {
            Ok((cube, model)) => (Some(cube), model),
            Err(answered) => return Ok(answered),
        },
        (None, Some(path)) => {
            let model = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
            (None, model)
        }
        (None, None) => return Err(Error::Usage("decode needs --model or --answers".into())),
    };
    let model_path = match (&args.answers, cube) {
        (Some(dir), Some(k)) => dir.join(format!("{k}.out")),
        _ => args.model.clone().unwrap_or_default(),
    };
    let (setup, subset) = Setup::from_notes(&cnf, &args.cnf)?;
    // The task first: an edited comment is refused before anything else is read or built.
    let task = setup.task()?;
    // Unsatisfiable, the clauses have no model (with an iCNF's cubes, as CaDiCaL solves them,
    // none has): the length is refuted, as when --answers finds every cube unsatisfiable.
    if cube.is_none() && verdict(&model) == Verdict::Unsatisfiable {
        let length = cnf_length(&cnf).ok_or_else(|| Error::Data {
            path: args.cnf.clone(),
            msg: "no `c grundy-cnf v1 length <L>` header: not an instance grundy wrote".into(),
        })?;
        return refuted(args, length, None, "the solver found it unsatisfiable");
    }
    let program = decode_model(&cnf, &competition_format(&model))?;
    let problem = task.problem(&TableOptions::default())?;
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
            path: model_path,
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
            "cube": cube,
        }))?;
    } else {
        if let Some(k) = cube {
            out.line(format_args!("cube:         {k} is satisfied"))?;
        }
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
