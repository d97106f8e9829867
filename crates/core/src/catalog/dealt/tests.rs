use super::*;
use crate::catalog::solve::{solve, solve_kept, Control};
use crate::catalog::spec;
use crate::cluster::threads;
use crate::error::{Error, Kind};

fn at(game: &str, position: &str) -> (Box<dyn AnyGame>, Stones) {
    let words: Vec<String> = position.split_whitespace().map(String::from).collect();
    spec::game_at(game, &words).unwrap().unwrap()
}

/// `p` dealt among `size` ranks as threads with `engine`, each rank's outcome; `stopped` says
/// which ranks' tokens are stopped before they start.
fn on_ranks(
    g: &dyn AnyGame,
    p: &Stones,
    engine: Engine,
    size: usize,
    moves: bool,
    stopped: &[usize],
) -> Vec<Result<Dealing, Error>> {
    threads::run(size, |team| {
        let stop = Stop::new();
        if stopped.contains(&team.rank()) {
            stop.stop();
        }
        let (opts, cfg) = (TableOptions::default(), SearchConfig::default());
        let ctl = Control { plan: None, stop };
        solve_dealt(g, p, engine, cfg, &opts, moves, &ctl, &*team)
    })
}

/// The winning moves as a set, whichever order found them.
fn sorted(w: &Option<Vec<Stones>>) -> Vec<Stones> {
    let mut w = w.clone().unwrap();
    w.sort();
    w
}

/// Ranks as threads deal one position and answer what one process does, with every rank's
/// nodes counted; on one rank the search deals to nobody.
#[test]
fn the_ranks_together_answer_what_one_process_does() {
    for (game, position, engine) in [
        ("cram:4x5", "", "auto"),
        ("cram:3x7", "", "cut_cEA"),
        ("cram:4x6", "", "cut_cE"),
        ("chomp:4x5", "", "cut_cEA"),
        ("path:3", "3,4,2", "cut_cE"),
    ] {
        let (g, p) = at(game, position);
        let engine: Engine = engine.parse().unwrap();
        let (opts, cfg) = (TableOptions::default(), SearchConfig::default());
        let one = solve(g.as_ref(), &p, engine, cfg, &opts, true).unwrap();
        for size in [1, 2, 3] {
            let all: Vec<Dealing> = on_ranks(g.as_ref(), &p, engine, size, true, &[])
                .into_iter()
                .map(Result::unwrap)
                .collect();
            let (first, rest) = all.split_first().unwrap();
            let served = |d: &Dealing| matches!(d, Dealing::Served);
            assert!(rest.iter().all(served), "{game}: only rank 0 answers");
            let Dealing::Answered(d) = first else {
                panic!("{game}: the engine deals")
            };
            assert_eq!(d.solution.nimber, one.nimber, "{game} on {size} ranks");
            assert_eq!(d.solution.engine, one.engine, "{game}");
            assert_eq!(
                sorted(&d.solution.winning_moves),
                sorted(&one.winning_moves)
            );
            assert_eq!(d.nodes.len(), size);
            assert_eq!(
                d.nodes.iter().sum::<u64>(),
                d.solution.stats.nodes,
                "{game}"
            );
            assert!(d.nodes[0] > 0, "{game}: rank 0 runs the top plies");
        }
    }
}

/// A board large enough that the other ranks get subtrees: they search some of its nodes.
#[test]
fn the_other_ranks_search_part_of_the_tree() {
    let (g, p) = at("cram:5x6", "");
    let (opts, cfg) = (TableOptions::default(), SearchConfig::default());
    let one = solve(g.as_ref(), &p, Engine::Auto, cfg, &opts, false).unwrap();
    let all = on_ranks(g.as_ref(), &p, Engine::Auto, 2, false, &[]);
    let Ok(Dealing::Answered(d)) = &all[0] else {
        panic!("rank 0 answers")
    };
    assert_eq!(d.solution.nimber, one.nimber);
    assert!(d.nodes[1] > 0, "rank 1 searched nothing: {:?}", d.nodes);
}

/// Engines that do not deal (naive, the resuming variants), and positions a theorem values,
/// are left to the race, on every rank, before any message.
#[test]
fn what_does_not_deal_is_left_to_the_caller() {
    for (game, engine) in [
        ("chomp:4x5", "auto"),
        ("cram:3x5", "cut_RA"),
        ("cram:3x5", "naive"),
    ] {
        let (g, p) = at(game, "");
        let engine: Engine = engine.parse().unwrap();
        let got = on_ranks(g.as_ref(), &p, engine, 2, false, &[]);
        let not = |d: &Result<Dealing, Error>| matches!(d, Ok(Dealing::NotDealt));
        assert!(got.iter().all(not), "{game} {engine}");
    }
    let (g, p) = at("circular:3,2", "5,5,5");
    let got = on_ranks(g.as_ref(), &p, Engine::Auto, 2, false, &[]);
    assert!(got.iter().all(|d| matches!(d, Ok(Dealing::NotDealt))));
}

