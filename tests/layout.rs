//! The workspace's layout, kept: the core crate links no solver, no terminal crate and no MPI,
//! its modules import only the layers below them (game, then the engines, then the catalog of
//! named games, then periods and play), and the library crates name no command-line flag.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The names of a manifest's `[dependencies]` (not its dev-dependencies).
fn dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap();
            out.push(name.to_string());
        }
    }
    out
}

#[test]
fn the_core_crate_links_no_solver_terminal_or_mpi_crate() {
    let deps = dependencies(&root().join("crates/core/Cargo.toml"));
    assert!(deps.contains(&"rayon".to_string()), "{deps:?}");
    for banned in [
        "z3",
        "varisat",
        "clap",
        "indicatif",
        "plotters",
        "mpi",
        "grundy-synth",
    ] {
        assert!(
            !deps.iter().any(|d| d == banned),
            "grundy-core depends on {banned}"
        );
    }
    let synth = dependencies(&root().join("crates/synth/Cargo.toml"));
    for banned in ["clap", "indicatif", "plotters", "mpi"] {
        assert!(
            !synth.iter().any(|d| d == banned),
            "grundy-synth depends on {banned}"
        );
    }
}

/// Calls `f` on each line of non-test code in `dir`'s files (the text before a file's first
/// `#[cfg(test)]`, test files and comments left out).
fn code_lines(dir: &Path, f: &mut impl FnMut(&Path, &str)) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().unwrap() != "tests" {
                code_lines(&path, f);
            }
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".rs") || name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            f(&path, line);
        }
    }
}

/// The `crate::module` paths the non-test code of `dir`'s files names.
fn imports(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    code_lines(dir, &mut |path, line| {
        for (i, _) in line.match_indices("crate::") {
            let module: String = line[i + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            out.push((path.to_path_buf(), module));
        }
    });
}

/// The library crates' messages name no command-line flag (`--mem-limit`): an option or a
/// limit is a typed key that each front end words its own way (issue 42).
#[test]
fn library_code_names_no_flag() {
    let mut flags = Vec::new();
    let mut lines = 0;
    for dir in ["crates/core/src", "crates/synth/src"] {
        code_lines(&root().join(dir), &mut |path, line| {
            lines += 1;
            let named = line.match_indices("--").any(|(i, _)| {
                line[i + 2..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_lowercase())
            });
            if named {
                flags.push(format!("{}: {}", path.display(), line.trim()));
            }
        });
    }
    assert!(lines > 10_000, "only {lines} lines of library code read");
    assert!(
        flags.is_empty(),
        "flags named in library code:\n{}",
        flags.join("\n")
    );
}

#[test]
fn core_modules_import_only_the_layers_below_them() {
    let src = root().join("crates/core/src");
    let above = |module: &str| -> &[&str] {
        match module {
            "game" => &["sg", "catalog", "period", "play", "cluster", "progress"],
            "sg" => &["catalog", "period", "play"],
            "catalog" => &["period", "play"],
            _ => &[],
        }
    };
    for module in ["game", "sg", "catalog"] {
        let mut found = Vec::new();
        imports(&src.join(module), &mut found);
        assert!(!found.is_empty(), "{module} names no crate path?");
        for (path, used) in found {
            assert!(
                !above(module).contains(&used.as_str()),
                "{} ({module}) imports crate::{used}, a layer above it",
                path.display()
            );
        }
    }
}
