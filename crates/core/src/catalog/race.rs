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

use super::solve::{solve_kept, Control, Solution};
use super::AnyGame;
use crate::cluster::Team;
use crate::error::Error;
use crate::game::{Nimber, Stones};
use crate::sg::engine::Engine;
use crate::sg::table::TableOptions;
use crate::sg::{SearchConfig, Stats};
use crate::stop::Stop;

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
/// with the same arguments, and every rank returns the same nimber. When no rank has an
/// answer (each stopped by `stop`, or failed), every rank returns the lowest such rank's error.
#[allow(clippy::too_many_arguments)]
pub fn solve_race<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    engine: Engine,
    cfg: SearchConfig,
    opts: &TableOptions,
    moves: bool,
    stop: &Stop,
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
    let own = stop.child();
    let mut heard = vec![false; size];
    let (outcome, told) = std::thread::scope(|s| {
        let (send, receive) = mpsc::channel();
        let ctl = Control {
            plan: None,
            stop: own.clone(),
        };
        s.spawn(move || {
            let _ = send.send(solve_kept(game, p, engine, cfg, opts, moves, &ctl));
        });
        loop {
            match receive.recv_timeout(POLL) {
                Ok(outcome) => {
                    let told = outcome.is_ok();
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
    let report = Report { told, answer };
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
            kept: None,
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
                    let stop = Stop::new();
                    solve_race(g.as_ref(), &p, engine, cfg, &opts, true, &stop, &*team).unwrap()
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
            let stop = Stop::new();
            stop.stop();
            let cfg = SearchConfig::default();
            let r = solve_race(
                g.as_ref(),
                &p,
                Engine::Auto,
                cfg,
                &TableOptions::default(),
                false,
                &stop,
                &*team,
            );
            r.unwrap_err().kind()
        });
        assert_eq!(kinds, vec![crate::error::Kind::Timeout; 2]);
    }
}
