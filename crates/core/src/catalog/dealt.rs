//! One position searched by every rank of a [`Team`] together (`sg` under `mpirun`): rank 0
//! runs the top plies and deals the subtrees below them to the other ranks, as threads share
//! them ([`crate::sg::deal`]). Only rank 0 prints; the others serve until it is done.
//!
//! The thread of rank 0's pool that deals to a rank sends it the jobs and takes the answers
//! itself, and each other rank searches them on the thread that takes them: no hand-over
//! between threads, which on a machine whose cores are all busy costs a wake-up each.

use std::time::Instant;

use super::solve::{by_theorem, check_listed_moves, search_kept, Choice, Control, Solution};
use super::AnyGame;
use crate::cluster::Team;
use crate::error::Error;
use crate::game::Stones;
use crate::sg::deal::{frame, unframe, Link, Serve, ANSWER, ANY_JOB, DONE, FAILED, JOB, POLL};
use crate::sg::engine::{Engine, SearchEngine};
use crate::sg::smp::resolve_threads;
use crate::sg::table::TableOptions;
use crate::sg::{with_deep_stack, SearchConfig};
use crate::stop::Stop;

/// The layout of the messages of [`crate::sg::deal`]: ranks that disagree on it (different
/// builds) are refused before any is sent.
const WIRE: u32 = 1;

/// A position valued by the ranks together.
#[derive(Debug)]
pub struct Dealt {
    /// The answer, as one process gives it; its nodes and look-ups are every rank's.
    pub solution: Solution,
    /// Nodes each rank expanded, in rank order.
    pub nodes: Vec<u64>,
}

/// What [`solve_dealt`] did on this rank.
#[derive(Debug)]
pub enum Dealing {
    /// Rank 0: the answer.
    Answered(Box<Dealt>),
    /// Another rank: it searched what rank 0 dealt it, and rank 0 has the answer.
    Served,
    /// Nothing, on every rank: the engine does not deal here (or a theorem answers), and the
    /// caller races the ranks instead.
    NotDealt,
}

/// Values `p` on every rank of `team` together, as the module says, when its engine (`auto`
/// resolved) deals its work and the game's positions travel; [`Dealing::NotDealt`] on every
/// rank, before any message, when not. Every rank must call it with the same arguments but
/// `ctl`'s plan: rank 0 keeps the table in its file, if it has one. What it keeps is the whole
/// search's: its shared table holds every value the ranks share (subtrees of 8 nodes or more,
/// from every rank), which is what a search on threads saves too, so one process may go on from
/// the file and the reverse. An error on any rank is every rank's.
#[allow(clippy::too_many_arguments)]
pub fn solve_dealt<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    engine: Engine,
    cfg: SearchConfig,
    opts: &TableOptions,
    moves: bool,
    ctl: &Control,
    team: &dyn Team,
) -> Result<Dealing, Error> {
    let start = Instant::now();
    // First, so that every rank takes the same branch below.
    let mine = format!(
        "grundy {} (messages {WIRE}): {engine} on {} at {}",
        env!("CARGO_PKG_VERSION"),
        game.name(),
        game.format_position(p)
    );
    team.same_everywhere(
        &mine,
        "run one search, with one build of grundy, on every rank",
    )?;
    // Settled, so that a rank that fails here (its memory limit) stops the others too.
    let ready = team.settle((|| {
        if by_theorem(game, p, engine, &cfg, moves).is_some() {
            return Ok(None);
        }
        let choice = match engine {
            Engine::Auto => game.auto(p, &cfg, opts)?,
            named => Choice {
                engine: named,
                reason: None,
            },
        };
        let Engine::Search(search) = choice.engine else {
            return Ok(None);
        };
        let Some(server) = game.server(search, cfg) else {
            return Ok(None);
        };
        game.fits(p, &cfg, opts.memory_limit)?;
        if moves {
            check_listed_moves(game, p, opts.memory_limit)?;
        }
        Ok(Some((choice.reason, search, server)))
    })())?;
    let Some((reason, search, server)) = ready else {
        return Ok(Dealing::NotDealt);
    };
    let outcome = match team.rank() {
        0 => {
            drop(server);
            lead(game, p, search, cfg, moves, ctl, team).map(|(solution, nodes)| {
                Dealing::Answered(Box::new(Dealt {
                    solution: Solution {
                        reason,
                        seconds: start.elapsed().as_secs_f64(),
                        ..solution
                    },
                    nodes,
                }))
            })
        }
        _ => serve(team, server, &ctl.stop).map(|()| Dealing::Served),
    };
    team.settle(outcome)
}

/// Rank 0: searches, its pool's threads dealing to the other ranks, keeping its table per
/// `ctl`'s plan, then tells every rank it is done. The answer, and the nodes of each rank.
fn lead<G: AnyGame + ?Sized>(
    game: &G,
    p: &Stones,
    engine: SearchEngine,
    cfg: SearchConfig,
    moves: bool,
    ctl: &Control,
    team: &dyn Team,
) -> Result<(Solution, Vec<u64>), Error> {
    let start = Instant::now();
    let link = Link::new(team);
    let threads = resolve_threads(cfg.threads);
    let mut kept = None;
    let outcome = with_deep_stack(|| {
        let mut searcher = game
            .dealer(engine, cfg, threads, &link)
            .ok_or_else(|| Error::internal(format!("{engine} does not deal")))??;
        searcher.set_stop(ctl.stop.clone());
        let mut successors = Vec::new();
        if moves {
            game.successors(p, cfg.order, &mut successors);
        }
        // Each rank's nodes as the nimber is found: the stats are that search's.
        let at_nimber = || link.nodes();
        search_kept(
            game,
            p,
            searcher.as_mut(),
            successors,
            ctl.plan,
            start,
            &mut kept,
            at_nimber,
        )
    });
    // Every job is answered before the search ends: no rank has one left.
    link.done();
    if let Some(why) = link.failure() {
        return Err(Error::internal(why));
    }
    let (nimber, stats, mut nodes, winning) = outcome?;
    nodes[0] = stats.nodes - nodes.iter().sum::<u64>();
    let solution = Solution {
        nimber,
        engine: engine.to_string(),
        reason: None,
        stats,
        seconds: 0.0,
        winning_moves: moves.then_some(winning),
        kept,
    };
    Ok((solution, nodes))
}

/// Another rank: searches the jobs rank 0 deals it, one at a time, until rank 0 is done.
/// `stop` (this rank's time limit, Ctrl-C) stops the job it searches, and rank 0 then stops
/// the whole search.
fn serve(team: &dyn Team, mut server: Box<dyn Serve + '_>, stop: &Stop) -> Result<(), Error> {
    with_deep_stack(|| loop {
        if !team.poll_from(0) {
            std::thread::sleep(POLL);
            continue;
        }
        let bytes = team.receive(0);
        let reply = match unframe(&bytes) {
            Some((JOB, id, job)) => match server.job(job, stop) {
                Ok(answer) => frame(ANSWER, id, &answer),
                Err(why) => frame(FAILED, id, why.as_bytes()),
            },
            Some((DONE, ..)) => return Ok(()),
            _ => frame(FAILED, ANY_JOB, b"a message that does not read"),
        };
        team.send(0, &reply);
    })
}

#[cfg(test)]
mod tests;
