//! `grundy-mpi`: the ranks of an MPI job as a [`Team`], through rsmpi. One thread at a time
//! calls MPI. The other crates compute against [`Team`] and link no MPI; the `grundy` binary
//! joins a job through [`join`] when built with its `mpi` feature.

#![warn(missing_docs)]

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use mpi::collective::SystemOperation;
use mpi::datatype::{Buffer, BufferMut, PartitionMut};
use mpi::environment::Threading;
use mpi::request::{Request, Scope};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::{Count, Rank};

use grundy_core::cluster::Team;
use grundy_core::error::Error;

/// Bytes one collective call moves per rank at most: MPI counts are 32-bit, so longer
/// messages go in rounds of this size.
const PIECE: usize = 1 << 30;

/// Every rank of `MPI_COMM_WORLD`. MPI is finalized when this is dropped.
///
/// MPI is initialized at the *serialized* threading level: any thread may call it, one at a
/// time, which a lock taken by every call of the team ensures. Collective steps are the main
/// thread's; the threads of a dealt search (`grundy_core::sg::deal`) send and receive their
/// rank's jobs themselves, which saves the hand-overs between threads that cost a dealt
/// subtree most of its time on a machine whose cores are all busy. The type holds no
/// communicator handle (it takes the world's at each call), so it can be shared.
pub struct Mpi {
    rank: usize,
    size: usize,
    sent: AtomicU64,
    serial: Mutex<()>,
    _universe: mpi::environment::Universe,
}

impl Mpi {
    /// Joins the job that started this process.
    pub fn init() -> Result<Self, Error> {
        let (universe, level) = mpi::initialize_with_threading(Threading::Serialized)
            .ok_or_else(|| Error::internal("MPI was initialized twice in one process"))?;
        if level < Threading::Serialized {
            return Err(Error::Usage(format!(
                "this MPI gives threads the level {level:?}, and grundy needs Serialized: \
                 build it against an MPI with thread support"
            )));
        }
        let world = universe.world();
        Ok(Mpi {
            rank: world.rank() as usize,
            size: world.size() as usize,
            sent: AtomicU64::new(0),
            serial: Mutex::new(()),
            _universe: universe,
        })
    }

    /// The world communicator, for a call that holds [`Mpi::serial`].
    fn world(&self) -> SimpleCommunicator {
        SimpleCommunicator::world()
    }

    /// The lock every call of MPI holds: one thread at a time.
    fn serial(&self) -> MutexGuard<'_, ()> {
        self.serial.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn count(&self, bytes: usize) {
        self.sent.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// How many rounds of [`PIECE`] bytes the longest of the ranks' messages takes.
    fn rounds(&self, len: usize) -> usize {
        let mine = len.div_ceil(PIECE) as u64;
        let mut most = 0u64;
        self.world()
            .all_reduce_into(&mine, &mut most, SystemOperation::max());
        self.count(8);
        most.max(1) as usize
    }

    /// The part of `bytes` sent in `round`, after one byte of padding: Open MPI refuses
    /// variable-count collectives in which every rank sends nothing.
    fn piece(bytes: &[u8], round: usize) -> Vec<u8> {
        let start = (round * PIECE).min(bytes.len());
        let mut piece = Vec::with_capacity(PIECE.min(bytes.len() - start) + 1);
        piece.push(0);
        piece.extend_from_slice(&bytes[start..(start + PIECE).min(bytes.len())]);
        piece
    }
}

/// How long a send or receive that cannot finish yet sleeps before it looks again.
const WAIT: Duration = Duration::from_micros(20);

impl Mpi {
    /// Sends `buf` to rank `to`, waiting for the receiver without spinning: Open MPI's blocking
    /// send spins on its core until the receiver takes a long message, and on a machine whose
    /// cores all search, that spin takes a core from them (it took a third of the samples of
    /// a dealt search on two ranks).
    fn send_quietly<B: Buffer + ?Sized>(&self, to: usize, buf: &B) {
        mpi::request::scope(|scope| {
            let request = {
                let _serial = self.serial();
                let world = self.world();
                world.process_at_rank(to as Rank).immediate_send(scope, buf)
            };
            self.finish(request);
        })
    }

    /// Receives from rank `from` into `buf`, waiting without spinning, as
    /// [`Mpi::send_quietly`].
    fn receive_quietly<B: BufferMut + ?Sized>(&self, from: usize, buf: &mut B) {
        mpi::request::scope(|scope| {
            let request = {
                let _serial = self.serial();
                let world = self.world();
                world
                    .process_at_rank(from as Rank)
                    .immediate_receive_into(scope, buf)
            };
            self.finish(request);
        })
    }

    /// Waits until `request` is done, testing it and sleeping [`WAIT`] between two tests; the
    /// lock is held only while it is tested, so that other threads' messages go on meanwhile.
    fn finish<'a, B: ?Sized, S: Scope<'a>>(&self, mut request: Request<'a, B, S>) {
        loop {
            let tested = {
                let _serial = self.serial();
                request.test()
            };
            match tested {
                Ok(_) => return,
                Err(r) => {
                    request = r;
                    std::thread::sleep(WAIT);
                }
            }
        }
    }
}

/// Offsets of consecutive blocks of `counts` bytes.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let d = *at;
            *at += c;
            Some(d)
        })
        .collect()
}

