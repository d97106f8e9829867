//! Storage of classes: levels as segments of packed output vectors with back-pointers, a
//! builder that deduplicates one level (threads stage candidates partitioned by hash, then each
//! shard is merged on its own, so no locks are taken per candidate and each shard's table stays
//! in cache), and a memory meter.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use rayon::prelude::*;

use super::index::Index;
use super::kernel::Word;

/// No child (leaves, and the right child of unary nodes).
pub(super) const NONE: u32 = u32::MAX;
/// Buckets by the value at the first index column (see [`Index`]).
pub(super) const BUCKETS: usize = 256;

/// How a class's representative is built: instruction `op` (index into the op set) over
/// classes `left` and `right`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Info {
    pub left: u32,
    pub right: u32,
    pub op: u16,
}

/// Classes with consecutive ids from `start`: vector `i` is `vecs[i * n..(i + 1) * n]`.
pub(super) struct Segment<T> {
    pub start: u32,
    pub vecs: Vec<T>,
    pub info: Vec<Info>,
    /// With index columns, classes are sorted by their values there ([`Index::key`]) and
    /// `buckets[k]..buckets[k + 1]` are the positions whose value at the first is `k`; empty
    /// without them.
    pub buckets: Vec<u32>,
    /// Per class, bit `k` set when its value at the `k`-th column that must not give 0
    /// ([`Checker::nonzero_columns`](super::kernel::Checker::nonzero_columns)) is 0.
    pub zeros: Vec<u64>,
}

impl<T: Word> Segment<T> {
    pub fn len(&self) -> usize {
        self.info.len()
    }

    /// One past the last id.
    pub fn end(&self) -> u32 {
        self.start + self.info.len() as u32
    }

    #[inline(always)]
    pub fn vec(&self, i: usize, n: usize) -> &[T] {
        &self.vecs[i * n..(i + 1) * n]
    }
}

/// All classes of one length, ids `start..start + len`.
pub(super) struct Level<T> {
    pub start: u32,
    pub len: u32,
    pub segs: Vec<Segment<T>>,
}

impl<T: Word> Level<T> {
    /// A level from segments whose ids run on from `start`.
    pub fn new(start: u32, segs: Vec<Segment<T>>) -> Self {
        let len = segs.iter().map(|s| s.len() as u32).sum();
        Level { start, len, segs }
    }

    /// The segment and position of class `id` (which must be in this level).
    pub fn find(&self, id: u32) -> (&Segment<T>, usize) {
        let k = self.segs.partition_point(|s| s.end() <= id);
        let s = &self.segs[k];
        (s, (id - s.start) as usize)
    }
}

/// Bytes held by levels, tables and staging, against a limit; allocations are charged before
/// they are made, so the enumerator's own data never passes the limit.
pub(super) struct Meter {
    used: AtomicU64,
    pub limit: u64,
}

impl Meter {
    pub fn new(limit: u64) -> Self {
        Meter {
            used: AtomicU64::new(0),
            limit,
        }
    }

    /// Reserves `bytes`; false (and nothing reserved) if that would pass the limit.
    pub fn charge(&self, bytes: u64) -> bool {
        let prev = self.used.fetch_add(bytes, Ordering::Relaxed);
        if prev + bytes > self.limit {
            self.used.fetch_sub(bytes, Ordering::Relaxed);
            return false;
        }
        true
    }

    pub fn release(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }

    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }
}

/// Shards (by the top byte of the hash) of a level being built.
const SHARDS: usize = 256;

/// A fixed-seed hasher: shard and slot choice, hence class ids, do not depend on the run.
fn hasher() -> ahash::RandomState {
    ahash::RandomState::with_seeds(
        0x243f_6a88_85a3_08d3,
        0x1319_8a2e_0370_7344,
        0xa409_3822_299f_31d0,
        0x082e_fa98_ec4e_6c89,
    )
}

/// Grows `v` to hold `more` further items, charging `bytes_per` per added slot; false if the
/// meter refuses.
fn grow<X>(v: &mut Vec<X>, more: usize, bytes_per: usize, meter: &Meter) -> bool {
    if v.len() + more <= v.capacity() {
        return true;
    }
    let cap = v.capacity();
    let new_cap = (2 * cap).max(v.len() + more).max(64);
    if !meter.charge(((new_cap - cap) * bytes_per) as u64) {
        return false;
    }
    v.reserve_exact(new_cap - v.len());
    true
}

/// One thread's candidates waiting to be merged, partitioned by shard.
pub(super) struct Stage<T> {
    vecs: Vec<Vec<T>>,
    recs: Vec<Vec<(u64, Info)>>,
}

