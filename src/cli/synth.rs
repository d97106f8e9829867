//! `grundy synth`: the shortest program classifying zero positions (or giving the SG value).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;

use super::verify::cross_check;
use crate::error::Error;
use crate::game::{spec, HypergraphNim};
use crate::sg::table::TableOptions;
use crate::synth::auto::AutoBackend;
use crate::synth::cegis::{synthesize, synthesize_lifting, Outcome};
use crate::synth::data::Dataset;
use crate::synth::enumerate::EnumBackend;
use crate::synth::lang::OpSet;
use crate::synth::problem::{Canonical, Problem, Target};
use crate::synth::sat::{self, SatBackend};
use crate::synth::smt::{self, SmtBackend};
use crate::synth::solver::Backend;

/// Where the data comes from and what programs must satisfy; shared by synth, verify, decode.
#[derive(Args, Debug, Clone)]
pub struct ProblemArgs {
    /// Game spec (needed for --max and --orbits; names the variables).
    pub game: Option<String>,
    /// Tabulate the box [0,D)^n of GAME as the data.
    #[arg(long, value_name = "D")]
    pub max: Option<usize>,
    /// Read the data from a table file (columns x0..x(n-1), sg), as `grundy table` writes.
    #[arg(long, value_name = "FILE", conflicts_with = "max")]
    pub data: Option<PathBuf>,
    /// What the output must be.
    #[arg(long, value_enum, default_value_t = Target::Zero)]
    pub target: Target,
    /// Accept a program when every orbit of zero positions has a member giving 0 (and every
    /// non-zero position gives non-zero): "p is zero iff some symmetric image of p gives 0".
    #[arg(long)]
    pub orbits: bool,
    /// Word width W: values are unsigned W-bit words with wrapping arithmetic.
    #[arg(long, default_value_t = 8)]
    pub width: u32,
    /// Edits to the thesis's instruction set, e.g. `+Mod,+Min,+Const(2),-Mul`.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub ops: String,
    /// Worker threads (tabulation, enumeration; default: all cores).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
}

/// The map from a position of `game` to the canonical member of its orbit under the game's
/// automorphisms, as `--orbits` groups zero positions.
pub fn canonical(game: &HypergraphNim) -> impl Fn(&[u64]) -> Vec<u64> + Sync + '_ {
    move |x: &[u64]| {
        let mut p: Vec<u32> = x.iter().map(|&v| v as u32).collect();
        game.symmetry().canonicalize(&mut p);
        p.into_iter().map(u64::from).collect()
    }
}

impl ProblemArgs {
    pub fn game(&self) -> Result<Option<HypergraphNim>, Error> {
        self.game.as_deref().map(spec::parse).transpose()
    }

    pub fn table_options(&self) -> TableOptions {
        TableOptions {
            threads: self.threads.unwrap_or(0),
            ..TableOptions::default()
        }
    }

    /// The data and examples.
    pub fn problem(&self, game: Option<&HypergraphNim>) -> Result<Problem, Error> {
        let data = match (&self.data, self.max, game) {
            (Some(path), _, _) => Dataset::from_file(path)?,
            (None, Some(d), Some(g)) if d >= 1 => Dataset::from_box(g, d, &self.table_options())?,
            (None, Some(_), Some(_)) => {
                return Err(Error::Usage("--max must be at least 1".into()))
            }
            (None, Some(_), None) => return Err(Error::Usage("--max needs a GAME".into())),
            (None, None, _) => {
                return Err(Error::Usage(
                    "give the data: GAME --max D, or --data FILE".into(),
                ))
            }
        };
        self.problem_from(data, game)
    }

