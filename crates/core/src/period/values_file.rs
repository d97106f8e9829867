//! A nim sequence in a file: G(0), G(1), ... of one heap game, in as few bytes a value as
//! the largest needs, so that a long run's values can be kept, read back and resumed from.
//!
//! The format (version 1), every number little-endian:
//!
//! | offset | bytes | what |
//! |---|---|---|
//! | 0 | 8 | the magic `GRUNDYNS` |
//! | 8 | 4 | the version, 1 |
//! | 12 | 4 | the width w: bytes a value, 1, 2 or 4 |
//! | 16 | 8 | the count c: values stored, G(0) to G(c - 1) |
//! | 24 | 4 | the length L of the game's spec |
//! | 28 | L | the game's spec, UTF-8 (e.g. `grundy-game`, `octal:0.16`) |
//! | 28 + L | c w | G(0), ..., G(c - 1), w bytes each |
//!
//! Bytes past the last value are ignored: a file is extended by writing the new values first
//! and the count after, so a run stopped between the two leaves a file that reads as before.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

use crate::error::Error;
use crate::files::OutputFile;
use crate::game::heap::{width_of, Seq, Values};
use crate::game::Nimber;
use crate::with_values;

/// The first bytes of a values file.
pub const MAGIC: &[u8; 8] = b"GRUNDYNS";

/// The format's version.
pub const VERSION: u32 = 1;

/// Where the count is, to be rewritten when values are added.
const COUNT_AT: u64 = 16;

/// Bytes before the game's spec.
const FIXED: usize = 28;

/// A nim sequence read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    /// The game's spec.
    pub game: String,
    /// G(0), G(1), ..., held at the file's width.
    pub values: Values,
}

/// Bytes a value needs for every one of `values`: 1, 2 or 4.
pub fn width(values: &Values) -> u32 {
    width_of(values.max())
}

/// Bytes the file of `count` values of width `width` takes for `game`.
pub fn file_bytes(game: &str, count: u64, width: u32) -> u64 {
    (FIXED + game.len()) as u64 + count * u64::from(width)
}

/// Writes `values` of `game` to `path` whole (never leaving it half-written).
pub fn write(path: &Path, game: &str, values: &Values) -> Result<(), Error> {
    let mut out = OutputFile::create(path)?;
    let w = width(values);
    let err = |e: io::Error| Error::io(path, e);
    let writer = out.writer();
    writer
        .write_all(&header(game, w, values.len() as u64))
        .map_err(err)?;
    with_values!(values, v => write_values(writer, v, 0, w)).map_err(err)?;
    out.commit()
}

/// Brings the file at `path` up to `values` of `game`: the values past those it holds are
/// appended, and then its count, when it is a values file of `game` (whose values are then a
/// prefix of the same game's `values`) holding no more of them, at a width that holds them
/// all; otherwise the file is written whole.
pub fn save(path: &Path, game: &str, values: &Values) -> Result<(), Error> {
    match appendable(path, game, values) {
        Ok(Some((count, w, start))) => {
            append(path, values, count, w, start).map_err(|e| Error::io(path, e))
        }
        _ => write(path, game, values),
    }
}

/// The count, width and where the values start, of a file at `path` that [`save`] may extend
/// to `values`.
fn appendable(path: &Path, game: &str, values: &Values) -> Result<Option<(u64, u32, u64)>, Error> {
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let (name, w, count) = read_header(path, &mut file)?;
    let start = (FIXED + name.len()) as u64;
    let holds = width(values) <= w && count <= values.len() as u64;
    Ok((name == game && holds).then_some((count, w, start)))
}

/// Appends `values[count..]` and then writes the new count, each made durable.
fn append(path: &Path, values: &Values, count: u64, w: u32, start: u64) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    file.seek(SeekFrom::Start(start + count * u64::from(w)))?;
    let mut out = BufWriter::with_capacity(1 << 20, &mut file);
    with_values!(values, v => write_values(&mut out, v, count as usize, w))?;
    out.flush()?;
    drop(out);
    file.sync_data()?;
    file.seek(SeekFrom::Start(COUNT_AT))?;
    file.write_all(&(values.len() as u64).to_le_bytes())?;
    file.sync_data()
}

/// Reads the values file at `path`.
pub fn read(path: &Path) -> Result<Sequence, Error> {
    read_into(path, Values::new())
}

