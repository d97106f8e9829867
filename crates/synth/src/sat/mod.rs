//! The `--solver sat` backend: programs of one length as a CNF, solved incrementally by varisat.
//!
//! The encoding (encodings/stack-cnf.md has the full story):
//! * **Structure**, once per length (`structure.rs`): a one-hot opcode per step, an arity class
//!   per step, and operand pointers: `start[u][s]` says the subtree rooted at step u begins at
//!   step s, so the left operand of a binary step u is step `start[u-1] - 1` and the right (or
//!   only) operand is step u-1. Validity is "the last subtree starts at 0". Redundant one-hot
//!   depths per step (depth never depends on data) prune impossible shapes early. The pruning
//!   rules of `lang::rules` are clauses over the opcodes of operand roots.
//! * **Values**, per data point (`encode.rs`, `circuits.rs`): a W-bit vector per step, equal to
//!   the result of the chosen opcode; results are bit-blasted with constant folding (pushes are
//!   constants), and instructions that share work share circuits. The left operand is a
//!   multiplexer over the steps it may point to.
//! * **Examples** constrain the output vector of the last step; an orbit (`SomeZero`) uses one
//!   "this member is 0" literal per member.
//!
//! Circuits are guarded by their opcode (switched off unless chosen), which measured 4-9 times
//! faster than always-on circuits. [`Layout::Slots`] (a word per stack slot instead of operand
//! pointers) is kept for measurement; pointers refute 15-35% faster.
//!
//! Examples arrive incrementally (CEGIS), and the solver keeps what it learned. Varisat has no
//! interrupt, so deadlines work through its proof sink: the solver writes its (native, incremental)
//! proof into a sink that fails once the deadline passes, which stops the solve within a few
//! hundred conflicts. With `proof` set, a refuted length is solved once more from scratch with a
//! DRAT proof and on-the-fly self-checking; the proof and the CNF it refutes are written side by
//! side.

mod circuits;
mod cnf;
mod conquer;
mod cubes;
mod dimacs;
mod encode;
mod structure;
#[cfg(test)]
mod tests;

use std::cell::Cell;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Instant;

use varisat::{ExtendFormula, ProofFormat, Solver};

pub use cubes::{cube_count, merge, verdict, Cube, Merged, Verdict};
pub use dimacs::{cnf_length, decode_model, export_dimacs};
use encode::Encoder;

use super::problem::Problem;
use super::solver::{past, Backend, Found, LengthSearch, Method};
use grundy_core::error::Error;
use grundy_core::files::{self, OutputFile};

/// The SAT backend. With `proof`, every refuted length leaves a DRAT proof
/// `<proof>.len<L>.drat` next to the CNF it refutes, `<proof>.len<L>.cnf`; `options` choose the
/// encoding (the defaults are the measured best). With `cubes` set to a number of threads,
/// each length is split into cubes by its top instructions and they are solved in parallel
/// (cube-and-conquer, `conquer.rs`); proofs are then not kept.
#[derive(Clone, Debug, Default)]
pub struct SatBackend {
    /// Where to keep DRAT proofs of refuted lengths (`None`: none kept).
    pub proof: Option<PathBuf>,
    /// The encoding's choices.
    pub options: Options,
    /// Threads for cube-and-conquer (`None`: one solve per length).
    pub cubes: Option<usize>,
}

/// Encoding choices, for measuring alternatives; the defaults are the measured best.
#[derive(Clone, Debug)]
pub struct Options {
    /// Add the redundant one-hot depth per step.
    pub depth_vars: bool,
    /// Switch each instruction's circuit off unless its opcode (or one of its family) is chosen.
    pub guarded: bool,
    /// Encode And, Or, Xor straight on the step's value bits, without gate variables.
    pub direct_bitwise: bool,
    /// How operands reach an instruction.
    pub layout: Layout,
    /// Varisat's VSIDS decay (None: its default, 0.95). 0.85 measured faster on some cases and
    /// slower on others; CEGIS makes single runs noisy.
    pub vsids_decay: Option<f32>,
}

