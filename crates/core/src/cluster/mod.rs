//! Work shared among the processes of an MPI job: who this process is, and the few collective
//! steps the commands take (gather to rank 0, broadcast from it, agree on an outcome).
//!
//! Commands are written once against [`Team`]: a plain run is a team of one ([`Solo`]), whose
//! steps are identities, and a run under `mpirun` built with the `mpi` feature is a team of
//! every rank (`Mpi`). Every rank runs the same command on the same input, takes the same
//! collective steps in the same order, and only rank 0 writes answers and files.
//!
//! A failure on one rank must not leave the others waiting in a collective step for ever, nor
//! let rank 0 write a result the failed rank's part is missing from: after every stretch of
//! work the ranks `settle` its outcome, and when any rank failed, every rank
//! returns the first failing rank's error, with its kind (and so its exit code). A rank that
//! dies outright (killed, out of memory) ends the job through `mpirun`, which stops the others.

#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod threads;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Kind, Setting};

/// The processes sharing one command: their number, this one's rank, and collective steps that
/// every rank must call in the same order, from the thread that joined the team. Messages
/// between two ranks ([`Team::send`], [`Team::receive`], [`Team::poll_from`]) may come from any
/// thread, one at a time per pair of ranks: a dealt search's threads each talk to their rank
/// ([`crate::sg::deal`]).
pub trait Team: Send + Sync {
    /// This process's rank, 0 to `size() - 1`; rank 0 writes the answers.
    fn rank(&self) -> usize;
    /// How many ranks share the work.
    fn size(&self) -> usize;
    /// Every rank's `bytes`, in rank order, at rank 0; `None` at the others.
    fn gather(&self, bytes: &[u8]) -> Option<Vec<Vec<u8>>>;
    /// Rank 0's `bytes` at every rank (the others' argument is ignored).
    fn broadcast(&self, bytes: Vec<u8>) -> Vec<u8>;
    /// Every rank's `bytes`, in rank order, at every rank.
    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>>;
    /// Sends `bytes` to rank `to`, which takes them with `receive(this rank)`; may block until
    /// it does, so the ranks' sends and receives must not wait on each other in a cycle.
    fn send(&self, to: usize, bytes: &[u8]);
    /// The next bytes rank `from` sends to this rank.
    fn receive(&self, from: usize) -> Vec<u8>;
    /// A rank whose message to this rank has arrived and waits for [`Team::receive`], if any,
    /// without waiting: what a rank polls while its own work runs on other threads.
    fn poll(&self) -> Option<usize>;
    /// Whether a message from rank `from` has arrived and waits for [`Team::receive`], without
    /// waiting: what a thread polls that talks to that rank alone.
    fn poll_from(&self, from: usize) -> bool;
    /// Bytes this rank has sent so far, for the benchmarks.
    fn bytes_sent(&self) -> u64;
}

/// A team of one: the plain, single-process run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Solo;

impl Team for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn gather(&self, bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
        Some(vec![bytes.to_vec()])
    }
    fn broadcast(&self, bytes: Vec<u8>) -> Vec<u8> {
        bytes
    }
    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        vec![bytes.to_vec()]
    }
    fn send(&self, _to: usize, _bytes: &[u8]) {
        debug_assert!(false, "a team of one has no other rank to send to");
    }
    fn receive(&self, _from: usize) -> Vec<u8> {
        debug_assert!(false, "a team of one has no other rank to receive from");
        Vec::new()
    }
    fn poll(&self) -> Option<usize> {
        None
    }
    fn poll_from(&self, _from: usize) -> bool {
        false
    }
    fn bytes_sent(&self) -> u64 {
        0
    }
}

/// A failure as it travels between ranks: its kind decides the exit code everywhere.
#[derive(Serialize, Deserialize)]
struct Failure {
    kind: Kind,
    msg: String,
    #[serde(default)]
    raise: Option<Setting>,
}

impl std::fmt::Debug for dyn Team + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rank {} of {}", self.rank(), self.size())
    }
}

