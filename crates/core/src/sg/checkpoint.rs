//! A search's table kept in a file, so that a search of hours can stop and go on later.
//!
//! What a table holds exactly is a fact of the game, whoever found it: the nimber of a
//! position. A file keeps only those (an engine's partial knowledge stays behind), keyed as the
//! table keyed them, so a later search of the same game learns them all and finds each subtree
//! it had finished answered at its root. Any engine, and any of the search's switches, may read
//! a file another wrote: each key is still a position of the game, each value still its nimber.
//!
//! The file is written beside its final name and renamed over it once complete
//! ([`OutputFile`]), so a save cut short leaves the previous one whole. It names the game and
//! how positions are written, and a CRC-32 of the header and the entries ends it: a file of
//! another game, cut short or damaged (its game line edited included) is refused before a
//! single entry is learned. Each entry keeps what it cost to find ([`Weight`]), so that a table
//! at its memory limit goes on giving up the cheapest entries after a resume. Files of the
//! earlier versions are still read: the second's CRC covers its entries only, the first's
//! entries have no weights (they weigh [`UNKNOWN`]).
//!
//! ```text
//! grundy table 3
//! game cram:7x8
//! key u64
//! entries 00000000000123456789
//!
//! (key, nimber as u32, weight as u8) little-endian, once per entry; then the CRC-32 of every
//! byte before it, header included
//! ```

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::tt::{Weight, UNKNOWN};
use super::{Hook, Known, Searcher};
use crate::error::Error;
use crate::files::OutputFile;
pub use crate::game::record::Record;
use crate::game::record::{push_u32, read_u32};
use crate::game::{Game, Nimber};

/// The format's first line; a change in how entries are written gets a new number.
const MAGIC: &str = "grundy table 3";

/// The second version's first line: a checksum of the entries alone, the header outside it.
const MAGIC_2: &str = "grundy table 2";

/// The first version's first line: entries without a weight.
const MAGIC_1: &str = "grundy table 1";

/// The largest nimber a file may hold: what every engine's table can store.
const MAX_VALUE: Nimber = (1 << 31) - 1;

/// One save: how many entries, and how long it took.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Saved {
    /// Entries written.
    pub entries: u64,
    /// Wall-clock seconds the save took.
    pub seconds: f64,
}

/// What a caller hears of the saves made while a search runs: each one, or why it failed, and
/// whether it is the last, made once the search has its answer (whose caller reports a failure
/// with the answer: the others happen while it runs).
pub type OnSave = Arc<dyn Fn(&Result<Saved, Error>, bool) + Send + Sync>;

/// Where and how often a search saves its table.
#[derive(Clone)]
pub struct Plan {
    pub(crate) path: PathBuf,
    /// Time between two saves while the search runs.
    pub every: Duration,
    /// Set to ask for a save at the search's next pause, which clears it: how a caller that
    /// gives up on a search (a time limit) keeps what it learned.
    pub now: Arc<AtomicBool>,
    /// Told of every save, for the caller's progress and report.
    pub on_save: OnSave,
}

impl Plan {
    /// Saves to `path` every `every`, telling no one.
    pub fn new(path: impl Into<PathBuf>, every: Duration) -> Self {
        Plan {
            path: path.into(),
            every,
            now: Arc::new(AtomicBool::new(false)),
            on_save: Arc::new(|_, _| {}),
        }
    }
}

/// Writes the exact values `known` holds to `path` as a table of `game`, whole or not at all
/// ([`OutputFile`]: beside it first, renamed over it once complete). A table of `game` with
/// more entries than `known` holds is never replaced: that save is refused, and the file kept.
pub fn save<P: Record>(path: &Path, game: &str, known: &dyn Known<P>) -> Result<Saved, Error> {
    let mut saved = None;
    known.held_still(&mut |still| saved = Some(save_still(path, game, still)));
    saved.expect("a table held still calls back once")
}

