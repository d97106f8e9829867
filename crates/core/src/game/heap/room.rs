//! Room for a nim sequence's values: a vector in memory, or a file mapped into memory. A run
//! valued far past the memory it may use holds its values in the file: the pages its scans
//! read stay in memory while they are read, and the kernel writes the others back to the file
//! and drops them, so memory holds what the run reads rather than every value.

use std::fs::File;
use std::io;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

use bytemuck::Pod;
use fs4::fs_std::FileExt;
use memmap2::MmapMut;

/// Where values are held, read and written as a slice either way.
pub(super) enum Room<T> {
    /// In memory.
    Memory(Vec<T>),
    /// In a file mapped into memory.
    Disk(Mapped<T>),
}

impl<T> Default for Room<T> {
    fn default() -> Self {
        Room::Memory(Vec::new())
    }
}

/// Values in a file of `dir` that has no name, mapped into memory: the file goes when it is
/// closed, a crash included, so nothing is left behind.
pub(super) struct Mapped<T> {
    dir: Arc<Path>,
    file: File,
    /// The file's bytes (none while it is empty, which cannot be mapped).
    map: Option<MmapMut>,
    len: usize,
    _values: PhantomData<T>,
}

/// Values a file grows by at least when a push finds it full (room is normally made a round
/// at a time, ahead, by [`Room::try_reserve_exact`]).
const GROWTH: usize = 1 << 20;

impl<T: Pod> Mapped<T> {
    /// An empty room in a new file of `dir`.
    pub(super) fn new(dir: Arc<Path>) -> io::Result<Self> {
        let file = tempfile::tempfile_in(&dir)?;
        Ok(Mapped {
            dir,
            file,
            map: None,
            len: 0,
            _values: PhantomData,
        })
    }

    fn capacity(&self) -> usize {
        self.map.as_ref().map_or(0, |m| m.len() / size_of::<T>())
    }

    fn as_slice(&self) -> &[T] {
        match &self.map {
            Some(m) => &bytemuck::cast_slice(&m[..])[..self.len],
            None => &[],
        }
    }

    /// Makes the file hold `capacity` values (never fewer than now) and maps it again. With
    /// `allocate` the disk's blocks are taken now, so that a full disk is an error here
    /// rather than a fault when a value is written; without, the file is only made longer.
    fn grow_to(&mut self, capacity: usize, allocate: bool) -> io::Result<()> {
        if capacity <= self.capacity() {
            return Ok(());
        }
        let bytes = capacity
            .checked_mul(size_of::<T>())
            .ok_or_else(|| io::Error::new(io::ErrorKind::OutOfMemory, "too many values"))?
            as u64;
        match allocate {
            true => FileExt::allocate(&self.file, bytes)?,
            false => self.file.set_len(bytes)?,
        }
        // SAFETY: the file has no name and is held only here, so nothing else changes it
        // (or its length) while it is mapped; every read goes through this map.
        self.map = Some(unsafe { MmapMut::map_mut(&self.file)? });
        Ok(())
    }
}

impl<T: Pod> Mapped<T> {
    /// Makes the file hold `capacity` values without taking its blocks, as a vector grows:
    /// failing to is as failing to allocate (the file system refuses a file that long, or
    /// the address space has no room for its map).
    fn lengthen(&mut self, capacity: usize) {
        if let Err(e) = self.grow_to(capacity, false) {
            panic!("cannot lengthen the values' file to {capacity} values: {e}");
        }
    }
}

impl<T: Pod> Room<T> {
    /// The values held.
    #[inline]
    pub(super) fn as_slice(&self) -> &[T] {
        match self {
            Room::Memory(v) => v,
            Room::Disk(m) => m.as_slice(),
        }
    }

    /// Values that fit without growing.
    pub(super) fn capacity(&self) -> usize {
        match self {
            Room::Memory(v) => v.capacity(),
            Room::Disk(m) => m.capacity(),
        }
    }

    /// An empty room of the same kind (a new file in the same directory) for `capacity`
    /// values. Should the disk refuse the file, the room is made in memory.
    pub(super) fn empty_like<U: Pod>(&self, capacity: usize) -> Room<U> {
        if let Room::Disk(m) = self {
            let made = Mapped::new(m.dir.clone()).and_then(|mut new| {
                new.grow_to(capacity, true)?;
                Ok(new)
            });
            if let Ok(new) = made {
                return Room::Disk(new);
            }
        }
        Room::Memory(Vec::with_capacity(capacity))
    }

