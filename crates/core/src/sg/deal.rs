//! One position searched by the ranks of an MPI job together (`sg` under `mpirun`), as
//! [`super::ybw`] shares it among threads: rank 0 runs the top plies, and each other rank
//! searches the subtrees below them that its thread of rank 0's pool takes ([`Link`]). The
//! ranks share no memory, so exact values of subtrees of some size travel with the work: a job
//! carries those found elsewhere since the rank's last job, and its answer those the rank
//! found (`Remote`, `Server`). Values are exact wherever they were found, so the nimber is
//! one process's.
//!
//! This module holds what a job and an answer hold (a game's positions written by [`Record`])
//! and rank 0's side, whose dealing threads send the jobs and take the answers themselves;
//! `catalog::dealt` runs the search on rank 0 and serves the jobs on the others. Each rank
//! other than 0 searches one subtree at a time: run one rank per core.
//!
//! Rank 0 relays every value it hears of to every other rank, so its traffic grows with the
//! square of the ranks: fine for the tens of ranks measured (ranks as threads, up to 64), and
//! the first thing to thin (heavier values only) past them.

use std::hash::Hash;
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::cut::{CutSearch, Variant};
use super::engine::SearchEngine;
use super::shared::{lock, SharedValues, Sharing};
use super::tt::Weight;
use super::{SearchConfig, Searcher, Stats};
use crate::cluster::Team;
use crate::game::record::{push_u32, read_u32};
use crate::game::{Game, NimSet, Nimber, Record};
use crate::stop::Stop;

/// How long a thread waiting for another rank's message sleeps between two looks: a subtree
/// dealt takes a millisecond or so, and a waiting thread must leave the core to the search.
pub(crate) const POLL: Duration = Duration::from_micros(50);

/// A message's kind, its first byte; its job's number follows (8 bytes), then its payload.
pub(crate) const JOB: u8 = 1;
/// Rank 0 is done: the other ranks stop serving.
pub(crate) const DONE: u8 = 2;
/// A job's answer.
pub(crate) const ANSWER: u8 = 3;
/// A job that could not be searched, with why.
pub(crate) const FAILED: u8 = 4;

/// The job number of a failure that names no job (a message that did not read).
pub(crate) const ANY_JOB: u64 = u64::MAX;

/// A message: its kind, its job, its payload.
pub(crate) fn frame(kind: u8, id: u64, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(9 + payload.len());
    out.push(kind);
    out.extend_from_slice(&id.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// A message read: its kind, job and payload; `None` when too short.
pub(crate) fn unframe(bytes: &[u8]) -> Option<(u8, u64, &[u8])> {
    let id = u64::from_le_bytes(bytes.get(1..9)?.try_into().ok()?);
    Some((bytes[0], id, &bytes[9..]))
}

/// Rank 0's line to the other ranks, held by its search: the thread of its pool that deals to
/// a rank sends it each job and waits for the answer itself (the team lets one thread at a
/// time call it), and the line counts what each rank did.
pub struct Link<'t> {
    team: &'t dyn Team,
    next: AtomicU64,
    /// Nodes each rank searched for this one (0 for rank 0 itself).
    nodes: Vec<AtomicU64>,
    /// Why a rank could not answer, when one could not.
    failure: Mutex<Option<String>>,
}

impl<'t> Link<'t> {
    /// A line to the other ranks of `team`.
    pub fn new(team: &'t dyn Team) -> Self {
        Link {
            team,
            next: AtomicU64::new(0),
            nodes: (0..team.size()).map(|_| AtomicU64::new(0)).collect(),
            failure: Mutex::new(None),
        }
    }

    /// Ranks in the job, this one included.
    pub fn ranks(&self) -> usize {
        self.nodes.len()
    }

    /// Nodes each rank searched for rank 0, in rank order (rank 0's own not counted here).
    pub fn nodes(&self) -> Vec<u64> {
        self.nodes
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .collect()
    }

    /// Why a rank could not answer, if one could not: the search then stopped.
    pub fn failure(&self) -> Option<String> {
        lock(&self.failure).clone()
    }

    fn fail(&self, why: String) {
        lock(&self.failure).get_or_insert(why);
    }

    /// Tells every other rank that rank 0 is done: once its search has ended, when no rank
    /// has a job.
    pub fn done(&self) {
        (1..self.ranks()).for_each(|r| self.team.send(r, &frame(DONE, 0, &[])));
    }

    /// Sends `job` to `rank` and waits for its answer. Only this thread talks to `rank`, and it
    /// sends the next job only once it has this one's answer, so a rank has one job at most.
    fn call(&self, rank: usize, job: &[u8]) -> Result<Vec<u8>, String> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.team.send(rank, &frame(JOB, id, job));
        while !self.team.poll_from(rank) {
            std::thread::sleep(POLL);
        }
        let bytes = self.team.receive(rank);
        match unframe(&bytes) {
            Some((ANSWER, i, answer)) if i == id => Ok(answer.to_vec()),
            Some((FAILED, _, why)) => Err(format!("rank {rank}: {}", String::from_utf8_lossy(why))),
            _ => Err(format!("rank {rank} sent a message that does not read")),
        }
    }
}

