//! `grundy synth`: the shortest program classifying zero positions (or giving the SG value).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;

mod backend;
mod export;
pub(super) mod proof;

use self::backend::{backend, check_team};
use self::export::{export, Exports};

use super::interrupt;
use super::output::Out;
use super::progress::{Bar, Live};
use super::report::Report;
use super::values::choice;
use super::{parse_seconds, Status};
use grundy_core::cluster::Team;
use grundy_core::error::Error;
use grundy_core::files;
use grundy_core::sg::table::TableOptions;
use grundy_core::sg::SearchEngine;
use grundy_synth::cegis::{self, Answer};
use grundy_synth::consts::Consts;
use grundy_synth::problem::Target;
use grundy_synth::run::{self, Forms, Search, Synthesis};
use grundy_synth::setup::Setup;
use grundy_synth::task::Task;
use grundy_synth::upper::{self, Strategies};
use grundy_synth::verify;

/// Where the data comes from and what programs must satisfy; shared by synth and verify.
#[derive(Args, Debug, Clone)]
pub struct ProblemArgs {
    /// Game spec (see `grundy games`): with --max it gives the data; it names the variables and
    /// gives the automorphisms for --orbits.
    pub game: Option<String>,
    /// For a heap game: the number of heaps in a position (the data's variables).
    #[arg(long, value_name = "N")]
    pub heaps: Option<usize>,
    /// Tabulate the box [0,D)^n of GAME as the data.
    #[arg(long, value_name = "D")]
    pub max: Option<usize>,
    /// Read the data from a table file (columns x0..x(n-1), sg), as `grundy table` writes.
    #[arg(long, value_name = "FILE", conflicts_with = "max")]
    pub data: Option<PathBuf>,
    /// Only the positions of a family, e.g. `a,a,b,b,c,c` or `a,a,b,c,a+b+c,a+b+c` (each
    /// coordinate a sum of parameters and constants) in the box [0,D)^n; the program reads
    /// the parameters.
    #[arg(long, value_name = "SPEC", conflicts_with = "data")]
    pub family: Option<String>,
    /// What the output must be.
    #[arg(long, value_parser = choice::<Target>(), default_value = "zero")]
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
    /// Small constants to add to the instructions, each one instruction long like `One`: a
    /// list such as `2,3,4`, `auto` for a heap game (its nim sequence's period p: p - 1 and
    /// p), or `none`. Default: `auto` for a heap game with a plain period, none otherwise.
    #[arg(long, value_name = "LIST")]
    pub consts: Option<Consts>,
    /// Worker threads for tabulation, enumeration and --cubes (0 or absent: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Memory limit in GiB for tabulation, enumeration and checks (default: 80% of the memory
    /// available).
    #[arg(long, value_name = "GIB")]
    pub mem_limit: Option<f64>,
}

impl ProblemArgs {
    /// The task, every option parsed once: the game, the family for it, the instruction
    /// edits with `--consts` folded in.
    pub fn task(&self) -> Result<Task, Error> {
        // The command line's own wording for the options that go together.
        if self.heaps.is_some() && self.game.is_none() {
            return Err(Error::Usage("--heaps needs a GAME".into()));
        }
        if self.family.is_some() && (self.game.is_none() || self.max.is_none()) {
            return Err(Error::Usage("--family needs GAME --max D".into()));
        }
        let task = Setup {
            game: self.game.clone(),
            heaps: self.heaps,
            max: self.max,
            data: self.data.clone(),
            family: self.family.clone(),
            target: self.target,
            orbits: self.orbits,
            width: self.width,
            ops: self.ops.clone(),
        }
        .task()?;
        let ks = Consts::given_or_default(self.consts.as_ref(), task.game())?;
        Ok(task.with_constants(ks))
    }

    /// The memory limit in bytes.
    pub fn memory_limit(&self) -> Result<u64, Error> {
        super::memory_limit(self.mem_limit)
    }

    /// Tabulation options: threads, memory, and a progress bar on standard error when `show`.
    pub fn table_options(&self, show: bool) -> Result<TableOptions, Error> {
        Ok(TableOptions {
            threads: self.threads.unwrap_or(0),
            memory_limit: self.memory_limit()?,
            progress: Arc::new(Bar::new(show)),
        })
    }
}

