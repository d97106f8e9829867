//! Which backend searches for `synth`, and what a search shared among MPI ranks refuses.

use std::sync::Arc;

use super::{SolverChoice, SynthArgs};
use grundy_core::cluster::Team;
use grundy_core::error::Error;
use grundy_synth::auto::AutoBackend;
use grundy_synth::enumerate::EnumBackend;
use grundy_synth::sat::SatBackend;
use grundy_synth::smt::SmtBackend;
use grundy_synth::solver::Backend;
use grundy_synth::upper::Strategies;

/// The backend `choice` names, with the options of `args` (DRAT proofs, cubes, threads).
pub(super) fn backend(
    choice: SolverChoice,
    args: &SynthArgs,
    memory: u64,
    team: &Arc<dyn Team>,
) -> Box<dyn Backend> {
    let threads = args.problem.threads.unwrap_or(0);
    let sat = SatBackend {
        proof: args.proof.clone(),
        cubes: args.cubes.then(|| match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }),
        ..SatBackend::default()
    };
    match choice {
        SolverChoice::Sat => Box::new(sat),
        SolverChoice::Smt => Box::new(SmtBackend),
        SolverChoice::Enum => Box::new(EnumBackend {
            team: team.clone(),
            ..EnumBackend::new(threads, memory)
        }),
        // Proofs come from SAT only; otherwise enumeration, with SAT for lengths it cannot hold.
        SolverChoice::Auto if args.proof.is_some() => {
            backend(SolverChoice::Sat, args, memory, team)
        }
        SolverChoice::Auto => Box::new(AutoBackend {
            first: EnumBackend::new(threads, memory),
            fallback: sat,
        }),
    }
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