    /// The examples of `data` under these options.
    pub fn problem_from(
        &self,
        data: Dataset,
        game: Option<&HypergraphNim>,
    ) -> Result<Problem, Error> {
        if let Some(g) = game {
            if g.graph().vertices() != data.vars {
                return Err(Error::Usage(format!(
                    "the data has {} variables but {} has {} vertices",
                    data.vars,
                    g.name(),
                    g.graph().vertices()
                )));
            }
        }
        let ops = OpSet::with_edits(data.vars, &self.ops)?;
        let canon = game.map(canonical);
        let orbits: Option<&Canonical<'_>> = match (self.orbits, &canon) {
            (false, _) => None,
            (true, Some(canon)) => Some(canon),
            (true, None) => {
                return Err(Error::Usage(
                    "--orbits needs a GAME for its automorphisms".into(),
                ))
            }
        };
        if self.orbits && data.points.flat().iter().any(|&x| x > u32::MAX as u64) {
            return Err(Error::Usage("positions too large for the game".into()));
        }
        Problem::new(data, ops, self.width, self.target, orbits)
    }

    /// `c`/`;` comment lines recording what an exported instance is about.
    pub fn notes(&self, problem: &Problem, examples: &str) -> Vec<String> {
        let mut notes = vec![];
        if let Some(g) = &self.game {
            notes.push(format!("grundy game {g}"));
        }
        if let Some(d) = self.max {
            notes.push(format!("grundy max {d}"));
        }
        if let Some(p) = &self.data {
            notes.push(format!("grundy data {}", p.display()));
        }
        notes.push(format!("grundy target {}", target_name(problem.target)));
        notes.push(format!("grundy orbits {}", problem.orbits));
        notes.push(format!("grundy width {}", problem.width));
        notes.push(format!(
            "grundy ops {}",
            if self.ops.is_empty() {
                "thesis"
            } else {
                &self.ops
            }
        ));
        notes.push(format!("grundy examples {examples}"));
        notes
    }
}

pub fn target_name(t: Target) -> &'static str {
    match t {
        Target::Zero => "zero",
        Target::Indicator => "indicator",
        Target::Sg => "sg",
    }
}

/// Which backend searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverChoice {
    /// Enumeration, with SAT for any length whose enumeration would not fit in memory (SAT
    /// alone when --proof is given).
    Auto,
    Sat,
    Smt,
    Enum,
}

