//! Output files that are never left half-written under their final name, and never replace
//! what is not a regular file.
//!
//! A regular file (or a new name) is written to a temporary file beside it and renamed over it
//! only when complete; a symbolic link is followed, so the file it points to is replaced and the
//! link stays. Anything else (`/dev/null`, a FIFO, a terminal) is written through: renaming over
//! a device would destroy it. Temporary files in flight are listed, so that a signal handler can
//! remove them ([`remove_partial`]) before the process ends.

use std::fs::{self, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tempfile::NamedTempFile;

use crate::error::Error;

/// Temporary files being written now, and whether the process is ending (then no new one is
/// made). Temporary files are created and deleted while this is locked, so the signal handler
/// sees every one that exists.
static PARTIAL: Mutex<Partial> = Mutex::new(Partial {
    paths: Vec::new(),
    ending: false,
});

struct Partial {
    paths: Vec<PathBuf>,
    ending: bool,
}

fn partial() -> std::sync::MutexGuard<'static, Partial> {
    PARTIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every temporary file still being written, and refuses new ones: for a handler of
/// SIGINT or SIGTERM, which ends the process without running destructors.
pub fn remove_partial() {
    let mut partial = partial();
    partial.ending = true;
    for p in &partial.paths {
        let _ = fs::remove_file(p);
    }
}

#[cfg(test)]
fn remove_partial_where(pick: impl Fn(&Path) -> bool) {
    for p in partial().paths.iter().filter(|p| pick(p)) {
        let _ = fs::remove_file(p);
    }
}

fn forget_partial(path: &Path) {
    partial().paths.retain(|p| p != path);
}

/// Where an output file's bytes go.
enum Sink {
    /// A temporary file renamed to `target` on commit.
    Temporary {
        out: BufWriter<NamedTempFile>,
        target: PathBuf,
    },
    /// A device, FIFO or socket, written directly; the process's own standard output or
    /// error when the path names it (`/dev/stdout`), so that its offset and append mode hold.
    Through(BufWriter<Box<dyn Write + Send>>),
}

/// A file being written; see the module documentation.
pub struct OutputFile {
    /// The path as given, for messages.
    path: PathBuf,
    sink: Option<Sink>,
}

/// Follows symbolic links to the path a write should replace (the last link's target, which
/// may not exist yet).
pub fn resolve(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    // The kernel's own limit on links in a row.
    for _ in 0..40 {
        match fs::read_link(&p) {
            Ok(target) => {
                p = match p.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                }
            }
            Err(_) => break,
        }
    }
    p
}

/// Whether writing to `path` goes straight through: it exists and is neither a regular file
/// nor a directory after following links, or it lies in `/dev` or `/proc` (`/dev/stdout` may be
/// a link to a regular file, which must not be replaced).
pub fn is_special(path: &Path) -> bool {
    let system = |p: &Path| p.starts_with("/dev") || p.starts_with("/proc");
    system(path)
        || system(&resolve(path))
        || fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The process's own standard output (1) or error (2), when `path` names one of them.
fn own_stream(path: &Path) -> Option<u8> {
    let name = path.to_str()?;
    match name {
        "/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1" => Some(1),
        "/dev/stderr" | "/dev/fd/2" | "/proc/self/fd/2" => Some(2),
        _ => None,
    }
}

impl OutputFile {
    /// Starts writing `path`: the temporary file is created now, so a directory that does not
    /// exist or cannot be written fails before any work.
    pub fn create(path: &Path) -> Result<Self, Error> {
        let err = |e: io::Error| Error::io(path, e);
        if fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return Err(err(io::Error::other("is a directory, not a file")));
        }
        if is_special(path) {
            let out: Box<dyn Write + Send> = match own_stream(path) {
                Some(1) => Box::new(io::stdout()),
                Some(_) => Box::new(io::stderr()),
                None => Box::new(OpenOptions::new().write(true).open(path).map_err(err)?),
            };
            return Ok(OutputFile {
                path: path.to_path_buf(),
                sink: Some(Sink::Through(BufWriter::with_capacity(1 << 20, out))),
            });
        }
        let target = resolve(path);
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".partial");
        // A new file gets the umask's permissions, as `File::create` would give it.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let tmp = {
            let mut partial = partial();
            if partial.ending {
                return Err(err(io::Error::other("the process is ending")));
            }
            let tmp = builder.tempfile_in(&dir).map_err(err)?;
            partial.paths.push(tmp.path().to_path_buf());
            tmp
        };
        // A replaced file keeps its permissions (not filtered by the umask this time).
        if let Ok(meta) = fs::metadata(&target) {
            let mut perms = meta.permissions();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                perms.set_mode(perms.mode() & 0o777);
            }
            tmp.as_file().set_permissions(perms).map_err(err)?;
        }
        Ok(OutputFile {
            path: path.to_path_buf(),
            sink: Some(Sink::Temporary {
                out: BufWriter::with_capacity(1 << 20, tmp),
                target,
            }),
        })
    }

    /// The writer.
    pub fn writer(&mut self) -> &mut dyn Write {
        match self.sink.as_mut().expect("not yet committed") {
            Sink::Temporary { out, .. } => out,
            Sink::Through(out) => out,
        }
    }

    /// Flushes what is written and, for a temporary file, makes it durable: every step of a
    /// commit that can fail on the bytes (a full disk, `/dev/full`), short of the rename.
    fn finish(&mut self) -> Result<(), Error> {
        let err = |e: io::Error| Error::io(&self.path, e);
        match self.sink.as_mut().expect("not yet committed") {
            Sink::Through(out) => out.flush().map_err(err),
            Sink::Temporary { out, .. } => {
                out.flush().map_err(err)?;
                out.get_ref().as_file().sync_all().map_err(err)
            }
        }
    }

    /// Flushes, and renames the temporary file into place.
    pub fn commit(mut self) -> Result<(), Error> {
        self.finish()?;
        let err = |e: io::Error| Error::io(&self.path, e);
        match self.sink.take().expect("committed once") {
            Sink::Through(_) => Ok(()),
            Sink::Temporary { out, target } => {
                let tmp = out.into_inner().map_err(|e| err(e.into_error()))?;
                let tmp_path = tmp.path().to_path_buf();
                // Renamed while the list is locked: the handler sees it in flight or done.
                let _partial = partial();
                let result = tmp.persist(&target).map(drop);
                drop(_partial);
                forget_partial(&tmp_path);
                result.map_err(|e| err(e.error))
            }
        }
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if let Some(Sink::Temporary { out, .. }) = self.sink.take() {
            // Not committed: an error happened. The file goes first, then its listing.
            let path = out.get_ref().path().to_path_buf();
            drop(out);
            forget_partial(&path);
        }
    }
}

