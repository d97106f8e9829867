//! `grundy verify`: a program checked against SG values recomputed on a (larger) box by a
//! search engine, never the tabulation that made the synthesis data.

use std::time::Instant;

use clap::Args;

use super::synth::{canonical, ProblemArgs};
use crate::error::Error;
use crate::game::HypergraphNim;
use crate::game::Nimber;
use crate::sg::sweep::sweep;
use crate::sg::table::available_memory;
use crate::sg::{SearchConfig, SearchEngine};
use crate::synth::check::{self, Failure};
use crate::synth::data::Dataset;
use crate::synth::lang::Program;
use crate::synth::problem::{Canonical, Example, Problem, Target};

#[derive(Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    problem: ProblemArgs,
    /// The program, e.g. "Push(2) Push(0) BooleanEq Push(1) RightShift BooleanNot".
    #[arg(long)]
    program: String,
    /// Search engine recomputing the values.
    #[arg(long, default_value = "naive")]
    engine: SearchEngine,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The result of checking a program on a box.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CrossCheck {
    pub max: usize,
    pub points: usize,
    pub engine: String,
    pub seconds: f64,
    /// The first failing example, described.
    pub counterexample: Option<String>,
}

/// Recomputes [0,max)^n with `engine` and checks `program` under the same target and width,
/// point by point ([`check`]): only the values are held, 4 bytes a position.
pub fn check_with(
    game: &HypergraphNim,
    program: &Program,
    args: &ProblemArgs,
    max: usize,
    engine: SearchEngine,
) -> Result<CrossCheck, Error> {
    let start = Instant::now();
    if max == 0 {
        return Err(Error::Usage("the box size must be at least 1".into()));
    }
    let n = game.graph().vertices();
    if program.max_var().is_some_and(|v| v >= n) {
        return Err(Error::Usage(format!(
            "the program reads x{} but {} has {n} vertices",
            program.max_var().unwrap(),
            game.name()
        )));
    }
    let dims = vec![max; n];
    let recheck = ProblemArgs {
        data: None,
        max: None,
        ..args.clone()
    };
    // A problem over a few of the box's points: it validates the options (the largest
    // position must fit the width) and describes a failure as `synth` would.
    let few = |points: &[(usize, Nimber)]| -> Result<Problem, Error> {
        let data = Dataset {
            vars: n,
            points: points
                .iter()
                .map(|&(i, _)| {
                    let x = check::coordinates(&dims, i);
                    x.into_iter().map(u64::from).collect::<Vec<u64>>()
                })
                .collect(),
            values: points.iter().map(|&(_, v)| v).collect(),
            source: format!("{} on [0,{max})^{n}", game.name()),
        };
        recheck.problem_from(data, Some(game))
    };
    let last = dims
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| Error::Resource("the box has too many positions to count".into()))?
        - 1;
    let probe = few(&[(last, 1)])?;
    let (_, values) = sweep(
        game,
        engine,
        SearchConfig::default(),
        &dims,
        available_memory() / 5 * 4,
        true,
    )?;
    if recheck.target == Target::Sg {
        // An SG value too wide for the program: the same refusal as `synth`'s.
        if let Some(i) = values.iter().position(|&v| v as u64 > probe.mask()) {
            few(&[(i, values[i])])?;
        }
    }
    let canon = canonical(game);
    let orbits: Option<&Canonical<'_>> = if recheck.orbits { Some(&canon) } else { None };
    let failure = check::first_failure(
        &dims,
        &values,
        program,
        recheck.target,
        probe.mask(),
        orbits,
    );
    let counterexample = match failure {
        None => None,
        Some(f) => {
            let points = match f {
                Failure::Point(i) => vec![i],
                Failure::Orbit { canonical, .. } => {
                    check::orbit_members(&dims, &values, &canon, &canonical)
                }
            };
            let points: Vec<(usize, Nimber)> = points.iter().map(|&i| (i, values[i])).collect();
            let p = few(&points)?;
            Some(describe(&p, program, &p.examples[0]))
        }
    };
    Ok(CrossCheck {
        max,
        points: values.len(),
        engine: engine.to_string(),
        seconds: start.elapsed().as_secs_f64(),
        counterexample,
    })
}

/// `synth --verify-max`: the default engine.
pub fn cross_check(
    game: &HypergraphNim,
    program: &Program,
    args: &ProblemArgs,
    max: usize,
) -> Result<CrossCheck, Error> {
    check_with(game, program, args, max, SearchEngine::Naive)
}

/// Says which requirement fails, where, and what the program gives.
pub fn describe(problem: &Problem, program: &Program, ex: &Example) -> String {
    let out = |i: usize| {
        crate::synth::interp::run(program, &problem.points[i], problem.mask())
            .map_or("nothing".into(), |v| v.to_string())
    };
    let at = |i: usize| {
        format!(
            "({})",
            problem.points[i]
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        )
    };
    match ex {
        Example::Equals { point, value } => {
            format!(
                "{} (SG {}): wanted {value}, the program gives {}",
                at(*point),
                problem.values[*point],
                out(*point)
            )
        }
        Example::NonZero { point } => {
            format!(
                "{} (SG {}): wanted non-zero, the program gives 0",
                at(*point),
                problem.values[*point]
            )
        }
        Example::SomeZero { points, boolean } => {
            let outs: Vec<String> = points
                .iter()
                .map(|&i| format!("{} -> {}", at(i), out(i)))
                .collect();
            let want = if *boolean {
                "some member 0 and all in {0,1}"
            } else {
                "some member 0"
            };
            format!(
                "orbit of zero positions: wanted {want}; got {}",
                outs.join(", ")
            )
        }
    }
}

pub fn run(args: &VerifyArgs) -> Result<(), Error> {
    let game = args
        .problem
        .game()?
        .ok_or_else(|| Error::Usage("verify needs a GAME".into()))?;
    let max = args
        .problem
        .max
        .ok_or_else(|| Error::Usage("verify needs --max D".into()))?;
    let program: Program = args.program.parse()?;
    let c = check_with(&game, &program, &args.problem, max, args.engine)?;
    if args.json {
        println!("{}", serde_json::to_string(&serde_json::json!({"program": program.names(), "expression": program.infix(), "check": c})).expect("serialisable"));
    } else {
        match &c.counterexample {
            None => println!(
                "ok: {} holds on all {} points of [0,{max})^{} (values by {}, {:.2} s)",
                program.infix(),
                c.points,
                game.graph().vertices(),
                c.engine,
                c.seconds
            ),
            Some(bad) => println!("counterexample: {bad}"),
        }
    }
    match c.counterexample {
        None => Ok(()),
        Some(bad) => Err(Error::Failed(format!("the program fails at {bad}"))),
    }
}
