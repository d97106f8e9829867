//! The read-once search against brute force (every tree over every leaf order) and against SAT
//! at the dependency bound's length.

use super::search::Search;
use super::sets::{Inverse, Set};
use super::ReadOnceSearch;
use crate::interp::{mask, run};
use crate::lang::{Op, Program, THESIS_OPS};
use std::sync::Arc;
use std::time::Instant;

use crate::data::Dataset;
use crate::lang::OpSet;
use crate::problem::tests::boxed;
use crate::problem::{Problem, Target};
use crate::sat::SatBackend;
use crate::solver::{Backend, Found, LengthSearch, Method};

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

/// Every binary instruction: the thesis's and the extras `--ops` can add.
fn binary() -> Vec<Op> {
    THESIS_OPS
        .iter()
        .copied()
        .filter(|o| o.arity() == 2)
        .chain([Op::Mod, Op::Min, Op::Max, Op::Lt])
        .collect()
}

/// A search over `coords`, variable i pushed as `Push(i)`, with no deadline.
fn searcher<'a>(
    coords: Vec<Vec<u8>>,
    runs: Vec<u32>,
    ops: &'a [Op],
    inverses: &'a [Arc<Inverse>],
    domain: Set,
) -> Search<'a> {
    let vars = (0..coords.len() as u8).collect();
    Search::new(coords, vars, runs, ops, inverses, domain, None)
}

/// Every read-once program over the variables in `set` (bits of `0..k`, pushed as `Push(i)`),
/// in every leaf order and shape.
fn all_trees(set: u32, ops: &[Op]) -> Vec<Vec<Op>> {
    if set.count_ones() == 1 {
        return vec![vec![Op::Push(set.trailing_zeros() as u8)]];
    }
    let mut out = Vec::new();
    let mut a = (set - 1) & set;
    while a != 0 {
        let (left, right) = (all_trees(a, ops), all_trees(set & !a, ops));
        for x in &left {
            for y in &right {
                for &op in ops {
                    let mut p = x.clone();
                    p.extend_from_slice(y);
                    p.push(op);
                    out.push(p);
                }
            }
        }
        a = (a - 1) & set;
    }
    out
}

/// Whether the members of each run appear in index order among the pushes.
fn twins_in_order(p: &[Op], runs: &[u32]) -> bool {
    runs.iter().all(|&r| {
        let seq: Vec<u8> = p
            .iter()
            .filter_map(|o| match o {
                Op::Push(i) if r >> i & 1 == 1 => Some(*i),
                _ => None,
            })
            .collect();
        seq.windows(2).all(|w| w[0] < w[1])
    })
}

fn meets(p: &[Op], coords: &[Vec<u8>], sets: &[Set], m: u64) -> bool {
    let prog = Program(p.to_vec());
    sets.iter().enumerate().all(|(j, s)| {
        let x: Vec<u64> = coords.iter().map(|c| c[j] as u64).collect();
        s.contains(run(&prog, &x, m).expect("valid") as u8)
    })
}

