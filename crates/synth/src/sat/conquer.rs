//! Cube-and-conquer's conquer: the cubes of one length solved in parallel, each worker an
//! incremental varisat solver on its own thread.
//!
//! The encoding is built once, on the caller's thread; workers receive its clauses as they
//! grow (varisat's solver is not `Send`, so each one lives and dies on its thread) and solve
//! one cube at a time under assumptions, keeping what they learned from cube to cube and
//! round to round. A cube refuted on some examples stays refuted when more arrive, so a round
//! only visits the cubes still open. The first cube that yields a program ends the round;
//! the other workers are stopped (varisat stops only through its proof sink, which leaves
//! the solver unusable, so a stopped worker is rebuilt from the clauses at its next job).
//! A refutation's failed core (the assumptions the solver actually used) refutes every cube
//! that contains it; an empty core refutes the length.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use varisat::{CnfFormula, ExtendFormula, Lit, ProofFormat, Solver};

use super::cubes::{split, Cube};
use super::encode::Encoder;
use super::Options;
use crate::problem::Problem;
use crate::solver::{past, Found, LengthSearch};
use grundy_core::error::Error;

/// What a worker is asked to do.
enum Job {
    /// Add these clauses.
    Clauses(Arc<CnfFormula>),
    /// Throw the solver away and start again from these clauses (after a stop).
    Rebuild(Arc<CnfFormula>),
    /// Solve under the cube's assumptions.
    Solve {
        cube: usize,
        lits: Vec<Lit>,
        deadline: Option<Instant>,
    },
}

/// How a worker's solve ended.
enum Reply {
    Sat(Vec<bool>),
    /// Unsatisfiable under the assumptions `core`, a subset of the cube's; with `stale`, the
    /// solver was stopped after that and must be rebuilt.
    Unsat {
        core: Vec<Lit>,
        stale: bool,
    },
    /// Deadline or stop: the solver is unusable until rebuilt.
    Stopped,
    Failed(String),
}

/// The proof sink through which a worker's solve is stopped: at the deadline, or when the
/// round's `stop` flag is raised (another cube found a program).
struct StopSink {
    deadline: Arc<Mutex<Option<Instant>>>,
    stop: Arc<AtomicBool>,
}

