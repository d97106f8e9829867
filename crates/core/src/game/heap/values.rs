//! A nim sequence held in as few bytes a value as its largest value needs (1, 2 or 4),
//! widened on the fly: long runs of heap games keep every value, and most sequences stay
//! below 256 or 65536 for millions of heaps, so the width sets how far a run fits in memory.

use crate::game::Nimber;

/// A stored value: a byte, a 16-bit or a 32-bit word, read as a [`Nimber`].
pub trait Value: Copy + Into<Nimber> + PartialEq + Send + Sync + 'static {}

impl Value for u8 {}
impl Value for u16 {}
impl Value for u32 {}

/// G(0), G(1), ... of a heap game, each in the width of the largest so far.
#[derive(Clone, Debug, Default)]
pub struct Values {
    store: Store,
}

/// The values at one width.
#[derive(Clone, Debug)]
enum Store {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

impl Default for Store {
    fn default() -> Self {
        Store::U8(Vec::new())
    }
}

/// The values as a slice at their width, for code generic over [`Value`] (see
/// [`with_values!`](crate::with_values)).
#[derive(Clone, Copy, Debug)]
pub enum Slice<'a> {
    /// Every value below 256.
    U8(&'a [u8]),
    /// Every value below 65536.
    U16(&'a [u16]),
    /// Any values.
    U32(&'a [u32]),
}

/// Runs `$body` with `$v` bound to the values of `$values` (a [`Values`]) as a slice of their
/// width: one copy of the body per width, so its loops read the narrow values directly.
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

/// A stored value as a [`Nimber`] (generic, so one body serves every width).
fn wide<V: Value>(v: V) -> Nimber {
    v.into()
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

    /// `values`, at the narrowest width that holds them all (and at least `min_width` bytes:
    /// 1, 2 or 4).
    pub fn from_slice_at_least(values: &[Nimber], min_width: u32) -> Values {
        let top = values.iter().copied().max().unwrap_or(0);
        let store = match width_of(top).max(min_width) {
            1 => Store::U8(values.iter().map(|&v| v as u8).collect()),
            2 => Store::U16(values.iter().map(|&v| v as u16).collect()),
            _ => Store::U32(values.to_vec()),
        };
        Values { store }
    }

    /// `values`, at the narrowest width that holds them all.
    pub fn from_slice(values: &[Nimber]) -> Values {
        Values::from_slice_at_least(values, 1)
    }

    /// The values, a [`Nimber`] each.
    pub fn to_vec(&self) -> Vec<Nimber> {
        self.iter().collect()
    }

    /// G(from), ..., G(to - 1), a [`Nimber`] each.
    pub fn range_to_vec(&self, range: std::ops::Range<usize>) -> Vec<Nimber> {
        with_values!(self, v => v[range].iter().map(|&x| wide(x)).collect())
    }

    /// The values as a slice at their width.
    pub fn slice(&self) -> Slice<'_> {
        match &self.store {
            Store::U8(v) => Slice::U8(v),
            Store::U16(v) => Slice::U16(v),
            Store::U32(v) => Slice::U32(v),
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

    /// Bytes a value takes now: 1, 2 or 4.
    pub fn width(&self) -> u32 {
        match self.store {
            Store::U8(_) => 1,
            Store::U16(_) => 2,
            Store::U32(_) => 4,
        }
    }

    /// G(i).
    #[inline]
    pub fn get(&self, i: usize) -> Nimber {
        match &self.store {
            Store::U8(v) => v[i].into(),
            Store::U16(v) => v[i].into(),
            Store::U32(v) => v[i],
        }
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = Nimber> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The largest value (0 when there is none).
    pub fn max(&self) -> Nimber {
        with_values!(self, v => v.iter().map(|&x| wide(x)).max().unwrap_or(0))
    }

    /// Appends `value`, widening every value first when it does not fit the width (the
    /// room reserved is kept, at the new width).
    pub fn push(&mut self, value: Nimber) {
        if width_of(value) > self.width() {
            self.widen(width_of(value));
        }
        match &mut self.store {
            Store::U8(v) => v.push(value as u8),
            Store::U16(v) => v.push(value as u16),
            Store::U32(v) => v.push(value),
        }
    }

    /// Holds the values at `width` bytes each (1, 2 or 4; never narrower than now).
    fn widen(&mut self, width: u32) {
        fn wider<A: Value, B: Copy>(old: &[A], room: usize, to: impl Fn(Nimber) -> B) -> Vec<B> {
            let mut out = Vec::with_capacity(room);
            out.extend(old.iter().map(|&x| to(x.into())));
            out
        }
        let capacity = match &self.store {
            Store::U8(v) => v.capacity(),
            Store::U16(v) => v.capacity(),
            Store::U32(v) => v.capacity(),
        };
        let store = std::mem::take(&mut self.store);
        self.store = match (store, width) {
            (Store::U8(v), 2) => Store::U16(wider(&v, capacity, |x| x as u16)),
            (Store::U8(v), 4) => Store::U32(wider(&v, capacity, |x| x)),
            (Store::U16(v), 4) => Store::U32(wider(&v, capacity, |x| x)),
            (same, _) => same,
        };
    }

    /// Makes room for `more` values past those held, exactly (a long run must not ask for
    /// half as much again as it needs).
    pub fn reserve_exact(&mut self, more: usize) {
        match &mut self.store {
            Store::U8(v) => v.reserve_exact(more),
            Store::U16(v) => v.reserve_exact(more),
            Store::U32(v) => v.reserve_exact(more),
        }
    }

    /// Keeps the first `len` values.
    pub fn truncate(&mut self, len: usize) {
        match &mut self.store {
            Store::U8(v) => v.truncate(len),
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

    /// Pushing values past 255 and 65535 widens without changing any value, and keeps the
    /// room reserved.
    #[test]
    fn widening_keeps_every_value() {
        let want: Vec<Nimber> = vec![0, 3, 255, 256, 7, 65535, 65536, 1, 70000];
        let mut values = Values::new();
        values.reserve_exact(want.len());
        let mut widths = Vec::new();
        for (i, &v) in want.iter().enumerate() {
            values.push(v);
            widths.push(values.width());
            assert_eq!(values.to_vec(), want[..=i], "after {v}");
        }
        assert_eq!(widths, [1, 1, 1, 2, 2, 2, 4, 4, 4]);
        assert_eq!(values.max(), 70000);
        assert_eq!(values.range_to_vec(2..4), [255, 256]);
        assert_eq!(values, Values::from_slice(&want));
        assert_eq!(Values::from_slice(&[1, 2]).width(), 1);
        assert_eq!(Values::from_slice_at_least(&[1, 2], 4).width(), 4);
        values.truncate(3);
        assert_eq!(values.to_vec(), [0, 3, 255]);
        let json = serde_json::to_string(&values).unwrap();
        assert_eq!(json, "[0,3,255]");
    }
}
