//! Exported instances re-solved by external solvers (CaDiCaL, MiniSat, z3, dpr-trim's `rate`;
//! installed by scripts/test) and decoded back by `grundy decode`: CNF, cubes, SMT-LIB, the
//! committed instances, refutation proofs and the Slurm array script.

use std::path::Path;
use std::process::Command as Process;

mod common;
use common::{grundy, verifies};

fn solver_output(cmd: &str, args: &[&str]) -> String {
    let out = Process::new(cmd)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{cmd} is needed (scripts/test installs it): {e}"));
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// `synth` exporting path:3's indicator on [0,5)^3 at `length`, with `extra` arguments.
fn export_p3(length: &str, extra: &[&std::ffi::OsStr]) -> std::process::Output {
    grundy()
        .args(["synth", "path:3", "--max", "5", "--target", "indicator"])
        .args(["--length", length])
        .args(extra)
        .output()
        .unwrap()
}

fn export_cnf(dir: &Path, length: &str) -> std::path::PathBuf {
    let cnf = dir.join(format!("p3-{length}.cnf"));
    let out = export_p3(length, &["--export-cnf".as_ref(), cnf.as_os_str()]);
    assert!(out.status.success(), "{out:?}");
    cnf
}

#[test]
fn exported_cnf_is_solved_by_cadical_and_minisat_and_decodes() {
    let dir = tempfile::tempdir().unwrap();
    let sat = export_cnf(dir.path(), "6");
    let text = std::fs::read_to_string(&sat).unwrap();
    assert!(text.contains("c note grundy game path:3") && text.contains("c note grundy width 8"));

    let model = dir.path().join("cadical.out");
    std::fs::write(
        &model,
        solver_output("cadical", &["-q", sat.to_str().unwrap()]),
    )
    .unwrap();
    grundy()
        .args(["decode", "--cnf"])
        .arg(&sat)
        .arg("--model")
        .arg(&model)
        .assert()
        .success();

    let raw = dir.path().join("minisat.raw");
    Process::new("minisat")
        .arg(&sat)
        .arg(&raw)
        .output()
        .expect("minisat is needed (scripts/test installs it)");
    grundy()
        .args(["decode", "--cnf"])
        .arg(&sat)
        .arg("--model")
        .arg(&raw)
        .assert()
        .success();

    // Length 5 is below the minimum: both solvers say UNSAT, and decode calls the length
    // refuted, a proved answer, as it does when every cube of an iCNF is unsatisfiable.
    let unsat = export_cnf(dir.path(), "5");
    let out = solver_output("cadical", &["-q", unsat.to_str().unwrap()]);
    assert!(out.contains("s UNSATISFIABLE"), "{out}");
    let model = dir.path().join("unsat.out");
    std::fs::write(&model, out).unwrap();
    let o = grundy()
        .args(["decode", "--cnf"])
        .arg(&unsat)
        .arg("--model")
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("refuted:      length 5:"), "{text}");
}

/// `--export-cubes DIR` for path:3's indicator at `length`: the iCNF and the cube list.
fn export_cubes(dir: &Path, length: &str) -> (std::path::PathBuf, String) {
    let out = export_p3(
        length,
        &[
            "--json".as_ref(),
            "--export-cubes".as_ref(),
            dir.as_os_str(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let icnf = dir.join(format!("len{length}.icnf"));
    let list = std::fs::read_to_string(dir.join(format!("len{length}.cubes"))).unwrap();
    let cubes = list.lines().filter(|l| l.starts_with("a ")).count();
    let text = std::fs::read_to_string(&icnf).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("a ")).count(), cubes);
    for file in json["exported"].as_array().unwrap() {
        assert_eq!(file["cubes"], cubes, "{json}");
    }
    (icnf, list)
}

#[test]
fn exported_cubes_are_solved_by_cadical_and_decode() {
    let dir = tempfile::tempdir().unwrap();
    // Length 6 has programs: CaDiCaL takes the cubes in turn and stops at a satisfied one,
    // whose model decodes to a program that passes every example.
    let (sat, list) = export_cubes(dir.path(), "6");
    assert!(list.contains("c cube 0: step 4 "), "{list}");
    let model = dir.path().join("cadical.out");
    std::fs::write(
        &model,
        solver_output("cadical", &["-q", sat.to_str().unwrap()]),
    )
    .unwrap();
    let out = grundy()
        .args(["decode", "--cnf"])
        .arg(&sat)
        .arg("--model")
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("verified on all"));
    // Length 5 has none: every cube is unsatisfiable, so the whole iCNF is.
    let (unsat, _) = export_cubes(dir.path(), "5");
    let out = solver_output("cadical", &["-q", unsat.to_str().unwrap()]);
    assert!(out.contains("s UNSATISFIABLE"), "{out}");
}