/// On random points, instructions, twin runs, allowed sets (half of them loosened from a
/// hidden read-once formula, so that solutions exist) and orbits, a formula is found exactly
/// when some read-once program with twins in order meets the sets and leaves a 0 in every
/// orbit, and what is found does. Split all the way down (lookup at 1 or 2 variables) and with
/// the default lookups.
#[test]
fn search_finds_a_formula_exactly_when_one_exists() {
    let mut rng = Rng(7);
    let binary = binary();
    let (mut found, mut refuted) = (0, 0);
    let cases = crate::testing::cases(160, 2000);
    for case in 0..cases {
        let k = 2 + case % 4;
        let width = [2u32, 3, 8][case / 4 % 3];
        let m = mask(width);
        let mut ops: Vec<Op> = Vec::new();
        while ops.len() < if k == 5 { 3 } else { 4 } {
            let op = binary[rng.below(binary.len() as u64) as usize];
            if !ops.contains(&op) {
                ops.push(op);
            }
        }
        let points = 3 + rng.below(6) as usize;
        let coords: Vec<Vec<u8>> = (0..k)
            .map(|_| (0..points).map(|_| rng.below(m.min(3) + 1) as u8).collect())
            .collect();
        // One run of consecutive twins in most cases.
        let runs: Vec<u32> = match rng.below(3) {
            0 => Vec::new(),
            _ => {
                let len = 2 + rng.below(k as u64 - 1) as u32;
                let from = rng.below((k as u32 - len + 1) as u64) as u32;
                vec![((1u32 << len) - 1) << from]
            }
        };
        let domain = Set::below(m as usize + 1);
        let everything = all_trees((1 << k) - 1, &ops);
        let mut sets: Vec<Set> = if rng.below(2) == 0 {
            let hidden = &everything[rng.below(everything.len() as u64) as usize];
            (0..points)
                .map(|j| {
                    let x: Vec<u64> = coords.iter().map(|c| c[j] as u64).collect();
                    let v = run(&Program(hidden.clone()), &x, m).unwrap() as u8;
                    let mut s = Set::single(v);
                    if rng.below(3) == 0 {
                        s.insert(rng.below(m + 1) as u8);
                    }
                    s
                })
                .collect()
        } else {
            (0..points)
                .map(|_| match rng.below(3) {
                    0 => Set::single(rng.below(m.min(3) + 1) as u8),
                    1 => domain.minus(Set::single(0)),
                    _ => Set::below(2),
                })
                .collect()
        };
        // Orbits ("some member gives 0") in a third of the cases, over distinct points.
        let mut orbits: Vec<Vec<usize>> = Vec::new();
        if case % 3 == 1 {
            let mut free: Vec<usize> = (0..points).collect();
            for _ in 0..1 + rng.below(2) {
                let size = (2 + rng.below(2) as usize).min(free.len());
                let orbit: Vec<usize> = (0..size)
                    .map(|_| free.swap_remove(rng.below(free.len() as u64) as usize))
                    .collect();
                // Members may give 0 or 1 (indicator), or anything (zero target).
                let member = [Set::below(2), domain][rng.below(2) as usize];
                for &j in &orbit {
                    sets[j] = member;
                }
                if size > 0 {
                    orbits.push(orbit);
                }
            }
        }
        let output = |p: &[Op], j: usize| {
            let x: Vec<u64> = coords.iter().map(|c| c[j] as u64).collect();
            run(&Program(p.to_vec()), &x, m)
        };
        let zero_in_each = |p: &[Op]| {
            orbits
                .iter()
                .all(|o| o.iter().any(|&j| output(p, j) == Some(0)))
        };
        let exists = everything
            .iter()
            .any(|p| twins_in_order(p, &runs) && meets(p, &coords, &sets, m) && zero_in_each(p));
        let inverses: Vec<_> = ops.iter().map(|&o| Inverse::shared(o, m)).collect();
        for lookup in [1, 2, super::search::LOOKUP_MAX] {
            let mut search = searcher(coords.clone(), runs.clone(), &ops, &inverses, domain);
            search.lookup_max = lookup;
            let got =
                super::branch(&mut search, (1 << k) - 1, sets.clone(), &orbits, &output).unwrap();
            assert_eq!(
                got.is_some(),
                exists,
                "case {case}: k {k}, width {width}, ops {ops:?}, runs {runs:?}, lookup {lookup}"
            );
            if let Some(p) = got {
                assert_eq!(p.len(), 2 * k - 1, "case {case}");
                assert!(everything.contains(&p), "case {case}: {p:?} is read-once");
                assert!(twins_in_order(&p, &runs), "case {case}: {p:?}");
                assert!(meets(&p, &coords, &sets, m), "case {case}: {p:?}");
                assert!(
                    zero_in_each(&p),
                    "case {case}: {p:?} leaves an orbit without 0"
                );
            }
        }
        if exists {
            found += 1;
        } else {
            refuted += 1;
        }
    }
    // Each answer in at least a fifth of the cases.
    assert!(
        found > cases / 5 && refuted > cases / 5,
        "both answers are exercised: {found} / {refuted}"
    );
}

/// A failure under a forbidden root is remembered for that root only: with `+` alone, a sum
/// of five variables has no formula whose root is not `+`, and still has one.
#[test]
fn failures_are_remembered_per_forbidden_root() {
    let ops = [Op::Plus];
    let m = mask(8);
    let inverses: Vec<_> = ops.iter().map(|&o| Inverse::shared(o, m)).collect();
    let coords: Vec<Vec<u8>> = (0..5u8)
        .map(|v| (0..6u8).map(|j| (j * 7 + v * 3) % 5).collect())
        .collect();
    let sets: Vec<Set> = (0..6)
        .map(|j| Set::single(coords.iter().map(|c| c[j]).sum()))
        .collect();
    let mut search = searcher(coords, Vec::new(), &ops, &inverses, Set::below(256));
    search.lookup_max = 1;
    assert_eq!(search.solve(0b11111, sets.clone(), 1).unwrap(), None);
    let p = search.solve(0b11111, sets, 0).unwrap().expect("a sum");
    assert_eq!(p.iter().filter(|o| **o == Op::Plus).count(), 4);
}