    /// Makes room for `more` values past those held, exactly, as a vector does: a file is
    /// only made longer, its blocks taken as values are written ([`Room::try_reserve_exact`]
    /// takes them now).
    pub(super) fn reserve_exact(&mut self, more: usize) {
        match self {
            Room::Memory(v) => v.reserve_exact(more),
            Room::Disk(m) => m.lengthen(m.len.saturating_add(more)),
        }
    }

    /// Appends `value`, growing the room when it is full (a file only grows longer here:
    /// its blocks are taken by [`Room::try_reserve_exact`]).
    #[inline]
    pub(super) fn push(&mut self, value: T) {
        match self {
            Room::Memory(v) => v.push(value),
            Room::Disk(m) => {
                if m.len == m.capacity() {
                    m.lengthen(m.len + m.len.max(GROWTH));
                }
                let len = m.len;
                let map = m.map.as_mut().expect("grown above");
                bytemuck::cast_slice_mut::<u8, T>(&mut map[..])[len] = value;
                m.len += 1;
            }
        }
    }

    /// Appends `values` in order ([`Room::push`] each; in memory, at once).
    pub(super) fn extend(&mut self, values: impl IntoIterator<Item = T>) {
        match self {
            Room::Memory(v) => v.extend(values),
            Room::Disk(_) => values.into_iter().for_each(|x| self.push(x)),
        }
    }

    /// Keeps the first `len` values.
    pub(super) fn truncate(&mut self, len: usize) {
        match self {
            Room::Memory(v) => v.truncate(len),
            Room::Disk(m) => m.len = m.len.min(len),
        }
    }

    /// Makes room for `more` values past those held, exactly; in a file, its blocks are
    /// taken now, so that a disk without room is this error rather than a fault later.
    pub(super) fn try_reserve_exact(&mut self, more: usize) -> io::Result<()> {
        match self {
            Room::Memory(v) => v
                .try_reserve_exact(more)
                .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e)),
            Room::Disk(m) => {
                let want = m.len.checked_add(more);
                let want = want.ok_or_else(|| io::Error::from(io::ErrorKind::OutOfMemory))?;
                m.grow_to(want, true)
            }
        }
    }

    /// The directory of the file holding the values, when they are on disk.
    pub(super) fn dir(&self) -> Option<&Path> {
        match self {
            Room::Memory(_) => None,
            Room::Disk(m) => Some(&m.dir),
        }
    }
}

/// A copy holds its values in memory: the file is this room's alone.
impl<T: Pod> Clone for Room<T> {
    fn clone(&self) -> Self {
        Room::Memory(self.as_slice().to_vec())
    }
}

impl<T: Pod + std::fmt::Debug> std::fmt::Debug for Room<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (kind, values) = match self {
            Room::Memory(v) => ("Memory", &v[..]),
            Room::Disk(m) => ("Disk", m.as_slice()),
        };
        f.debug_tuple(kind).field(&values).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file's room reads back what was pushed across growths, remaps and truncation, and
    /// a wider room made like it is a file too.
    #[test]
    fn a_file_holds_what_memory_would() {
        let dir = tempfile::tempdir().unwrap();
        let mut disk: Room<u16> = Room::Disk(Mapped::new(dir.path().into()).unwrap());
        let mut memory: Room<u16> = Room::default();
        assert_eq!(disk.as_slice(), &[] as &[u16]);
        disk.try_reserve_exact(10).unwrap();
        assert_eq!(disk.capacity(), 10);
        // Past the room reserved: the file grows by itself.
        for i in 0..(GROWTH + 77) as u32 {
            let v = (i.wrapping_mul(2_654_435_761) >> 16) as u16;
            disk.push(v);
            memory.push(v);
        }
        assert_eq!(disk.as_slice(), memory.as_slice());
        assert!(disk.capacity() >= GROWTH + 77);
        disk.truncate(5);
        memory.truncate(5);
        assert_eq!(disk.as_slice(), memory.as_slice());
        disk.push(9);
        assert_eq!(disk.as_slice()[5], 9);
        assert_eq!(disk.clone().as_slice(), disk.as_slice());
        assert!(matches!(disk.clone(), Room::Memory(_)));
        let wider: Room<u32> = disk.empty_like(100);
        assert_eq!((wider.dir(), wider.capacity()), (Some(dir.path()), 100));
        assert_eq!(memory.empty_like::<u32>(3).dir(), None);
    }

    /// A directory that cannot hold the file is an error when the room is made, not later.
    #[test]
    fn a_missing_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let gone: Arc<Path> = dir.path().join("gone").into();
        assert!(Mapped::<u8>::new(gone).is_err());
    }
}
