//! Which backend searches for `synth`, and what a search shared among MPI ranks refuses.

use std::sync::Arc;

use super::{SolverChoice, SynthArgs};
use grundy_core::cluster::Team;
use grundy_core::error::Error;
use grundy_synth::run::{self, BackendOptions, Solver};
use grundy_synth::solver::Backend;
use grundy_synth::upper::Strategies;

/// The backend `choice` names, with the options of `args` (DRAT proofs, cubes, threads).
pub(super) fn backend(
    choice: SolverChoice,
    args: &SynthArgs,
    memory: u64,
    team: &Arc<dyn Team>,
) -> Box<dyn Backend> {
    let solver = match choice {
        SolverChoice::Auto => Solver::Auto,
        SolverChoice::Sat => Solver::Sat,
        SolverChoice::Smt => Solver::Smt,
        SolverChoice::Enum => Solver::Enum,
    };
    let opts = BackendOptions {
        threads: args.problem.threads.unwrap_or(0),
        memory_limit: memory,
        proof: args.proof.clone(),
        cubes: args.cubes,
        team: team.clone(),
    };
    run::backend(solver, &opts)
}

/// Refuses what a search shared among several ranks cannot do: only enumeration splits its
/// work, and the upper-bound strategies, proofs and exports run as one process.
pub(super) fn check_team(args: &SynthArgs, team: &dyn Team) -> Result<(), Error> {
    if team.size() == 1 {
        return Ok(());
    }
    let alone = |what: &str| {
        Err(Error::Usage(format!(
            "{what} runs as one process; under mpirun synth shares only the exact search of \
             --solver enum among ranks"
        )))
    };
    if args.solver != SolverChoice::Enum {
        return alone(&format!("--solver {}", backend_name(args.solver)));
    }
    if args.upper.is_some_and(|u| u != Strategies::NONE) {
        return alone("--upper");
    }
    if args.prove {
        return alone("--prove");
    }
    let exports = [
        ("--proof", args.proof.is_some()),
        ("--export-cnf", args.export_cnf.is_some()),
        ("--export-smt", args.export_smt.is_some()),
        ("--export-cubes", args.export_cubes.is_some()),
        ("--export-sygus", args.export_sygus.is_some()),
    ];
    match exports.iter().find(|(_, given)| *given) {
        Some((name, _)) => alone(name),
        None => Ok(()),
    }
}

/// The name `--solver` takes for `choice`.
fn backend_name(choice: SolverChoice) -> String {
    use clap::ValueEnum;
    choice
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}
