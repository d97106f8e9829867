//! Ranks as threads of one process, so that the unit tests of code written against [`Team`]
//! run a team of several without `mpirun`.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Barrier, Condvar, Mutex};

use super::Team;

/// One rank of a team of threads.
pub struct Threads {
    rank: usize,
    size: usize,
    shared: Arc<Shared>,
}

/// Messages sent and not yet received, by (from, to).
type Mailboxes = HashMap<(usize, usize), VecDeque<Vec<u8>>>;

struct Shared {
    barrier: Barrier,
    slots: Mutex<Vec<Vec<u8>>>,
    mail: Mutex<Mailboxes>,
    arrived: Condvar,
}

/// Runs `f` on `size` threads, each a rank of one team, and returns their results in rank order.
pub fn run<T: Send>(size: usize, f: impl Fn(Arc<dyn Team>) -> T + Sync) -> Vec<T> {
    let shared = Arc::new(Shared {
        barrier: Barrier::new(size),
        slots: Mutex::new(vec![Vec::new(); size]),
        mail: Mutex::new(HashMap::new()),
        arrived: Condvar::new(),
    });
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..size)
            .map(|rank| {
                let team: Arc<dyn Team> = Arc::new(Threads {
                    rank,
                    size,
                    shared: shared.clone(),
                });
                let f = &f;
                s.spawn(move || f(team))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a rank panicked"))
            .collect()
    })
}

impl Team for Threads {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn gather(&self, bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
        let all = self.all_gather(bytes);
        (self.rank == 0).then_some(all)
    }

    fn broadcast(&self, bytes: Vec<u8>) -> Vec<u8> {
        self.all_gather(&bytes).swap_remove(0)
    }

    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        self.shared.slots.lock().unwrap()[self.rank] = bytes.to_vec();
        self.shared.barrier.wait();
        let all = self.shared.slots.lock().unwrap().clone();
        // No rank writes the next step's bytes before every rank has read these.
        self.shared.barrier.wait();
        all
    }

    fn send(&self, to: usize, bytes: &[u8]) {
        let mut mail = self.shared.mail.lock().unwrap();
        mail.entry((self.rank, to))
            .or_default()
            .push_back(bytes.to_vec());
        self.shared.arrived.notify_all();
    }

    fn receive(&self, from: usize) -> Vec<u8> {
        let mut mail = self.shared.mail.lock().unwrap();
        loop {
            if let Some(m) = mail
                .get_mut(&(from, self.rank))
                .and_then(VecDeque::pop_front)
            {
                return m;
            }
            mail = self.shared.arrived.wait(mail).unwrap();
        }
    }

    fn poll(&self) -> Option<usize> {
        let mail = self.shared.mail.lock().unwrap();
        (0..self.size).find(|&from| mail.get(&(from, self.rank)).is_some_and(|q| !q.is_empty()))
    }

    fn poll_from(&self, from: usize) -> bool {
        let mail = self.shared.mail.lock().unwrap();
        mail.get(&(from, self.rank)).is_some_and(|q| !q.is_empty())
    }

    fn bytes_sent(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn a_team_of_threads_gathers_and_settles() {
        let out = run(3, |team| {
            let all = team.all_gather(&[team.rank() as u8]);
            let first = team.broadcast(vec![7 + team.rank() as u8]);
            let any = team.any(team.rank() == 2);
            // A ring of messages: each rank sends to the next, then receives from the last.
            team.send((team.rank() + 1) % 3, &[team.rank() as u8; 2]);
            assert_eq!(
                team.receive((team.rank() + 2) % 3),
                [(team.rank() as u8 + 2) % 3; 2]
            );
            let failed = team.settle(match team.rank() {
                1 => Err(Error::Resource("rank 1's limit".into())),
                _ => Ok(()),
            });
            (all, first, any, failed.map_err(|e| e.kind()))
        });
        for (rank, (all, first, any, failed)) in out.into_iter().enumerate() {
            assert_eq!(all, vec![vec![0], vec![1], vec![2]], "rank {rank}");
            assert_eq!(first, vec![7]);
            assert!(any);
            assert_eq!(failed, Err(crate::error::Kind::Resource));
        }
    }
}
