//! The prover-guided search against brute force: refuted programs are wrong by the game's
//! own values, and the program proved agrees with a box larger than any data it saw.

use super::*;
use crate::cegis::{self, Options};
use crate::enumerate::EnumBackend;
use crate::interp;
use crate::setup::Setup;
use crate::task::Parts;
use crate::upper::{self, Strategies};
use grundy_core::catalog::spec::parse_hypergraph;
use grundy_core::catalog::{Notation, Valuation};
use grundy_core::cluster::Solo;
use grundy_core::sg::table::TableOptions;

fn setup(game: &str, max: usize, ops: &str) -> Setup {
    Setup {
        game: Some(game.into()),
        max: Some(max),
        ops: ops.into(),
        ..Setup::default()
    }
}

/// The task `setup` describes.
fn task(setup: Setup) -> Task {
    setup.task().unwrap()
}

/// The exact search alone, up to 12 instructions, with no deadline.
fn search_options() -> Options<'static> {
    Options {
        max_len: 12,
        deadline: None,
        upper: Strategies::NONE,
        upper_from: upper::FROM_BOUND,
        watch: &|_| {},
        team: &Solo,
    }
}

/// The search of `setup`'s box, then the prover's loop.
fn run(setup: &Setup) -> (HypergraphNim, Problem, Answer, Proof) {
    let game = parse_hypergraph(setup.game.as_deref().unwrap()).unwrap();
    let task = task(setup.clone());
    let problem = task.problem(&TableOptions::default()).unwrap();
    let backend = EnumBackend::new(1, 1 << 30);
    let opts = search_options();
    let mut search = |p: &Problem| cegis::run(p, &backend, &opts);
    let first = search(&problem).unwrap();
    let (problem, answer, proof) = prove_and_search(
        ProverGame::Graph(&game),
        &task,
        problem,
        first,
        None,
        None,
        &Solo,
        &mut search,
    )
    .unwrap();
    (game, problem, answer, proof)
}

/// The value of `p` by the definition.
fn nimber(game: &HypergraphNim, p: &[u32]) -> Nimber {
    let x: Vec<u64> = p.iter().map(|&v| v.into()).collect();
    Valuation::searcher(game, SearchEngine::Naive, SearchConfig::default())
        .nimber(Notation::position(game, &x).unwrap())
}

/// Whether `program` says `p` is a zero position (plain criterion, width 8).
fn says_zero(program: &Program, p: &[u32]) -> bool {
    let x: Vec<u64> = p.iter().map(|&v| v.into()).collect();
    interp::run(program, &x, interp::mask(8)) == Some(0)
}

/// A refuted program misclassifies the counterexample, the position it moves to, or one of
/// the counterexample's options: the prover's reason, re-checked by the game's values.
fn wrong_near(game: &HypergraphNim, program: &Program, c: &Counterexample) -> bool {
    let mut near = vec![c.position.clone()];
    near.extend(c.move_to.iter().cloned());
    near.extend(options(ProverGame::Graph(game), &c.position).unwrap());
    near.iter()
        .any(|p| says_zero(program, p) != (nimber(game, p) == 0))
}

#[test]
fn a_program_right_on_a_small_box_is_refuted_and_the_search_goes_on() {
    // On [0,2)^3 without Xor, (x0 - x2) + (x1 - x2) fits CN(3,2); at (2,0,1) the sum wraps.
    let s = setup("circular:3,2", 2, "-Xor");
    let (game, problem, answer, proof) = run(&s);
    assert_eq!(proof.status, ProofStatus::Proved, "{:?}", proof.why);
    assert!(!proof.history.is_empty(), "the box alone is too small");
    for r in &proof.history {
        let program: Program = r.program.parse().unwrap();
        assert!(
            wrong_near(&game, &program, &r.counterexample),
            "{} is not wrong near {}",
            r.program,
            r.counterexample
        );
        assert!(r.added > 0);
    }
    let Answer::Found(o) = &answer else {
        panic!("no program")
    };
    // Minimal on the data it was searched on: the box and what the prover added.
    assert!(o.minimal);
    assert!(problem.points.len() > 8);
    assert!(
        problem.source.contains("from the prover"),
        "{}",
        problem.source
    );
    // Every added position carries its value by the rules.
    for (x, &v) in problem.points.iter().zip(&problem.values) {
        let p: Vec<u32> = x.iter().map(|&c| c as u32).collect();
        assert_eq!(nimber(&game, &p), v, "{p:?}");
    }
    // The theorem agrees with brute force on a box larger than the data.
    let big = Dataset::from_box(&game, 7, &TableOptions::default()).unwrap();
    for (x, &v) in big.points.iter().zip(&big.values) {
        let p: Vec<u32> = x.iter().map(|&c| c as u32).collect();
        assert_eq!(says_zero(&o.program, &p), v == 0, "{} at {p:?}", o.program);
    }
    let t = proof.theorem.expect("the prover ran");
    assert_eq!(t.verdict, Verdict::Proved);
    assert_eq!(t.scope, "all positions");
}

