//! The command line every bench main reads: `cargo bench --bench NAME -- WORD...` passes
//! `--bench` and the words; `cargo test --all-targets` runs bench binaries without `--bench`,
//! and then a bench does nothing.

/// The words after `--` (arguments not starting with `--`), or `None` when the binary was not
/// run as a bench.
pub fn words() -> Option<Vec<String>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        return None;
    }
    Some(args.into_iter().filter(|a| !a.starts_with("--")).collect())
}

/// The environment variable `name` parsed, or `default` when it is unset or does not parse.
#[allow(dead_code)]
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// "(YYYY-MM-DD, hash)": the date and commit a table's figures are taken at, as the docs'
/// tables give them once, in the heading above the table.
#[allow(dead_code)]
pub fn stamp() -> String {
    let date = std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "date unknown".to_string());
    format!("({date}, {})", commit())
}

/// The short hash of the commit the figures are taken at ("unknown" outside a git checkout).
#[allow(dead_code)]
pub fn commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string())
}
