//! How a position is written to a saved search table (`sg --checkpoint`): bytes a table file
//! stores and reads back, and the kind of position its `key` line names.

use std::io::Read;

use super::Stones;

/// A position as a saved table writes it.
pub trait Record: Sized + 'static {
    /// What the file's `key` line says, so that a table of other positions is refused.
    const KIND: &'static str;
    /// Appends the position's bytes.
    fn write(&self, out: &mut Vec<u8>);
    /// Reads one position, as [`Record::write`] wrote it.
    fn read(input: &mut impl Read) -> std::io::Result<Self>;
}

macro_rules! word_record {
    ($t:ty) => {
        impl Record for $t {
            const KIND: &'static str = stringify!($t);
            fn write(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn read(input: &mut impl Read) -> std::io::Result<Self> {
                let mut bytes = [0; std::mem::size_of::<$t>()];
                input.read_exact(&mut bytes)?;
                Ok(<$t>::from_le_bytes(bytes))
            }
        }
    };
}

word_record!(u64);
word_record!(u128);

/// Counts: their number, then each, as u32.
impl Record for Stones {
    const KIND: &'static str = "counts";
    fn write(&self, out: &mut Vec<u8>) {
        push_u32(out, self.len() as u32);
        for &x in self {
            push_u32(out, x);
        }
    }
    fn read(input: &mut impl Read) -> std::io::Result<Self> {
        let n = read_u32(input)?;
        (0..n).map(|_| read_u32(input)).collect()
    }
}

/// A little-endian u32 appended.
pub(crate) fn push_u32(out: &mut Vec<u8>, x: u32) {
    out.extend_from_slice(&x.to_le_bytes());
}

/// A little-endian u32 read.
pub(crate) fn read_u32(input: &mut impl Read) -> std::io::Result<u32> {
    let mut bytes = [0; 4];
    input.read_exact(&mut bytes)?;
    Ok(u32::from_le_bytes(bytes))
}
