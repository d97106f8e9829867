//! One position searched by every rank of a [`Team`] at once, the first answer taken (`sg`
//! under `mpirun`): rank 0 searches as one process does, each other rank with its moves
//! shuffled by its rank ([`SearchConfig::shuffle`]), so that the ranks take different paths
//! and the luckiest order answers. The first rank to have the answer tells the others, which
//! stop. Values are exact whichever rank found them, so the nimber is one process's.
//!
//! The ranks share no table: this is Lazy SMP without the sharing, and it gains only what a
//! luckier order gains. Dealing the options instead (`split`) loses far more on the boards
//! the cut engines search, whose pruning never values most options in full (measured in
//! docs/benchmarks.md); the race, at least, costs one process's time at most, on a rank of
//! its own.

use std::sync::mpsc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::solve::{solve_keeping, Control, Solution};
use super::AnyGame;
use crate::cluster::Team;
use crate::error::{Error, Kind};
use crate::game::{Nimber, Stones};
use crate::sg::engine::Engine;
use crate::sg::table::TableOptions;
use crate::sg::{SearchConfig, Stats};

/// How often a rank looks for another's answer while its own search runs.
const POLL: Duration = Duration::from_millis(5);

/// A position valued by the first of the ranks.
#[derive(Debug)]
pub struct Race {
    /// The answer of the rank that found it first (the lowest such rank, when several did).
    pub solution: Solution,
    /// That rank.
    pub winner: usize,
    /// Nodes each rank expanded (0 for a rank stopped before its answer, whose search
    /// reports none), in rank order.
    pub nodes: Vec<u64>,
}

/// What a rank reports once every rank has stopped.
#[derive(Serialize, Deserialize)]
struct Report {
    /// Whether it sent "done" to every other rank.
    told: bool,
    answer: Option<Answer>,
    /// Whether its search failed (not stopped: an error of its own).
    failed: bool,
}

/// A rank's answer, as it travels.
#[derive(Serialize, Deserialize)]
struct Answer {
    nimber: Nimber,
    engine: String,
    reason: Option<String>,
    stats: [u64; 3],
    seconds: f64,
    winning_moves: Option<Vec<Vec<u32>>>,
}

