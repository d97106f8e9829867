//! The workspace's layout, kept: the core crate links no solver, no terminal crate and no MPI,
//! and its modules import only the layers below them (game, then the engines, then the
//! catalog of named games, then periods and play).

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

/// The `crate::module` paths the non-test code of `dir`'s files names (the text before a
/// file's first `#[cfg(test)]`, comments left out).
fn imports(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().unwrap() != "tests" {
                imports(&path, out);
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
            for (i, _) in line.match_indices("crate::") {
                let module: String = line[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                out.push((path.clone(), module));
            }
        }
    }
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