/// Reads the values file at `path` into `values`, empty and held where the caller wants them
/// (in memory, or on disk: [`Values::on_disk`]).
pub fn read_into(path: &Path, mut values: Values) -> Result<Sequence, Error> {
    debug_assert!(values.is_empty(), "values are read into empty room");
    let mut file = File::open(path).map_err(|e| Error::io(path, e))?;
    let (game, w, count) = read_header(path, &mut file)?;
    let start = (FIXED + game.len()) as u64;
    let held = file.metadata().map_err(|e| Error::io(path, e))?.len();
    let bytes = value_bytes(count, w, held.saturating_sub(start)).map_err(|m| bad(path, &m))?;
    // Read a chunk at a time into values held as a run holds them (a byte each, the large
    // ones apart): a long run's file is read back in the memory its values take.
    values
        .try_reserve_exact(bytes / w as usize)
        .map_err(|e| room_error(&values, bytes / w as usize, e))?;
    let mut reader = io::BufReader::with_capacity(1 << 20, file.take(bytes as u64));
    let mut chunk = vec![0u8; (1 << 16) * w as usize];
    let mut left = bytes;
    while left > 0 {
        let take = left.min(chunk.len());
        let part = &mut chunk[..take];
        reader.read_exact(part).map_err(|_| {
            bad(
                path,
                &format!("the header counts {count} values, the file holds fewer"),
            )
        })?;
        for b in part.chunks_exact(w as usize) {
            let mut le = [0u8; 4];
            le[..b.len()].copy_from_slice(b);
            values.push(Nimber::from_le_bytes(le));
        }
        left -= part.len();
    }
    Ok(Sequence { game, values })
}

/// Bytes the `count` values of width `w` that a header announces take, when the `held` bytes
/// after the header hold them all; checked before any room is made for them, so a header
/// that counts more than the file holds (or than memory can address) is refused, never
/// wrapped or reserved for.
fn value_bytes(count: u64, w: u32, held: u64) -> Result<usize, String> {
    let bytes = count
        .checked_mul(u64::from(w))
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| format!("the header counts {count} values, too many to hold"))?;
    if bytes as u64 > held {
        return Err(format!(
            "the header counts {count} values, the file holds fewer"
        ));
    }
    Ok(bytes)
}

/// The header of a file of `count` values of width `w`.
fn header(game: &str, w: u32, count: u64) -> Vec<u8> {
    let mut head = Vec::with_capacity(FIXED + game.len());
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&w.to_le_bytes());
    head.extend_from_slice(&count.to_le_bytes());
    head.extend_from_slice(&(game.len() as u32).to_le_bytes());
    head.extend_from_slice(game.as_bytes());
    head
}

/// Reads and checks a header: the game, the width and the count.
fn read_header(path: &Path, file: &mut File) -> Result<(String, u32, u64), Error> {
    let mut fixed = [0u8; FIXED];
    file.read_exact(&mut fixed)
        .map_err(|_| bad(path, "too short for a values file"))?;
    if &fixed[..8] != MAGIC {
        return Err(bad(path, "not a values file (no GRUNDYNS at its start)"));
    }
    let word = |at: usize| u32::from_le_bytes(fixed[at..at + 4].try_into().expect("4 bytes"));
    let version = word(8);
    if version != VERSION {
        return Err(bad(
            path,
            &format!("a values file of version {version}; this grundy reads version {VERSION}"),
        ));
    }
    let w = word(12);
    if ![1, 2, 4].contains(&w) {
        return Err(bad(
            path,
            &format!("a width of {w} bytes (1, 2 or 4 expected)"),
        ));
    }
    let count = u64::from_le_bytes(fixed[16..24].try_into().expect("8 bytes"));
    let len = word(24) as usize;
    if len > 4096 {
        return Err(bad(path, &format!("a game spec of {len} bytes")));
    }
    let mut name = vec![0u8; len];
    file.read_exact(&mut name)
        .map_err(|_| bad(path, "shorter than its header says"))?;
    let game = String::from_utf8(name).map_err(|_| bad(path, "a game spec that is not UTF-8"))?;
    Ok((game, w, count))
}

/// Writes G(from), G(from + 1), ..., `w` bytes each.
fn write_values<'a, S: Seq<'a>>(
    out: &mut dyn Write,
    values: S,
    from: usize,
    w: u32,
) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    let mut at = from;
    while at < values.len() {
        let end = (at + (1 << 14)).min(values.len());
        buf.clear();
        for i in at..end {
            buf.extend_from_slice(&values.at(i).to_le_bytes()[..w as usize]);
        }
        out.write_all(&buf)?;
        at = end;
    }
    Ok(())
}

