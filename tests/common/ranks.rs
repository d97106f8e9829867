//! Helpers of the end-to-end tests under `mpirun` (tests/mpi.rs, tests/mpi_sg.rs).

use std::process::Output;
use std::time::Duration;

use super::grundy;

/// `program` on two ranks over shared memory and the loopback interface only, bounded in time.
pub fn on_two_ranks(program: &std::path::Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::new("mpirun");
    c.args(["--allow-run-as-root", "--oversubscribe", "-np", "2"])
        .args(["--mca", "btl", "self,vader"])
        .args(["--mca", "oob_tcp_if_include", "lo"])
        .arg(program)
        .timeout(Duration::from_secs(120));
    c
}

/// `grundy args` on two ranks.
pub fn mpirun(args: &[&str]) -> Output {
    on_two_ranks(&assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .output()
        .unwrap()
}

/// Lines grundy itself wrote on standard error (mpirun adds its own banner on failures).
pub fn grundy_lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.starts_with("grundy:"))
        .map(String::from)
        .collect()
}

pub fn single(args: &[&str]) -> Output {
    grundy().args(args).output().unwrap()
}

/// `mpirun` with one rank running `grundy first` and another `grundy second`: what one rank
/// alone fails on.
pub fn mpmd(first: &[&str], second: &[&str]) -> Output {
    let grundy = assert_cmd::cargo::cargo_bin("grundy");
    mpmd_of(&grundy, first, &grundy, second)
}

/// `mpirun` with one rank running `one first` and another `other second`.
pub fn mpmd_of(
    one: &std::path::Path,
    first: &[&str],
    other: &std::path::Path,
    second: &[&str],
) -> Output {
    assert_cmd::Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe"])
        .args(["--mca", "btl", "self,vader"])
        .args(["--mca", "oob_tcp_if_include", "lo"])
        .arg("-np")
        .arg("1")
        .arg(one)
        .args(first)
        .args([":", "-np", "1"])
        .arg(other)
        .args(second)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap()
}