#[derive(Args, Debug)]
pub struct SynthArgs {
    #[command(flatten)]
    pub problem: ProblemArgs,
    /// Search backend.
    #[arg(long, value_enum, default_value_t = SolverChoice::Auto)]
    solver: SolverChoice,
    /// Longest program to try.
    #[arg(long, default_value_t = 20)]
    max_len: usize,
    /// Stop searching after this many seconds: a program found by lifting is then reported as
    /// shortest found, with the undecided length; without one it is an error (exit 2).
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Keep SAT refutations as checkable proofs: FILE.len<L>.<ext> per refuted length.
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,
    /// After synthesis, check the program on [0,D2)^n recomputed by a search engine.
    #[arg(long, value_name = "D2")]
    verify_max: Option<usize>,
    /// Write the DIMACS instance for --length to FILE (no search when the data is small).
    #[arg(long, value_name = "FILE", requires = "length")]
    export_cnf: Option<PathBuf>,
    /// Write the SMT-LIB 2 instance for --length to FILE.
    #[arg(long, value_name = "FILE", requires = "length")]
    export_smt: Option<PathBuf>,
    /// Write the SyGuS-IF problem to FILE.
    #[arg(long, value_name = "FILE")]
    export_sygus: Option<PathBuf>,
    /// Which examples exports hold: `all` the data, the final `cegis` set of a search (small,
    /// and refutes every shorter length), or `auto` (all up to 2000 examples).
    #[arg(long, value_enum, default_value_t = ExportExamples::Auto)]
    export_examples: ExportExamples,
    /// Program length for --export-cnf / --export-smt.
    #[arg(long, value_name = "L")]
    length: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Which examples an exported instance holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportExamples {
    Auto,
    All,
    Cegis,
}

/// Data sets with at most this many examples are exported whole.
const EXPORT_ALL_MAX: usize = 2000;

fn backend(choice: SolverChoice, args: &SynthArgs) -> Box<dyn Backend> {
    match choice {
        SolverChoice::Sat => Box::new(SatBackend {
            proof: args.proof.clone(),
            ..SatBackend::default()
        }),
        SolverChoice::Smt => Box::new(SmtBackend),
        SolverChoice::Enum => Box::new(EnumBackend {
            threads: args.problem.threads.unwrap_or(0),
            memory_limit: enum_memory(),
        }),
        // Proofs come from SAT only; otherwise enumeration, with SAT for lengths it cannot hold.
        SolverChoice::Auto if args.proof.is_some() => backend(SolverChoice::Sat, args),
        SolverChoice::Auto => Box::new(AutoBackend {
            first: EnumBackend {
                threads: args.problem.threads.unwrap_or(0),
                memory_limit: enum_memory(),
            },
            fallback: SatBackend::default(),
        }),
    }
}

/// Memory enumeration may use: 80% of what is available.
fn enum_memory() -> u64 {
    crate::sg::table::available_memory() / 5 * 4
}

pub fn run(args: &SynthArgs) -> Result<(), Error> {
    let t0 = Instant::now();
    let game = args.problem.game()?;
    let problem = args.problem.problem(game.as_ref())?;
    let data_seconds = t0.elapsed().as_secs_f64();
    let deadline = args
        .timeout
        .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
    let exporting =
        args.export_cnf.is_some() || args.export_smt.is_some() || args.export_sygus.is_some();
    let backend = backend(args.solver, args);

    let export_all = match args.export_examples {
        ExportExamples::All => true,
        ExportExamples::Cegis => false,
        ExportExamples::Auto => problem.examples.len() <= EXPORT_ALL_MAX,
    };
    let outcome = if exporting && export_all {
        None
    } else {
        // Auto also lifts from slices for long bounds; the named solvers search plainly.
        let search = match args.solver {
            SolverChoice::Auto => synthesize_lifting,
            _ => synthesize,
        };
        Some(search(&problem, backend.as_ref(), args.max_len, deadline)?)
    };
    if exporting {
        export(args, &problem, outcome.as_ref())?;
        if outcome.is_none() {
            return Ok(());
        }
    }
    let outcome = outcome.expect("searched");
    let cross = match args.verify_max {
        Some(d2) => {
            let g = game
                .as_ref()
                .ok_or_else(|| Error::Usage("--verify-max needs a GAME".into()))?;
            Some(cross_check(g, &outcome.program, &args.problem, d2)?)
        }
        None => None,
    };
    super::report::print(
        &problem,
        game.as_ref(),
        &outcome,
        backend.name(),
        data_seconds,
        cross.as_ref(),
        args.json,
    );
    if let Some(c) = &cross {
        if let Some(bad) = &c.counterexample {
            return Err(Error::Resource(format!(
                "the program fails on the larger box at {bad}"
            )));
        }
    }
    Ok(())
}

fn export(args: &SynthArgs, problem: &Problem, outcome: Option<&Outcome>) -> Result<(), Error> {
    let (examples, which): (Vec<usize>, String) = match outcome {
        None => ((0..problem.examples.len()).collect(), "all".to_string()),
        Some(o) => (
            o.examples.clone(),
            format!("cegis {} of {}", o.examples.len(), problem.examples.len()),
        ),
    };
    let mut notes = args.problem.notes(problem, &which);
    if outcome.is_some() {
        let list: Vec<String> = examples.iter().map(|e| e.to_string()).collect();
        notes.push(format!("grundy example-set {}", list.join(",")));
    }
    let write = |path: &PathBuf, text: String| -> Result<(), Error> {
        let mut f = super::output::AtomicFile::create(path)?;
        std::io::Write::write_all(f.writer(), text.as_bytes()).map_err(|e| Error::io(path, e))?;
        f.commit()?;
        eprintln!(
            "wrote {} ({} examples: {which})",
            path.display(),
            examples.len()
        );
        Ok(())
    };
    if let Some(path) = &args.export_cnf {
        write(
            path,
            sat::export_dimacs(problem, args.length.expect("required"), &examples, &notes)?,
        )?;
    }
    if let Some(path) = &args.export_smt {
        write(
            path,
            smt::export_smtlib(problem, args.length.expect("required"), &examples, &notes)?,
        )?;
    }
    if let Some(path) = &args.export_sygus {
        write(path, smt::export_sygus(problem, &examples, &notes)?)?;
    }
    Ok(())
}
