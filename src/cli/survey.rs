//! `grundy survey subtraction --size 3 --max-element 20`: the period of every game of a family,
//! one JSON line per game, resumable, filtered, and written up as a report.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use ahash::AHashSet;
use clap::{Args, ValueEnum};

use super::output::Out;
use super::progress::Bar;
use super::Status;
use grundy_core::cluster::Team;
use grundy_core::error::Error;
use grundy_core::files::{self, OutputFile};
use grundy_core::period::report::{self, Style};
use grundy_core::period::survey::{self, Family, Filter, Header, Row};

/// The families a survey covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Kind {
    /// Subtraction sets of --size elements from 1..--max-element.
    Subtraction,
    /// Octal codes 0.d1..dk of --digits digits.
    Octal,
    /// Hex codes 0.d1..dk of --digits digits.
    Hex,
}

#[derive(Args, Debug)]
pub struct SurveyArgs {
    /// The family of games.
    #[arg(value_enum)]
    family: Kind,
    /// Elements per subtraction set.
    #[arg(long, value_name = "K", required_if_eq("family", "subtraction"))]
    size: Option<usize>,
    /// The largest element of a subtraction set.
    #[arg(long, value_name = "M", required_if_eq("family", "subtraction"))]
    max_element: Option<usize>,
    /// Digits of an octal or hex code after the point.
    #[arg(
        long,
        value_name = "D",
        required_if_eq("family", "octal"),
        required_if_eq("family", "hex")
    )]
    digits: Option<usize>,
    /// Value heaps up to N per game before calling it unsettled [default: 100000, and 1000
    /// for hex codes, whose three-heap splits make each value quadratic in the heap].
    #[arg(long, value_name = "N")]
    max_heap: Option<usize>,
    /// Keep every row in FILE (JSON lines after a header line); a survey run again with the
    /// same FILE goes on where it stopped. Should standard output close early (`| head`), the
    /// survey goes on to complete FILE (and --report), and says on standard error that the
    /// rows shown stopped short.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Show only games whose period is at least P.
    #[arg(long, value_name = "P")]
    period_min: Option<usize>,
    /// Show only games meeting conditions, e.g. "preperiod > 0 and period >= 10" (fields
    /// preperiod, period, computed; < <= > >= == !=).
    #[arg(long = "where", value_name = "CONDITIONS")]
    condition: Option<String>,
    /// Write a report to FILE: LaTeX when it ends in .tex, Markdown otherwise.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Print the games valued, the time, and each rank's peak memory and bytes sent to
    /// standard error.
    #[arg(long)]
    stats: bool,
    /// Errors as one JSON object on standard output too (the rows are JSON lines anyway).
    #[arg(long)]
    pub json: bool,
}

impl SurveyArgs {
    fn family(&self) -> Result<Family, Error> {
        let need = |x: Option<usize>, name: &str| {
            x.ok_or_else(|| Error::Usage(format!("this family needs --{name}")))
        };
        let stray = |x: Option<usize>, name: &str| match x {
            Some(_) => Err(Error::Usage(format!(
                "--{name} does not apply to this family"
            ))),
            None => Ok(()),
        };
        Ok(match self.family {
            Kind::Subtraction => {
                stray(self.digits, "digits")?;
                Family::Subtraction {
                    size: need(self.size, "size")?,
                    max_element: need(self.max_element, "max-element")?,
                }
            }
            Kind::Octal | Kind::Hex => {
                stray(self.size, "size")?;
                stray(self.max_element, "max-element")?;
                let digits = need(self.digits, "digits")?;
                if self.family == Kind::Hex {
                    Family::Hex { digits }
                } else {
                    Family::Octal { digits }
                }
            }
        })
    }

    /// The filter and its description, for the report.
    fn filter(&self) -> Result<(Filter, String), Error> {
        let mut filter = match &self.condition {
            Some(text) => Filter::parse(text)?,
            None => Filter::default(),
        };
        let mut said: Vec<String> = self.condition.iter().cloned().collect();
        if let Some(p) = self.period_min {
            filter = filter.period_at_least(p);
            said.push(format!("period >= {p}"));
        }
        Ok((filter, said.join(" and ")))
    }
}

