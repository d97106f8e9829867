//! Every `grundy` command in the README's `sh` code blocks runs, succeeds, and finishes within
//! a minute (the README promises it; the runs share one directory, so a command may read what
//! an earlier one wrote, as a reader following along would). `cadical` lines run too, as the
//! README shows them feeding `grundy decode`; its exit codes 10 and 20 (satisfiable,
//! unsatisfiable) are its answers, not failures.

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;

/// The README's promise for every command it shows.
const LIMIT: Duration = Duration::from_secs(60);

/// The `grundy ...` and `cadical ...` lines of the README's `sh` blocks, in order, and the
/// `mpirun ...` ones in a build with the `mpi` feature.
fn readme_commands() -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("the README");
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

#[test]
fn every_readme_command_runs_within_a_minute() {
    let commands = readme_commands();
    assert!(commands.len() >= 15, "found {commands:?}");
    let bin = Path::new(env!("CARGO_BIN_EXE_grundy"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let dir = tempfile::tempdir().unwrap();
    for line in commands {
        let start = Instant::now();
        let out = Command::new("sh")
            .arg("-c")
            .arg(&line)
            .env("PATH", &path)
            // mpirun lines as a reader types them, on a machine where tests may run as root
            // and with fewer cores than ranks.
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .env("OMPI_MCA_rmaps_base_oversubscribe", "1")
            .current_dir(dir.path())
            .timeout(LIMIT)
            .output()
            .unwrap();
        let secs = start.elapsed().as_secs_f64();
        let answered = line.starts_with("cadical ") && matches!(out.status.code(), Some(10 | 20));
        assert!(
            out.status.success() || answered,
            "`{line}` failed after {secs:.1} s (exit {:?}; a kill at {} s means too slow): {}",
            out.status.code(),
            LIMIT.as_secs(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !out.stdout.is_empty() || !out.stderr.is_empty() || line.contains('>'),
            "`{line}` said nothing"
        );
    }
}
