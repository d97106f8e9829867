//! A program checked against SG values recomputed on a (larger) box by a search engine, never
//! the tabulation that made the synthesis data; or against a data file.

use std::time::Instant;

use super::check::{self, Failure};
use super::data::{Dataset, Points};
use super::interp::run;
use super::lang::Program;
use super::problem::{Canonical, Example, Problem, Target};
use super::task::Task;
use grundy_core::catalog::sweep::{sweep, values_of};
use grundy_core::catalog::AnyGame;
use grundy_core::error::{Error, OptionKey, Setting};
use grundy_core::game::{Grid, Nimber};
use grundy_core::progress::Progress;
use grundy_core::sg::{SearchConfig, SearchEngine};

/// The result of checking a program on a box.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CrossCheck {
    /// The box is [0,max)^n.
    pub max: usize,
    /// Positions checked.
    pub points: usize,
    /// The engine that recomputed the values.
    pub engine: String,
    /// Wall-clock seconds the check took.
    pub seconds: f64,
    /// The first failing example, described.
    pub counterexample: Option<String>,
    /// The family whose members in the box were checked, when not the whole box.
    pub family: Option<String>,
}

/// Recomputes the values `program` is checked against on [0,max)^n with `engine`: the whole
/// box ([`on_box`]), or the members of `task`'s family in it (`on_family`).
pub fn recomputed(
    game: &dyn AnyGame,
    program: &Program,
    task: &Task,
    max: usize,
    engine: SearchEngine,
    memory_limit: u64,
    progress: &dyn Progress,
) -> Result<CrossCheck, Error> {
    if task.family().is_some() {
        on_family(game, program, task, max, engine, progress)
    } else {
        on_box(game, program, task, max, engine, memory_limit, progress)
    }
}

/// Checks, before any search, what [`recomputed`] on a box of side `max` would refuse
/// whatever the program: a side of 0, a box too large to index, a largest position too wide for
/// the word (a family's members are only known once listed).
pub fn check_larger(game: &dyn AnyGame, task: &Task, max: usize) -> Result<(), Error> {
    if max == 0 {
        return Err(Error::refused(OptionKey::VerifyMax, " must be at least 1"));
    }
    if task.family().is_some() {
        return Ok(());
    }
    let grid = Grid::cube(game.variables(), max)?;
    few(game, &grid, &task.recomputed(), &[(grid.len() - 1, 1)]).map(drop)
}

/// A problem over a few of the box's points: it validates the options (the largest position
/// must fit the width) and describes a failure as `synth` would.
fn few(
    game: &dyn AnyGame,
    grid: &Grid,
    recheck: &Task,
    points: &[(usize, Nimber)],
) -> Result<Problem, Error> {
    let data = Dataset {
        vars: grid.dims(),
        points: points
            .iter()
            .map(|&(i, _)| {
                grid.point(i)
                    .into_iter()
                    .map(u64::from)
                    .collect::<Vec<u64>>()
            })
            .collect(),
        values: points.iter().map(|&(_, v)| v).collect(),
        source: format!("{} on {grid}", game.name()),
    };
    recheck.problem_from(data, Some(game))
}