/// A stop on rank 0, or on another rank alone, ends every rank with a timeout.
#[test]
fn a_stop_on_any_rank_ends_every_rank_with_a_timeout() {
    let (g, p) = at("cram:5x7", "");
    for stopped in [0, 1] {
        let kinds: Vec<Kind> = on_ranks(g.as_ref(), &p, Engine::Auto, 2, false, &[stopped])
            .into_iter()
            .map(|r| r.unwrap_err().kind())
            .collect();
        assert_eq!(kinds, vec![Kind::Timeout; 2], "stopped on rank {stopped}");
    }
}

/// Ranks asked to search different games are refused on every rank with one usage error.
#[test]
fn ranks_that_differ_are_refused() {
    let kinds = threads::run(2, |team| {
        let game = ["cram:3x5", "cram:3x6"][team.rank()];
        let (g, p) = at(game, "");
        let (opts, cfg) = (TableOptions::default(), SearchConfig::default());
        let r = solve_dealt(
            g.as_ref(),
            &p,
            Engine::Auto,
            cfg,
            &opts,
            false,
            &Control::default(),
            &*team,
        );
        r.unwrap_err().kind()
    });
    assert_eq!(kinds, vec![Kind::BadInput; 2]);
}

/// A rank that cannot read its job fails the search on every rank, not a wrong answer.
#[test]
fn a_job_that_does_not_read_fails_every_rank() {
    let (g, _) = at("cram:3x5", "");
    let engine: SearchEngine = "cut_cEA".parse().unwrap();
    let mut server = g.server(engine, SearchConfig::default()).unwrap();
    assert!(server.job(&[1, 2, 3], &Stop::new()).is_err());
    let replies = threads::run(2, |team| {
        if team.rank() == 0 {
            // A message that is no job, and a job that does not read: rank 1 answers that
            // neither reads.
            team.send(1, &[JOB]);
            team.send(1, &frame(JOB, 7, &[1, 2, 3]));
            team.send(1, &frame(DONE, 0, &[]));
            let kinds = |b: Vec<u8>| unframe(&b).map(|(k, id, _)| (k, id));
            vec![kinds(team.receive(1)), kinds(team.receive(1))]
        } else {
            let server = g.server(engine, SearchConfig::default()).unwrap();
            serve(&*team, server, &Stop::new()).unwrap();
            vec![]
        }
    });
    assert_eq!(replies[0], vec![Some((FAILED, ANY_JOB)), Some((FAILED, 7))]);
}

/// Rank 0 keeps the whole search's table in its plan's file: one process then learns every
/// entry of it and answers at once, and a search stopped says where its table is saved.
#[test]
fn rank_0_keeps_the_table_for_one_process() {
    use crate::error::Undecided;
    use crate::sg::checkpoint::Plan;
    use std::time::Duration;

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cram.ckpt");
    let plan = Plan::new(&path, Duration::MAX);
    let (g, p) = at("cram:5x6", "");
    let (opts, cfg) = (TableOptions::default(), SearchConfig::default());
    let dealt = |stop: Stop| {
        threads::run(2, |team| {
            let ctl = Control {
                plan: (team.rank() == 0).then_some(&plan),
                stop: stop.clone(),
            };
            solve_dealt(
                g.as_ref(),
                &p,
                Engine::Auto,
                cfg,
                &opts,
                false,
                &ctl,
                &*team,
            )
        })
    };
    let mut all = dealt(Stop::new());
    let Ok(Dealing::Answered(d)) = all.remove(0) else {
        panic!("rank 0 answers")
    };
    let kept = d.solution.kept.expect("rank 0 kept its table");
    let saved = kept.saved.unwrap().entries;
    assert!(saved > 0 && kept.loaded.entries == 0);
    let ctl = Control {
        plan: Some(&plan),
        stop: Stop::new(),
    };
    let one = solve_kept(g.as_ref(), &p, Engine::Auto, cfg, &opts, false, &ctl).unwrap();
    assert_eq!(one.nimber, d.solution.nimber);
    assert_eq!(one.kept.unwrap().loaded.learned, saved);
    assert!(
        one.stats.nodes < d.solution.stats.nodes / 10,
        "{:?}",
        one.stats
    );
    // Stopped: a timeout on both ranks, rank 0's saying where the table went.
    std::fs::remove_file(&path).unwrap();
    let stopped = Stop::new();
    stopped.stop();
    let all = dealt(stopped);
    let Err(Error::Timeout(Undecided { table, .. })) = &all[0] else {
        panic!("a timeout: {:?}", all[0])
    };
    assert_eq!(table.as_ref().map(|t| &t.path), Some(&path));
    assert!(path.exists());
    assert_eq!(all[1].as_ref().unwrap_err().kind(), Kind::Timeout);
}