impl std::io::Write for StopSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let deadline = *self.deadline.lock().expect("deadline lock");
        if self.stop.load(Ordering::Relaxed) || past(deadline) {
            return Err(std::io::Error::other("stopped"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A solver thread and the channel that feeds it.
struct Worker {
    jobs: Sender<Job>,
    handle: Option<JoinHandle<()>>,
    /// Its solver was stopped and must be rebuilt before the next cube.
    stale: bool,
    /// Clauses it has been sent.
    loaded: usize,
}

fn fresh_solver(
    deadline: &Arc<Mutex<Option<Instant>>>,
    stop: &Arc<AtomicBool>,
    decay: Option<f32>,
) -> Solver<'static> {
    let mut solver = Solver::new();
    if let Some(decay) = decay {
        let mut c = varisat::config::SolverConfigUpdate::new();
        c.vsids_decay = Some(decay);
        // Checked when the backend was made.
        let _ = solver.config(&c);
    }
    let sink = StopSink {
        deadline: deadline.clone(),
        stop: stop.clone(),
    };
    solver.write_proof(sink, ProofFormat::Varisat);
    solver
}

/// The loop of one worker thread: jobs in, replies (tagged with its id and the cube) out.
fn work(
    id: usize,
    jobs: Receiver<Job>,
    replies: Sender<(usize, usize, Reply)>,
    stop: Arc<AtomicBool>,
    decay: Option<f32>,
) {
    let deadline = Arc::new(Mutex::new(None));
    let mut solver = fresh_solver(&deadline, &stop, decay);
    for job in jobs {
        match job {
            Job::Clauses(f) => solver.add_formula(&f),
            Job::Rebuild(f) => {
                solver = fresh_solver(&deadline, &stop, decay);
                solver.add_formula(&f);
            }
            Job::Solve {
                cube,
                lits,
                deadline: d,
            } => {
                *deadline.lock().expect("deadline lock") = d;
                solver.assume(&lits);
                let reply = match solver.solve() {
                    Ok(true) => {
                        let model = solver.model().unwrap_or_default();
                        let mut truth = vec![false; model.len() + 1];
                        for l in model {
                            if l.index() >= truth.len() {
                                truth.resize(l.index() + 1, false);
                            }
                            truth[l.index()] = l.is_positive();
                        }
                        Reply::Sat(truth)
                    }
                    Ok(false) => {
                        let (core, stale) = checked_core(&mut solver, &lits);
                        Reply::Unsat { core, stale }
                    }
                    Err(_) if stop.load(Ordering::Relaxed) || past(d) => Reply::Stopped,
                    Err(e) => Reply::Failed(e.to_string()),
                };
                *deadline.lock().expect("deadline lock") = None;
                if replies.send((id, cube, reply)).is_err() {
                    return;
                }
            }
        }
    }
}

/// The assumptions of `cube` that are enough for the refutation just found: varisat's failed
/// core when a solve under the core alone confirms it, else the whole cube. Varisat's core is
/// not always right: on star:4's indicator at length 10 it named the root `BooleanNot` alone
/// for a cube that also fixed step 8, though the length has a program with that root (a fresh
/// solver agreed the cube was unsatisfiable and the core was not), so a core is used only
/// once the solver has refuted it on its own. A stop during the confirming solve leaves the
/// whole cube, which the first solve did refute, and a solver to rebuild (true).
fn checked_core(solver: &mut Solver<'static>, cube: &[Lit]) -> (Vec<Lit>, bool) {
    let core = match solver.failed_core() {
        Some(core) if core.len() < cube.len() => core.to_vec(),
        _ => return (cube.to_vec(), false),
    };
    solver.assume(&core);
    match solver.solve() {
        Ok(false) => (core, false),
        Ok(true) => (cube.to_vec(), false),
        Err(_) => (cube.to_vec(), true),
    }
}

/// One length's search, its cubes shared among worker threads.
pub(crate) struct CubeSearch<'p> {
    enc: Encoder<'p>,
    cubes: Vec<Cube>,
    /// Per cube: refuted on the examples so far.
    refuted: Vec<bool>,
    /// The cube that gave the last program: tried first next round.
    last_sat: Option<usize>,
    workers: Vec<Worker>,
    replies: Receiver<(usize, usize, Reply)>,
    stop: Arc<AtomicBool>,
    /// Every clause so far, in the order made (a rebuilt worker loads them all).
    all: CnfFormula,
}

impl<'p> CubeSearch<'p> {
    pub(crate) fn new(
        problem: &'p Problem,
        length: usize,
        options: &Options,
        threads: usize,
    ) -> Result<Self, Error> {
        if length == 0 {
            return Err(Error::Usage(
                "programs have at least one instruction".into(),
            ));
        }
        let enc = Encoder::new(problem, length, options);
        let cubes = split(&enc.st);
        let stop = Arc::new(AtomicBool::new(false));
        let (reply_tx, replies) = channel();
        let mut workers = Vec::new();
        for id in 0..threads.max(1) {
            let (jobs, rx) = channel();
            let (tx, stop, decay) = (reply_tx.clone(), stop.clone(), options.vsids_decay);
            let handle = std::thread::Builder::new()
                .name(format!("cube-worker-{id}"))
                .spawn(move || work(id, rx, tx, stop, decay))
                .map_err(|e| Error::Resource(format!("cannot start a solver thread: {e}")))?;
            workers.push(Worker {
                jobs,
                handle: Some(handle),
                stale: false,
                loaded: 0,
            });
        }
        Ok(CubeSearch {
            refuted: vec![false; cubes.len()],
            enc,
            cubes,
            last_sat: None,
            workers,
            replies,
            stop,
            all: CnfFormula::new(),
        })
    }

    /// Brings every worker's clauses up to date.
    fn sync(&mut self) -> Result<(), Error> {
        let mut new = CnfFormula::new();
        self.enc.cnf.flush_into(&mut new);
        for c in new.iter() {
            self.all.add_clause(c);
        }
        self.all.set_var_count(self.enc.cnf.vars());
        let (total, vars) = (self.all.len(), self.enc.cnf.vars());
        let part = |from: usize| {
            let mut f = CnfFormula::new();
            f.set_var_count(vars);
            for c in self.all.iter().skip(from) {
                f.add_clause(c);
            }
            Arc::new(f)
        };
        // Workers usually stand at the same clause, so each batch is built once and shared.
        let mut built: Vec<(usize, Arc<CnfFormula>)> = Vec::new();
        let mut batch = |from: usize| -> Arc<CnfFormula> {
            if let Some((_, f)) = built.iter().find(|(at, _)| *at == from) {
                return f.clone();
            }
            let f = part(from);
            built.push((from, f.clone()));
            f
        };
        for w in &mut self.workers {
            let job = if w.stale {
                Job::Rebuild(batch(0))
            } else if w.loaded < total {
                Job::Clauses(batch(w.loaded))
            } else {
                continue;
            };
            w.jobs
                .send(job)
                .map_err(|_| Error::internal("a solver thread ended early"))?;
            w.stale = false;
            w.loaded = total;
        }
        Ok(())
    }

    /// The next reply; an error, not a wait forever, when a worker thread has died (a panic
    /// in the solver), since the others keep the channel open.
    fn next_reply(&self) -> Result<(usize, usize, Reply), Error> {
        let died = || Error::internal("a SAT solver thread ended early");
        loop {
            match self
                .replies
                .recv_timeout(std::time::Duration::from_millis(200))
            {
                Ok(reply) => return Ok(reply),
                Err(RecvTimeoutError::Disconnected) => return Err(died()),
                Err(RecvTimeoutError::Timeout) => {
                    let dead = |w: &Worker| w.handle.as_ref().is_none_or(|h| h.is_finished());
                    if self.workers.iter().any(dead) {
                        return Err(died());
                    }
                }
            }
        }
    }

    /// Marks every open cube whose assumptions include all of `core` refuted.
    fn refute(&mut self, core: &[Lit]) {
        for (k, c) in self.cubes.iter().enumerate() {
            if core.iter().all(|l| c.lits.contains(l)) {
                self.refuted[k] = true;
            }
        }
    }
}

impl LengthSearch for CubeSearch<'_> {
    fn add_example(&mut self, index: usize) -> Result<(), Error> {
        self.enc.add_example(index)
    }

    fn solve(&mut self, deadline: Option<Instant>) -> Result<Found, Error> {
        self.sync()?;
        self.stop.store(false, Ordering::Relaxed);
        // Popped from the back: cubes in order, the one that gave the last program first.
        let mut queue: Vec<usize> = (0..self.cubes.len())
            .rev()
            .filter(|&k| !self.refuted[k] && Some(k) != self.last_sat)
            .collect();
        queue.extend(self.last_sat.filter(|&k| !self.refuted[k]));
        let mut busy = 0;
        let mut found: Option<Result<Found, Error>> = None;
        let mut stopped = false;
        let mut idle: Vec<usize> = (0..self.workers.len()).collect();
        loop {
            // Hand out cubes while no answer is in.
            stopped |= past(deadline);
            while found.is_none() && !stopped {
                let Some(&w) = idle.last() else { break };
                let Some(k) = queue.pop() else { break };
                if self.refuted[k] {
                    continue;
                }
                idle.pop();
                let job = Job::Solve {
                    cube: k,
                    lits: self.cubes[k].lits.clone(),
                    deadline,
                };
                self.workers[w]
                    .jobs
                    .send(job)
                    .map_err(|_| Error::internal("a solver thread ended early"))?;
                busy += 1;
            }
            if busy == 0 {
                break;
            }
            let (w, k, reply) = self.next_reply()?;
            busy -= 1;
            idle.push(w);
            match reply {
                // An empty core refutes every cube.
                Reply::Unsat { core, stale } => {
                    self.refute(&core);
                    self.workers[w].stale |= stale;
                }
                Reply::Sat(truth) if found.is_none() => {
                    self.last_sat = Some(k);
                    let program = self.enc.decode(|l| {
                        truth.get(l.index()).copied().unwrap_or(false) == l.is_positive()
                    });
                    found = Some(program.map(Found::Program));
                    // The others stop; their solvers are rebuilt next round.
                    self.stop.store(true, Ordering::Relaxed);
                }
                Reply::Sat(_) => {}
                Reply::Stopped => {
                    self.workers[w].stale = true;
                    stopped |= !self.stop.load(Ordering::Relaxed);
                }
                Reply::Failed(e) => {
                    self.workers[w].stale = true;
                    found.get_or_insert(Err(Error::internal(format!(
                        "the SAT solver failed on cube {k}: {e}"
                    ))));
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.stop.store(false, Ordering::Relaxed);
        if let Some(f) = found {
            return f;
        }
        if self.refuted.iter().all(|&r| r) {
            return Ok(Found::Refuted);
        }
        debug_assert!(stopped || past(deadline));
        Ok(Found::Timeout)
    }
}

impl Drop for CubeSearch<'_> {
    fn drop(&mut self) {
        // Closing the channels ends the loops; a solve still running ends at its stop.
        self.stop.store(true, Ordering::Relaxed);
        for w in &mut self.workers {
            let (tx, _) = channel();
            drop(std::mem::replace(&mut w.jobs, tx));
        }
        for w in &mut self.workers {
            if let Some(h) = w.handle.take() {
                let _ = h.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::cegis::synthesize;
    use crate::problem::tests::boxed;
    use crate::problem::Target;
    use crate::sat::SatBackend;
    use crate::solver::Backend;

    fn cubes(threads: usize) -> SatBackend {
        SatBackend {
            cubes: Some(threads),
            ..SatBackend::default()
        }
    }

    /// Cube-and-conquer proves the same minimal lengths as one incremental solver. Star 4's
    /// indicator is where varisat's failed cores once refuted a satisfiable length (see
    /// [`checked_core`]); it is run twice because which cores arise depends on thread timing.
    #[test]
    fn cubes_find_the_lengths_one_solver_finds() {
        let cases = [
            ("path:3", 6, Target::Zero, false),
            ("path:3", 5, Target::Indicator, false),
            ("shriek", 5, Target::Sg, false),
            ("star:3", 3, Target::Indicator, true),
            ("star:4", 4, Target::Indicator, false),
            ("star:4", 4, Target::Indicator, false),
        ];
        for (game, max, target, orbits) in cases {
            let problem = boxed(game, max, target, orbits);
            let one = synthesize(&problem, &SatBackend::default(), 12, None).unwrap();
            for threads in [1, 2] {
                let split = synthesize(&problem, &cubes(threads), 12, None).unwrap();
                assert!(one.minimal && split.minimal, "{game} {target:?}");
                assert_eq!(
                    split.program.len(),
                    one.program.len(),
                    "{game} {target:?} on {threads} threads: {} against {}",
                    split.program,
                    one.program
                );
                assert!(problem.failures(&split.program).is_empty());
            }
        }
    }

    #[test]
    fn a_refuted_length_is_refuted_in_every_cube() {
        let problem = boxed("path:3", 4, Target::Indicator, false);
        let mut search = cubes(2).start(&problem, 5).unwrap();
        for e in 0..problem.examples.len() {
            search.add_example(e).unwrap();
        }
        assert_eq!(search.solve(None).unwrap(), Found::Refuted);
        // More examples keep it refuted without solving again.
        assert_eq!(search.solve(None).unwrap(), Found::Refuted);
    }

    #[test]
    fn the_deadline_stops_every_worker() {
        // CN(4,3)'s length 10 takes minutes; a second's deadline ends it undecided.
        let problem = boxed("circular:4,3", 5, Target::Zero, false);
        let mut search = cubes(2).start(&problem, 10).unwrap();
        for e in (0..problem.examples.len()).step_by(7) {
            search.add_example(e).unwrap();
        }
        let deadline = Instant::now() + Duration::from_millis(500);
        assert_eq!(search.solve(Some(deadline)).unwrap(), Found::Timeout);
        // Dropping the search joins its threads.
        drop(search);
    }
}