fn bad(path: &Path, msg: &str) -> Error {
    Error::Data {
        path: path.to_path_buf(),
        msg: msg.to_string(),
    }
}

/// Room for `more` values refused: the disk's, when `values` are held on disk, else memory's.
pub(crate) fn room_error(values: &Values, more: usize, e: io::Error) -> Error {
    match values.disk() {
        Some(dir) => Error::io(dir, e),
        None => Error::Resource(format!("cannot hold {more} more values in memory: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is written reads back, at each width, and the header says the width and count.
    #[test]
    fn values_read_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        for top in [7, 300, 70_000] {
            let values: Vec<Nimber> = (0..1000).map(|i| (i * 37) % (top + 1)).collect();
            let path = dir.path().join(format!("v{top}"));
            write(&path, "octal:0.16", &values.clone().into()).unwrap();
            let back = read(&path).unwrap();
            assert_eq!(back.game, "octal:0.16");
            assert_eq!(back.values.to_vec(), values);
            let raw = std::fs::read(&path).unwrap();
            let w = width(&values.clone().into());
            assert_eq!(u32::from_le_bytes(raw[12..16].try_into().unwrap()), w);
            assert_eq!(raw.len() as u64, file_bytes("octal:0.16", 1000, w));
        }
    }

    /// Saving more values appends them; a value too wide for the file, or another game,
    /// rewrites it; every state reads back as the values saved.
    #[test]
    fn saves_extend_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v");
        let mut values: Vec<Nimber> = (0..500).map(|i| i % 200).collect();
        save(&path, "g", &Values::from_slice(&values[..100])).unwrap();
        save(&path, "g", &values.clone().into()).unwrap();
        assert_eq!(read(&path).unwrap().values.to_vec(), values);
        assert_eq!(
            std::fs::metadata(&path).unwrap().len(),
            file_bytes("g", 500, 1)
        );
        values.push(1000);
        save(&path, "g", &values.clone().into()).unwrap();
        assert_eq!(read(&path).unwrap().values.to_vec(), values);
        save(&path, "h", &Values::from_slice(&values[..10])).unwrap();
        let back = read(&path).unwrap();
        assert_eq!(
            (back.game.as_str(), &back.values.to_vec()[..]),
            ("h", &values[..10])
        );
    }

    /// Counts past 32 bits are read whole (2^32 + 1 values: heaps 0 to 2^32), never cut to
    /// 32 bits; a count whose bytes overflow, or that the file does not hold, is refused.
    #[test]
    fn counts_past_32_bits_are_exact() {
        let count = (1u64 << 32) + 1;
        assert_eq!(value_bytes(count, 1, count), Ok(count as usize));
        assert_eq!(value_bytes(count, 4, 4 * count), Ok(4 * count as usize));
        assert!(value_bytes(count, 2, 2 * count - 1).is_err());
        assert!(value_bytes(u64::MAX / 2, 4, u64::MAX).is_err());
        assert_eq!(file_bytes("grundy-game", count, 1), 28 + 11 + (1 << 32) + 1);
        // A header counting far more than its file holds is refused before room is made.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v");
        write(&path, "g", &Values::from_slice(&[0, 1, 2])).unwrap();
        let mut raw = std::fs::read(&path).unwrap();
        raw[16..24].copy_from_slice(&(1u64 << 40).to_le_bytes());
        std::fs::write(&path, &raw).unwrap();
        assert!(matches!(read(&path), Err(Error::Data { .. })));
    }

    /// Bytes past the count (a save stopped before its count was written) are ignored; a file
    /// that is not a values file is refused as bad data.
    #[test]
    fn trailing_bytes_are_ignored_and_other_files_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v");
        write(&path, "g", &Values::from_slice(&[0, 1, 2])).unwrap();
        let mut raw = std::fs::read(&path).unwrap();
        raw.extend_from_slice(&[9, 9]);
        std::fs::write(&path, &raw).unwrap();
        assert_eq!(read(&path).unwrap().values.to_vec(), vec![0, 1, 2]);
        std::fs::write(&path, b"hello, this is not a values file").unwrap();
        assert!(matches!(read(&path), Err(Error::Data { .. })));
        raw.truncate(30);
        std::fs::write(&path, &raw).unwrap();
        assert!(matches!(read(&path), Err(Error::Data { .. })));
    }
}
