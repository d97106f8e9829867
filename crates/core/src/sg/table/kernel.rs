//! The slab workers: per-class move programs, the inner loop, and the pipeline between slabs.
//!
//! # Programs
//!
//! Which faces are playable at `t` and which `R_F(t - e_i)` exist depend only on the class of `t`:
//! each coordinate clamped to `{0, 1, 2+}`. A *program* lists, for one class, every playable face
//! with the ring offsets it reads; the inner loop then runs it without a single test per vertex.
//! Along a row (the last coordinate) the class changes only at 0, 1 and 2, so a row needs three
//! programs, cached by the class of the row's other coordinates.
//!
//! # Pipeline
//!
//! Slab `a` (positions with `x_0 = a`) uses the shared ring of vertex 0's faces at inner index `j`
//! by reading `R_F(t - e_0)` (written by slab `a - 1` at `j`), then `R_F(t - e_i)` for `i > 0`
//! (written by slab `a` itself at `j - stride_i >= j - L`, where `L` is [`Layout::reach`]), then
//! writing `R_F(t)` at `j`. Slab `a` processes index `j` only once slab `a - 1` has finished every
//! index up to `min(j + L, S - 1)` (`S` the slab size). Then: slab `a - 1` wrote `j` before slab
//! `a` reads or overwrites it; and slab `a - 1`, already past `j + L`, will never again read
//! anything at or below `j`. By induction on the slabs every slot is read before being overwritten
//! and written before being read. The same wait covers the output values slab `a` reads from slab
//! `a - 1` (at inner indices `<= j`). Each thread publishes its progress with `Release` after a
//! batch of rows; waiting threads read it with `Acquire`, which orders all of the above.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use ahash::AHashMap;

use super::Layout;
use crate::error::Error;
use crate::game::hypergraph::vertices_of;
use crate::progress::Progress;
use crate::units::format_bytes;

/// Positions per published batch: small enough that a follower slab rarely waits. Tests use
/// tiny batches so that even small boxes interleave slabs inside the pipeline.
const BATCH: usize = if cfg!(test) { 16 } else { 4096 };
/// Positions between progress reports.
const BAR_STEP: usize = 1 << 16;
/// Compiled ops kept before the program cache starts over (boxes with many row classes).
const CACHE_OPS: usize = 1 << 18;

/// Tabulates the box described by `layout` on `threads` threads (at most one per slab).
pub(super) fn run(
    layout: &Layout,
    threads: usize,
    progress: &dyn Progress,
) -> Result<Vec<u32>, Error> {
    let start = std::time::Instant::now();
    let mut values = zeroed::<u32>(layout.grid.len(), "the table")?;
    let mut shared = zeroed::<u64>(layout.ring_words(0) as usize, "the slab ring")?;
    let mut private = (0..threads)
        .map(|_| zeroed::<u64>(layout.private_words() as usize, "the rings"))
        .collect::<Result<Vec<_>, _>>()?;
    let pipe = Pipeline {
        layout,
        threads,
        out: SharedPtr(values.as_mut_ptr()),
        ring: SharedPtr(shared.as_mut_ptr()),
        done: (0..threads).map(|_| Counter::default()).collect(),
        failed: AtomicBool::new(false),
        stopped: AtomicBool::new(false),
        progress,
    };
    let work = match layout.chunk {
        1 => worker::<1>,
        2 => worker::<2>,
        3 => worker::<3>,
        _ => worker::<4>,
    };
    std::thread::scope(|scope| {
        let mut rings = private.iter_mut().enumerate();
        let (_, first) = rings.next().expect("at least one thread");
        for (k, ring) in rings {
            let pipe = &pipe;
            scope.spawn(move || work(pipe, k, ring));
        }
        work(&pipe, 0, first);
    });
    if pipe.stopped.load(Ordering::Relaxed) {
        return Err(Error::stopped("the table", start.elapsed().as_secs_f64()));
    }
    Ok(values)
}

/// A zero-filled vector, or a resource error instead of an abort when it cannot be allocated.
pub(super) fn zeroed<T: Clone + Default>(len: usize, what: &str) -> Result<Vec<T>, Error> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        let bytes = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
        Error::Resource(format!(
            "cannot allocate {} for {what}",
            format_bytes(bytes)
        ))
    })?;
    v.resize(len, T::default());
    Ok(v)
}