/// How the value circuits find an instruction's operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Layout {
    /// Per point, one word per step; the left operand is a multiplexer over earlier steps
    /// selected by the structure's operand pointers (shared by all points).
    #[default]
    Pointers,
    /// Per point, a word per stack slot and step, copied down the program; operands are
    /// multiplexers over the depth.
    Slots,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            depth_vars: true,
            guarded: true,
            direct_bitwise: false,
            layout: Layout::Pointers,
            vsids_decay: None,
        }
    }
}

impl Backend for SatBackend {
    fn method(&self) -> Method {
        Method::Sat
    }

    fn start<'p>(
        &self,
        problem: &'p Problem,
        length: usize,
    ) -> Result<Box<dyn LengthSearch + 'p>, Error> {
        if let Some(threads) = self.cubes.filter(|_| self.proof.is_none()) {
            let search = conquer::CubeSearch::new(problem, length, &self.options, threads)?;
            return Ok(Box::new(search));
        }
        Ok(Box::new(SatSearch::new(
            problem,
            length,
            &self.options,
            self.proof.clone(),
        )?))
    }
}

/// The iCNF instance for programs of exactly `length` instructions satisfying the examples
/// `examples`: the clauses of [`export_dimacs`] and one `a` line per cube of the top
/// instructions (cube-and-conquer: any solver may take the cubes in parallel; the instance is
/// unsatisfiable exactly when every cube is). Returns the text and the cubes in line order.
pub fn export_icnf(
    problem: &Problem,
    length: usize,
    examples: &[usize],
    notes: &[String],
) -> Result<(String, Vec<Cube>), Error> {
    let enc = dimacs::exported(problem, length, examples)?;
    let cubes = cubes::split(&enc.st);
    Ok((cubes::write_icnf(&enc, notes, &cubes), cubes))
}

/// A proof sink that fails once the shared deadline has passed: varisat's only way to stop.
struct DeadlineSink<W> {
    inner: W,
    deadline: Rc<Cell<Option<Instant>>>,
}

impl<W: Write> Write for DeadlineSink<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if past(self.deadline.get()) {
            return Err(io::Error::other("deadline passed"));
        }
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// How one solve ended.
enum Run {
    /// At the deadline (or after an earlier stop).
    Stopped,
    /// A model, as the truth value of every variable.
    Sat(Vec<bool>),
    Unsat,
}

/// An incremental search over programs of one length.
pub(crate) struct SatSearch<'p> {
    enc: Encoder<'p>,
    solver: Solver<'static>,
    deadline: Rc<Cell<Option<Instant>>>,
    /// Set once a solve was stopped: varisat cannot go on after that.
    stopped: bool,
    proof: Option<PathBuf>,
    examples: Vec<usize>,
}

impl<'p> SatSearch<'p> {
    pub(crate) fn new(
        problem: &'p Problem,
        length: usize,
        options: &Options,
        proof: Option<PathBuf>,
    ) -> Result<Self, Error> {
        if length == 0 {
            return Err(Error::Usage(
                "programs have at least one instruction".into(),
            ));
        }
        let deadline = Rc::new(Cell::new(None));
        let mut solver = Solver::new();
        if let Some(decay) = options.vsids_decay {
            let mut c = varisat::config::SolverConfigUpdate::new();
            c.vsids_decay = Some(decay);
            solver
                .config(&c)
                .map_err(|e| Error::Usage(format!("SAT solver option: {e}")))?;
        }
        let sink = DeadlineSink {
            inner: io::sink(),
            deadline: deadline.clone(),
        };
        solver.write_proof(sink, ProofFormat::Varisat);
        Ok(SatSearch {
            enc: Encoder::new(problem, length, options),
            solver,
            deadline,
            stopped: false,
            proof,
            examples: Vec::new(),
        })
    }

