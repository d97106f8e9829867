//! `grundy verify`: a program checked against SG values recomputed on a box by a search
//! engine (never the tabulation that made `synth`'s data), or against a data file.

use clap::Args;

use super::output::Out;
use super::progress::Bar;
use super::synth::ProblemArgs;
use super::Status;
use grundy_core::error::Error;
use grundy_core::sg::SearchEngine;
use grundy_synth::lang::Program;
use grundy_synth::verify;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    problem: ProblemArgs,
    /// The program, e.g. "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot".
    #[arg(long)]
    program: String,
    /// Search engine recomputing the values on the box: naive (the default), lv, def, scut,
    /// cut with suffixes _R _E _cE _A.
    #[arg(long, value_parser = parse_engine)]
    engine: Option<SearchEngine>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A search engine; `table` and `auto` are refused with the reason.
fn parse_engine(s: &str) -> Result<SearchEngine, String> {
    match s {
        "table" | "auto" => Err(format!(
            "verify recomputes values with a search engine, not `{s}`: tabulation made the \
             data synth learned from; use naive, lv, or a member of the cut family (e.g. cut_cEA)"
        )),
        _ => s.parse(),
    }
}

pub fn run(args: &VerifyArgs) -> Result<Status, Error> {
    let program: Program = args.program.parse()?;
    let task = args.problem.task()?;
    let mut out = Out::new();
    let found = if task.data().is_some() {
        if args.engine.is_some() {
            return Err(Error::Usage(
                "--engine recomputes values on a box (--max); with --data the file holds them"
                    .into(),
            ));
        }
        // The data file is the reference: the program is checked on every row.
        let problem = task.problem(&args.problem.table_options(true)?)?;
        let bad = verify::on_data(&problem, &program)?;
        if args.json {
            out.json(&serde_json::json!({
                "program": program.names(),
                "expression": program.infix(),
                "data": problem.source,
                "points": problem.points.len(),
                "counterexample": bad,
            }))?;
        } else if bad.is_none() {
            out.line(format_args!(
                "ok: {} holds on all {} points of {}",
                program.infix(),
                problem.points.len(),
                problem.source
            ))?;
        }
        bad
    } else {
        let game = task.game().ok_or_else(|| {
            Error::Usage("verify needs the data: GAME --max D, or --data FILE".into())
        })?;
        let max = task
            .max()
            .ok_or_else(|| Error::Usage("verify needs --max D (or --data FILE)".into()))?;
        let bar = Bar::new(!args.json);
        let memory = args.problem.memory_limit()?;
        let engine = args.engine.unwrap_or(SearchEngine::Naive);
        let c = verify::recomputed(game, &program, &task, max, engine, memory, &bar)?;
        if args.json {
            out.json(&serde_json::json!({
                "program": program.names(),
                "expression": program.infix(),
                "check": c,
            }))?;
        } else if c.counterexample.is_none() {
            let of = match &c.family {
                Some(f) => format!("members of the family {f} in"),
                None => "positions in".to_string(),
            };
            out.line(format_args!(
                "ok: {} holds on all {} {of} [0,{max})^{} (values by {}, {:.2} s)",
                program.infix(),
                c.points,
                game.variables(),
                c.engine,
                c.seconds
            ))?;
        }
        c.counterexample
    };
    match found {
        None => Ok(Status::Answered),
        Some(bad) => {
            if !args.json {
                out.line(format_args!("counterexample: {bad}"))?;
            }
            Ok(Status::Counterexample(format!(
                "the program fails at {bad}"
            )))
        }
    }
}