#[test]
fn a_box_of_one_point_grows_to_the_theorem() {
    // [0,1)^2 holds (0,0) alone: `x0` fits it, and nim's x0 = x1 needs the prover's points.
    let (game, _, answer, proof) = run(&setup("nim:2", 1, ""));
    assert_eq!(proof.status, ProofStatus::Proved, "{:?}", proof.why);
    assert!(!proof.history.is_empty());
    let Answer::Found(o) = &answer else {
        panic!("no program")
    };
    for a in 0..6u32 {
        for b in 0..6u32 {
            assert_eq!(says_zero(&o.program, &[a, b]), a == b, "{}", o.program);
        }
    }
    assert_eq!(
        proof.theorem.unwrap().reading.words,
        "x0 = x1",
        "{}",
        game.name()
    );
}

#[test]
fn where_the_prover_does_not_apply_it_says_why() {
    let ok = setup("circular:4,2", 4, "");
    assert!(prover_game(&task(ok.clone())).is_ok());
    let no_game = Task::new(Parts::default()).unwrap();
    let no_game = refused(prover_game(&no_game));
    assert!(
        matches!(
            no_game,
            Error::Refused {
                key: OptionKey::Prove,
                ..
            }
        ),
        "{no_game}"
    );
    let family = task(Setup {
        family: Some("a,b,a,b".into()),
        ..ok.clone()
    });
    assert!(matches!(
        prover_game(&family),
        Err(Error::Refused {
            key: OptionKey::Prove,
            ..
        })
    ));
    let indicator = Setup {
        target: Target::Indicator,
        ..ok.clone()
    };
    assert!(prover_game(&task(indicator.clone())).is_ok());
    let sg_orbits = task(Setup {
        target: Target::Sg,
        orbits: true,
        ..ok.clone()
    });
    assert!(matches!(
        prover_game(&sg_orbits),
        Err(Error::Refused {
            key: OptionKey::Prove,
            ..
        })
    ));
    let heaps = Setup {
        game: Some("subtraction:1,2,3".into()),
        heaps: Some(2),
        ..ok
    };
    assert!(matches!(
        prover_game(&task(heaps.clone())),
        Ok(ProverGame::Heaps(_))
    ));
    let heaps_indicator = task(Setup {
        target: Target::Indicator,
        ..heaps
    });
    let e = refused(prover_game(&heaps_indicator));
    assert!(
        matches!(
            e,
            Error::Refused {
                key: OptionKey::Prove,
                ..
            }
        ),
        "{e}"
    );
}

/// The error of a refusal (the game, when accepted, has no `Debug`).
fn refused(r: Result<ProverGame<'_>, Error>) -> Error {
    match r {
        Err(e) => e,
        Ok(_) => panic!("the prover was expected to refuse"),
    }
}

/// Over bit-vectors the prover refuses a program whose step wraps where the zero set depends on
/// it (`(x0 - x1) ^ (x2 ^ x1)` on nim:3, no linear reading): the loop ends unknown with that
/// reason, and searches no more; a bound no proof takes is refused before anything.
#[test]
fn a_program_the_prover_cannot_take_is_unknown() {
    let s = task(setup("nim:3", 4, ""));
    let game = parse_hypergraph("nim:3").unwrap();
    let problem = s.problem(&TableOptions::default()).unwrap();
    let backend = EnumBackend::new(1, 1 << 30);
    let opts = search_options();
    let Answer::Found(mut o) = cegis::run(&problem, &backend, &opts).unwrap() else {
        panic!("no program")
    };
    // A quotient of a difference that goes below 0: not read column by column, and over
    // bit-vectors its value depends on the width.
    o.program = "Push(0) Push(1) Minus Push(2) Push(1) Xor Div"
        .parse()
        .unwrap();
    let mut no_search = |_: &Problem| -> Result<Answer, Error> { panic!("searched again") };
    let wraps = Answer::Found(o);
    let (_, _, proof) = prove_and_search(
        ProverGame::Graph(&game),
        &s,
        problem.clone(),
        wraps.clone(),
        None,
        None,
        &Solo,
        &mut no_search,
    )
    .unwrap();
    assert_eq!(proof.status, ProofStatus::Unknown);
    let why = proof.why.unwrap();
    assert!(why.contains("`x0 - x1`"), "{why}");
    assert!(proof.theorem.is_none() && proof.history.is_empty());
    let e = prove_and_search(
        ProverGame::Graph(&game),
        &s,
        problem,
        wraps,
        None,
        Some(0),
        &Solo,
        &mut no_search,
    )
    .map(|_| ())
    .unwrap_err();
    assert!(
        matches!(
            e,
            Error::Refused {
                key: OptionKey::Bound,
                ..
            }
        ),
        "{e}"
    );
}