/// Which backend searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverChoice {
    /// Enumeration; the read-once search at the dependency bound's length; SAT for lengths
    /// enumeration cannot hold in memory; lifting from slices for long bounds (SAT alone with
    /// --proof).
    Auto,
    /// CNF solved by varisat in a counterexample-guided loop (--proof keeps DRAT proofs).
    Sat,
    /// Bit-vector formulas solved by z3 in the same loop.
    Smt,
    /// Bottom-up enumeration keeping one program per distinct output vector on the examples.
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
    /// Strategies that look for some long classifier before the exact search (an upper
    /// bound, so that the search only works below it): `none`, `all`, or a list of
    /// `decompose`, `lift`, `stochastic`. Default: all with the auto solver, none otherwise.
    #[arg(long, value_name = "LIST")]
    upper: Option<Strategies>,
    /// Stop searching after this many seconds (Ctrl-C stops too): the best program found so
    /// far is reported as shortest found, with the lengths left undecided; without one the run
    /// ends undecided (exit 3) with the lengths refuted so far.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    timeout: Option<f64>,
    /// Cube-and-conquer for the lengths SAT searches: split each length by its top two
    /// instructions and solve the cubes in parallel on --threads solvers (not with --proof).
    #[arg(long, conflicts_with = "proof")]
    cubes: bool,
    /// Keep SAT refutations as checkable proofs: FILE.len<L>.<ext> per refuted length.
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,
    /// After synthesis, check the program on [0,D2)^n recomputed by a search engine (D2 at
    /// least 1; the box is checked before the search).
    #[arg(long, value_name = "D2")]
    verify_max: Option<usize>,
    /// Write the DIMACS instance for --length to FILE (no search when the data is small).
    #[arg(long, value_name = "FILE", requires = "length")]
    export_cnf: Option<PathBuf>,
    /// Write the SMT-LIB 2 instance for --length to FILE.
    #[arg(long, value_name = "FILE", requires = "length")]
    export_smt: Option<PathBuf>,
    /// Cube-and-conquer export for --length: DIR/len<L>.icnf (the CNF and one `a` line per
    /// cube of the top two instructions; CaDiCaL solves it as is) and DIR/len<L>.cubes (the
    /// cubes alone, one per line, to hand out as separate jobs); `decode` reads the answers.
    #[arg(long, value_name = "DIR", requires = "length")]
    export_cubes: Option<PathBuf>,
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
    /// Write exports even when they are estimated past 1 GiB.
    #[arg(long)]
    force: bool,
    /// Also write the run up as a document, Markdown (.md) or LaTeX (.tex): the game, the
    /// box and its counts, the program in its forms, how its length was established, what it
    /// was verified on; the values drawn beside it (the report's name with .png). Every
    /// output (this, its figure, the exports) is checked before the search, and with exports
    /// of all the data the search still runs, for the report; should a write fail after it,
    /// the program is printed all the same, and the failure ends the run (exit 2).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Return the plain form only (0 exactly on the zero positions): without it or --orbits,
    /// a game with a small non-trivial automorphism group is searched under both criteria
    /// and the shorter program returned (the plain one on a tie).
    #[arg(long, conflicts_with = "orbits")]
    plain: bool,
    /// Prove the program for every position (as `grundy prove` does); on a counterexample,
    /// add it (and the position it moves to) to the data, valued by a search engine, and
    /// search again. Exit 0 proved, 1 refuted with no search left, 3 undecided; refused
    /// (exit 2) before any search where the prover does not apply.
    #[arg(long)]
    prove: bool,
    /// With --prove, a program of hypergraph nim with no exact linear reading is proved over
    /// bit-vectors for every position with heaps below 2^B (as `grundy prove`; default: the
    /// widest bound candidate moves prove, else 4).
    #[arg(long, value_name = "B", requires = "prove")]
    bound: Option<u32>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// After the search, each rank's peak memory and the bytes it sent, on standard error
    /// (one line per rank under mpirun).
    #[arg(long)]
    stats: bool,
    /// No progress on standard error: neither the live line (shown on a terminal after a
    /// second) nor the bars of tabulation and cross-checking.
    #[arg(long)]
    quiet: bool,
}

/// Which examples an exported instance holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportExamples {
    /// All the data when it has at most 2000 examples, else the final CEGIS set.
    Auto,
    /// All the data.
    All,
    /// The examples the final solve of a search used (small, and enough to refute every
    /// shorter length).
    Cegis,
}

/// Data sets with at most this many examples are exported whole.
const EXPORT_ALL_MAX: usize = 2000;

