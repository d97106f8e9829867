//! Which form `synth` returns: the plain criterion (the program is 0 exactly on the zero
//! positions) or the orbit criterion (p is a zero position iff some symmetric image of p gives
//! 0), tried beside each other when the game's automorphism group is non-trivial and small.
//!
//! A plain classifier of the data is also an orbit classifier of it, so the orbit form is
//! never longer; the orbit search runs first (with half the time), then the plain search up to
//! the orbit program's length, and the plain form wins ties: its statement is the plainer.
//! CN(5,3) on [0,6)^5 is the case that asks for it: 11 instructions with orbits, none as short
//! plainly.

use std::time::Instant;

use super::cegis::Answer;
use super::data::Dataset;
use super::problem::{Problem, Target};
use super::solver::stop_requested;
use super::task::Task;
use grundy_core::catalog::AnyGame;
use grundy_core::error::Error;

/// Largest automorphism group whose orbit criterion is tried without `--orbits`: each
/// orbit's members are encoded as one example, and groups past this make orbits of dozens.
pub(crate) const MAX_GROUP: u128 = 24;

/// The criterion a program satisfies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// 0 exactly on the zero positions.
    Plain,
    /// Some symmetric image of each zero position gives 0, every other position non-zero.
    Orbits,
}

impl Form {
    /// "plain" or "orbits", as the JSON says.
    pub fn name(self) -> &'static str {
        match self {
            Form::Plain => "plain",
            Form::Orbits => "orbits",
        }
    }
}

/// The form returned and why, in words.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The form chosen.
    pub form: Form,
    /// Why, in words, for the report.
    pub why: String,
}

/// How long and how far one search may go.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Longest program to try.
    pub max_len: usize,
    /// When to stop and report what is settled (`None`: no time limit).
    pub deadline: Option<Instant>,
    /// Whether the upper-bound strategies may run first.
    pub upper: bool,
}

/// Whether both forms are to be tried for `task` on `game`, or why not. `fixed` names what
/// else fixes the form (an option recording one form, like exports), if anything.
pub(crate) fn try_both(
    game: Option<&dyn AnyGame>,
    task: &Task,
    fixed: Option<&str>,
) -> Result<(), String> {
    if task.orbits() {
        return Err("the orbit criterion, asked for".into());
    }
    let Some(game) = game else {
        return Err("the orbit criterion not tried: the data has no game".into());
    };
    if task.family().is_some() {
        return Err("the orbit criterion not tried: a family's parameters have no symmetry".into());
    }
    if task.target() == Target::Sg {
        return Err("the orbit criterion is for the zero and indicator targets".into());
    }
    if let Some(what) = fixed {
        return Err(format!(
            "the orbit criterion not tried: {what} (it can be asked for)"
        ));
    }
    let sym = game.symmetry();
    if sym.is_trivial() {
        return Err(format!(
            "the orbit criterion not tried: {} has no automorphism but the identity",
            game.name()
        ));
    }
    match sym.order().filter(|_| sym.is_complete()) {
        Some(k) if k <= MAX_GROUP => Ok(()),
        Some(k) => Err(format!(
            "the orbit criterion not tried: the group has {k} elements, more than {MAX_GROUP} \
             (it can be asked for)"
        )),
        None => Err(
            "the orbit criterion not tried: the automorphism group is not known \
                     whole"
                .into(),
        ),
    }
}

/// Searches `plain`'s data under the orbit criterion, then plainly up to the orbit program's
/// length, and returns the shorter (the plain one on a tie): its problem, answer and form.
pub fn choose(
    task: &Task,
    game: &dyn AnyGame,
    plain: Problem,
    limits: Limits,
    search: &mut dyn FnMut(&Problem, &Limits) -> Result<Answer, Error>,
) -> Result<(Problem, Answer, Choice), Error> {
    let start = Instant::now();
    let data = Dataset {
        vars: plain.vars(),
        points: plain.points.clone(),
        values: plain.values.clone(),
        source: plain.source.clone(),
    };
    let orbit_problem = task.with_orbits(true).problem_from(data, Some(game))?;
    let half = limits
        .deadline
        .map(|d| start + d.saturating_duration_since(start) / 2);
    let orbit = search(
        &orbit_problem,
        &Limits {
            deadline: half,
            ..limits
        },
    );
    let orbit = match orbit {
        Ok(a) => Some(a),
        // No orbit program up to the longest length: no plain one either, but the plain
        // search says so in its own terms.
        Err(Error::LengthLimit { .. }) => None,
        Err(e) => return Err(e),
    };
    let found = match &orbit {
        Some(Answer::Found(o)) => Some((o.program.len(), o.minimal)),
        _ => None,
    };
    if stop_requested() {
        if let Some(a) = orbit {
            let why = "the orbit criterion; interrupted before the plain form was tried";
            return Ok((orbit_problem, a, choice(Form::Orbits, why)));
        }
    }
    // Below a minimal orbit program's length no plain program exists: search up to it alone.
    let plain_limits = match found {
        Some((len, minimal)) => Limits {
            max_len: len.min(limits.max_len),
            upper: limits.upper && !minimal,
            ..limits
        },
        None => limits,
    };
    let plain_answer = search(&plain, &plain_limits);
    let plain_len = match &plain_answer {
        Ok(Answer::Found(p)) => Some(p.program.len()),
        _ => None,
    };
    match (found, plain_len, orbit) {
        (Some((o, _)), Some(p), _) if p <= o => {
            let why = format!("as short as the orbit criterion's {o}-instruction program");
            Ok((plain, plain_answer?, choice(Form::Plain, &why)))
        }
        (Some((o, _)), _, Some(orbit)) => {
            let why = match plain_answer {
                Ok(Answer::Found(p)) => format!(
                    "shorter than the plain form's {} instructions",
                    p.program.len()
                ),
                Err(Error::LengthLimit { .. }) => {
                    format!("no plain program of length {o} or less fits the data")
                }
                Ok(Answer::Undecided(_)) => {
                    format!("the plain search stopped before length {o}")
                }
                Err(e) => return Err(e),
            };
            Ok((orbit_problem, orbit, choice(Form::Orbits, &why)))
        }
        _ => {
            let why = "the orbit criterion found no program first";
            Ok((plain, plain_answer?, choice(Form::Plain, why)))
        }
    }
}