/// How a job ended, in its answer.
const ANSWERED: u8 = 0;
/// Its rank was stopped (its time limit, Ctrl-C): the whole search stops.
const RANK_STOPPED: u8 = 1;

/// Exact values on their way to another rank: position, value, weight.
type Values<P> = Vec<(P, Nimber, Weight)>;

/// Rank 0's side of the dealing, in its search: the values each other rank has yet to hear of.
pub(crate) struct Remote<'t, P> {
    link: &'t Link<'t>,
    /// By rank: values found elsewhere since its last job.
    relay: Mutex<Vec<Values<P>>>,
    /// What the other ranks spent, summed.
    spent: Mutex<Stats>,
}

/// What [`super::ybw::Ybw`] asks of its [`Remote`], whatever its positions (only those that
/// travel, [`Record`], have one).
pub(crate) trait Deal<P>: Send + Sync {
    /// Ranks in the job, rank 0 included: rank 0's pool has a thread that deals to each other
    /// one.
    fn ranks(&self) -> usize;
    /// What the other ranks spent on this rank's jobs.
    fn stats(&self) -> Stats;
    /// The sum of `x` and `parts` against `r` searched on `rank`, with the values `table`
    /// took since that rank's last job, and what it spent (nodes). The rank's values go into
    /// `table`. A rank that was stopped, or failed, stops `root`: the answer then means
    /// nothing. A job is not called back once sent: the subtrees a node no longer needs once
    /// it is settled hold a few thousandths of the nodes on threads.
    fn search(
        &self,
        rank: usize,
        sum: (Nimber, &[P], Option<&NimSet>),
        table: &SharedValues<P>,
        root: &Stop,
    ) -> (Option<Nimber>, u64);
}

impl<'t, P: Record + Clone + Hash + Eq + Send> Remote<'t, P> {
    pub(crate) fn new(link: &'t Link<'t>) -> Self {
        let relay = Mutex::new((0..link.ranks()).map(|_| Vec::new()).collect());
        Remote {
            link,
            relay,
            spent: Mutex::new(Stats::default()),
        }
    }

    /// Hands `values`, found on rank `origin`, to every other rank but 0.
    fn fan(&self, origin: usize, values: &[(P, Nimber, Weight)]) {
        if values.is_empty() {
            return;
        }
        let mut relay = lock(&self.relay);
        for (r, list) in relay.iter_mut().enumerate().skip(1) {
            if r != origin {
                list.extend_from_slice(values);
            }
        }
    }
}

impl<P: Record + Clone + Hash + Eq + Send> Deal<P> for Remote<'_, P> {
    fn ranks(&self) -> usize {
        self.link.ranks()
    }

    fn stats(&self) -> Stats {
        *lock(&self.spent)
    }

    fn search(
        &self,
        rank: usize,
        (x, parts, r): (Nimber, &[P], Option<&NimSet>),
        table: &SharedValues<P>,
        root: &Stop,
    ) -> (Option<Nimber>, u64) {
        self.fan(0, &table.take_outbox());
        let values = std::mem::take(&mut lock(&self.relay)[rank]);
        let mut job = Vec::new();
        write_job(&mut job, x, parts, r, &values);
        let answer = self
            .link
            .call(rank, &job)
            .and_then(|a| read_answer::<P>(&a).map_err(|e| format!("rank {rank}'s answer: {e}")));
        let a = match answer {
            Ok(a) => a,
            Err(why) => {
                self.link.fail(why);
                root.stop();
                return (None, 0);
            }
        };
        for (p, v, w) in &a.values {
            table.put_quiet(p.clone(), *v, *w);
        }
        self.fan(rank, &a.values);
        self.link.nodes[rank].fetch_add(a.stats.nodes, Ordering::Relaxed);
        *lock(&self.spent) += a.stats;
        if a.end == RANK_STOPPED {
            root.stop();
        }
        (a.got, a.stats.nodes)
    }
}

