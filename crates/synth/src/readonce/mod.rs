//! The dependency bound's own length, searched as read-once formulas.
//!
//! When k variables matter, a program of exactly 2k-1 instructions reads each of them exactly
//! once and has no constant and no unary step (a program with p leaves and u unary steps has
//! 2p-1+u instructions, and p >= k). It is a binary tree over the k variables, which this
//! search explores top-down (`search.rs`): from the sets of values the output may take at each
//! example point, through the inverse images of each instruction, to sets for the operands. On
//! the stars, where this length is where the minimal length is decided, the generic encodings
//! spend minutes proving that no such tree exists; the sets settle it far sooner.
//!
//! Orbit examples ("some member gives 0") are not sets: the search first holds their members
//! only to what every member must give (0 or 1 for the indicator), and when its formula leaves
//! an orbit without a 0, it branches on which member gives 0.
//!
//! Applies at width <= 8 (sets of 256 values) and with at most 31 needed variables and 31
//! binary instructions. Examples with more than 2048 points (`MAX_POINTS`), or tables that outgrow
//! their memory, are a resource error, on which `auto` hands the length to SAT.

mod search;
mod sets;
mod table;

use std::sync::Arc;
use std::time::Instant;

use self::search::{Search, Stop};
use self::sets::{Inverse, Set};
use super::lang::{Op, Program};
use super::problem::{Example, Problem};
use super::solver::{Found, LengthSearch, Method};
use grundy_core::error::Error;

/// Example points beyond which the tables (a byte per function and point, with an index of
/// four bytes more) would take gigabytes: large orbits can bring thousands of members.
const MAX_POINTS: usize = 2048;

/// A search over the read-once programs of the dependency bound's length.
pub struct ReadOnceSearch<'p> {
    problem: &'p Problem,
    /// The variables read, each once.
    vars: Vec<usize>,
    ops: Vec<Op>,
    inverses: Vec<Arc<Inverse>>,
    examples: Vec<usize>,
}

impl<'p> ReadOnceSearch<'p> {
    /// The search for programs of `length` instructions, when `length` is the dependency
    /// bound and the search applies (see the module docs); `None` otherwise.
    pub fn start(problem: &'p Problem, length: usize) -> Option<Self> {
        let (bound, vars) = problem.lower_bound();
        let ops: Vec<Op> = problem
            .ops
            .ops()
            .iter()
            .copied()
            .filter(|o| o.arity() == 2)
            .collect();
        let fits = length == bound
            && !vars.is_empty()
            && problem.width <= 8
            && vars.len() <= 31
            && ops.len() <= 31;
        fits.then(|| ReadOnceSearch {
            problem,
            vars,
            inverses: ops
                .iter()
                .map(|&o| Inverse::shared(o, problem.mask()))
                .collect(),
            ops,
            examples: Vec::new(),
        })
    }

    /// The points the examples read (indices into the problem's points), the allowed sets
    /// there, and the orbits as lists of positions in that list.
    fn constraints(&self) -> (Vec<usize>, Vec<Set>, Vec<Vec<usize>>) {
        let domain = Set::below(self.problem.mask() as usize + 1);
        let mut points: Vec<usize> = Vec::new();
        let mut sets: Vec<Set> = Vec::new();
        let mut local = ahash::AHashMap::new();
        let mut at = |p: usize, s: Set, points: &mut Vec<usize>, sets: &mut Vec<Set>| {
            let j = *local.entry(p).or_insert_with(|| {
                points.push(p);
                sets.push(domain);
                points.len() - 1
            });
            sets[j] = sets[j].and(s);
            j
        };
        let mut orbits = Vec::new();
        for &e in &self.examples {
            match &self.problem.examples[e] {
                Example::Equals { point, value } => {
                    let s = if *value <= self.problem.mask() {
                        Set::single(*value as u8)
                    } else {
                        Set::EMPTY
                    };
                    at(*point, s, &mut points, &mut sets);
                }
                Example::NonZero { point } => {
                    at(*point, domain.minus(Set::single(0)), &mut points, &mut sets);
                }
                Example::SomeZero {
                    points: members,
                    boolean,
                } => {
                    let s = if *boolean { Set::below(2) } else { domain };
                    let orbit = members
                        .iter()
                        .map(|&p| at(p, s, &mut points, &mut sets))
                        .collect();
                    orbits.push(orbit);
                }
            }
        }
        (points, sets, orbits)
    }
}