/// Whether the read-once search and SAT agree at the bound's length with every example
/// given; checks what the read-once search returns. True when a program exists.
fn agree_with_sat(problem: &Problem, what: &str) -> bool {
    let length = problem.lower_bound().0;
    let mut ro = ReadOnceSearch::start(problem, length).expect("applies");
    let sat = SatBackend::default();
    let mut s = sat.start(problem, length).unwrap();
    for e in 0..problem.examples.len() {
        ro.add_example(e).unwrap();
        s.add_example(e).unwrap();
    }
    match (ro.solve(None).unwrap(), s.solve(None).unwrap()) {
        (Found::Refuted, Found::Refuted) => false,
        (Found::Program(p), Found::Program(_)) => {
            assert_eq!(p.len(), length, "{what}");
            assert!(problem.failures(&p).is_empty(), "{what}: {p}");
            true
        }
        (a, b) => panic!("{what}, length {length}: read-once {a:?}, sat {b:?}"),
    }
}

/// On whole problems at the dependency bound's length, with every example given, the read-once
/// search and SAT agree on whether a program exists, orbits included; what the read-once search
/// returns satisfies every example.
#[test]
fn agrees_with_sat_at_the_bound() {
    let mut seen = [0usize; 2];
    let mut games = vec![("star:3", 3), ("path:3", 4), ("circular:4,2", 3)];
    if crate::testing::full() {
        games.extend([
            ("nim:3", 3),
            ("star:2", 4),
            ("circular:3,2", 4),
            ("y-graph", 2),
        ]);
    }
    for (game, max) in games {
        for target in [Target::Zero, Target::Indicator, Target::Sg] {
            for orbits in [false, true] {
                if target == Target::Sg && orbits {
                    continue;
                }
                let problem = boxed(game, max, target, orbits);
                let what = format!("{game} {target:?} orbits {orbits}");
                seen[agree_with_sat(&problem, &what) as usize] += 1;
            }
        }
    }
    assert!(
        seen[0] > 2 && seen[1] > 2,
        "both answers are exercised: {seen:?}"
    );
}

/// A variable no program needs, in front of the others: the search maps its variables and
/// twin runs to the problem's indices (star:3 with a constant x0 in front: the centre is x1,
/// the twin leaves x2..x4).
#[test]
fn variables_that_do_not_matter_are_skipped() {
    for target in [Target::Zero, Target::Indicator, Target::Sg] {
        let star = boxed("star:3", 3, target, false);
        let data = Dataset {
            vars: 5,
            points: star
                .points
                .iter()
                .map(|x| [&[0u64][..], x].concat())
                .collect(),
            values: star.values.clone(),
            source: "star:3 after a constant".into(),
        };
        let problem = Problem::new(data, OpSet::thesis(5), 8, target, None).unwrap();
        assert_eq!(problem.lower_bound().1, vec![1, 2, 3, 4]);
        assert_eq!(problem.twin_runs(), vec![vec![2, 3, 4]]);
        let found = agree_with_sat(&problem, &format!("{target:?}"));
        assert_eq!(found, target == Target::Zero, "{target:?}");
    }
}

#[test]
fn twin_runs_become_sets_of_the_searched_variables() {
    // Variables 1..=4 searched, the twins 2..=4 are bits 1..=3.
    assert_eq!(
        super::run_masks(&[1, 2, 3, 4], &[vec![2, 3, 4]]),
        vec![0b1110]
    );
    assert_eq!(
        super::run_masks(&[0, 2, 5], &[vec![2, 3], vec![5, 6]]),
        vec![0b010, 0b100]
    );
}

/// Tables past their memory stop the search, which is not a refutation.
#[test]
fn tables_past_their_memory_stop_the_search() {
    let ops = [Op::Plus, Op::Xor, Op::Mul];
    let inverses: Vec<_> = ops.iter().map(|&o| Inverse::shared(o, 255)).collect();
    let mut rng = Rng(5);
    let coords: Vec<Vec<u8>> = (0..4)
        .map(|_| (0..50).map(|_| rng.below(256) as u8).collect())
        .collect();
    let new = || searcher(coords.clone(), Vec::new(), &ops, &inverses, Set::below(256));
    let sets = vec![Set::single(7); 50];
    assert!(matches!(new().solve(0b1111, sets.clone(), 0), Ok(None)));
    let mut small = new();
    small.table_limit = 10_000;
    assert!(matches!(
        small.solve(0b1111, sets, 0),
        Err(super::search::Stop::TooLarge)
    ));
}

