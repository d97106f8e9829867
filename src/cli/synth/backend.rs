//! Which backend searches for `synth`, and what a search shared among MPI ranks refuses.

use std::sync::Arc;

use super::{SolverChoice, SynthArgs};
use grundy_core::cluster::Team;
use grundy_core::error::Error;
use grundy_synth::run::{self, BackendOptions, Solver};
use grundy_synth::solver::Backend;

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

/// Refuses what a search shared among several ranks cannot do: every solver, strategy and
/// proof runs under a team (`grundy_synth::ranked`), but the files of DRAT proofs and exports
/// are written by one process.
pub(super) fn check_team(args: &SynthArgs, team: &dyn Team) -> Result<(), Error> {
    if team.size() == 1 {
        return Ok(());
    }
    let alone = |what: &str| {
        Err(Error::Usage(format!(
            "{what} writes its files from one process: run it without mpirun (under mpirun \
             synth shares the search, not the files)"
        )))
    };
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