/// One shard: classes in insertion order and an open-addressing table of `(index + 1) << 32 |
/// hash` (0 is empty).
struct Shard<T> {
    vecs: Vec<T>,
    info: Vec<Info>,
    slots: Vec<u64>,
}

/// Deduplicates the candidates of one level by output vector. Of several candidates with one
/// vector the one with the least key (not rooted at `Not` first, then instruction, children)
/// represents the class, so the result does not depend on thread timing.
pub(super) struct Builder<'a, T> {
    n: usize,
    shards: Vec<Shard<T>>,
    stages: Vec<Mutex<Stage<T>>>,
    meter: &'a Meter,
    /// Per op-set index: whether the instruction is `Not`.
    is_not: &'a [bool],
    hasher: ahash::RandomState,
}

impl<'a, T: Word> Builder<'a, T> {
    /// A builder for vectors of `n` words, with one stage per worker thread.
    pub fn new(n: usize, meter: &'a Meter, is_not: &'a [bool], threads: usize) -> Self {
        let shards = (0..SHARDS)
            .map(|_| Shard {
                vecs: Vec::new(),
                info: Vec::new(),
                slots: Vec::new(),
            })
            .collect();
        let stage = || Stage {
            vecs: (0..SHARDS).map(|_| Vec::new()).collect(),
            recs: (0..SHARDS).map(|_| Vec::new()).collect(),
        };
        Builder {
            n,
            shards,
            stages: (0..threads.max(1)).map(|_| Mutex::new(stage())).collect(),
            meter,
            is_not,
            hasher: hasher(),
        }
    }

    /// The calling worker thread's stage.
    pub fn stage(&self) -> MutexGuard<'_, Stage<T>> {
        let t = rayon::current_thread_index().unwrap_or(0) % self.stages.len();
        self.stages[t].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stages a candidate; false if the memory limit stops it.
    #[inline]
    pub fn push(&self, stage: &mut Stage<T>, v: &[T], info: Info) -> bool {
        let h = self.hasher.hash_one(v);
        let s = (h >> 56) as usize;
        let word = size_of::<T>();
        let (vecs, recs) = (&mut stage.vecs[s], &mut stage.recs[s]);
        if !grow(recs, 1, size_of::<(u64, Info)>(), self.meter)
            || !grow(vecs, v.len(), word, self.meter)
        {
            return false;
        }
        recs.push((h, info));
        vecs.extend_from_slice(v);
        true
    }

    /// Merges every staged candidate into the shards (in parallel over shards) and empties
    /// the stages; false if the memory limit stops it.
    pub fn merge(&mut self) -> bool {
        let (n, meter, is_not) = (self.n, self.meter, self.is_not);
        let stages: Vec<&mut Stage<T>> = self
            .stages
            .iter_mut()
            .map(|m| m.get_mut().unwrap_or_else(|e| e.into_inner()))
            .collect();
        let stages: Vec<&Stage<T>> = stages.into_iter().map(|s| &*s).collect();
        let ok = self.shards.par_iter_mut().enumerate().all(|(k, shard)| {
            stages.iter().all(|st| {
                let (vecs, recs) = (&st.vecs[k], &st.recs[k]);
                recs.iter().enumerate().all(|(i, &(h, info))| {
                    let v = &vecs[i * n..(i + 1) * n];
                    shard.insert(v, h as u32, info, n, meter, is_not)
                })
            })
        });
        for m in &mut self.stages {
            let st = m.get_mut().unwrap_or_else(|e| e.into_inner());
            st.vecs.iter_mut().for_each(Vec::clear);
            st.recs.iter_mut().for_each(Vec::clear);
        }
        ok
    }

