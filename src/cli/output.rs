//! Table files: row formats, and writes that never leave a partial file under the final name.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::game::Nimber;

/// How table rows are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Tab-separated columns x0 .. x(n-1) and sg, with a header row.
    Tsv,
    /// Comma-separated, same columns.
    Csv,
    /// One JSON object per line: {"position": [...], "nimber": v}.
    Jsonl,
}

impl Format {
    /// Writes the header row, if the format has one.
    pub fn header(self, w: &mut dyn Write, n: usize) -> io::Result<()> {
        let sep = match self {
            Format::Tsv => "\t",
            Format::Csv => ",",
            Format::Jsonl => return Ok(()),
        };
        let cols: Vec<String> = (0..n)
            .map(|i| format!("x{i}"))
            .chain(["sg".to_string()])
            .collect();
        writeln!(w, "{}", cols.join(sep))
    }

    /// Writes one position and its value.
    pub fn row(self, w: &mut dyn Write, p: &[u32], v: Nimber) -> io::Result<()> {
        // Millions of rows: format integers with itoa and write one line at a time.
        let mut line = Vec::with_capacity(8 * p.len() + 32);
        let mut num = itoa::Buffer::new();
        let sep: &[u8] = match self {
            Format::Tsv => b"\t",
            Format::Csv => b",",
            Format::Jsonl => b",",
        };
        if self == Format::Jsonl {
            line.extend_from_slice(b"{\"position\":[");
        }
        for (i, &x) in p.iter().enumerate() {
            if i > 0 {
                line.extend_from_slice(sep);
            }
            line.extend_from_slice(num.format(x).as_bytes());
        }
        if self == Format::Jsonl {
            line.extend_from_slice(b"],\"nimber\":");
        } else {
            line.extend_from_slice(sep);
        }
        line.extend_from_slice(num.format(v).as_bytes());
        if self == Format::Jsonl {
            line.push(b'}');
        }
        line.push(b'\n');
        w.write_all(&line)
    }
}

/// A file written under a temporary name and renamed into place only when complete.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing `path` (through `path.partial-PID`).
    pub fn create(path: &Path) -> Result<Self, Error> {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(format!(".partial-{}", std::process::id()));
        let tmp = path.with_file_name(name);
        let file = File::create(&tmp).map_err(|e| Error::io(path, e))?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            out: Some(BufWriter::with_capacity(1 << 20, file)),
        })
    }

    /// The writer.
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.out.as_mut().expect("not yet committed")
    }

    /// Flushes and renames into place.
    pub fn commit(mut self) -> Result<(), Error> {
        let out = self.out.take().expect("committed once");
        let file = out
            .into_inner()
            .map_err(|e| Error::io(&self.path, e.into_error()))?;
        file.sync_all().map_err(|e| Error::io(&self.path, e))?;
        std::fs::rename(&self.tmp, &self.path).map_err(|e| Error::io(&self.path, e))
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.is_some() {
            // Not committed: an error happened; leave nothing that looks complete.
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// `table.tsv` -> `table.zeros.tsv`: where zero positions go when only `--out` is given.
pub fn zeros_path(out: &Path) -> PathBuf {
    let stem = out.file_stem().unwrap_or_default().to_string_lossy();
    match out.extension() {
        Some(ext) => out.with_file_name(format!("{stem}.zeros.{}", ext.to_string_lossy())),
        None => out.with_file_name(format!("{stem}.zeros")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_in_each_format() {
        let mut buf = Vec::new();
        Format::Tsv.header(&mut buf, 2).unwrap();
        Format::Tsv.row(&mut buf, &[1, 2], 3).unwrap();
        Format::Csv.row(&mut buf, &[1, 2], 3).unwrap();
        Format::Jsonl.row(&mut buf, &[1, 2], 3).unwrap();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            "x0\tx1\tsg\n1\t2\t3\n1,2,3\n{\"position\":[1,2],\"nimber\":3}\n"
        );
    }

    #[test]
    fn uncommitted_files_vanish() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tsv");
        {
            let mut f = AtomicFile::create(&path).unwrap();
            writeln!(f.writer(), "half").unwrap();
        }
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let mut f = AtomicFile::create(&path).unwrap();
        writeln!(f.writer(), "whole").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "whole\n");
    }

    #[test]
    fn zeros_sit_beside_the_table() {
        assert_eq!(zeros_path(Path::new("a/t.tsv")), Path::new("a/t.zeros.tsv"));
        assert_eq!(zeros_path(Path::new("t")), Path::new("t.zeros"));
    }
}