/// The other ranks' side: a job's bytes in, its answer's bytes out.
pub trait Serve: Send {
    /// Searches the job `bytes`, stopping once `stop` is (this rank's time limit, Ctrl-C);
    /// an error when the bytes do not read as a job.
    fn job(&mut self, bytes: &[u8], stop: &Stop) -> Result<Vec<u8>, String>;
    /// What this rank searched so far.
    fn stats(&self) -> Stats;
}

/// A rank's searcher of the jobs rank 0 deals it: the engine, and a table of the values found
/// anywhere (the others' come with the jobs).
struct Server<'g, G: Game> {
    search: CutSearch<'g, G>,
    table: Arc<SharedValues<G::Position>>,
}

impl<G: Game> Serve for Server<'_, G>
where
    G::Position: Record,
{
    fn job(&mut self, bytes: &[u8], stop: &Stop) -> Result<Vec<u8>, String> {
        let (x, parts, r, values) = read_job::<G::Position>(bytes).map_err(|e| e.to_string())?;
        for (p, v, w) in values {
            self.table.put_quiet(p, v, w);
        }
        self.search.set_stop(stop.clone());
        let before = self.search.stats();
        let got = self.search.search_parts(x, &parts, r.as_ref());
        let after = self.search.stats();
        let end = match stop.is_stopped() {
            true => RANK_STOPPED,
            false => ANSWERED,
        };
        let spent = Stats {
            nodes: after.nodes - before.nodes,
            tt_lookups: after.tt_lookups - before.tt_lookups,
            tt_evictions: after.tt_evictions - before.tt_evictions,
        };
        let mut out = Vec::new();
        write_answer(&mut out, end, got, spent, &self.table.take_outbox());
        Ok(out)
    }

    fn stats(&self) -> Stats {
        self.search.stats()
    }
}

/// Whether `engine` deals its work among ranks: the cut family as [`super::ybw`] splits it.
pub fn deals(engine: SearchEngine) -> bool {
    matches!(engine, SearchEngine::Cut(v) if super::ybw::suits(v))
}

/// Rank 0's searcher of `engine` over `game`, on `threads` threads of its own and dealing to
/// the other ranks through `link`; `None` where the engine does not deal ([`deals`]).
pub fn dealer<'g, G: Game>(
    engine: SearchEngine,
    game: &'g G,
    cfg: SearchConfig,
    threads: usize,
    link: &'g Link<'g>,
) -> Option<Result<Box<dyn Searcher<G> + 'g>, String>>
where
    G::Position: Record,
{
    let SearchEngine::Cut(v) = engine else {
        return None;
    };
    deals(engine).then(|| {
        super::ybw::Ybw::dealing(game, v, cfg, threads, Box::new(Remote::new(link)))
            .map(|s| Box::new(s) as Box<dyn Searcher<G>>)
    })
}

/// Another rank's searcher of the jobs of `engine` over `game`; `None` where the engine does
/// not deal ([`deals`]).
pub fn server<'g, G: Game>(
    engine: SearchEngine,
    game: &'g G,
    cfg: SearchConfig,
) -> Option<Box<dyn Serve + 'g>>
where
    G::Position: Record,
{
    let SearchEngine::Cut(v) = engine else {
        return None;
    };
    deals(engine).then(|| Box::new(serving(game, v, cfg)) as Box<dyn Serve + 'g>)
}

fn serving<G: Game>(game: &G, v: Variant, cfg: SearchConfig) -> Server<'_, G> {
    let memory = cfg.tt.memory.map(|m| m / 2);
    let table = Arc::new(SharedValues::new(1, memory).with_outbox());
    let share = Sharing {
        table: Arc::clone(&table),
        index: 0,
        threads: 1,
        plies: 0,
    };
    let each = SearchConfig {
        tt: super::TtConfig { memory, ..cfg.tt },
        ..cfg
    };
    Server {
        search: CutSearch::new(game, v, each).sharing(share),
        table,
    }
}

/// A job: `x`, `r` (a flag, then its members), the parts, then the values.
fn write_job<P: Record>(
    out: &mut Vec<u8>,
    x: Nimber,
    parts: &[P],
    r: Option<&NimSet>,
    values: &[(P, Nimber, Weight)],
) {
    push_u32(out, x);
    match r {
        None => out.push(0),
        Some(r) => {
            out.push(1);
            push_u32(out, r.len() as u32);
            r.iter().for_each(|m| push_u32(out, m));
        }
    }
    push_u32(out, parts.len() as u32);
    parts.iter().for_each(|p| p.write(out));
    write_values(out, values);
}