/// A pointer handed to every worker.
#[derive(Clone, Copy)]
struct SharedPtr<T>(*mut T);

// SAFETY: the pointers target the output table and the shared ring, which outlive the thread
// scope. Workers write disjoint output slabs and follow the slab protocol of the module docs for
// the ring, so no location is accessed concurrently without a happens-before edge.
unsafe impl<T: Send> Send for SharedPtr<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for SharedPtr<T> {}

/// A thread's progress on its own cache line: global index of its next unfinished position.
#[derive(Default)]
#[repr(align(128))]
struct Counter(AtomicUsize);

/// What the workers share.
struct Pipeline<'a> {
    layout: &'a Layout,
    threads: usize,
    out: SharedPtr<u32>,
    /// The ring of vertex 0's faces: one slot per position of a slab.
    ring: SharedPtr<u64>,
    /// Per thread: every position below this global index in its slabs is finished. A thread
    /// runs its slabs in order, so the counter only grows.
    done: Vec<Counter>,
    /// Set when a worker panics, so that the others stop waiting for it.
    failed: AtomicBool,
    /// Set when the listener asked for a stop ([`Progress::stopped`]): every worker ends at its
    /// next batch or wait, and the table is not returned.
    stopped: AtomicBool,
    progress: &'a dyn Progress,
}

impl Pipeline<'_> {
    /// Blocks until slab `a` has finished its first `count` positions: false when the
    /// tabulation was stopped meanwhile (the slab may never finish).
    fn wait(&self, a: usize, count: usize) -> bool {
        let target = a * self.layout.grid.strides()[0] + count;
        let counter = &self.done[a % self.threads].0;
        let mut spins = 0u32;
        while counter.load(Ordering::Acquire) < target {
            assert!(
                !self.failed.load(Ordering::Relaxed),
                "another tabulation worker failed"
            );
            if self.stopped.load(Ordering::Relaxed) {
                return false;
            }
            if spins < 64 {
                spins += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        true
    }

    /// Announces that thread `k` finished every position below global index `end`.
    fn publish(&self, k: usize, end: usize) {
        self.done[k].0.store(end, Ordering::Release);
    }
}

/// Marks the pipeline failed when a worker unwinds, so no other worker waits forever.
struct FailGuard<'a>(&'a AtomicBool);

impl Drop for FailGuard<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// One face's update at one class of positions.
#[derive(Clone, Debug)]
struct Op {
    /// The face's group (its smallest vertex).
    group: usize,
    /// Word offset of the face's set inside a ring slot.
    local: usize,
    /// Positions back to `t - 1_F`, whose value joins the set.
    sg_back: usize,
    /// Where in [`Programs::reads`] the word offsets back to `R_F(t - e_i)` (for `t_i >= 2`) are.
    reads: Range<usize>,
}

/// Compiled programs of one worker, cached by the class of a row's coordinates but the last.
#[derive(Default)]
struct Programs {
    ops: Vec<Op>,
    reads: Vec<usize>,
    /// Per row class: the op ranges for the last coordinate at 0, 1 and 2 or more.
    rows: AHashMap<u128, [Range<usize>; 3]>,
    class: Vec<u8>,
}

impl Programs {
    /// The three programs of a row whose other coordinates have class `key` (2 bits each).
    fn row(&mut self, layout: &Layout, key: u128) -> [Range<usize>; 3] {
        if let Some(progs) = self.rows.get(&key) {
            return progs.clone();
        }
        if self.ops.len() > CACHE_OPS {
            self.ops.clear();
            self.reads.clear();
            self.rows.clear();
        }
        let n = layout.grid.dims();
        self.class.clear();
        self.class
            .extend((0..n - 1).map(|i| (key >> (2 * i)) as u8 & 3));
        self.class.push(0);
        let progs = [0u8, 1, 2].map(|last| {
            self.class[n - 1] = last;
            self.compile(layout)
        });
        self.rows.insert(key, progs.clone());
        progs
    }