impl Team for Mpi {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn gather(&self, bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
        let _serial = self.serial();
        let world = self.world();
        let root = world.process_at_rank(0);
        let mut out = vec![Vec::new(); self.size];
        for round in 0..self.rounds(bytes.len()) {
            let piece = Self::piece(bytes, round);
            let n = piece.len() as Count;
            self.count(4 + piece.len());
            if self.rank == 0 {
                let mut counts = vec![0 as Count; self.size];
                root.gather_into_root(&n, &mut counts[..]);
                let displs = displacements(&counts);
                let total = counts.iter().map(|&c| c as usize).sum();
                let mut buf = vec![0u8; total];
                {
                    let mut part = PartitionMut::new(&mut buf[..], &counts[..], &displs[..]);
                    root.gather_varcount_into_root(&piece[..], &mut part);
                }
                for (r, o) in out.iter_mut().enumerate() {
                    let at = displs[r] as usize;
                    o.extend_from_slice(&buf[at + 1..at + counts[r] as usize]);
                }
            } else {
                root.gather_into(&n);
                root.gather_varcount_into(&piece[..]);
            }
        }
        (self.rank == 0).then_some(out)
    }

    fn broadcast(&self, bytes: Vec<u8>) -> Vec<u8> {
        let _serial = self.serial();
        let world = self.world();
        let root = world.process_at_rank(0);
        let mut len = bytes.len() as u64;
        root.broadcast_into(&mut len);
        let mut buf = if self.rank == 0 {
            bytes
        } else {
            vec![0u8; len as usize]
        };
        for chunk in buf.chunks_mut(PIECE) {
            root.broadcast_into(chunk);
        }
        if self.rank == 0 {
            // A broadcast tree sends about once per receiving rank.
            self.count(8 + buf.len() * (self.size - 1));
        }
        buf
    }

    fn all_gather(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        let _serial = self.serial();
        let world = self.world();
        let mut out = vec![Vec::new(); self.size];
        for round in 0..self.rounds(bytes.len()) {
            let piece = Self::piece(bytes, round);
            let n = piece.len() as Count;
            self.count((4 + piece.len()) * (self.size - 1));
            let mut counts = vec![0 as Count; self.size];
            world.all_gather_into(&n, &mut counts[..]);
            let displs = displacements(&counts);
            let total = counts.iter().map(|&c| c as usize).sum();
            let mut buf = vec![0u8; total];
            {
                let mut part = PartitionMut::new(&mut buf[..], &counts[..], &displs[..]);
                world.all_gather_varcount_into(&piece[..], &mut part);
            }
            for (r, o) in out.iter_mut().enumerate() {
                let at = displs[r] as usize;
                o.extend_from_slice(&buf[at + 1..at + counts[r] as usize]);
            }
        }
        out
    }

    fn send(&self, to: usize, bytes: &[u8]) {
        let len = bytes.len() as u64;
        self.send_quietly(to, &len);
        for piece in bytes.chunks(PIECE) {
            self.send_quietly(to, piece);
        }
        self.count(8 + bytes.len());
    }

    fn receive(&self, from: usize) -> Vec<u8> {
        let mut len = 0u64;
        self.receive_quietly(from, &mut len);
        let mut buf = vec![0u8; len as usize];
        for piece in buf.chunks_mut(PIECE) {
            self.receive_quietly(from, piece);
        }
        buf
    }

    fn poll(&self) -> Option<usize> {
        let _serial = self.serial();
        let world = self.world();
        let status = world.any_process().immediate_probe()?;
        Some(status.source_rank() as usize)
    }

    fn poll_from(&self, from: usize) -> bool {
        let _serial = self.serial();
        let world = self.world();
        world
            .process_at_rank(from as Rank)
            .immediate_probe()
            .is_some()
    }

    fn bytes_sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }
}

/// Ranks on one machine share its cores: unless `RAYON_NUM_THREADS` says otherwise, each
/// rank's worker pool gets the cores divided by the ranks on this machine, so that two ranks
/// on two cores run two threads in all, not four.
fn share_cores(var: impl Fn(&str) -> Option<String>) {
    if var("RAYON_NUM_THREADS").is_some() {
        return;
    }
    let local: usize = ["OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"]
        .iter()
        .find_map(|name| var(name)?.trim().parse().ok())
        .unwrap_or(1);
    if local > 1 {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        // Fails only if a pool was built already, which then stays as it is.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads((cores / local).max(1))
            .build_global();
    }
}

/// Joins the MPI job that started this process, with this machine's cores shared among its
/// ranks there.
pub fn join() -> Result<Mpi, Error> {
    share_cores(|name| std::env::var(name).ok());
    Mpi::init()
}