impl dyn Team + '_ {
    /// Whether this rank writes the answers.
    pub fn is_root(&self) -> bool {
        self.rank() == 0
    }

    /// Whether `yes` holds on some rank, on every rank: a decision one rank's clock makes (a
    /// deadline passed, Ctrl-C) taken by all together, so that they keep taking the same steps.
    pub fn any(&self, yes: bool) -> bool {
        if self.size() == 1 {
            return yes;
        }
        self.all_gather(&[u8::from(yes)])
            .iter()
            .any(|b| b.first() == Some(&1))
    }

    /// Refuses, on every rank alike, ranks whose `mine` (what each runs: its build, its
    /// search) differs from rank 0's, with `remedy` after the two: work that would not agree
    /// is stopped before it starts.
    pub fn same_everywhere(&self, mine: &str, remedy: &str) -> Result<(), Error> {
        let all = self.all_gather(mine.as_bytes());
        match all.iter().position(|b| b != &all[0]) {
            None => Ok(()),
            Some(r) => Err(Error::Usage(format!(
                "rank 0 runs {} and rank {r} {}: {remedy}",
                String::from_utf8_lossy(&all[0]),
                String::from_utf8_lossy(&all[r])
            ))),
        }
    }

    /// The outcome of a stretch of work every rank did its share of: this rank's value when
    /// every rank succeeded, otherwise the error of the lowest failing rank, on every rank (an
    /// error from another rank keeps its kind and says which rank it came from).
    pub fn settle<T>(&self, outcome: Result<T, Error>) -> Result<T, Error> {
        if self.size() == 1 {
            return outcome;
        }
        let mine = match &outcome {
            Ok(_) => Vec::new(),
            Err(e) => serde_json::to_vec(&Failure {
                kind: e.kind(),
                msg: e.to_string(),
                raise: e.raise(),
            })
            .unwrap_or_else(|_| b"{}".to_vec()),
        };
        let all = self.all_gather(&mine);
        let Some((rank, first)) = all.iter().enumerate().find(|(_, b)| !b.is_empty()) else {
            return outcome;
        };
        match outcome {
            Err(e) if rank == self.rank() => Err(e),
            _ => {
                let f: Failure = serde_json::from_slice(first).unwrap_or(Failure {
                    kind: Kind::Internal,
                    msg: "a failure that did not decode".into(),
                    raise: None,
                });
                Err(Error::Elsewhere {
                    rank,
                    kind: f.kind,
                    msg: f.msg,
                    raise: f.raise,
                })
            }
        }
    }

    /// Rank 0's value at every rank, as JSON: what rank 0 alone read (a resumed survey's rows)
    /// becomes every rank's. Every rank learns whether rank 0 failed.
    pub fn share<T>(&self, value: Result<T, Error>) -> Result<T, Error>
    where
        T: Serialize + for<'de> Deserialize<'de>,
    {
        if self.size() == 1 {
            return value;
        }
        let value = self.settle(value)?;
        let bytes = if self.is_root() {
            serde_json::to_vec(&value).map_err(|e| Error::internal(e.to_string()))?
        } else {
            Vec::new()
        };
        let bytes = self.broadcast(bytes);
        serde_json::from_slice(&bytes).map_err(|e| Error::internal(e.to_string()))
    }
}

/// The indices of `0..count` dealt to `rank` of `size`, round robin: neighbours (often of
/// similar cost) go to different ranks.
pub fn dealt(count: usize, rank: usize, size: usize) -> impl Iterator<Item = usize> {
    (rank..count).step_by(size.max(1))
}

/// How many ranks the launcher that started this process asked for, from the variables
/// `mpirun` (Open MPI, MPICH, Slurm's PMI) sets: `None` when not started by one.
pub fn launched_ranks(var: impl Fn(&str) -> Option<String>) -> Option<usize> {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"]
        .iter()
        .find_map(|name| var(name)?.trim().parse().ok())
}

/// This process's rank as its launcher numbered it (0 when not started by one): known before
/// MPI starts, so that a failure to join is reported by rank 0 alone.
pub fn launched_rank(var: impl Fn(&str) -> Option<String>) -> usize {
    ["OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"]
        .iter()
        .find_map(|name| var(name)?.trim().parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_of_one_settles_and_shares_its_own_outcome() {
        let solo: &dyn Team = &Solo;
        assert!(solo.is_root());
        assert_eq!(solo.settle(Ok::<_, Error>(3)).unwrap(), 3);
        let e = solo
            .settle::<()>(Err(Error::Resource("big".into())))
            .unwrap_err();
        assert!(matches!(e, Error::Resource(_)));
        assert_eq!(
            solo.share(Ok::<_, Error>(vec![1u8, 2])).unwrap(),
            vec![1, 2]
        );
        assert_eq!(solo.gather(b"ab"), Some(vec![b"ab".to_vec()]));
        assert!(solo.any(true) && !solo.any(false));
    }

    #[test]
    fn dealing_covers_every_index_once() {
        for size in 1..5 {
            let mut all: Vec<usize> = (0..size).flat_map(|r| dealt(11, r, size)).collect();
            all.sort();
            assert_eq!(all, (0..11).collect::<Vec<_>>());
        }
    }

    #[test]
    fn the_launcher_is_read_from_its_variables() {
        assert_eq!(launched_ranks(|_| None), None);
        let ompi = |n: &str| (n == "OMPI_COMM_WORLD_SIZE").then(|| "4".to_string());
        assert_eq!(launched_ranks(ompi), Some(4));
        let pmi = |n: &str| (n == "PMI_SIZE").then(|| " 2 ".to_string());
        assert_eq!(launched_ranks(pmi), Some(2));
        let junk = |n: &str| (n == "PMI_SIZE").then(|| "x".to_string());
        assert_eq!(launched_ranks(junk), None);
        assert_eq!(launched_rank(|_| None), 0);
        let second = |n: &str| (n == "OMPI_COMM_WORLD_RANK").then(|| "1".to_string());
        assert_eq!(launched_rank(second), 1);
    }
}