    /// Appends the program of the class in `self.class`, returning its op range.
    fn compile(&mut self, layout: &Layout) -> Range<usize> {
        let start = self.ops.len();
        let words = layout.words();
        for (g, group) in layout.groups.iter().enumerate() {
            let slot_words = group.slot_words(words);
            for (l, &face) in group.faces.iter().enumerate() {
                if vertices_of(face).any(|i| self.class[i] == 0) {
                    continue;
                }
                let first = self.reads.len();
                for i in vertices_of(face).filter(|&i| self.class[i] == 2) {
                    // Slot of t - e_i: the same slot for the group's own vertex, else stride_i
                    // slots back (no wrap: t_i >= 1 puts t at least stride_i into its cycle of slots).
                    let back = if i == group.vertex {
                        0
                    } else {
                        layout.grid.strides()[i] * slot_words
                    };
                    self.reads.push(back);
                }
                self.ops.push(Op {
                    group: g,
                    local: l * words,
                    sg_back: vertices_of(face).map(|i| layout.grid.strides()[i]).sum(),
                    reads: first..self.reads.len(),
                });
            }
        }
        start..self.ops.len()
    }
}

/// The class key of a row: the class (0, 1, 2 or more) of each coordinate but the last, 2 bits
/// each, from the row's coordinates in the whole box.
pub(super) fn class_key(coords: &[usize]) -> u128 {
    coords
        .iter()
        .enumerate()
        .fold(0u128, |key, (i, &x)| key | (x.min(2) as u128) << (2 * i))
}

/// What a worker needs to settle whole rows: its compiled programs and where each ring is.
pub(super) struct Rows {
    programs: Programs,
    /// Ring bases: the slab ring of vertex 0's faces, then the private rings.
    base: Vec<*mut u64>,
    /// The current slot of each ring.
    gp: Vec<*mut u64>,
    slot_words: Vec<usize>,
    /// How far each ring's slot moves per position along a row.
    steps: Vec<usize>,
}

impl Rows {
    /// `shared` is the ring of vertex 0's faces, `private` the other groups' rings one after
    /// another ([`Layout::private_words`] words).
    pub(super) fn new(layout: &Layout, shared: *mut u64, private: *mut u64) -> Self {
        let (n, words, groups) = (layout.grid.dims(), layout.words(), &layout.groups);
        let mut base = vec![shared];
        let mut offset = 0;
        for g in 1..n {
            base.push(private.wrapping_add(offset));
            offset += layout.ring_words(g) as usize;
        }
        let slot_words: Vec<usize> = groups.iter().map(|g| g.slot_words(words)).collect();
        // Along a row every group moves one slot per position, except the last vertex's (one slot).
        let steps = groups
            .iter()
            .zip(&slot_words)
            .map(|(g, &w)| if g.slots > 1 { w } else { 0 })
            .collect();
        Rows {
            programs: Programs::default(),
            gp: base.clone(),
            base,
            slot_words,
            steps,
        }
    }

    /// Settles the row at inner index `j0` of its slab whose coordinates but the last have
    /// class `key`, writing its values from `out` on; the last coordinate runs over `lasts`.
    ///
    /// # Safety
    /// The rings and `out` must be as [`settle`] needs them for every position of the row.
    pub(super) unsafe fn run<const C: usize>(
        &mut self,
        layout: &Layout,
        key: u128,
        j0: usize,
        out: *mut u32,
        lasts: Range<usize>,
    ) {
        let progs = self.programs.row(layout, key);
        for (g, p) in self.gp.iter_mut().enumerate() {
            let slot = j0 % layout.groups[g].slots;
            *p = self.base[g].wrapping_add(slot * self.slot_words[g]);
        }
        let mut outp = out;
        for x in lasts {
            let ops = &self.programs.ops[progs[x.min(2)].clone()];
            let value = settle::<C>(ops, &self.programs.reads, &self.gp, outp, layout.blocks);
            outp.write(value);
            outp = outp.wrapping_add(1);
            for (p, &step) in self.gp.iter_mut().zip(&self.steps) {
                *p = p.wrapping_add(step);
            }
        }
    }
}