/// The rows already in a survey file, after checking its header is this survey's. A last line
/// cut short by an interruption is dropped (and cut from the file when the survey goes on).
fn resume(path: &Path, header: &Header) -> Result<(Vec<Row>, u64), Error> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let bad = |msg: String| Error::Data {
        path: path.into(),
        msg,
    };
    let mut rows = Vec::new();
    let mut kept = 0u64;
    let mut lines = BufReader::new(file);
    let mut line = String::new();
    let mut first = true;
    loop {
        line.clear();
        let n = lines.read_line(&mut line).map_err(|e| Error::io(path, e))?;
        if n == 0 {
            break;
        }
        if !line.ends_with('\n') {
            // Cut short: the rest of the file, if any, is this partial line.
            break;
        }
        if first {
            let found: Header = serde_json::from_str(&line)
                .map_err(|_| bad("the first line is not a survey header".into()))?;
            if &found != header {
                return Err(bad(format!(
                    "the file holds another survey ({}, heaps up to {}); give another --out",
                    found.survey, found.max_heap
                )));
            }
            first = false;
        } else {
            let row: Row = serde_json::from_str(&line)
                .map_err(|e| bad(format!("line {}: {e}", rows.len() + 2)))?;
            rows.push(row);
        }
        kept += n as u64;
    }
    if first {
        return Err(bad("the file is empty: no survey header".into()));
    }
    Ok((rows, kept))
}

/// One value as a line of JSON.
fn json_line(value: &impl serde::Serialize) -> Result<String, Error> {
    serde_json::to_string(value).map_err(|e| Error::internal(e.to_string()))
}

/// The rows a survey file holds already, and the file opened to append to (none without
/// `--out`).
#[derive(Default)]
struct Store {
    rows: Vec<Row>,
    file: Option<(PathBuf, std::fs::File)>,
}

/// Opens `--out`: resumes the survey it holds after checking it is this one, or starts it
/// with its header line.
fn open_store(path: &Path, header: &Header, members: &[String]) -> Result<Store, Error> {
    let existing = path.exists()
        && std::fs::metadata(path)
            .map(|m| m.len() > 0)
            .unwrap_or(false);
    let mut rows = Vec::new();
    let mut file = if existing {
        let (found, kept) = resume(path, header)?;
        let set: AHashSet<&str> = members.iter().map(String::as_str).collect();
        if let Some(r) = found.iter().find(|r| !set.contains(r.game.as_str())) {
            return Err(Error::Data {
                path: path.into(),
                msg: format!("{} is not a game of this survey", r.game),
            });
        }
        rows = found;
        eprintln!(
            "resuming {}: {} of {} games done",
            path.display(),
            rows.len(),
            members.len()
        );
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| Error::io(path, e))?;
        file.set_len(kept).map_err(|e| Error::io(path, e))?;
        file
    } else {
        let mut file = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
        let line = json_line(header)?;
        writeln!(file, "{line}").map_err(|e| Error::io(path, e))?;
        file
    };
    use std::io::Seek;
    file.seek(std::io::SeekFrom::End(0))
        .map_err(|e| Error::io(path, e))?;
    Ok(Store {
        rows,
        file: Some((path.to_path_buf(), file)),
    })
}

/// Writes the report of `rows` to `f`: LaTeX for a `.tex` path, Markdown otherwise.
fn write_report(
    mut f: OutputFile,
    header: &Header,
    members: usize,
    rows: &[Row],
    filter: &Filter,
    filter_text: &str,
) -> Result<(), Error> {
    let style = match f.path().extension().and_then(|e| e.to_str()) {
        Some("tex") => Style::Latex,
        _ => Style::Markdown,
    };
    let text = report::write(header, members, rows, filter, filter_text, style);
    let path = f.path().to_path_buf();
    f.writer()
        .write_all(text.as_bytes())
        .map_err(|e| Error::io(&path, e))?;
    f.commit()?;
    eprintln!("wrote the report to {}", path.display());
    Ok(())
}

/// The rows printed on standard output, and whether it closed before the last.
struct Shown {
    rows: u64,
    closed: bool,
    /// Whether the survey goes on once standard output closes: it has files to complete.
    go_on: bool,
}