/// A deadline already past gives a timeout, not an answer.
#[test]
fn a_past_deadline_is_a_timeout() {
    let problem = boxed("star:3", 3, Target::Indicator, false);
    let length = problem.lower_bound().0;
    let mut ro = ReadOnceSearch::start(&problem, length).expect("applies");
    for e in 0..problem.examples.len() {
        ro.add_example(e).unwrap();
    }
    assert_eq!(ro.solve(Some(Instant::now())).unwrap(), Found::Timeout);
}

/// The failure memo tells variable sets apart even when their points group alike: with `And`
/// alone and x0 = 0, x1 = x2 everywhere, no formula over {x0, x1} gives x1's non-zero values,
/// and `x1 & x2` does.
#[test]
fn failures_are_remembered_per_variable_set() {
    let ops = [Op::And];
    let inverses: Vec<_> = ops.iter().map(|&o| Inverse::shared(o, 255)).collect();
    let x1 = vec![1u8, 3, 5];
    let coords = vec![vec![0u8; 3], x1.clone(), x1.clone()];
    let sets: Vec<Set> = x1.iter().map(|&v| Set::single(v)).collect();
    let mut search = searcher(coords, Vec::new(), &ops, &inverses, Set::below(256));
    search.lookup_max = 1;
    assert_eq!(search.solve(0b011, sets.clone(), 0).unwrap(), None);
    let p = search.solve(0b110, sets, 0).unwrap();
    assert_eq!(p, Some(vec![Op::Push(1), Op::Push(2), Op::And]));
}

/// Only left operands are kept from the root of an associative instruction: a product whose
/// right operand is itself a product is found, over twins in order.
#[test]
fn right_operands_may_share_the_root() {
    let ops = [Op::Minus, Op::Mul];
    let m = mask(8);
    let inverses: Vec<_> = ops.iter().map(|&o| Inverse::shared(o, m)).collect();
    let mut rng = Rng(3);
    let coords: Vec<Vec<u8>> = (0..5)
        .map(|_| (0..12).map(|_| rng.below(256) as u8).collect())
        .collect();
    let hidden: Program = "Push(0) Push(1) Minus Push(2) Minus Push(3) Push(4) Mul Mul"
        .parse()
        .unwrap();
    let sets: Vec<Set> = (0..12)
        .map(|j| {
            let x: Vec<u64> = coords.iter().map(|c| c[j] as u64).collect();
            Set::single(run(&hidden, &x, m).unwrap() as u8)
        })
        .collect();
    for lookup in [1, 2, super::search::LOOKUP_MAX] {
        let mut search = searcher(
            coords.clone(),
            vec![0b11111],
            &ops,
            &inverses,
            Set::below(256),
        );
        search.lookup_max = lookup;
        let p = search.solve(0b11111, sets.clone(), 0).unwrap();
        let p = p.unwrap_or_else(|| panic!("lookup {lookup}: the product is missed"));
        assert!(meets(&p, &coords, &sets, m), "lookup {lookup}: {p:?}");
    }
}

/// Examples with more points than the tables allow are a resource error, on which `auto` hands
/// the length to SAT with the same examples, which answers it.
#[test]
fn too_many_points_go_to_sat() {
    use crate::auto::AutoBackend;
    use crate::enumerate::EnumBackend;
    let problem = boxed("star:2", 14, Target::Indicator, false);
    assert!(problem.points.len() > super::MAX_POINTS);
    let length = problem.lower_bound().0;
    let mut ro = ReadOnceSearch::start(&problem, length).expect("applies");
    for e in 0..problem.examples.len() {
        ro.add_example(e).unwrap();
    }
    assert!(matches!(
        ro.solve(None),
        Err(grundy_core::error::Error::Resource(_))
    ));
    let auto = AutoBackend {
        first: EnumBackend::new(1, 1 << 30),
        fallback: SatBackend::default(),
        team: Arc::new(grundy_core::cluster::Solo),
    };
    let mut search = auto.start(&problem, length).unwrap();
    for e in 0..problem.examples.len() {
        search.add_example(e).unwrap();
    }
    // star:2's indicator needs 6 instructions; the bound's 5 is refuted.
    assert_eq!(search.solve(None).unwrap(), Found::Refuted);
    assert_eq!(search.answered_by(), Some(Method::Sat));
}