/// Runs thread `k`'s slabs (`k`, `k + threads`, ...), with `C` words per pass over a set.
fn worker<const C: usize>(pipe: &Pipeline, k: usize, private: &mut [u64]) {
    let _guard = FailGuard(&pipe.failed);
    let layout = pipe.layout;
    let dims = layout.grid.sides();
    let n = dims.len();
    let slab = layout.grid.strides()[0];
    let mut rows_of = Rows::new(layout, pipe.ring.0, private.as_mut_ptr());
    let row_len = if n == 1 { 1 } else { dims[n - 1] };
    let rows = slab / row_len;
    let batch_rows = (BATCH / row_len).max(1);
    let mut coords = vec![0usize; n];
    let mut unreported = 0;
    for a in (k..dims[0]).step_by(pipe.threads) {
        coords.fill(0);
        coords[0] = a;
        // For one vertex a slab is the single position x_0 = a; else rows run over x_{n-1}.
        let lasts = if n == 1 { a..a + 1 } else { 0..row_len };
        let mut row = 0;
        while row < rows {
            let end = (row + batch_rows).min(rows);
            if pipe.stopped.load(Ordering::Relaxed) {
                return;
            }
            if a > 0 && !pipe.wait(a - 1, (end * row_len + layout.reach).min(slab)) {
                return;
            }
            for r in row..end {
                let key = class_key(&coords[..n - 1]);
                let j0 = r * row_len;
                let out = pipe.out.0.wrapping_add(a * slab + j0);
                // SAFETY: the rings are this thread's and the shared one, the output entry is
                // this slab's; every offset the row's programs read lands in a slot or output
                // entry written before (see the module docs for the slabs other threads write).
                unsafe { rows_of.run::<C>(layout, key, j0, out, lasts.clone()) };
                // Next row: an odometer over coordinates 1..n-1 (the last is the row itself).
                for i in (1..n.saturating_sub(1)).rev() {
                    coords[i] += 1;
                    if coords[i] < dims[i] {
                        break;
                    }
                    coords[i] = 0;
                }
            }
            pipe.publish(k, a * slab + end * row_len);
            unreported += (end - row) * row_len;
            if unreported >= BAR_STEP || end == rows {
                pipe.progress.advance(unreported as u64);
                unreported = 0;
            }
            if pipe.progress.stopped() {
                pipe.stopped.store(true, Ordering::Relaxed);
            }
            row = end;
        }
    }
}

/// Settles one position: stores `R_F(t)` for every op's face and returns the mex of their union.
///
/// # Safety
/// `gp[g]` must point at the current slot of group `g`'s ring and `outp` at the current output
/// entry, and `ops` must be the program of the position's class: then every slot and output
/// entry read lies in the rings and the table and holds a finished value.
#[inline(always)]
unsafe fn settle<const C: usize>(
    ops: &[Op],
    reads: &[usize],
    gp: &[*mut u64],
    outp: *const u32,
    blocks: usize,
) -> u32 {
    let mut mex = None;
    for block in 0..blocks {
        let lo = block * C;
        let mut acc = [0u64; C];
        for op in ops {
            let p = gp.get_unchecked(op.group).add(op.local + lo);
            let v = *outp.sub(op.sg_back) as usize;
            // The bit of SG(t - 1_F), if it falls in this block.
            let word = (v / 64).wrapping_sub(lo);
            let mut set: [u64; C] = std::array::from_fn(|w| u64::from(word == w) << (v % 64));
            for &back in reads.get_unchecked(op.reads.clone()) {
                let q = p.sub(back);
                for (w, x) in set.iter_mut().enumerate() {
                    *x |= q.add(w).read();
                }
            }
            for (w, (&x, a)) in set.iter().zip(acc.iter_mut()).enumerate() {
                p.add(w).write(x);
                *a |= x;
            }
        }
        if mex.is_none() {
            if let Some(w) = acc.iter().position(|&x| x != u64::MAX) {
                mex = Some((lo + w) * 64 + acc[w].trailing_ones() as usize);
            }
        }
    }
    // A set has more bits than the box has stones, and SG(t) is at most the stones of t.
    debug_assert!(mex.is_some(), "a position's value outgrew its set");
    mex.unwrap_or(usize::MAX) as u32
}