#[test]
fn exported_smtlib_is_solved_by_z3() {
    // Shriek's SG function (x0 + x1) ^ x2 reads three variables: 5 instructions at least.
    let dir = tempfile::tempdir().unwrap();
    for (length, want) in [("5", "sat"), ("4", "unsat")] {
        let smt = dir.path().join(format!("shriek-{length}.smt2"));
        grundy()
            .args([
                "synth",
                "shriek",
                "--max",
                "4",
                "--target",
                "sg",
                "--length",
                length,
                "--export-smt",
            ])
            .arg(&smt)
            .assert()
            .success();
        let out = solver_output("z3", &[smt.to_str().unwrap()]);
        assert_eq!(out.lines().next(), Some(want), "{out}");
    }
}

#[test]
fn committed_instances_have_their_recorded_status() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("encodings/instances");
    let manifest = std::fs::read_to_string(root.join("status.tsv")).unwrap();
    let mut checked = 0;
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, status) = (root.join(cols[0]), cols[1]);
        let path = file.to_str().unwrap();
        if path.ends_with(".cnf") {
            let want = if status == "sat" {
                "s SATISFIABLE"
            } else {
                "s UNSATISFIABLE"
            };
            let out = solver_output("cadical", &["-q", path]);
            assert!(out.contains(want), "cadical on {path}: {out}");
            if status == "sat" {
                // The instances hold a CEGIS example set: the decoded program must satisfy it
                // (checked first, exit 2 otherwise); on all the data it may pass (0) or fail (1).
                let model = tempfile::NamedTempFile::new().unwrap();
                std::fs::write(model.path(), &out).unwrap();
                let o = grundy()
                    .args(["decode", "--cnf", path, "--model"])
                    .arg(model.path())
                    .output()
                    .unwrap();
                let err = String::from_utf8_lossy(&o.stderr);
                match o.status.code() {
                    Some(0) => {}
                    Some(1) => assert!(
                        err.contains("satisfies the exported examples"),
                        "{path}: {err}"
                    ),
                    _ => panic!("decode of {path}: {err}"),
                }
            }
            let raw = tempfile::NamedTempFile::new().unwrap();
            Process::new("minisat")
                .arg(path)
                .arg(raw.path())
                .output()
                .unwrap();
            let first = std::fs::read_to_string(raw.path()).unwrap();
            assert_eq!(
                first.lines().next(),
                Some(if status == "sat" { "SAT" } else { "UNSAT" }),
                "minisat on {path}"
            );
        } else if path.ends_with(".smt2") {
            let out = solver_output("z3", &[path]);
            assert_eq!(out.lines().next(), Some(status), "z3 on {path}");
        }
        checked += 1;
    }
    assert!(checked >= 4, "the manifest lists the instances");
}

/// A model of an instance that held all the data, whose program fails the data, is a wrong
/// model (exit 2), not a counterexample.
#[test]
fn a_wrong_model_of_a_whole_instance_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = export_cnf(dir.path(), "6");
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(text.contains("c note grundy examples all"));
    // The opcode variables of a valid program that is no classifier of P3.
    let wanted = [
        "Push(0)",
        "Push(1)",
        "Plus",
        "Push(2)",
        "Plus",
        "BooleanNot",
    ];
    let lits: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("c op "))
        .filter_map(|rest| {
            let w: Vec<&str> = rest.split_whitespace().collect();
            let step: usize = w[0].parse().unwrap();
            (wanted[step] == w[1]).then(|| w[2].to_string())
        })
        .collect();
    assert_eq!(lits.len(), 6, "every step lists its instruction");
    let model = dir.path().join("wrong.out");
    std::fs::write(&model, format!("s SATISFIABLE\nv {} 0\n", lits.join(" "))).unwrap();
    let out = grundy()
        .args(["decode", "--cnf"])
        .arg(&cnf)
        .arg("--model")
        .arg(&model)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("fails an example the instance holds"), "{err}");
}