/// A job as [`write_job`] wrote it: `x`, the parts, `r` and the values.
#[allow(clippy::type_complexity)]
fn read_job<P: Record>(
    mut bytes: &[u8],
) -> std::io::Result<(Nimber, Vec<P>, Option<NimSet>, Values<P>)> {
    let input = &mut bytes;
    let x = read_u32(input)?;
    let r = match read_u8(input)? {
        0 => None,
        _ => {
            let n = read_u32(input)?;
            let mut r = NimSet::new();
            for _ in 0..n {
                r.insert(read_u32(input)?);
            }
            Some(r)
        }
    };
    let n = read_u32(input)?;
    let parts = (0..n).map(|_| P::read(input)).collect::<Result<_, _>>()?;
    let values = read_values(input)?;
    ended(input)?;
    Ok((x, parts, r, values))
}

/// An answer as [`write_answer`] wrote it.
struct Answer<P> {
    end: u8,
    got: Option<Nimber>,
    stats: Stats,
    values: Values<P>,
}

/// An answer: how it ended, the value (a flag, then it), the work spent, then the values.
fn write_answer<P: Record>(
    out: &mut Vec<u8>,
    end: u8,
    got: Option<Nimber>,
    spent: Stats,
    values: &[(P, Nimber, Weight)],
) {
    out.push(end);
    match got {
        None => out.push(0),
        Some(v) => {
            out.push(1);
            push_u32(out, v);
        }
    }
    for n in [spent.nodes, spent.tt_lookups, spent.tt_evictions] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    write_values(out, values);
}

fn read_answer<P: Record>(mut bytes: &[u8]) -> std::io::Result<Answer<P>> {
    let input = &mut bytes;
    let end = read_u8(input)?;
    if end > RANK_STOPPED {
        return Err(invalid("an answer's end"));
    }
    let got = match read_u8(input)? {
        0 => None,
        _ => Some(read_u32(input)?),
    };
    let mut stats = [0u64; 3];
    for s in &mut stats {
        let mut b = [0; 8];
        input.read_exact(&mut b)?;
        *s = u64::from_le_bytes(b);
    }
    let values = read_values(input)?;
    ended(input)?;
    Ok(Answer {
        end,
        got,
        stats: Stats {
            nodes: stats[0],
            tt_lookups: stats[1],
            tt_evictions: stats[2],
        },
        values,
    })
}

fn write_values<P: Record>(out: &mut Vec<u8>, values: &[(P, Nimber, Weight)]) {
    push_u32(out, values.len() as u32);
    for (p, v, w) in values {
        p.write(out);
        push_u32(out, *v);
        out.push(*w);
    }
}

fn read_values<P: Record>(input: &mut &[u8]) -> std::io::Result<Values<P>> {
    let n = read_u32(input)?;
    (0..n)
        .map(|_| Ok((P::read(input)?, read_u32(input)?, read_u8(input)?)))
        .collect()
}

fn read_u8(input: &mut &[u8]) -> std::io::Result<u8> {
    let mut b = [0];
    input.read_exact(&mut b)?;
    Ok(b[0])
}

/// Refuses bytes left over: a message of another layout.
fn ended(input: &[u8]) -> std::io::Result<()> {
    match input.is_empty() {
        true => Ok(()),
        false => Err(invalid("bytes after the end")),
    }
}

fn invalid(what: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        format!("malformed: {what}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_and_answers_read_back_as_written() {
        let r: NimSet = {
            let mut r = NimSet::new();
            [0, 3, 9].into_iter().for_each(|m| r.insert(m));
            r
        };
        let values = vec![(7u64, 2, 5), (u64::MAX, 0, 255)];
        let mut job = Vec::new();
        write_job(&mut job, 6, &[1u64, 2, 3], Some(&r), &values);
        let (x, parts, back, vals) = read_job::<u64>(&job).unwrap();
        assert_eq!((x, parts, vals), (6, vec![1, 2, 3], values.clone()));
        assert_eq!(back.unwrap().iter().collect::<Vec<_>>(), vec![0, 3, 9]);
        // A job cut short, or with bytes after it, is refused.
        assert!(read_job::<u64>(&job[..job.len() - 1]).is_err());
        job.push(0);
        assert!(read_job::<u64>(&job).is_err());

        let spent = Stats {
            nodes: 10,
            tt_lookups: 20,
            tt_evictions: 1,
        };
        let mut a = Vec::new();
        write_answer(&mut a, RANK_STOPPED, Some(4), spent, &values);
        let back = read_answer::<u64>(&a).unwrap();
        assert_eq!(
            (back.end, back.got, back.stats),
            (RANK_STOPPED, Some(4), spent)
        );
        assert_eq!(back.values, values);
        a[0] = 9;
        assert!(read_answer::<u64>(&a).is_err());
    }
}