/// Runs `synth`. Under `mpirun` every rank sets up the same data and runs the same CEGIS loop,
/// the enumeration's last-level jobs dealt among them (`synth::enumerate`), and rank 0 alone
/// checks, writes and prints the answer.
pub fn run(args: &SynthArgs, team: &Arc<dyn Team>) -> Result<Status, Error> {
    let t0 = Instant::now();
    if args.cubes && matches!(args.solver, SolverChoice::Smt | SolverChoice::Enum) {
        return Err(Error::Usage(
            "--cubes splits SAT instances: use it with --solver sat or auto".into(),
        ));
    }
    check_team(args, &**team)?;
    let show = !args.quiet && team.is_root();
    // Everything up to the data is one settled step: a rank that fails any of it (a file
    // another node does not have) stops every rank before the search's first collective step.
    let set_up = || {
        // Every output is checked before the work: written after it, it must not fail then.
        let figure = match &args.report {
            Some(r) => Some(super::writeup::figure_path(r)?),
            None => None,
        };
        let mut others: Vec<(&str, &Path)> = Vec::new();
        if let (Some(r), Some(f)) = (&args.report, &figure) {
            others.push(("--report", r));
            others.push(("the report's figure", f));
        }
        let exports = Exports::create(args, &others)?;
        if let Some(p) = &args.proof {
            let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
            if let Some(dir) = dir.filter(|d| !d.is_dir()) {
                return Err(Error::Usage(format!(
                    "--proof: the directory {} does not exist",
                    dir.display()
                )));
            }
            files::check_writable(p)?;
        }
        if team.is_root() {
            // Rank 0 alone writes the report, once the search is done.
            others
                .iter()
                .try_for_each(|(_, p)| files::check_writable(p))?;
        }
        let task = args.problem.task()?;
        if args.prove {
            run::check_prove(&task, args.bound)?;
            if exports.any() {
                return Err(Error::Usage(
                    "--prove adds positions to the data as it goes; export the instances \
                     without it"
                        .into(),
                ));
            }
        }
        if let Some(d2) = args.verify_max {
            let g = task
                .game()
                .ok_or_else(|| Error::Usage("--verify-max needs a GAME".into()))?;
            verify::check_larger(g, &task, d2)?;
        }
        let memory = args.problem.memory_limit()?;
        if args.problem.max.is_none() && args.problem.data.is_none() {
            return Err(Error::Usage(
                "give the data: GAME --max D, or --data FILE".into(),
            ));
        }
        let problem = task.problem(&args.problem.table_options(show)?)?;
        Ok((exports, task, memory, problem))
    };
    let (exports, task, memory, problem) = team.settle(set_up())?;
    let data_seconds = t0.elapsed().as_secs_f64();
    let deadline = args
        .timeout
        .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
    let backend = backend(args.solver, args, memory, team);

    let export_all = match args.export_examples {
        ExportExamples::All => true,
        ExportExamples::Cegis => false,
        ExportExamples::Auto => problem.examples.len() <= EXPORT_ALL_MAX,
    };
    // Exports of all the data need no search, unless the run is also to be reported on or
    // cross-checked: then it searches, and writes everything.
    let search =
        !exports.any() || !export_all || args.report.is_some() || args.verify_max.is_some();
    // Which form to return: both tried when the game's group is small, else the one given.
    let forms = match (args.plain, exports.any(), args.proof.is_some()) {
        (true, ..) => Forms::Given("--plain".into()),
        _ if args.problem.orbits => Forms::Given("--orbits".into()),
        (_, true, _) => Forms::Fixed("exports record one form".into()),
        (.., true) => Forms::Fixed("--proof records one form".into()),
        _ => Forms::Choose,
    };
    // The data goes to the search, which returns it (grown by the prover) with its answer.
    let (done, unsearched) = if !search {
        (None, Some(problem))
    } else {
        let live = Live::new(show);
        interrupt::answer_on_ctrl_c();
        let watch = |s: &cegis::State<'_>| live.update(s);
        let how = Search {
            max_len: args.max_len,
            deadline,
            // Auto also looks for upper bounds first when the bound is long; the named
            // solvers search plainly; strategies named are tried whatever the bound.
            upper: args.upper.unwrap_or(match args.solver {
                SolverChoice::Auto => Strategies::ALL,
                _ => Strategies::NONE,
            }),
            upper_from: match args.upper {
                Some(_) => 0,
                None => upper::FROM_BOUND,
            },
            forms,
            prove: args.prove,
            bound: args.bound,
            watch: &watch,
            team: &**team,
        };
        let done = run::synthesize(&task, problem, backend.as_ref(), &how);
        live.finish();
        // Every rank took the same steps to the same answer, or failed at the same one.
        let done = team.settle(done);
        if args.stats {
            super::print_rank_stats(&**team);
        }
        (Some(done?), None)
    };
    // What follows is about the form returned, and the data its answer holds on.
    let (task, problem) = match (&done, &unsearched) {
        (Some(d), _) => (&d.task, &d.problem),
        (None, Some(p)) => (&task, p),
        (None, None) => return Err(Error::internal("no search and no data")),
    };
    let (exported, failed) = match exports.any() {
        true => {
            let examples = done
                .as_ref()
                .filter(|_| !export_all)
                .map(|d| d.answer.trace().examples.as_slice());
            match export(args, exports, &task.setup(), problem, examples) {
                Ok(done) => done,
                // Refused as a whole: with a program found, that is printed all the same.
                Err(e) if done.is_some() => (Vec::new(), vec![e]),
                Err(e) => return Err(e),
            }
        }
        false => (Vec::new(), Vec::new()),
    };
    let Some(done) = &done else {
        // Exported without a search: the files are the answer.
        let mut failed = failed.into_iter();
        let first = failed.next();
        failed.for_each(|e| eprintln!("grundy: error: {e}"));
        if args.json {
            let mut obj = serde_json::json!({ "exported": exported });
            if let Some(e) = &first {
                super::output::error_fields(&mut obj, e);
            }
            Out::new().json(&obj)?;
        }
        return first.map_or(Ok(Status::Answered), Err);
    };
    let told = Told {
        done,
        solver: backend.method().name(),
        data_seconds,
        exported: &exported,
        memory,
    };
    let status = match team.is_root() {
        true => tell(args, told, failed),
        false => Ok(Status::Answered),
    };
    team.share(status)
}