    /// One incremental solve, stopped at the deadline.
    fn run(&mut self, deadline: Option<Instant>) -> Result<Run, Error> {
        if self.stopped || past(deadline) {
            return Ok(Run::Stopped);
        }
        self.enc.cnf.flush_into(&mut self.solver);
        self.deadline.set(deadline);
        let result = self.solver.solve();
        self.deadline.set(None);
        match result {
            Ok(true) => {
                let mut truth = vec![false; self.enc.cnf.vars()];
                for l in self.solver.model().expect("a model after SAT") {
                    if l.is_positive() {
                        truth[l.index()] = true;
                    }
                }
                Ok(Run::Sat(truth))
            }
            Ok(false) => Ok(Run::Unsat),
            Err(e) => {
                // Varisat cannot go on after an error, the deadline's included.
                self.stopped = true;
                if past(deadline) {
                    Ok(Run::Stopped)
                } else {
                    Err(Error::internal(format!("the SAT solver failed: {e}")))
                }
            }
        }
    }

    /// Re-solves the current instance from scratch with a self-checked DRAT proof.
    fn write_proof(&self, base: &Path, deadline: Option<Instant>) -> Result<bool, Error> {
        let length = self.enc.st.length;
        let name = |ext: &str| {
            let mut s = base.as_os_str().to_owned();
            s.push(format!(".len{length}.{ext}"));
            PathBuf::from(s)
        };
        let (cnf_path, drat_path) = (name("cnf"), name("drat"));
        let notes = vec![
            format!(
                "refutation of length {length} for {}",
                self.enc.problem.source
            ),
            format!("examples {:?}", self.examples),
            format!("proof {}", drat_path.display()),
        ];
        let text = dimacs::write(&self.enc, &notes);
        // Both files appear whole or not at all (a timed-out proof leaves neither).
        let mut drat = OutputFile::create(&drat_path)?;
        let flag = Rc::new(Cell::new(deadline));
        let mut solver = Solver::new();
        solver.write_proof(
            DeadlineSink {
                inner: drat.writer(),
                deadline: flag,
            },
            ProofFormat::Drat,
        );
        solver.enable_self_checking();
        for c in self.enc.cnf.iter() {
            solver.add_clause(c);
        }
        let past = || past(deadline);
        // A write that failed is the file's; anything else is the self-check failing.
        let failed = |e: varisat::solver::SolverError| match e {
            varisat::solver::SolverError::ProofIoError { cause } => Error::io(&drat_path, cause),
            e => Error::internal(format!(
                "the DRAT proof of length {length} failed its self-check: {e}"
            )),
        };
        let proved = match solver.solve() {
            // The proof is flushed through the deadline sink too: a flush after the deadline
            // is a timeout, not a failed write.
            Ok(false) => match solver.close_proof() {
                Ok(()) => true,
                Err(_) if past() => false,
                Err(e) => return Err(failed(e)),
            },
            Ok(true) => {
                return Err(Error::internal(format!(
                    "length {length} was refuted incrementally but is satisfiable from scratch"
                )))
            }
            Err(_) if past() => false,
            Err(e) => return Err(failed(e)),
        };
        drop(solver);
        if proved {
            // The CNF first: a proof never stands without the instance it refutes.
            files::write(&cnf_path, &text)?;
            drat.commit()?;
        }
        Ok(proved)
    }
}

impl LengthSearch for SatSearch<'_> {
    fn add_example(&mut self, index: usize) -> Result<(), Error> {
        self.enc.add_example(index)?;
        self.examples.push(index);
        // Load now, so the solve's time is the solver's.
        if !self.stopped {
            self.enc.cnf.flush_into(&mut self.solver);
        }
        Ok(())
    }

    fn solve(&mut self, deadline: Option<Instant>) -> Result<Found, Error> {
        match self.run(deadline)? {
            Run::Stopped => Ok(Found::Timeout),
            Run::Sat(truth) => Ok(Found::Program(
                self.enc.decode(|l| truth[l.index()] == l.is_positive())?,
            )),
            Run::Unsat => {
                if let Some(base) = &self.proof {
                    if !self.write_proof(base, deadline)? {
                        return Ok(Found::Timeout);
                    }
                }
                Ok(Found::Refuted)
            }
        }
    }
}
