//! Output files that are never left half-written under their final name, and never replace
//! what is not a regular file.
//!
//! A regular file (or a new name) is written to a temporary file beside it and renamed over it
//! only when complete; a symbolic link is followed, so the file it points to is replaced and the
//! link stays. Anything else (`/dev/null`, a FIFO, a terminal) is written through: renaming over
//! a device would destroy it. Temporary files in flight are listed, so that a signal handler can
//! remove them ([`remove_partial`]) before the process ends.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use tempfile::NamedTempFile;

use crate::error::Error;

/// Temporary files being written now.
static PARTIAL: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every temporary file still being written: for a handler of SIGINT or SIGTERM,
/// which ends the process without running destructors.
pub fn remove_partial() {
    remove_partial_where(|_| true);
}

fn remove_partial_where(pick: impl Fn(&Path) -> bool) {
    let paths = PARTIAL.lock().unwrap_or_else(|e| e.into_inner());
    for p in paths.iter().filter(|p| pick(p)) {
        let _ = fs::remove_file(p);
    }
}

fn forget_partial(path: &Path) {
    let mut paths = PARTIAL.lock().unwrap_or_else(|e| e.into_inner());
    paths.retain(|p| p != path);
}

/// Where an output file's bytes go.
enum Sink {
    /// A temporary file renamed to `target` on commit.
    Temporary {
        out: BufWriter<NamedTempFile>,
        target: PathBuf,
    },
    /// A device, FIFO or socket, written directly.
    Through(BufWriter<File>),
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

/// Whether writing to `path` goes straight through (it exists and is neither a regular file nor
/// a directory, after following links).
pub fn is_special(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

impl OutputFile {
    /// Starts writing `path`: the temporary file is created now, so a directory that does not
    /// exist or cannot be written fails before any work.
    pub fn create(path: &Path) -> Result<Self, Error> {
        let err = |e: io::Error| Error::io(path, e);
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                return Err(err(io::Error::other("is a directory, not a file")));
            }
            Ok(m) if !m.is_file() => {
                let file = OpenOptions::new().write(true).open(path).map_err(err)?;
                return Ok(OutputFile {
                    path: path.to_path_buf(),
                    sink: Some(Sink::Through(BufWriter::with_capacity(1 << 20, file))),
                });
            }
            _ => {}
        }
        let target = resolve(path);
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        // A replaced file keeps its permissions; a new one gets the umask's, as `File::create`.
        #[cfg(unix)]
        let mode = {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&target).map_or(0o666, |m| m.permissions().mode() & 0o7777);
            fs::Permissions::from_mode(mode)
        };
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".partial");
        #[cfg(unix)]
        builder.permissions(mode);
        let tmp = builder.tempfile_in(&dir).map_err(err)?;
        PARTIAL
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(tmp.path().to_path_buf());
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

    /// Flushes, and renames the temporary file into place.
    pub fn commit(mut self) -> Result<(), Error> {
        let err = |e: io::Error| Error::io(&self.path, e);
        match self.sink.take().expect("committed once") {
            Sink::Through(mut out) => out.flush().map_err(err),
            Sink::Temporary { out, target } => {
                let tmp = out.into_inner().map_err(|e| err(e.into_error()))?;
                tmp.as_file().sync_all().map_err(err)?;
                let tmp_path = tmp.path().to_path_buf();
                let result = tmp.persist(&target).map(drop).map_err(|e| err(e.error));
                forget_partial(&tmp_path);
                result
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
            // Not committed: an error happened. The temporary file removes itself.
            forget_partial(out.get_ref().path());
        }
    }
}

/// Writes `text` to `path` as an [`OutputFile`].
pub fn write(path: &Path, text: &str) -> Result<(), Error> {
    let mut f = OutputFile::create(path)?;
    f.writer()
        .write_all(text.as_bytes())
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

/// Refuses two outputs that would land in the same file, before any work.
pub fn check_distinct(paths: &[(&str, &Path)]) -> Result<(), Error> {
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
        let listed = PARTIAL.lock().unwrap().clone();
        assert!(!listed.iter().any(|p| p.starts_with(dir.path())));
    }

    #[test]
    fn removing_partial_files_deletes_those_in_flight() {
        let dir = tempfile::tempdir().unwrap();
        let f = OutputFile::create(&dir.path().join("t.tsv")).unwrap();
        assert_eq!(entries(dir.path()).len(), 1);
        let listed = PARTIAL.lock().unwrap().clone();
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
        fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.tsv");
        symlink("real.tsv", &link).unwrap();
        write(&link, "new").unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "a replaced file keeps its permissions");
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
    }
}