impl LengthSearch for ReadOnceSearch<'_> {
    fn add_example(&mut self, index: usize) -> Result<(), Error> {
        self.examples.push(index);
        Ok(())
    }

    fn solve(&mut self, deadline: Option<Instant>) -> Result<Found, Error> {
        let (points, sets, orbits) = self.constraints();
        if points.len() > MAX_POINTS {
            // `auto` hands the length to SAT with the same examples.
            return Err(Error::Resource(format!(
                "the read-once search takes at most {MAX_POINTS} example points, the examples \
                 have {}",
                points.len()
            )));
        }
        let coords: Vec<Vec<u8>> = self
            .vars
            .iter()
            .map(|&v| {
                points
                    .iter()
                    .map(|&p| self.problem.points[p][v] as u8)
                    .collect()
            })
            .collect();
        let mut search = Search::new(
            coords,
            self.vars.iter().map(|&v| v as u8).collect(),
            run_masks(&self.vars, &self.problem.twin_runs()),
            &self.ops,
            &self.inverses,
            Set::below(self.problem.mask() as usize + 1),
            deadline,
        );
        let all = (1u32 << self.vars.len()) - 1;
        let found = branch(&mut search, all, sets, &orbits, &|prog: &[Op], j: usize| {
            let x = &self.problem.points[points[j]];
            super::interp::run(&Program(prog.to_vec()), x, self.problem.mask())
        });
        match found {
            Ok(Some(p)) => Ok(Found::Program(Program(p))),
            Ok(None) => Ok(Found::Refuted),
            Err(Stop::Timeout) => Ok(Found::Timeout),
            // `auto` hands the length to SAT with the same examples.
            Err(Stop::TooLarge) => Err(Error::Resource(
                "the read-once search's tables outgrew their memory".into(),
            )),
        }
    }

    fn answered_by(&self) -> Option<Method> {
        Some(Method::ReadOnce)
    }
}

/// Twin runs (of the problem's variable indices) as sets of the search's variables, where bit
/// i stands for `vars[i]`.
fn run_masks(vars: &[usize], runs: &[Vec<usize>]) -> Vec<u32> {
    let bit = |v: usize| vars.iter().position(|&u| u == v);
    runs.iter()
        .map(|r| r.iter().filter_map(|&v| bit(v)).fold(0, |m, i| m | 1 << i))
        .collect()
}

/// A formula meeting the sets whose outputs (`output(program, j)` at point j) leave a 0 in
/// every orbit: the first formula meeting the sets, or, when it misses an orbit, the search
/// split into one case per member of that orbit: that member gives 0, the ones before it do
/// not.
fn branch(
    search: &mut Search<'_>,
    all: u32,
    sets: Vec<Set>,
    orbits: &[Vec<usize>],
    output: &dyn Fn(&[Op], usize) -> Option<u64>,
) -> Result<Option<Vec<Op>>, Stop> {
    let Some(p) = search.solve(all, sets.clone(), 0)? else {
        return Ok(None);
    };
    let missed = orbits
        .iter()
        .find(|o| !o.iter().any(|&j| output(&p, j) == Some(0)));
    let Some(orbit) = missed else {
        return Ok(Some(p));
    };
    // Case i: member i gives 0 and the members before it do not.
    let mut sets = sets;
    for &m in orbit {
        if !sets[m].contains(0) {
            continue;
        }
        let mut held = sets.clone();
        held[m] = Set::single(0);
        if let Some(p) = branch(search, all, held, orbits, output)? {
            return Ok(Some(p));
        }
        sets[m] = sets[m].minus(Set::single(0));
    }
    Ok(None)
}

#[cfg(test)]
mod tests;