/// What the search came to, for rank 0 to check, write and print.
struct Told<'a> {
    /// The task of the form returned, its data, answer, form and proof.
    done: &'a Synthesis,
    solver: &'a str,
    data_seconds: f64,
    exported: &'a [serde_json::Value],
    memory: u64,
}

/// Cross-checks the answer's program on the larger box (`--verify-max`), writes the report
/// and prints the answer. What failed on the way (`failed`: the exports; a cross-check that
/// could not run, a report that could not be written) does not keep the answer from being
/// printed: the first failure is then the outcome, named with it (and the others on standard
/// error).
fn tell(args: &SynthArgs, told: Told<'_>, mut failed: Vec<Error>) -> Result<Status, Error> {
    let Synthesis {
        task,
        problem,
        answer,
        form,
        proof,
    } = told.done;
    let game = task.game();
    let program = match answer {
        Answer::Found(o) => Some(&o.program),
        Answer::Undecided(_) => None,
    };
    let cross = match (args.verify_max, program) {
        (Some(d2), Some(program)) => {
            let bar = Bar::new(!args.quiet);
            let checked = game
                .ok_or_else(|| Error::Usage("--verify-max needs a GAME".into()))
                .and_then(|g| {
                    verify::recomputed(g, program, task, d2, SearchEngine::Naive, told.memory, &bar)
                });
            checked.map_err(|e| failed.push(e)).ok()
        }
        _ => None,
    };
    let variables = task.variables(problem.vars());
    let report = Report {
        problem,
        // The variables of a family are its parameters, not vertices.
        game: game.filter(|_| task.family().is_none()),
        variables: &variables,
        answer,
        solver: told.solver,
        data_seconds: told.data_seconds,
        cross: cross.as_ref(),
        exported: told.exported,
        proof: proof.as_ref(),
        form: Some(form),
    };
    if let Some(path) = &args.report {
        if let Err(e) = super::writeup::write(&report, path) {
            failed.push(e);
        }
    }
    let mut failed = failed.into_iter();
    let first = failed.next();
    super::report::print(&report, args.json, first.as_ref())?;
    if let Some(first) = first {
        failed.for_each(|e| eprintln!("grundy: error: {e}"));
        return Err(first);
    }
    if let Some(bad) = cross.and_then(|c| c.counterexample) {
        return Ok(Status::Counterexample(format!(
            "the program fails on the larger box at {bad}"
        )));
    }
    if let Some(p) = proof {
        return Ok(self::proof::status(p, answer));
    }
    Ok(match answer {
        Answer::Found(_) => Status::Answered,
        Answer::Undecided(_) => Status::Undecided,
    })
}