/// [`save`], of a table that does not change meanwhile.
fn save_still<P: Record>(path: &Path, game: &str, known: &dyn Known<P>) -> Result<Saved, Error> {
    let start = Instant::now();
    // Counted first, so that the header can say it.
    let mut entries = 0u64;
    known.each_known(&mut |_, _, _| entries += 1);
    if let Some(held) = entries_held::<P>(path, game).filter(|&held| held > entries) {
        return Err(Error::Resource(format!(
            "{} holds {held} entries of {game} and the table {entries}: a save would lose {} \
             of them, so the file is kept as it is",
            path.display(),
            held - entries
        )));
    }
    let mut file = OutputFile::create(path)?;
    let written =
        write_table(file.writer(), game, entries, known).map_err(|e| Error::io(path, e))?;
    if written != entries {
        return Err(Error::internal(format!(
            "a table of {entries} entries wrote {written}"
        )));
    }
    file.commit()?;
    Ok(Saved {
        entries,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Writes a table of `entries` entries: the entries written.
fn write_table<P: Record>(
    out: &mut dyn Write,
    game: &str,
    entries: u64,
    known: &dyn Known<P>,
) -> std::io::Result<u64> {
    let header = format!(
        "{MAGIC}\ngame {game}\nkey {}\nentries {entries:020}\n\n",
        P::KIND
    );
    out.write_all(header.as_bytes())?;
    let (mut written, mut crc, mut buf) = (0u64, crc32fast::Hasher::new(), Vec::new());
    crc.update(header.as_bytes());
    let mut failed = Ok(());
    known.each_known(&mut |p, v, w| {
        if failed.is_err() {
            return;
        }
        buf.clear();
        p.write(&mut buf);
        push_u32(&mut buf, v);
        buf.push(w);
        crc.update(&buf);
        written += 1;
        failed = out.write_all(&buf);
    });
    failed?;
    out.write_all(&crc.finalize().to_le_bytes())?;
    Ok(written)
}

/// The entries the table of `game` in `path` holds, read from its header; `None` when there is
/// no such table there (no file, another game's, not a table, or a device or FIFO, which is
/// not read).
fn entries_held<P: Record>(path: &Path, game: &str) -> Option<u64> {
    if crate::files::is_special(path) {
        return None;
    }
    let mut input = BufReader::new(File::open(path).ok()?);
    read_header::<P>(&mut input, game).ok().map(|h| h.entries)
}

/// What a load took: the entries the file holds, and those learned (fewer when the table had
/// no room for them all: a smaller `--mem-limit` or `--tt` than the search that saved them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Loaded {
    /// Entries the file holds.
    pub entries: u64,
    /// Entries the table took in.
    pub learned: u64,
}

/// Where a loaded table goes: a closure taking each entry, or a search.
pub trait Learner<P> {
    /// Told how many entries the file holds, before the first: how many of them to hand over.
    fn room(&mut self, entries: u64) -> u64 {
        entries
    }
    /// Takes one entry, which cost `w` to find.
    fn learn(&mut self, p: P, v: Nimber, w: Weight);
}

impl<P, F: FnMut(P, Nimber, Weight)> Learner<P> for F {
    fn learn(&mut self, p: P, v: Nimber, w: Weight) {
        self(p, v, w)
    }
}

/// A search as a [`Learner`]: its table makes room for the whole file at once.
struct SearchLearner<'s, 'g, G: Game>(&'s mut (dyn Searcher<G> + 'g));

impl<G: Game> Learner<G::Position> for SearchLearner<'_, '_, G> {
    fn room(&mut self, entries: u64) -> u64 {
        let room = self
            .0
            .reserve(usize::try_from(entries).unwrap_or(usize::MAX));
        u64::try_from(room).unwrap_or(u64::MAX)
    }

    fn learn(&mut self, p: G::Position, v: Nimber, w: Weight) {
        self.0.learn(p, v, w);
    }
}

/// Reads a table of `game` from `path` and hands its entries to `learner`, once the whole file
/// is checked: how many it held and how many were learned, or `None` when there is no file yet. A learner
/// with room for fewer than the file holds gets every k-th entry, which spreads them over its
/// table as evenly as the file does.
pub fn load<P: Record>(
    path: &Path,
    game: &str,
    learner: &mut impl Learner<P>,
) -> Result<Option<Loaded>, Error> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(path, e)),
    };
    let bad = |msg: String| Error::Data {
        path: path.into(),
        msg: format!("not a saved table grundy can use: {msg}"),
    };
    let mut input = BufReader::with_capacity(1 << 20, file);
    let Header {
        entries,
        weighed,
        checked,
    } = read_header::<P>(&mut input, game).map_err(bad)?;
    let start = input.stream_position().map_err(|e| Error::io(path, e))?;
    // The first pass checks, the second learns: nothing from a damaged file is ever used.
    let mut crc = crc32fast::Hasher::new();
    crc.update(&checked);
    let mut buf = Vec::new();
    for _ in 0..entries {
        let (p, v, w) =
            read_entry::<P>(&mut input, weighed).map_err(|e| bad(format!("an entry: {e}")))?;
        if v > MAX_VALUE {
            return Err(bad(format!("a nimber of {v}, past {MAX_VALUE}")));
        }
        buf.clear();
        p.write(&mut buf);
        push_u32(&mut buf, v);
        if weighed {
            buf.push(w);
        }
        crc.update(&buf);
    }
    let stored = read_u32(&mut input).map_err(|e| bad(format!("its checksum: {e}")))?;
    if stored != crc.finalize() {
        return Err(bad(
            "its checksum does not match its entries (damaged)".into()
        ));
    }
    if !input.fill_buf().map_err(|e| Error::io(path, e))?.is_empty() {
        return Err(bad("bytes follow its checksum".into()));
    }
    input
        .seek(SeekFrom::Start(start))
        .map_err(|e| Error::io(path, e))?;
    let room = learner.room(entries);
    if room == 0 {
        return Ok(Some(Loaded {
            entries,
            learned: 0,
        }));
    }
    let step = entries.div_ceil(room);
    let mut learned = 0;
    for i in 0..entries {
        let (p, v, w) = read_entry::<P>(&mut input, weighed).map_err(|e| Error::io(path, e))?;
        if i % step == 0 {
            learner.learn(p, v, w);
            learned += 1;
        }
    }
    Ok(Some(Loaded { entries, learned }))
}