impl Shown {
    /// Prints `rows` while standard output is open. A closed pipe ends the printing: with
    /// files to complete it is noted and the survey goes on; without, it ends the survey
    /// (quietly, as a pipe closed by its reader does).
    fn print<'r>(&mut self, rows: impl Iterator<Item = &'r Row>) -> Result<(), Error> {
        if self.closed {
            return Ok(());
        }
        let mut out = Out::new();
        for r in rows {
            match out.line(format_args!("{}", json_line(r)?)) {
                Ok(()) => self.rows += 1,
                Err(Error::Io { source, .. })
                    if self.go_on && source.kind() == std::io::ErrorKind::BrokenPipe =>
                {
                    self.closed = true;
                    return Ok(());
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// Runs the survey; under mpirun the games are dealt among the ranks and rank 0 alone reads
/// and writes the files and prints the rows.
pub fn run(args: &SurveyArgs, team: &dyn Team) -> Result<Status, Error> {
    let family = args.family()?;
    let (filter, filter_text) = args.filter()?;
    let max_heap = args.max_heap.unwrap_or(match family {
        Family::Hex { .. } => 1_000,
        _ => 100_000,
    });
    if max_heap == 0 {
        return Err(Error::Usage("--max-heap must be at least 1".into()));
    }
    let members = family.members()?;
    let header = Header {
        survey: family,
        max_heap,
    };
    if let (Some(out), Some(rep)) = (&args.out, &args.report) {
        files::check_outputs(
            &[("--out", out.as_path()), ("--report", rep.as_path())],
            &[],
        )?;
    }
    let root = team.is_root();
    let started = std::time::Instant::now();
    // The report first: a path it cannot take fails before the survey file is started.
    let report_file = match (&args.report, root) {
        (Some(path), true) => Some(OutputFile::create(path)),
        _ => None,
    }
    .transpose();
    let report_file = team.settle(report_file)?;
    let opened = match (&args.out, root) {
        (Some(path), true) => open_store(path, &header, &members),
        _ => Ok(Store::default()),
    };
    let store = team.settle(opened)?;
    let done: Vec<String> = team.share(Ok(store.rows.iter().map(|r| r.game.clone()).collect()))?;
    let Store {
        mut rows,
        file: mut store,
    } = store;

    let done: AHashSet<String> = done.into_iter().collect();
    // Rows go to standard output until it closes (`| head`): then, with --out or --report to
    // complete, the survey goes on for them, and says at the end that the rows shown stopped.
    let mut shown = Shown {
        rows: 0,
        closed: false,
        go_on: args.out.is_some() || args.report.is_some(),
    };
    // The rows found by earlier runs (rank 0 alone has any); the ranks learn whether printing
    // them failed before they take their next step together. Standard output is locked only
    // while rows are printed, so that a signal's report can follow the last of them.
    let printed = shown.print(rows.iter().filter(|r| filter.accepts(r)));
    team.settle(printed)?;
    let bar = Bar::new(root);
    let todo = members.len() - done.len();
    survey::run(&members, &done, max_heap, team, &bar, &mut |chunk| {
        if let Some((path, file)) = &mut store {
            let path: &Path = path;
            let mut text = String::new();
            for r in chunk {
                text.push_str(&json_line(r)?);
                text.push('\n');
            }
            file.write_all(text.as_bytes())
                .and_then(|_| file.flush())
                .map_err(|e| Error::io(path, e))?;
        }
        shown.print(chunk.iter().filter(|r| filter.accepts(r)))?;
        rows.extend_from_slice(chunk);
        Ok(())
    })?;
    // Rows in the family's order, however many runs wrote them.
    let order: ahash::AHashMap<&str, usize> = members
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();
    rows.sort_by_key(|r| order[r.game.as_str()]);
    let reported = match report_file {
        Some(f) => write_report(f, &header, members.len(), &rows, &filter, &filter_text),
        None => Ok(()),
    };
    team.settle(reported)?;
    if shown.closed {
        let kept = match &store {
            Some((path, _)) => format!("; {} holds all {} games' rows", path.display(), rows.len()),
            None => String::new(),
        };
        eprintln!(
            "grundy: standard output closed after {} rows: the rows shown are incomplete; the \
             survey went on to the end{kept}",
            shown.rows
        );
    }
    if args.stats {
        if root {
            eprintln!("games valued: {todo}");
            eprintln!("ranks: {}", team.size());
            eprintln!("seconds: {:.3}", started.elapsed().as_secs_f64());
        }
        super::print_rank_stats(team);
    }
    Ok(Status::Answered)
}