/// Recomputes [0,max)^n of `game` with `engine` and checks `program` under the target, orbits,
/// width and instructions of `task`, point by point (`check`): only the values are held,
/// 4 bytes a position, within `memory_limit` bytes.
pub fn on_box(
    game: &dyn AnyGame,
    program: &Program,
    task: &Task,
    max: usize,
    engine: SearchEngine,
    memory_limit: u64,
    progress: &dyn Progress,
) -> Result<CrossCheck, Error> {
    let start = Instant::now();
    if max == 0 {
        return Err(Error::Usage("the box size must be at least 1".into()));
    }
    let n = game.variables();
    if let Some(v) = program.max_var().filter(|&v| v >= n) {
        return Err(Error::Usage(format!(
            "the program reads x{v} but {} has {n} {}",
            game.name(),
            game.coordinate().1
        )));
    }
    let grid = Grid::cube(n, max)?;
    let recheck = task.recomputed();
    let few = |points: &[(usize, Nimber)]| few(game, &grid, &recheck, points);
    let probe = few(&[(grid.len() - 1, 1)])?;
    constants_fit(program, probe.mask())?;
    let (_, table) = sweep(
        game,
        engine,
        SearchConfig::default(),
        &grid,
        memory_limit,
        progress,
    )?;
    if recheck.target() == Target::Sg {
        // An SG value too wide for the program: the same refusal as `synth`'s.
        let wide = (0..table.len()).find_map(|i| {
            table
                .value_at(i)
                .filter(|&v| v as u64 > probe.mask())
                .map(|v| (i, v))
        });
        if let Some(point) = wide {
            few(&[point])?;
        }
    }
    let canon = |x: &[u64]| game.canonical_point(x);
    let orbits: Option<&Canonical<'_>> = recheck.orbits().then_some(&canon);
    let failure = check::first_failure(&table, program, recheck.target(), probe.mask(), orbits);
    let counterexample = match failure {
        None => None,
        Some(f) => {
            let points = match f {
                Failure::Point(i) => vec![i],
                Failure::Orbit { canonical, .. } => {
                    check::orbit_members(&table, &canon, &canonical)
                }
            };
            let points: Vec<(usize, Nimber)> = points
                .iter()
                .filter_map(|&i| Some((i, table.value_at(i)?)))
                .collect();
            let p = few(&points)?;
            Some(describe(&p, program, &p.examples[0]))
        }
    };
    Ok(CrossCheck {
        max,
        points: table.position_count(),
        engine: engine.to_string(),
        seconds: start.elapsed().as_secs_f64(),
        counterexample,
        family: None,
    })
}

/// Recomputes the members of `task`'s family in [0,max)^n with `engine` (position by
/// position, not the box: a family is a thin slice of it) and checks `program` on them.
pub(crate) fn on_family(
    game: &dyn AnyGame,
    program: &Program,
    task: &Task,
    max: usize,
    engine: SearchEngine,
    progress: &dyn Progress,
) -> Result<CrossCheck, Error> {
    let start = Instant::now();
    let family = task
        .family()
        .ok_or_else(|| Error::internal("on_family without a family"))?;
    if max == 0 {
        return Err(Error::Usage("the box size must be at least 1".into()));
    }
    // Members that are not positions of the game (on Chomp, heights that grow to the right)
    // are left out, as a box leaves them out.
    let (params, positions): (Vec<_>, Vec<_>) = family
        .members(max)?
        .into_iter()
        .filter_map(|(p, x)| Some((p, game.position(&x).ok()?)))
        .unzip();
    if positions.is_empty() {
        return Err(Error::Usage(format!(
            "no member of the family {family} in [0,{max})^{} is a position of {}",
            game.variables(),
            game.name()
        )));
    }
    let (_, values) = values_of(game, engine, SearchConfig::default(), &positions, progress);
    let mut points = Points::with_capacity(family.params().len(), params.len());
    for p in &params {
        points.push(p);
    }
    let data = Dataset {
        vars: family.params().len(),
        points,
        values,
        source: format!("{} positions ({family}) in [0,{max})^n", game.name()),
    };
    let problem = task.recomputed().problem_from(data, Some(game))?;
    Ok(CrossCheck {
        max,
        points: params.len(),
        engine: engine.to_string(),
        seconds: start.elapsed().as_secs_f64(),
        counterexample: on_data(&problem, program)?,
        family: Some(family.to_string()),
    })
}

/// The first example of `problem` that `program` fails, described; `None` when it passes them
/// all.
pub fn on_data(problem: &Problem, program: &Program) -> Result<Option<String>, Error> {
    let n = problem.vars();
    if let Some(v) = program.max_var().filter(|&v| v >= n) {
        return Err(Error::Usage(format!(
            "the program reads x{v} but the data has {n} variables"
        )));
    }
    constants_fit(program, problem.mask())?;
    Ok(problem
        .failures(program)
        .first()
        .map(|&e| describe(problem, program, &problem.examples[e])))
}