/// What a file's header says.
struct Header {
    entries: u64,
    /// Whether entries carry weights (from the second version on).
    weighed: bool,
    /// The header's bytes when the checksum covers them (the third version), else none.
    checked: Vec<u8>,
}

/// Checks the header against `game` and the position type.
fn read_header<P: Record>(input: &mut impl BufRead, game: &str) -> Result<Header, String> {
    let mut raw = Vec::new();
    let mut line = |what: &str| -> Result<String, String> {
        let mut s = String::new();
        input
            .read_line(&mut s)
            .map_err(|e| format!("reading its {what}: {e}"))?;
        raw.extend_from_slice(s.as_bytes());
        Ok(s.trim_end_matches('\n').to_string())
    };
    let magic = line("first line")?;
    let (weighed, header_checked) = match magic.as_str() {
        MAGIC => (true, true),
        MAGIC_2 => (true, false),
        MAGIC_1 => (false, false),
        _ => return Err(format!("its first line is `{magic}`, not `{MAGIC}`")),
    };
    let field = |s: String, name: &str| -> Result<String, String> {
        s.strip_prefix(name)
            .and_then(|v| v.strip_prefix(' '))
            .map(String::from)
            .ok_or_else(|| format!("`{s}` where its `{name}` line should be"))
    };
    let theirs = field(line("game")?, "game")?;
    if theirs != game {
        return Err(format!("it is a table of {theirs}, not of {game}"));
    }
    let key = field(line("key")?, "key")?;
    if key != P::KIND {
        return Err(format!(
            "its positions are written as {key}, and {game}'s as {}",
            P::KIND
        ));
    }
    let count = field(line("entry count")?, "entries")?;
    let entries = count
        .parse()
        .map_err(|_| format!("`{count}` is not a number of entries"))?;
    if !line("blank line")?.is_empty() {
        return Err("no blank line after its header".into());
    }
    Ok(Header {
        entries,
        weighed,
        checked: if header_checked { raw } else { Vec::new() },
    })
}

/// One entry, with its weight when the file has them.
fn read_entry<P: Record>(
    input: &mut impl Read,
    weighed: bool,
) -> std::io::Result<(P, Nimber, Weight)> {
    let p = P::read(input)?;
    let v = read_u32(input)?;
    let w = match weighed {
        true => {
            let mut byte = [0];
            input.read_exact(&mut byte)?;
            byte[0]
        }
        false => UNKNOWN,
    };
    Ok((p, v, w))
}

/// Readies `searcher` to keep its table per `plan`: it learns what the plan's file holds for
/// `game` (nothing without a file), then saves every `plan.every` while it searches, and
/// whenever `plan.now` asks. A file holding more entries than the table has room for is
/// refused (a [`Error::Resource`]) before the search: its saves would replace the file with
/// fewer entries, losing what an earlier run found.
pub fn keep<G: Game>(
    searcher: &mut (dyn Searcher<G> + '_),
    game: &str,
    plan: &Plan,
) -> Result<Loaded, Error>
where
    G::Position: Record,
{
    let loaded = load(&plan.path, game, &mut SearchLearner(&mut *searcher))?.unwrap_or_default();
    if loaded.learned < loaded.entries {
        return Err(Error::limit(
            crate::error::Setting::TableRoom,
            format!(
                "{} holds {} entries, more than the table has room for (it took {}): its saves \
                 would replace the file with fewer",
                plan.path.display(),
                loaded.entries,
                loaded.learned
            ),
        ));
    }
    searcher.set_hook(hook(plan.clone(), game.to_string()));
    Ok(loaded)
}

/// The hook that saves per `plan`.
fn hook<P: Record>(plan: Plan, game: String) -> Hook<P> {
    let mut last = Instant::now();
    Box::new(move |known| {
        let asked = plan.now.load(Ordering::Relaxed);
        if asked || last.elapsed() >= plan.every {
            let saved = save(&plan.path, &game, known);
            last = Instant::now();
            plan.now.store(false, Ordering::Relaxed);
            (plan.on_save)(&saved, false);
        }
    })
}

#[cfg(test)]
mod tests;
