//! The word a Cram board's cells are a bit set in: `u64` up to 64 cells, `u128` up to 128.
//!
//! The engines are generic over the position, so each width is its own monomorphic game: a
//! board of at most 64 cells pays nothing for the wider word.

use std::fmt::{Debug, LowerHex};
use std::hash::Hash;
use std::ops::{BitAndAssign, BitOrAssign, ShrAssign};

use num_traits::{PrimInt, WrappingAdd, WrappingNeg};

use crate::game::Record;

/// A bit set of cells, one bit a cell: the integer operations (`num_traits::PrimInt`) and the
/// few conversions a board needs beyond them.
pub trait Cells:
    PrimInt
    + WrappingAdd
    + WrappingNeg
    + BitAndAssign
    + BitOrAssign
    + ShrAssign<usize>
    + Hash
    + Debug
    + LowerHex
    + Send
    + Sync
    + Record // how a saved table writes it
    + 'static
{
    /// Cells the word holds.
    const BITS: usize;

    /// A row mask as the cells of row 0.
    fn from_row(mask: u32) -> Self;

    /// The low 32 cells: row 0's mask, once the row is shifted down and masked.
    fn low_row(self) -> u32;

    /// The low eight cells, as an index.
    fn low_byte(self) -> usize;
}

macro_rules! cells {
    ($t:ty) => {
        impl Cells for $t {
            const BITS: usize = <$t>::BITS as usize;

            #[inline]
            fn from_row(mask: u32) -> Self {
                Self::from(mask)
            }

            #[inline]
            fn low_row(self) -> u32 {
                self as u32
            }

            #[inline]
            fn low_byte(self) -> usize {
                (self & 0xff) as usize
            }
        }
    };
}

cells!(u64);
cells!(u128);
