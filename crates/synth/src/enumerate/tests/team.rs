//! The search shared among the ranks of a team (`share.rs`) against one process's, with ranks
//! as threads: the same programs, refutations and examples, and every rank stopped together
//! by a deadline or a limit that only one of them reaches.

use std::sync::Arc;
use std::time::Instant;

use super::super::EnumBackend;
use super::support::backend;
use crate::cegis::{self, Answer, Options};
use crate::problem::tests::boxed;
use crate::problem::{Problem, Target};
use crate::upper::{self, Strategies};
use grundy_core::cluster::{threads, Solo, Team};
use grundy_core::error::{Error, Kind};

/// CEGIS with enumeration on `team`, this rank's `backend` and `deadline`.
fn search(
    problem: &Problem,
    team: Arc<dyn Team>,
    backend: EnumBackend,
    deadline: Option<Instant>,
) -> Result<Answer, Error> {
    let backend = EnumBackend {
        team: team.clone(),
        ..backend
    };
    let opts = Options {
        max_len: 12,
        deadline,
        upper: Strategies::NONE,
        upper_from: upper::FROM_BOUND,
        watch: &|_| {},
        team: &*team,
    };
    cegis::run(problem, &backend, &opts)
}

/// What must not depend on the number of ranks: the program, the examples, the rounds, and
/// each refuted length with the examples it was refuted on.
type Summary = (Option<String>, Vec<usize>, usize, Vec<(usize, usize)>);

fn summary(answer: &Answer) -> Summary {
    let program = match answer {
        Answer::Found(o) => Some(o.program.to_string()),
        Answer::Undecided(_) => None,
    };
    let t = answer.trace();
    let refuted = t.refutations.iter().map(|r| (r.length, r.examples));
    (program, t.examples.clone(), t.rounds, refuted.collect())
}

#[test]
fn ranks_find_what_one_process_finds() {
    let cases = [
        ("path:3", 6, Target::Zero),
        ("path:3", 6, Target::Indicator),
        ("star:4", 6, Target::Indicator),
        ("circular:4,2", 5, Target::Zero),
    ];
    for (game, max, target) in cases {
        let problem = boxed(game, max, target, false);
        let alone = search(&problem, Arc::new(Solo), backend(1), None).unwrap();
        assert!(matches!(alone, Answer::Found(_)), "{game}");
        for size in [2, 3] {
            let answers = threads::run(size, |team| {
                search(&problem, team, backend(1), None).map(|a| summary(&a))
            });
            for (rank, a) in answers.into_iter().enumerate() {
                assert_eq!(
                    a.unwrap(),
                    summary(&alone),
                    "{game} {target:?}, rank {rank} of {size}"
                );
            }
        }
    }
}

#[test]
fn a_deadline_or_limit_one_rank_reaches_stops_them_all() {
    let star = boxed("star:4", 6, Target::Indicator, false);
    // Rank 1's deadline has passed; rank 0 has none.
    let answers = threads::run(2, |team| {
        let deadline = (team.rank() == 1).then(Instant::now);
        search(&star, team, backend(1), deadline).map(|a| summary(&a))
    });
    for a in answers {
        let (program, ..) = a.unwrap();
        assert_eq!(program, None, "undecided on every rank");
    }
    // Rank 0's memory limit is too small for the first levels.
    let answers = threads::run(2, |team| {
        let limit = if team.rank() == 0 { 4 << 10 } else { 1 << 30 };
        search(&star, team, EnumBackend::new(1, limit), None).map(|a| summary(&a))
    });
    for a in answers {
        assert_eq!(a.unwrap_err().kind(), Kind::Resource);
    }
}