fn choice(form: Form, why: &str) -> Choice {
    Choice {
        form,
        why: why.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cegis::{self, Options};
    use crate::enumerate::EnumBackend;
    use crate::setup::Setup;
    use crate::task::Parts;
    use crate::upper::{self, Strategies};
    use grundy_core::catalog::spec::parse_hypergraph;
    use grundy_core::cluster::Solo;
    use grundy_core::sg::table::TableOptions;

    fn choose_on(game: &str, max: usize, max_len: usize) -> (Answer, Choice) {
        let g = parse_hypergraph(game).unwrap();
        let task = Setup {
            game: Some(game.into()),
            max: Some(max),
            ..Setup::default()
        }
        .task()
        .unwrap();
        assert_eq!(try_both(Some(&g), &task, None), Ok(()));
        let problem = task.problem(&TableOptions::default()).unwrap();
        let backend = EnumBackend::new(1, 1 << 30);
        let mut search = |p: &Problem, l: &Limits| {
            cegis::run(
                p,
                &backend,
                &Options {
                    max_len: l.max_len,
                    deadline: l.deadline,
                    upper: Strategies::NONE,
                    upper_from: upper::FROM_BOUND,
                    watch: &|_| {},
                    team: &Solo,
                },
            )
        };
        let limits = Limits {
            max_len,
            deadline: None,
            upper: false,
        };
        let (p, a, c) = choose(&task, &g, problem, limits, &mut search).unwrap();
        assert_eq!(p.orbits, c.form == Form::Orbits);
        // The answer holds on the problem of its form.
        let Answer::Found(o) = &a else {
            panic!("no program")
        };
        assert!(p.failures(&o.program).is_empty());
        (a, c)
    }

    #[test]
    fn orbits_win_when_shorter_and_plain_wins_ties() {
        // path:4 on [0,3)^4: 7 instructions under the flip, none of 8 or less plainly.
        let (a, c) = choose_on("path:4", 3, 8);
        assert_eq!(c.form, Form::Orbits, "{}", c.why);
        assert!(c.why.contains("no plain program of length 7"), "{}", c.why);
        let Answer::Found(o) = a else { unreachable!() };
        assert!(o.minimal && o.program.len() == 7);
        // nim:2: x0 - x1 either way; the plain form is returned.
        let (a, c) = choose_on("nim:2", 4, 8);
        assert_eq!(c.form, Form::Plain, "{}", c.why);
        let Answer::Found(o) = a else { unreachable!() };
        assert_eq!(o.program.len(), 3);
    }

    #[test]
    fn where_both_forms_are_not_tried_it_says_why() {
        let star = parse_hypergraph("star:5").unwrap();
        let s = Task::new(Parts::default()).unwrap();
        let why = try_both(Some(&star), &s, None).unwrap_err();
        assert!(why.contains("120 elements"), "{why}");
        let forced = s.with_orbits(true);
        assert_eq!(
            try_both(Some(&star), &forced, None).unwrap_err(),
            "the orbit criterion, asked for"
        );
        assert!(try_both(None, &s, None).is_err());
        let p3 = parse_hypergraph("path:3").unwrap();
        assert!(try_both(Some(&p3), &s, Some("exports record one form")).is_err());
        let sg = Task::new(Parts {
            target: Target::Sg,
            ..Parts::default()
        })
        .unwrap();
        assert!(try_both(Some(&p3), &sg, None).is_err());
    }
}