/// The DRAT checker `rate` (installed by scripts/deps), from PATH or cargo's bin directory.
fn rate() -> std::path::PathBuf {
    let home = std::env::var("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| Path::new(&std::env::var("HOME").unwrap()).join(".cargo"));
    let installed = home.join("bin/rate");
    if installed.exists() {
        return installed;
    }
    "rate".into()
}

/// Runs `rate` on a CNF and its proof: whether it verified the refutation.
fn rate_verifies(cnf: &Path, proof: &Path) -> bool {
    let out = Process::new(rate())
        .arg(cnf)
        .arg(proof)
        .output()
        .unwrap_or_else(|e| panic!("rate is needed (scripts/deps installs it): {e}"));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .any(|l| l == "s VERIFIED")
}

/// SAT refutations kept with --proof are checked by a second, independent DRAT checker (rate,
/// not varisat's own); a proof missing its last steps is rejected, so the check can fail.
#[test]
fn sat_refutation_proofs_pass_an_independent_checker() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("proof");
    let out = grundy()
        .args([
            "synth",
            "circular:4,2",
            "--max",
            "4",
            "--solver",
            "sat",
            "--target",
        ])
        .args(["indicator", "--proof", base.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut proofs: Vec<std::path::PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "drat"))
        .collect();
    proofs.sort();
    assert!(!proofs.is_empty(), "sat refuted some length with a proof");
    for proof in &proofs {
        let cnf = proof.with_extension("cnf");
        assert!(rate_verifies(&cnf, proof), "{}", proof.display());
    }
    // The last proof without its second half: no empty clause is derived.
    let last = proofs.last().unwrap();
    let text = std::fs::read_to_string(last).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = dir.path().join("cut.drat");
    std::fs::write(&cut, lines[..lines.len() / 2].join("\n") + "\n").unwrap();
    assert!(!rate_verifies(&last.with_extension("cnf"), &cut));
}

/// The documented Slurm array script, run task by task as Slurm would, solves the cubes of an
/// `--export-cubes` split one per task, and `decode --answers` merges them: a refuted length
/// when every cube is unsatisfiable, the open cubes when some answers are missing, and the
/// checked program of a satisfied cube.
#[test]
fn the_slurm_array_script_solves_cubes_that_decode_merges() {
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/slurm/cubes.sbatch");
    let split = |length: &str| {
        let cubes = dir.path().join(format!("cubes{length}"));
        grundy()
            .args(["synth", "path:3", "--max", "3", "--target", "indicator"])
            .args(["--length", length, "--export-cubes"])
            .arg(&cubes)
            .assert()
            .success();
        cubes.join(format!("len{length}.icnf"))
    };
    let task = |icnf: &Path, answers: &Path, k: usize| {
        let out = Process::new("bash")
            .arg(&script)
            .arg(icnf)
            .arg(answers)
            .env("SLURM_ARRAY_TASK_ID", k.to_string())
            .output()
            .unwrap();
        assert!(out.status.success(), "cube {k}: {out:?}");
    };
    let merged = |icnf: &Path, answers: &Path| {
        let out = grundy()
            .args(["decode", "--json", "--cnf"])
            .arg(icnf)
            .arg("--answers")
            .arg(answers)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), v)
    };

    // Length 3 is below the minimum (6): every one of its cubes is unsatisfiable.
    let icnf = split("3");
    let cubes = std::fs::read_to_string(&icnf)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("a "))
        .count();
    assert!(cubes > 10, "{cubes} cubes");
    let answers = dir.path().join("answers3");
    for k in 0..cubes {
        task(&icnf, &answers, k);
    }
    let (code, v) = merged(&icnf, &answers);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(
        (v["refuted"].as_bool(), v["length"].as_u64()),
        (Some(true), Some(3))
    );
    assert_eq!(v["cubes"].as_u64(), Some(cubes as u64));
    // One answer lost: the length is open, and the merge says which cube to run again.
    std::fs::remove_file(answers.join("7.out")).unwrap();
    let (code, v) = merged(&icnf, &answers);
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(v["refuted"], false);
    assert_eq!(v["undecided"], serde_json::json!([7]));

    // Length 6 has programs; cube 198 (step 4 RightShift, step 5 BooleanNot) holds one, and a
    // satisfied cube decides the length whatever the others say.
    let icnf = split("6");
    let text = std::fs::read_to_string(&icnf).unwrap();
    assert!(text.contains("c cube 198 step 4 RightShift, step 5 BooleanNot"));
    let answers = dir.path().join("answers6");
    for k in [0, 198] {
        task(&icnf, &answers, k);
    }
    let (code, v) = merged(&icnf, &answers);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["cube"], 198);
    assert_eq!(v["satisfies_data"], true);
    assert_eq!(v["length"], 6);
    verifies("path:3", &v["program"], "3", &["--target", "indicator"]);
}