/// Values `p` on every rank of `team` at once, as the module says; every rank must call it
/// with the same arguments but `ctl`'s plan (rank 0 alone keeps its table in the plan's file,
/// and its [`Solution::kept`] says what it kept, whichever rank answered), and every rank
/// returns the same nimber. A rank whose search fails (its memory, its file) stops the others,
/// and every rank returns the lowest such rank's error, answered or not; when no rank has an
/// answer (each stopped by its token), every rank returns rank 0's timeout.
#[allow(clippy::too_many_arguments)]
pub fn solve_race<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    engine: Engine,
    cfg: SearchConfig,
    opts: &TableOptions,
    moves: bool,
    ctl: &Control,
    team: &dyn Team,
) -> Result<Race, Error> {
    let (me, size) = (team.rank(), team.size());
    let cfg = match me {
        0 => cfg,
        r => SearchConfig {
            shuffle: Some(r as u64),
            ..cfg
        },
    };
    // The search runs on a thread of its own; this thread, which alone calls the team,
    // waits for it and for the others' word.
    let own = ctl.stop.child();
    let mut heard = vec![false; size];
    let mut kept = None;
    let (outcome, told) = std::thread::scope(|s| {
        let (send, receive) = mpsc::channel();
        let ctl = Control {
            plan: ctl.plan,
            stop: own.clone(),
        };
        let kept = &mut kept;
        s.spawn(move || {
            let got = solve_keeping(game, p, engine, cfg, opts, moves, &ctl, kept);
            let _ = send.send(got);
        });
        loop {
            match receive.recv_timeout(POLL) {
                Ok(outcome) => {
                    // An answer ends the race, and so does a failure; a stop does not (the
                    // stopped ranks' own tokens stop them).
                    let told = outcome
                        .as_ref()
                        .map_or_else(|e| e.kind() != Kind::Timeout, |_| true);
                    if told {
                        (0..size)
                            .filter(|&r| r != me)
                            .for_each(|r| team.send(r, &[1]));
                    }
                    return (outcome, told);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return (
                        Err(Error::internal("a rank's search ended without a word")),
                        false,
                    )
                }
            }
            if let Some(from) = team.poll() {
                team.receive(from);
                heard[from] = true;
                own.stop();
                let outcome = receive
                    .recv()
                    .unwrap_or_else(|_| Err(Error::internal("a rank's search ended early")));
                return (outcome, false);
            }
        }
    });
    let (answer, error) = match outcome {
        Ok(s) => (
            Some(Answer {
                nimber: s.nimber,
                engine: s.engine,
                reason: s.reason,
                stats: [s.stats.nodes, s.stats.tt_lookups, s.stats.tt_evictions],
                seconds: s.seconds,
                winning_moves: s
                    .winning_moves
                    .map(|w| w.into_iter().map(|q| q.to_vec()).collect()),
            }),
            None,
        ),
        Err(e) => (None, Some(e)),
    };
    let failed = error.as_ref().is_some_and(|e| e.kind() != Kind::Timeout);
    let report = Report {
        told,
        answer,
        failed,
    };
    let bytes = serde_json::to_vec(&report).map_err(|e| Error::internal(e.to_string()))?;
    let reports: Vec<Report> = team
        .all_gather(&bytes)
        .iter()
        .map(|b| serde_json::from_slice(b).map_err(|e| Error::internal(e.to_string())))
        .collect::<Result<_, _>>()?;
    // Every "done" sent to this rank is taken, so that none is left for a later step.
    for (r, rep) in reports.iter().enumerate() {
        if r != me && rep.told && !heard[r] {
            team.receive(r);
        }
    }
    if reports.iter().any(|r| r.failed) {
        let mine = match error {
            Some(e) if failed => Err(e),
            _ => Ok(()),
        };
        let e = team.settle(mine).err();
        return Err(e.unwrap_or_else(|| Error::internal("a failed rank sent no error")));
    }
    let nodes = reports
        .iter()
        .map(|r| r.answer.as_ref().map_or(0, |a| a.stats[0]))
        .collect();
    let Some((winner, a)) = reports
        .into_iter()
        .enumerate()
        .find_map(|(r, rep)| Some((r, rep.answer?)))
    else {
        // No answer anywhere: every rank's error, the lowest rank's first.
        let e = error.unwrap_or_else(|| Error::internal("no rank answered and none failed"));
        return Err(team.settle::<()>(Err(e)).unwrap_err());
    };
    Ok(Race {
        solution: Solution {
            nimber: a.nimber,
            engine: a.engine,
            reason: a.reason,
            stats: Stats {
                nodes: a.stats[0],
                tt_lookups: a.stats[1],
                tt_evictions: a.stats[2],
            },
            seconds: a.seconds,
            winning_moves: a
                .winning_moves
                .map(|w| w.into_iter().map(|q| q.into_iter().collect()).collect()),
            kept,
        },
        winner,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::solve::solve;
    use crate::catalog::spec;
    use crate::cluster::threads;
    use crate::stop::Stop;

    fn at(game: &str, position: &str) -> (Box<dyn AnyGame>, Stones) {
        let words: Vec<String> = position.split_whitespace().map(String::from).collect();
        spec::game_at(game, &words).unwrap().unwrap()
    }

    #[test]
    fn the_first_rank_to_answer_answers_what_one_process_does() {
        for (game, position, engine) in [
            ("cram:3x5", "", "auto"),
            ("chomp:5x5", "", "auto"),
            ("path:3", "3,4,2", "cut"),
        ] {
            let (g, p) = at(game, position);
            let engine: Engine = engine.parse().unwrap();
            let (opts, cfg) = (TableOptions::default(), SearchConfig::default());
            let one = solve(g.as_ref(), &p, engine, cfg, &opts, true).unwrap();
            for size in [1, 2, 3] {
                let races = threads::run(size, |team| {
                    let ctl = Control::default();
                    solve_race(g.as_ref(), &p, engine, cfg, &opts, true, &ctl, &*team).unwrap()
                });
                for r in races {
                    assert_eq!(r.solution.nimber, one.nimber, "{game} on {size} ranks");
                    assert_eq!(r.nodes.len(), size);
                    assert!(r.nodes[r.winner] > 0 || one.stats.nodes == 0, "{game}");
                    // Winning moves are the same set, whichever order found them.
                    let sorted = |w: &Option<Vec<Stones>>| {
                        let mut w = w.clone().unwrap();
                        w.sort();
                        w
                    };
                    assert_eq!(
                        sorted(&r.solution.winning_moves),
                        sorted(&one.winning_moves)
                    );
                }
            }
        }
    }

    #[test]
    fn ranks_all_stopped_end_with_a_timeout_on_every_rank() {
        let (g, p) = at("cram:5x5", "");
        let kinds = threads::run(2, |team| {
            let ctl = Control::default();
            ctl.stop.stop();
            let cfg = SearchConfig::default();
            let r = solve_race(
                g.as_ref(),
                &p,
                Engine::Auto,
                cfg,
                &TableOptions::default(),
                false,
                &ctl,
                &*team,
            );
            r.unwrap_err().kind()
        });
        assert_eq!(kinds, vec![crate::error::Kind::Timeout; 2]);
    }

    /// Rank 0 keeps its table in its plan's file, and says so whichever rank answered; a
    /// file rank 0 cannot read ends every rank with its error, not with another's answer.
    #[test]
    fn rank_0_keeps_its_table_and_its_failure_is_every_ranks() {
        use crate::sg::checkpoint::Plan;
        use std::time::Duration;

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cram.ckpt");
        let plan = Plan::new(&path, Duration::MAX);
        let (g, p) = at("cram:4x5", "");
        let (opts, cfg) = (TableOptions::default(), SearchConfig::default());
        let engine: Engine = "naive".parse().unwrap();
        let race = || {
            threads::run(2, |team| {
                let ctl = Control {
                    plan: (team.rank() == 0).then_some(&plan),
                    stop: Stop::new(),
                };
                solve_race(g.as_ref(), &p, engine, cfg, &opts, false, &ctl, &*team)
            })
        };
        let mut all = race();
        let first = all.remove(0).unwrap();
        let kept = first.solution.kept.expect("rank 0 kept its table");
        assert!(kept.saved.unwrap().entries > 0);
        assert!(all[0].as_ref().unwrap().solution.kept.is_none());
        let one = solve(g.as_ref(), &p, engine, cfg, &opts, false).unwrap();
        assert_eq!(first.solution.nimber, one.nimber);
        std::fs::write(&path, "not a table").unwrap();
        let kinds: Vec<_> = race().into_iter().map(|r| r.unwrap_err().kind()).collect();
        assert_eq!(kinds, vec![Kind::BadInput; 2]);
    }
}