/// Commits files that make one output together (a table's rows and its zeros): each is
/// flushed and made durable first, and only when all of them are whole are they renamed into
/// place, so that a failed write leaves none of them (the others' temporaries are removed).
pub fn commit_all(mut files: Vec<OutputFile>) -> Result<(), Error> {
    for f in &mut files {
        f.finish()?;
    }
    files.into_iter().try_for_each(OutputFile::commit)
}

/// Checks, before any work, that `path` can be written as an [`OutputFile`]: its directory
/// exists and takes a new file, and it is not a directory. A device or FIFO is only checked
/// to exist (opening a FIFO would wait for its reader). Nothing is left behind.
pub fn check_writable(path: &Path) -> Result<(), Error> {
    if is_special(path) {
        match fs::metadata(path) {
            // A link to a regular file (`/dev/stdout` into a file) is opened, a directory
            // refused, below.
            Ok(m) if m.is_file() || m.is_dir() => {}
            Ok(_) => return Ok(()),
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    OutputFile::create(path).map(drop)
}

/// Writes `text` to `path` as an [`OutputFile`].
pub fn write(path: &Path, text: &str) -> Result<(), Error> {
    write_bytes(path, text.as_bytes())
}

/// Writes `bytes` to `path` as an [`OutputFile`].
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut f = OutputFile::create(path)?;
    f.writer()
        .write_all(bytes)
        .map_err(|e| Error::io(path, e))?;
    f.commit()
}

/// The file a write to `path` lands in, as one absolute path (links followed, `..` resolved
/// in the directory when the file does not exist yet).
fn identity(path: &Path) -> PathBuf {
    let target = resolve(path);
    if let Ok(p) = fs::canonicalize(&target) {
        return p;
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (fs::canonicalize(dir), target.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => target,
    }
}

/// Refuses, before any work, two outputs that would land in the same file, and an output that
/// would replace one of the inputs (`--data t.tsv --export-cnf t.tsv`). Each path comes with
/// the option that named it.
pub fn check_outputs(outputs: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<(), Error> {
    check_distinct(outputs)?;
    for (a, pa) in outputs {
        for (b, pb) in inputs {
            if identity(pa) == identity(pb) && !is_special(pa) {
                return Err(Error::Usage(format!(
                    "{a} would overwrite {b}, {}",
                    pb.display()
                )));
            }
        }
    }
    Ok(())
}

/// Refuses two outputs that would land in the same file, before any work.
pub(crate) fn check_distinct(paths: &[(&str, &Path)]) -> Result<(), Error> {
    for (i, (a, pa)) in paths.iter().enumerate() {
        for (b, pb) in &paths[..i] {
            let same = identity(pa) == identity(pb);
            // Two writers on one device (/dev/null twice) do no harm.
            if same && !is_special(pa) {
                return Err(Error::Usage(format!(
                    "{b} and {a} are the same file, {}",
                    pa.display()
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn uncommitted_files_vanish_and_committed_ones_appear_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tsv");
        {
            let mut f = OutputFile::create(&path).unwrap();
            writeln!(f.writer(), "half").unwrap();
            assert_eq!(entries(dir.path()).len(), 1, "one temporary file");
            assert!(!path.exists());
        }
        assert!(entries(dir.path()).is_empty());
        let mut f = OutputFile::create(&path).unwrap();
        writeln!(f.writer(), "whole").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "whole\n");
        assert_eq!(entries(dir.path()), ["t.tsv"]);
        let listed = partial().paths.clone();
        assert!(!listed.iter().any(|p| p.starts_with(dir.path())));
    }

    #[test]
    fn removing_partial_files_deletes_those_in_flight() {
        let dir = tempfile::tempdir().unwrap();
        let f = OutputFile::create(&dir.path().join("t.tsv")).unwrap();
        assert_eq!(entries(dir.path()).len(), 1);
        let listed = partial().paths.clone();
        assert!(listed.iter().any(|p| p.starts_with(dir.path())));
        // Only this test's files: other tests write theirs at the same time.
        remove_partial_where(|p| p.starts_with(dir.path()));
        assert!(entries(dir.path()).is_empty());
        // Committing a file whose temporary was removed fails; it never appears half-written.
        assert!(f.commit().is_err());
        assert!(entries(dir.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_devices_written_through() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.tsv");
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o664)).unwrap();
        let link = dir.path().join("link.tsv");
        symlink("real.tsv", &link).unwrap();
        write(&link, "new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            mode, 0o664,
            "a replaced file keeps its permissions, past the umask"
        );
        // A dangling link: the file it names is created.
        let dangling = dir.path().join("dangling");
        symlink("made.tsv", &dangling).unwrap();
        write(&dangling, "x").unwrap();
        assert_eq!(
            fs::read_to_string(dir.path().join("made.tsv")).unwrap(),
            "x"
        );

        assert!(is_special(Path::new("/dev/null")));
        write(Path::new("/dev/null"), "discarded").unwrap();
        let meta = fs::metadata("/dev/null").unwrap();
        assert!(!meta.is_file(), "/dev/null is still a device");
        // A directory is refused.
        assert!(write(dir.path(), "x").is_err());
    }

    /// Files committed together: when one cannot be completed (`/dev/full`), none of the
    /// others appears either.
    #[cfg(target_os = "linux")]
    #[test]
    fn files_committed_together_appear_together_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let rows = dir.path().join("t.tsv");
        let mut a = OutputFile::create(&rows).unwrap();
        writeln!(a.writer(), "rows").unwrap();
        let mut full = OutputFile::create(Path::new("/dev/full")).unwrap();
        writeln!(full.writer(), "zeros").unwrap();
        assert!(commit_all(vec![a, full]).is_err());
        assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
        let zeros = dir.path().join("t.zeros.tsv");
        let (mut a, mut b) = (
            OutputFile::create(&rows).unwrap(),
            OutputFile::create(&zeros).unwrap(),
        );
        writeln!(a.writer(), "rows").unwrap();
        writeln!(b.writer(), "zeros").unwrap();
        commit_all(vec![a, b]).unwrap();
        assert_eq!(entries(dir.path()), ["t.tsv", "t.zeros.tsv"]);
    }

    #[test]
    fn writable_paths_are_checked_and_nothing_is_left() {
        let dir = tempfile::tempdir().unwrap();
        check_writable(&dir.path().join("r.md")).unwrap();
        assert!(entries(dir.path()).is_empty());
        let missing = check_writable(&dir.path().join("no/r.md")).unwrap_err();
        assert!(matches!(missing, Error::Io { .. }), "{missing}");
        assert!(check_writable(dir.path()).is_err(), "a directory");
        check_writable(Path::new("/dev/null")).unwrap();
        assert!(check_writable(Path::new("/dev/no-such-device")).is_err());
    }

    #[test]
    fn the_same_file_twice_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.tsv");
        let b = dir.path().join("b.tsv");
        check_distinct(&[("--out", &a), ("--zeros", &b)]).unwrap();
        let err = check_distinct(&[("--out", &a), ("--zeros", &a)]).unwrap_err();
        assert!(err.to_string().contains("--out and --zeros"), "{err}");
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        let around = sub.join("..").join("a.tsv");
        assert!(check_distinct(&[("--out", &a), ("--zeros", &around)]).is_err());
        let null = Path::new("/dev/null");
        check_distinct(&[("--out", null), ("--zeros", null)]).unwrap();
        check_outputs(&[("--out", &b)], &[("--data", &a)]).unwrap();
        let err = check_outputs(&[("--export-cnf", &a)], &[("--data", &around)]).unwrap_err();
        assert!(
            err.to_string()
                .contains("--export-cnf would overwrite --data"),
            "{err}"
        );
    }
}