    /// The level, ids from `start`: consecutive shards grouped into segments of at least
    /// `segment_min` classes (when there are that many), each sorted by bucket of `index` (if
    /// any) and then by key, so ids are deterministic. Frees the
    /// tables and stages. None if the ids would not fit in u32.
    pub fn finish(
        mut self,
        start: u32,
        index: Option<Index>,
        segment_min: usize,
    ) -> Option<Level<T>> {
        let (n, meter, is_not) = (self.n, self.meter, self.is_not);
        let mut staged = 0;
        for m in &mut self.stages {
            let st = m.get_mut().unwrap_or_else(|e| e.into_inner());
            staged += st
                .vecs
                .iter()
                .map(|v| v.capacity() * size_of::<T>())
                .sum::<usize>();
            let rec = size_of::<(u64, Info)>();
            staged += st.recs.iter().map(|v| v.capacity() * rec).sum::<usize>();
        }
        drop(self.stages);
        meter.release(staged as u64);
        let total: usize = self.shards.iter().map(|s| s.info.len()).sum();
        if start as u64 + total as u64 >= NONE as u64 {
            return None;
        }
        let per = total.div_ceil((total / segment_min.max(1)).clamp(1, SHARDS));
        let mut groups: Vec<(u32, Vec<Shard<T>>)> = Vec::new();
        let (mut next, mut size) = (start, per);
        for shard in self.shards.into_iter().filter(|s| !s.info.is_empty()) {
            if size >= per {
                groups.push((next, Vec::new()));
                size = 0;
            }
            size += shard.info.len();
            next += shard.info.len() as u32;
            groups.last_mut().expect("a group").1.push(shard);
        }
        let segs = groups
            .into_par_iter()
            .map(|(start, shards)| {
                let mut order: Vec<(u64, u128, u16, u32)> = Vec::new();
                for (k, s) in shards.iter().enumerate() {
                    for (i, info) in s.info.iter().enumerate() {
                        let key = index.map_or(0, |x| x.key(&s.vecs[i * n..(i + 1) * n]));
                        let rep = ((is_not[info.op as usize] as u128) << 80)
                            | ((info.op as u128) << 64)
                            | ((info.left as u128) << 32)
                            | info.right as u128;
                        order.push((key, rep, k as u16, i as u32));
                    }
                }
                order.sort_unstable();
                let mut vecs = Vec::with_capacity(order.len() * n);
                let mut info = Vec::with_capacity(order.len());
                let mut buckets = Vec::new();
                if index.is_some() {
                    buckets = vec![0u32; BUCKETS + 1];
                }
                for &(key, _, k, i) in &order {
                    let (s, i) = (&shards[k as usize], i as usize);
                    vecs.extend_from_slice(&s.vecs[i * n..(i + 1) * n]);
                    info.push(s.info[i]);
                    if index.is_some() {
                        buckets[Index::bucket(key) + 1] += 1;
                    }
                }
                for k in 0..buckets.len().saturating_sub(1) {
                    buckets[k + 1] += buckets[k];
                }
                let held: usize = shards
                    .iter()
                    .map(|s| {
                        s.vecs.capacity() * size_of::<T>()
                            + s.info.capacity() * size_of::<Info>()
                            + s.slots.capacity() * size_of::<u64>()
                    })
                    .sum();
                let kept = vecs.capacity() * size_of::<T>()
                    + info.capacity() * size_of::<Info>()
                    + buckets.capacity() * 4;
                meter.release(held.saturating_sub(kept) as u64);
                Segment {
                    start,
                    vecs,
                    info,
                    buckets,
                    zeros: Vec::new(),
                }
            })
            .collect();
        Some(Level::new(start, segs))
    }
}

impl<T: Word> Shard<T> {
    /// Adds a candidate with hash `h`, keeping the least key per vector; false on memory.
    fn insert(
        &mut self,
        v: &[T],
        h: u32,
        info: Info,
        n: usize,
        meter: &Meter,
        is_not: &[bool],
    ) -> bool {
        if (self.info.len() + 1) * 4 > self.slots.len() * 3 && !self.grow_slots(meter) {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut p = h as usize & mask;
        loop {
            let slot = self.slots[p];
            if slot == 0 {
                break;
            }
            let e = (slot >> 32) as usize - 1;
            if slot as u32 == h && &self.vecs[e * n..(e + 1) * n] == v {
                // The representative: not rooted at `Not` if possible, then the least key.
                let key = |i: &Info| (is_not[i.op as usize], i.op, i.left, i.right);
                if key(&info) < key(&self.info[e]) {
                    self.info[e] = info;
                }
                return true;
            }
            p = (p + 1) & mask;
        }
        if !grow(&mut self.info, 1, size_of::<Info>(), meter)
            || !grow(&mut self.vecs, n, size_of::<T>(), meter)
        {
            return false;
        }
        self.slots[p] = ((self.info.len() as u64 + 1) << 32) | h as u64;
        self.vecs.extend_from_slice(v);
        self.info.push(info);
        true
    }

    fn grow_slots(&mut self, meter: &Meter) -> bool {
        let old = self.slots.len();
        let len = (2 * old).max(64);
        if !meter.charge(((len - old) * size_of::<u64>()) as u64) {
            return false;
        }
        let mut slots = vec![0u64; len];
        let mask = len - 1;
        for &slot in self.slots.iter().filter(|&&s| s != 0) {
            let mut p = slot as u32 as usize & mask;
            while slots[p] != 0 {
                p = (p + 1) & mask;
            }
            slots[p] = slot;
        }
        self.slots = slots;
        true
    }
}
