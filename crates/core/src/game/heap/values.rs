//! A nim sequence held in about a byte a heap: each value in a byte, and the few of 255 or more
//! apart (an escape byte, and the value in a sorted side table looked up only on the escape,
//! [`super::large`]); when such values grow common (more than one heap in
//! [`super::large::LARGE_SHARE`]), the values are held in 2 or 4 bytes each instead, widened on
//! the fly. Long runs of heap games keep every value,
//! so the bytes a value takes set how far a run fits in memory: Grundy's game passes 255
//! before 10^7 heaps, with few such values.

use std::path::Path;

use super::large::Large;
#[cfg(test)]
use super::large::{LARGE_FREE, LARGE_SHARE};
use super::room::{Mapped, Room};
use crate::game::Nimber;

/// A stored value: a byte, a 16-bit or a 32-bit word, read as a [`Nimber`].
pub trait Value: bytemuck::Pod + Into<Nimber> + PartialEq + Send + Sync + 'static {
    /// The stored values as bytes when they are bytes: the scan of pairs then tests 32 of
    /// them at a time (`scan_simd`).
    fn as_bytes(values: &[Self]) -> Option<&[u8]> {
        let _ = values;
        None
    }
}

impl Value for u8 {
    fn as_bytes(values: &[u8]) -> Option<&[u8]> {
        Some(values)
    }
}
impl Value for u16 {}
impl Value for u32 {}

/// The byte held for a value kept apart, in the side table.
pub const ESCAPE: u8 = u8::MAX;

/// G(0), G(1), ... of a heap game: a byte each with the large values apart, or all in the
/// width of the largest so far.
#[derive(Clone, Debug, Default)]
pub struct Values {
    store: Store,
}

/// The values at one width.
#[derive(Clone, Debug)]
enum Store {
    U8(Room<u8>, Large),
    U16(Room<u16>),
    U32(Room<u32>),
}

impl Default for Store {
    fn default() -> Self {
        Store::U8(Room::default(), Large::default())
    }
}

/// Read access to a nim sequence at its width, for code generic over how it is held (see
/// [`with_values!`](crate::with_values)): `raw` is the stored values, exact except at the
/// escaped heaps, which `escaped_from` and `escaped_below` find so that loops read the raw
/// values between them directly.
pub trait Seq<'a>: Copy + Send + Sync {
    /// A stored value.
    type Raw: Value;
    /// The stored values, escapes included.
    fn raw(self) -> &'a [Self::Raw];
    /// G(i).
    fn at(self, i: usize) -> Nimber;
    /// The first escaped heap at or past `i` (`usize::MAX`: none).
    fn escaped_from(self, i: usize) -> usize;
    /// The last escaped heap below `i`, if any.
    fn escaped_below(self, i: usize) -> Option<usize>;
    /// The first `len` values.
    fn prefix(self, len: usize) -> Self;
    /// The first heap from which every value is kept apart (`usize::MAX`: none): a block's
    /// new values (`fresh`), which loops read one by one without asking.
    fn apart_from(self) -> usize {
        usize::MAX
    }
    /// The values from [`Seq::apart_from`] on, at full width (none unless some are apart).
    fn apart(self) -> &'a [Nimber] {
        &[]
    }
    /// How many values are held.
    fn len(self) -> usize {
        self.raw().len()
    }
    /// Whether no value is held.
    fn is_empty(self) -> bool {
        self.len() == 0
    }
}

impl<'a, V: Value> Seq<'a> for &'a [V] {
    type Raw = V;
    #[inline]
    fn raw(self) -> &'a [V] {
        self
    }
    #[inline]
    fn at(self, i: usize) -> Nimber {
        self[i].into()
    }
    #[inline]
    fn escaped_from(self, _: usize) -> usize {
        usize::MAX
    }
    #[inline]
    fn escaped_below(self, _: usize) -> Option<usize> {
        None
    }
    fn prefix(self, len: usize) -> Self {
        &self[..len]
    }
}

/// Values held a byte each, with the large ones apart.
#[derive(Clone, Copy, Debug)]
pub struct Bytes<'a> {
    bytes: &'a [u8],
    large: &'a Large,
}