/// Refuses a program with a constant the width cannot hold, as `synth` refuses one in its
/// instruction set: checked, it would run with the constant wrapped.
fn constants_fit(program: &Program, mask: u64) -> Result<(), Error> {
    match program.constant_wider_than(mask) {
        Some(k) => Err(Error::limit(
            Setting::Width,
            format!("constant {k} does not fit in {} bits", mask.count_ones()),
        )),
        None => Ok(()),
    }
}

/// Says which requirement fails, where, and what the program gives.
pub fn describe(problem: &Problem, program: &Program, ex: &Example) -> String {
    let out = |i: usize| {
        run(program, &problem.points[i], problem.mask()).map_or("nothing".into(), |v| v.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::tests::boxed;
    use crate::task::Parts;
    use grundy_core::catalog::spec;
    use grundy_core::progress::Silent;

    fn setup(target: Target, orbits: bool) -> Task {
        Task::new(Parts {
            target,
            orbits,
            ..Parts::default()
        })
        .unwrap()
    }

    #[test]
    fn a_classifier_holds_and_a_wrong_program_fails_where_synth_would_say() {
        let game = spec::parse_hypergraph("path:3").unwrap();
        let right: Program = "Push(0) Push(2) BooleanEq Push(1) RightShift BooleanNot"
            .parse()
            .unwrap();
        let wrong: Program = "Push(0) Push(2) BooleanEq BooleanNot".parse().unwrap();
        for engine in [SearchEngine::Naive, "cut_cEA".parse().unwrap()] {
            let c = on_box(
                &game,
                &right,
                &setup(Target::Indicator, false),
                7,
                engine,
                1 << 30,
                &Silent,
            )
            .unwrap();
            assert_eq!((c.counterexample, c.points), (None, 343));
            let c = on_box(
                &game,
                &wrong,
                &setup(Target::Indicator, false),
                7,
                engine,
                1 << 30,
                &Silent,
            )
            .unwrap();
            // (0,1,0) is not a zero position, and the program gives 0 there: the first failure
            // in row-major order.
            assert_eq!(
                c.counterexample.as_deref(),
                Some("(0,1,0) (SG 1): wanted 1, the program gives 0")
            );
        }
    }

    #[test]
    fn data_checks_name_the_first_failure() {
        let problem = boxed("path:3", 4, Target::Zero, false);
        let right: Program = "Push(1) Push(0) Push(2) Xor Plus".parse().unwrap();
        assert_eq!(on_data(&problem, &right).unwrap(), None);
        let wrong: Program = "Push(0) Push(2) Xor".parse().unwrap();
        let msg = on_data(&problem, &wrong).unwrap().unwrap();
        assert_eq!(msg, "(0,1,0) (SG 1): wanted non-zero, the program gives 0");
        let far: Program = "Push(5)".parse().unwrap();
        assert!(on_data(&problem, &far).is_err());
    }

    #[test]
    fn options_are_checked_before_the_sweep() {
        let game = spec::parse_hypergraph("path:3").unwrap();
        let p: Program = "Push(0)".parse().unwrap();
        let narrow = Task::new(Parts {
            width: 2,
            ..Parts::default()
        })
        .unwrap();
        // [0,9)^3 holds 8, which does not fit in 2 bits.
        let err = on_box(&game, &p, &narrow, 9, SearchEngine::Naive, 1 << 30, &Silent);
        assert!(err.unwrap_err().to_string().contains("does not fit"));
        let far: Program = "Push(3)".parse().unwrap();
        let err = on_box(
            &game,
            &far,
            &setup(Target::Zero, false),
            4,
            SearchEngine::Naive,
            1 << 30,
            &Silent,
        );
        assert!(err.unwrap_err().to_string().contains("reads x3"));
    }
}
