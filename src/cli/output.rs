//! What commands print: checked writes on standard output, and the row formats of tables.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use grundy_core::error::{Error, OptionKey, Setting};
use grundy_core::game::Nimber;

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

/// Set once a JSON outcome is written, while standard output is locked.
static OUTCOME_PRINTED: AtomicBool = AtomicBool::new(false);

/// Standard output for answers. Every write is checked, so a full disk or a closed pipe is an
/// [`Error`] (one line, or silence for the pipe) rather than a panic.
pub struct Out(io::StdoutLock<'static>);

impl Out {
    pub fn new() -> Self {
        Out(io::stdout().lock())
    }

    /// Writes one line (standard output is line-buffered: the line is flushed now).
    pub fn line(&mut self, args: std::fmt::Arguments<'_>) -> Result<(), Error> {
        self.0
            .write_fmt(args)
            .and_then(|()| self.0.write_all(b"\n"))
            .and_then(|()| self.0.flush())
            .map_err(stdout_error)
    }

    /// Writes one JSON object on one line: the command's outcome with `--json`. Written as it
    /// is serialized, never held whole as text (a long run's values make it gigabytes).
    pub fn json(&mut self, value: &impl serde::Serialize) -> Result<(), Error> {
        // Under the lock this writer holds, so the signal handler's check sees it.
        OUTCOME_PRINTED.store(true, Ordering::Relaxed);
        serde_json::to_writer(&mut self.0, value)
            .map_err(io::Error::from)
            .and_then(|()| self.0.write_all(b"\n"))
            .and_then(|()| self.0.flush())
            .map_err(stdout_error)
    }

    /// Whether a JSON outcome is printed already ([`Out::json`]): a signal's report then
    /// keeps quiet, as `--json` prints one object. Reliable only under an `Out`'s lock.
    pub fn outcome_printed(&self) -> bool {
        OUTCOME_PRINTED.load(Ordering::Relaxed)
    }

    /// The raw writer, for bulk output; the caller flushes.
    pub fn raw(&mut self) -> &mut io::StdoutLock<'static> {
        &mut self.0
    }
}

/// Adds a failure's `error` and `kind` to a command's JSON outcome: an answer printed with the
/// write that failed after it was found (`synth --report` to a full disk), which the exit code
/// then reports, the object staying the run's one.
pub fn error_fields(obj: &mut serde_json::Value, e: &Error) {
    let fields = obj.as_object_mut().expect("an outcome is a JSON object");
    error_entries(fields, e);
}

/// [`error_fields`] among the fields of an object still to be written (a report streamed as
/// it is serialized, [`grundy_core::period::words::Report`]).
pub fn error_entries(fields: &mut serde_json::Map<String, serde_json::Value>, e: &Error) {
    fields.insert("error".into(), worded(e).into());
    fields.insert("kind".into(), serde_json::json!(e.kind()));
}

/// A failure in the command line's words: the library's message (an option refused named by
/// its flag), and the flag that gets past it where a larger value of one does.
pub fn worded(e: &Error) -> String {
    let said = match e {
        Error::Refused { key, msg } => format!("{}{msg}", flag(*key)),
        _ => e.to_string(),
    };
    match e.raise() {
        Some(setting) => format!("{said}; {}", raise_hint(setting)),
        None => said,
    }
}

/// The flag of a library option.
pub fn flag(key: OptionKey) -> &'static str {
    match key {
        OptionKey::Heaps => "--heaps",
        OptionKey::Max => "--max",
        OptionKey::Data => "--data",
        OptionKey::Family => "--family",
        OptionKey::Orbits => "--orbits",
        OptionKey::Target => "--target",
        OptionKey::Width => "--width",
        OptionKey::Consts => "--consts",
        OptionKey::Prove => "--prove",
        OptionKey::Bound => "--bound",
        OptionKey::VerifyMax => "--verify-max",
        OptionKey::Checkpoint => "--checkpoint",
        OptionKey::Size => "--size",
        OptionKey::Digits => "--digits",
        OptionKey::Where => "--where",
        OptionKey::OnDisk => "--on-disk",
    }
}

/// The flag behind a library setting, as advice.
fn raise_hint(setting: Setting) -> &'static str {
    match setting {
        Setting::MemoryLimit => "raise --mem-limit",
        Setting::MaxLength => "raise --max-len",
        Setting::Width => "raise --width",
        Setting::Heaps => "more heaps with --heaps",
        Setting::Engine => "pick --engine naive to search anyway",
        Setting::Orbits => "drop --orbits",
        Setting::TableRoom => "raise --mem-limit or --tt, or give --checkpoint another file",
        Setting::DiskRoom => "free room there, or give --on-disk another directory",
    }
}

/// How errors name standard output.
pub const STDOUT: &str = "<stdout>";

/// A failed write on standard output.
pub fn stdout_error(e: io::Error) -> Error {
    Error::io(STDOUT, e)
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
    fn refused_options_are_named_by_their_flags() {
        let e = Error::refused(OptionKey::VerifyMax, " must be at least 1");
        assert_eq!(worded(&e), "--verify-max must be at least 1");
        let e = Error::refused(OptionKey::Prove, ": the prover needs a game");
        assert_eq!(worded(&e), "--prove: the prover needs a game");
        let e = Error::refused(OptionKey::Where, " `x > 1`: unknown field `x`");
        assert_eq!(worded(&e), "--where `x > 1`: unknown field `x`");
    }

    #[test]
    fn limits_name_the_flag_that_gets_past_them() {
        let e = Error::limit(Setting::Engine, "too large to tabulate");
        assert_eq!(
            worded(&e),
            "too large to tabulate; pick --engine naive to search anyway"
        );
        let e = Error::limit(Setting::Orbits, "orbits not known");
        assert_eq!(worded(&e), "orbits not known; drop --orbits");
    }

    #[test]
    fn zeros_sit_beside_the_table() {
        assert_eq!(zeros_path(Path::new("a/t.tsv")), Path::new("a/t.zeros.tsv"));
        assert_eq!(zeros_path(Path::new("t")), Path::new("t.zeros"));
    }
}
