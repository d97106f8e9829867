//! The positions the threads of one search are expanding now, near the top of their own
//! searches, as in ABDADA (Weill, 1996): a thread about to search a successor another thread
//! is already searching searches its other successors first, by when the other's exact value
//! is most likely in the shared table. Two threads in neighbouring subtrees of Cram reach the
//! same boards by moves in another order, at about the same time; on 5 x 9 each then searched
//! 5.6 million nodes' worth of the other's values again (docs/benchmarks.md, 2026-11-29).
//!
//! A mark only changes the order in which a node's successors are searched, never what is
//! found: a slot two positions share, or a mark a stopped search left, only puts a successor
//! later than it would have been.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots: far more than the positions marked at once (a few per thread).
const SLOTS: usize = 1 << 12;

/// Hashes of the positions being expanded, one per slot.
pub(crate) struct Searching {
    slots: Box<[AtomicU64]>,
}

/// A mark set by [`Searching::enter`], for [`Searching::leave`].
#[must_use = "a mark left set puts its position late in other threads' searches"]
pub(crate) struct Mark(u64);

impl Searching {
    /// No position marked.
    pub(crate) fn new() -> Self {
        Searching {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The slot of a hash, and what it holds when the hash is marked (never 0, the empty slot;
    /// a mark's own tag gives its slot and itself again).
    fn slot(&self, h: u64) -> (&AtomicU64, u64) {
        (&self.slots[(h >> 40) as usize % SLOTS], h | 1)
    }

    /// Marks the position of hash `h` as expanded by this thread, unless its slot is taken.
    pub(crate) fn enter(&self, h: u64) -> Option<Mark> {
        let (slot, tag) = self.slot(h);
        slot.compare_exchange(0, tag, Ordering::Relaxed, Ordering::Relaxed)
            .ok()
            .map(|_| Mark(tag))
    }

    /// Clears a mark: its position's expansion is over.
    pub(crate) fn leave(&self, mark: Mark) {
        let (slot, tag) = self.slot(mark.0);
        let _ = slot.compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether a thread is expanding the position of hash `h`.
    pub(crate) fn holds(&self, h: u64) -> bool {
        let (slot, tag) = self.slot(h);
        slot.load(Ordering::Relaxed) == tag
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_held_from_its_entry_to_its_leave() {
        let s = Searching::new();
        let (a, b) = (0x1234_5678_9abc_def0u64, 0x0fed_cba9_8765_4321u64);
        assert!(!s.holds(a));
        let mark = s.enter(a).expect("an empty slot");
        assert!(s.holds(a) && !s.holds(b));
        // A second entry of the same slot is refused and changes nothing.
        assert!(s.enter(a).is_none());
        assert!(s.enter(a ^ 0xff).is_none(), "same slot, another hash");
        assert!(!s.holds(a ^ 0xff));
        let other = s.enter(b).expect("another slot");
        s.leave(mark);
        assert!(!s.holds(a) && s.holds(b));
        s.leave(other);
        assert!(!s.holds(b));
        // The slot is free again.
        s.leave(s.enter(a ^ 0xff).expect("free"));
    }
}