impl<'a> Seq<'a> for Bytes<'a> {
    type Raw = u8;
    #[inline]
    fn raw(self) -> &'a [u8] {
        self.bytes
    }
    #[inline]
    fn at(self, i: usize) -> Nimber {
        match self.bytes[i] {
            ESCAPE => self.large.get(i),
            b => b.into(),
        }
    }
    #[inline]
    fn escaped_from(self, i: usize) -> usize {
        let k = self.large.below(i);
        self.large.heaps.get(k).copied().unwrap_or(usize::MAX)
    }
    #[inline]
    fn escaped_below(self, i: usize) -> Option<usize> {
        let k = self.large.below(i);
        k.checked_sub(1).map(|k| self.large.heaps[k])
    }
    fn prefix(self, len: usize) -> Self {
        Bytes {
            bytes: &self.bytes[..len],
            large: self.large,
        }
    }
}

/// The values at their width, for code generic over [`Seq`] (see
/// [`with_values!`](crate::with_values)).
#[derive(Clone, Copy, Debug)]
pub enum Slice<'a> {
    /// A byte a value, the large ones apart.
    U8(Bytes<'a>),
    /// Every value below 65536.
    U16(&'a [u16]),
    /// Any values.
    U32(&'a [u32]),
}

/// Runs `$body` with `$v` bound to the values of `$values` (a [`Values`]) as a [`Seq`] of
/// their width: one copy of the body per width, so its loops read the narrow values directly.
#[macro_export]
macro_rules! with_values {
    ($values:expr, $v:ident => $body:expr) => {
        match $values.slice() {
            $crate::game::heap::Slice::U8($v) => $body,
            $crate::game::heap::Slice::U16($v) => $body,
            $crate::game::heap::Slice::U32($v) => $body,
        }
    };
}

/// Bytes a value needs to hold `v`: 1, 2 or 4.
pub fn width_of(v: Nimber) -> u32 {
    match v {
        0..=0xFF => 1,
        0x100..=0xFFFF => 2,
        _ => 4,
    }
}

impl Values {
    /// No values yet.
    pub fn new() -> Values {
        Values::default()
    }

    /// No values yet, values from `from` on (below 255) kept apart and never widened: the
    /// side table's paths, reached by small values in tests.
    pub(crate) fn escaping_from(from: u8) -> Values {
        let large = Large::escaping_from(from.into());
        Values {
            store: Store::U8(Room::default(), large),
        }
    }

    /// No values yet, held in a new file of `dir` mapped into memory rather than in memory,
    /// a byte a value as in memory: memory then holds only the pages read lately, and the
    /// file goes when the values do (a crash included). Make room a round at a time with
    /// [`Values::try_reserve_exact`], which takes the disk's blocks, so that a full disk is
    /// an error there.
    pub fn on_disk(dir: &Path) -> std::io::Result<Values> {
        let room = Room::Disk(Mapped::new(dir.into())?);
        Ok(Values {
            store: Store::U8(room, Large::default()),
        })
    }

    /// The directory whose file holds the values, when they are on disk
    /// ([`Values::on_disk`]).
    pub fn disk(&self) -> Option<&Path> {
        match &self.store {
            Store::U8(v, _) => v.dir(),
            Store::U16(v) => v.dir(),
            Store::U32(v) => v.dir(),
        }
    }

    /// `values`, a byte each with the large ones apart while they are few, else at the
    /// narrowest width that holds them all; and at least `min_width` bytes (1, 2 or 4).
    pub fn from_slice_at_least(values: &[Nimber], min_width: u32) -> Values {
        let top = values.iter().copied().max().unwrap_or(0);
        let store = match width_of(top).max(min_width) {
            1 => Store::default(),
            2 => Store::U16(Room::default()),
            _ => Store::U32(Room::default()),
        };
        let mut out = Values { store };
        out.reserve_exact(values.len());
        out.extend(values.iter().copied());
        out
    }

    /// `values`, as [`Values::from_slice_at_least`] holds them at one byte.
    pub fn from_slice(values: &[Nimber]) -> Values {
        Values::from_slice_at_least(values, 1)
    }

    /// Appends every value of `values`, in order.
    pub fn extend(&mut self, values: impl IntoIterator<Item = Nimber>) {
        for v in values {
            self.push(v);
        }
    }

    /// [`Values::extend`] from a slice: a byte each at once when every value fits one.
    pub fn extend_from_slice(&mut self, values: &[Nimber]) {
        match &mut self.store {
            Store::U8(bytes, large) if values.iter().all(|&v| v < large.from) => {
                bytes.extend(values.iter().map(|&v| v as u8));
            }
            _ => self.extend(values.iter().copied()),
        }
    }

    /// The values, a [`Nimber`] each.
    pub fn to_vec(&self) -> Vec<Nimber> {
        self.range_to_vec(0..self.len())
    }

    /// Appends every value, a [`Nimber`] each, to `out`.
    pub fn append_to(&self, out: &mut Vec<Nimber>) {
        with_values!(self, v => out.extend((0..v.len()).map(|i| v.at(i))));
    }

    /// G(from), ..., G(to - 1), a [`Nimber`] each.
    pub fn range_to_vec(&self, range: std::ops::Range<usize>) -> Vec<Nimber> {
        with_values!(self, v => range.map(|i| v.at(i)).collect())
    }

    /// The values as a [`Seq`] at their width.
    pub fn slice(&self) -> Slice<'_> {
        match &self.store {
            Store::U8(bytes, large) => Slice::U8(Bytes {
                bytes: bytes.as_slice(),
                large,
            }),
            Store::U16(v) => Slice::U16(v.as_slice()),
            Store::U32(v) => Slice::U32(v.as_slice()),
        }
    }

    /// How many values are held.
    pub fn len(&self) -> usize {
        with_values!(self, v => v.len())
    }

    /// Whether no value is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes a value takes now: 1 (the large ones apart), 2 or 4.
    pub fn width(&self) -> u32 {
        match self.store {
            Store::U8(..) => 1,
            Store::U16(_) => 2,
            Store::U32(_) => 4,
        }
    }

    /// Values kept apart from the bytes (0 at other widths).
    pub fn escaped(&self) -> usize {
        match &self.store {
            Store::U8(_, large) => large.heaps.len(),
            _ => 0,
        }
    }

    /// Bytes the values take, side table included (not the room reserved).
    pub fn bytes(&self) -> u64 {
        let kept = self.escaped() * (std::mem::size_of::<usize>() + 4);
        (self.len() as u64) * u64::from(self.width()) + kept as u64
    }

    /// G(i).
    #[inline]
    pub fn get(&self, i: usize) -> Nimber {
        with_values!(self, v => v.at(i))
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = Nimber> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The largest value (0 when there is none).
    pub fn max(&self) -> Nimber {
        match &self.store {
            Store::U8(bytes, large) => match large.values.iter().max() {
                // Every value kept apart is above every byte held.
                Some(&top) if large.from == Nimber::from(ESCAPE) => top,
                top => {
                    let small = bytes.as_slice().iter().filter(|&&b| b != ESCAPE).max();
                    top.copied().max(small.map(|&b| b.into())).unwrap_or(0)
                }
            },
            Store::U16(v) => v.as_slice().iter().max().map_or(0, |&x| x.into()),
            Store::U32(v) => v.as_slice().iter().max().copied().unwrap_or(0),
        }
    }

    /// The largest value and the first heap with it (none when no value is held): what a
    /// long run reached.
    pub fn largest(&self) -> Option<(Nimber, usize)> {
        let top = self.max();
        let first = match &self.store {
            // Every value kept apart is above every byte held: the side table has it.
            Store::U8(_, large)
                if !large.heaps.is_empty() && large.from == Nimber::from(ESCAPE) =>
            {
                let k = large.values.iter().position(|&v| v == top);
                k.map(|k| large.heaps[k])
            }
            Store::U8(bytes, large) if large.heaps.is_empty() => bytes
                .as_slice()
                .iter()
                .position(|&b| Nimber::from(b) == top),
            _ => with_values!(self, v => (0..v.len()).find(|&i| v.at(i) == top)),
        };
        first.map(|heap| (top, heap))
    }

    /// Appends `value`: a byte, or the escape and the value apart; the values are widened
    /// first when it does not fit their width, or when values apart grow too many (the room
    /// reserved is kept, at the new width).
    pub fn push(&mut self, value: Nimber) {
        match &mut self.store {
            Store::U8(bytes, large) if value >= large.from => {
                if large.crowded(bytes.as_slice().len()) {
                    self.widen(width_of(value).max(2));
                    return self.push(value);
                }
                large.push(bytes.as_slice().len(), value);
                bytes.push(ESCAPE);
            }
            Store::U8(bytes, _) => bytes.push(value as u8),
            Store::U16(_) if width_of(value) > 2 => {
                self.widen(4);
                self.push(value);
            }
            Store::U16(v) => v.push(value as u16),
            Store::U32(v) => v.push(value),
        }
    }

    /// Holds the values at `width` bytes each (2 or 4; never narrower than now), in room of
    /// the same kind (memory, or a new file beside the old one).
    fn widen(&mut self, width: u32) {
        fn wider<'a, S: Seq<'a>, B: Value>(
            old: S,
            mut out: Room<B>,
            to: impl Fn(Nimber) -> B,
        ) -> Room<B> {
            for i in 0..old.len() {
                out.push(to(old.at(i)));
            }
            out
        }
        let store = match (&self.store, width) {
            (Store::U8(room, _), 2) => {
                let out = room.empty_like(room.capacity());
                Store::U16(with_values!(self, v => wider(v, out, |x| x as u16)))
            }
            (Store::U8(room, _), 4) => {
                let out = room.empty_like(room.capacity());
                Store::U32(with_values!(self, v => wider(v, out, |x| x)))
            }
            (Store::U16(room), 4) => {
                let out = room.empty_like(room.capacity());
                Store::U32(with_values!(self, v => wider(v, out, |x| x)))
            }
            _ => return,
        };
        // The old store goes before the caller pushes more.
        self.store = store;
    }

    /// Makes room for `more` values past those held, exactly (a long run must not ask for
    /// half as much again as it needs). An allocation that fails is an error (`OutOfMemory`),
    /// as is a disk without room for values on disk, whose blocks are taken now.
    pub fn try_reserve_exact(&mut self, more: usize) -> std::io::Result<()> {
        match &mut self.store {
            Store::U8(v, _) => v.try_reserve_exact(more),
            Store::U16(v) => v.try_reserve_exact(more),
            Store::U32(v) => v.try_reserve_exact(more),
        }
    }

    /// Makes room for `more` values past those held, exactly, as a vector does (values on
    /// disk: the file is made longer, its blocks taken only as values are written).
    pub fn reserve_exact(&mut self, more: usize) {
        match &mut self.store {
            Store::U8(v, _) => v.reserve_exact(more),
            Store::U16(v) => v.reserve_exact(more),
            Store::U32(v) => v.reserve_exact(more),
        }
    }

    /// Keeps the first `len` values.
    pub fn truncate(&mut self, len: usize) {
        match &mut self.store {
            Store::U8(v, large) => {
                v.truncate(len);
                large.truncate(len);
            }
            Store::U16(v) => v.truncate(len),
            Store::U32(v) => v.truncate(len),
        }
    }
}

impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Values {}

impl From<Vec<Nimber>> for Values {
    fn from(values: Vec<Nimber>) -> Values {
        Values::from_slice(&values)
    }
}

impl serde::Serialize for Values {
    /// As a list of numbers, as a `Vec<Nimber>` would be.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of 255 and more are kept apart, exactly, and a byte store reads them back
    /// through the escape: as G(i), through a prefix, and around them in the raw bytes.
    #[test]
    fn large_values_are_kept_apart() {
        let want: Vec<Nimber> = vec![0, 3, 254, 255, 256, 7, 65535, 65536, 1, 70000];
        let mut values = Values::new();
        values.reserve_exact(want.len());
        for (i, &v) in want.iter().enumerate() {
            values.push(v);
            assert_eq!(values.to_vec(), want[..=i], "after {v}");
        }
        assert_eq!((values.width(), values.escaped()), (1, 5));
        assert_eq!(values.max(), 70000);
        assert_eq!(values.largest(), Some((70000, 9)));
        assert_eq!(values.range_to_vec(2..5), [254, 255, 256]);
        assert_eq!(values, Values::from_slice(&want));
        let Slice::U8(v) = values.slice() else {
            panic!("a byte store")
        };
        assert_eq!(v.raw()[..5], [0, 3, 254, ESCAPE, ESCAPE]);
        assert_eq!(
            (v.escaped_from(0), v.escaped_from(5), v.escaped_from(10)),
            (3, 6, usize::MAX)
        );
        assert_eq!(
            (v.escaped_below(3), v.escaped_below(6), v.escaped_below(100)),
            (None, Some(4), Some(9))
        );
        assert_eq!(v.prefix(5).len(), 5);
        assert_eq!(Values::from_slice(&[1, 2]).width(), 1);
        assert_eq!(Values::from_slice_at_least(&[1, 2], 4).width(), 4);
        values.truncate(4);
        assert_eq!(
            (values.to_vec(), values.escaped()),
            (vec![0, 3, 254, 255], 1)
        );
        assert_eq!(values.max(), 255);
        assert_eq!(values.largest(), Some((255, 3)));
        assert_eq!(Values::from_slice(&[1, 4, 2, 4]).largest(), Some((4, 1)));
        assert_eq!(Values::new().largest(), None);
        let json = serde_json::to_string(&values).unwrap();
        assert_eq!(json, "[0,3,254,255]");
    }

    /// Once more than one heap in [`LARGE_SHARE`] has a value apart, the values widen to two
    /// bytes, and to four past 65535, every value kept; values on disk stay on disk.
    #[test]
    fn many_large_values_widen() {
        let want: Vec<Nimber> = (0..(LARGE_FREE * LARGE_SHARE) as Nimber)
            .map(|i| if i % 32 == 0 { 300 + i % 7 } else { i % 200 })
            .chain([70000, 5])
            .collect();
        let dir = tempfile::tempdir().unwrap();
        for mut values in [Values::new(), Values::on_disk(dir.path()).unwrap()] {
            let disk = values.disk().map(Path::to_path_buf);
            let mut widths = Vec::new();
            for &v in &want {
                values.push(v);
                if widths.last() != Some(&values.width()) {
                    widths.push(values.width());
                }
            }
            assert_eq!(widths, [1, 2, 4]);
            assert_eq!(values.to_vec(), want);
            assert_eq!(values.disk().map(Path::to_path_buf), disk);
        }
        // Kept apart from a small value on, in tests: never widened.
        let mut small = Values::escaping_from(4);
        small.extend(want.iter().copied());
        assert_eq!((small.width(), small.to_vec()), (1, want.clone()));
        assert_eq!(small.max(), 70000);
    }

    /// A slice appended at once holds what its values pushed one by one hold: bytes when all
    /// fit, escapes and wider stores when not, in memory, on disk and kept apart from 4.
    #[test]
    fn slices_append_as_values_pushed() {
        let dir = tempfile::tempdir().unwrap();
        let stores = || {
            [
                Values::new(),
                Values::on_disk(dir.path()).unwrap(),
                Values::escaping_from(4),
            ]
        };
        let pieces: [&[Nimber]; 5] = [
            &[0, 1, 2, 3],
            &[254, 5, 3],
            &[255, 1],
            &[7, 300],
            &[1, 70000, 2],
        ];
        for (mut at_once, mut one_by_one) in stores().into_iter().zip(stores()) {
            for piece in pieces {
                at_once.extend_from_slice(piece);
                piece.iter().for_each(|&v| one_by_one.push(v));
                assert_eq!(at_once, one_by_one);
                assert_eq!(
                    (at_once.width(), at_once.escaped()),
                    (one_by_one.width(), one_by_one.escaped())
                );
            }
            assert_eq!(at_once.to_vec(), pieces.concat());
        }
    }
}
