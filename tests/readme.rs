//! Every `grundy` command in the `sh` code blocks of the README and of every `docs/*.md` runs,
//! succeeds, and finishes within a minute (the documents promise it). Each file's commands
//! share one directory, so a command may read what an earlier one of the same file wrote, as a
//! reader following along would. `cadical` lines run too, as the docs show them feeding
//! `grundy decode`; its exit codes 10 and 20 (satisfiable, unsatisfiable) are its answers, not
//! failures. Every relative link in those files points to a file that exists, and an anchor to
//! one of its headings.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;

/// The documents' promise for every command they show.
const LIMIT: Duration = Duration::from_secs(60);

/// Documents whose commands another test runs: `tests/literature.rs` runs (and checks) the
/// commands of docs/literature.md beside its table, so running them here too would only cost
/// time.
const RUN_ELSEWHERE: &[&str] = &["docs/literature.md"];

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md first, then every `docs/*.md` in name order: the order the commands run in.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    let mut out = vec![root().join("README.md")];
    out.extend(docs);
    out
}

/// `path` relative to the root, with `/` between parts, for messages and [`RUN_ELSEWHERE`].
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(root()).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The `grundy ...` and `cadical ...` lines of a document's `sh` blocks, in order, and the
/// `mpirun ...` ones in a build with the `mpi` feature.
fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        let t = line.trim();
        if let Some(lang) = t.strip_prefix("```") {
            in_sh = !in_sh && lang == "sh";
            continue;
        }
        let mpi = cfg!(feature = "mpi") && t.starts_with("mpirun ");
        if in_sh && (t.starts_with("grundy ") || t.starts_with("cadical ") || mpi) {
            out.push(t.to_string());
        }
    }
    out
}

/// Runs `line` as a reader would, in `dir`, and fails the test unless it succeeds in time.
fn run(doc: &str, line: &str, dir: &Path) {
    let bin = Path::new(env!("CARGO_BIN_EXE_grundy"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let start = Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg(line)
        .env("PATH", &path)
        // mpirun lines as a reader types them, on a machine where tests may run as root
        // and with fewer cores than ranks.
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .current_dir(dir)
        .timeout(LIMIT)
        .output()
        .unwrap();
    let secs = start.elapsed().as_secs_f64();
    let answered = line.starts_with("cadical ") && matches!(out.status.code(), Some(10 | 20));
    assert!(
        out.status.success() || answered,
        "{doc}: `{line}` failed after {secs:.1} s (exit {:?}; a kill at {} s means too slow): {}",
        out.status.code(),
        LIMIT.as_secs(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !out.stdout.is_empty() || !out.stderr.is_empty() || line.contains('>'),
        "{doc}: `{line}` said nothing"
    );
}

#[test]
fn every_documented_command_runs_within_a_minute() {
    let mut total = 0;
    for doc in documents() {
        let name = relative(&doc);
        if RUN_ELSEWHERE.contains(&name.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(&doc).expect("a document");
        let lines = commands(&text);
        if name == "README.md" {
            assert!(lines.len() >= 5, "the README's tour shows {lines:?}");
        }
        let dir = tempfile::tempdir().unwrap();
        for line in &lines {
            run(&name, line, dir.path());
        }
        total += lines.len();
    }
    assert!(total >= 50, "only {total} commands found");
}

/// The anchor GitHub gives a heading: lower case, spaces as `-`, punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// The anchors of a document's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && t.starts_with('#') {
            out.push(slug(t.trim_start_matches('#')));
        }
    }
    out
}

/// The targets of a document's Markdown links and images, outside code blocks and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        // Code spans are the odd-numbered pieces between backticks.
        for (i, piece) in line.split('`').enumerate() {
            if i % 2 == 1 {
                continue;
            }
            let mut rest = piece;
            while let Some(at) = rest.find("](") {
                let after = &rest[at + 2..];
                let Some(end) = after.find(')') else { break };
                out.push(after[..end].trim().to_string());
                rest = &after[end..];
            }
        }
    }
    out
}

#[test]
fn every_relative_link_points_to_a_file_and_heading_that_exist() {
    let mut checked = 0;
    for doc in documents() {
        let name = relative(&doc);
        let text = std::fs::read_to_string(&doc).expect("a document");
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let path = if file.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(file)
            };
            assert!(path.exists(), "{name}: the link `{target}` names no file");
            if !anchor.is_empty() {
                let linked = std::fs::read_to_string(&path).expect("a linked document");
                assert!(
                    anchors(&linked).iter().any(|a| a == anchor),
                    "{name}: the link `{target}` names no heading of {}",
                    relative(&path)
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} links found");
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(
        slug(" Engines, `auto` and checkpoints"),
        "engines-auto-and-checkpoints"
    );
    assert_eq!(
        slug("Past one machine: MPI ranks"),
        "past-one-machine-mpi-ranks"
    );
    assert_eq!(
        link_targets("see [a](b.md#c) and `[x](y)` and ![p](f.png)"),
        ["b.md#c", "f.png"]
    );
}
