//! What `synth --export-*` writes: the files, created before any work, and the instances
//! (DIMACS, SMT-LIB, SyGuS, and the cubes of a split), refused past a size without --force.

use std::path::{Path, PathBuf};

use super::SynthArgs;
use grundy_core::catalog::spec;
use grundy_core::error::Error;
use grundy_core::files::{self, OutputFile};
use grundy_core::units::format_bytes;
use grundy_synth::problem::Problem;
use grundy_synth::sat;
use grundy_synth::setup::Setup;
use grundy_synth::size;
use grundy_synth::smt;

/// Exports larger than this (estimated) are refused without --force.
const EXPORT_LIMIT: u64 = 1 << 30;

/// The export files, checked to be distinct and created before any work.
pub(super) struct Exports {
    cnf: Option<OutputFile>,
    smt: Option<OutputFile>,
    sygus: Option<OutputFile>,
    /// The iCNF and the cube list of --export-cubes.
    cubes: Option<(OutputFile, OutputFile)>,
}

/// The files --export-cubes writes into `dir` for `length`.
fn cube_files(dir: &Path, length: usize) -> (PathBuf, PathBuf) {
    (
        dir.join(format!("len{length}.icnf")),
        dir.join(format!("len{length}.cubes")),
    )
}

impl Exports {
    /// Checks every output of the run (the exports and `others`: the report and its figure)
    /// to be distinct, not an input and not a proof's name, and creates the exports' files.
    pub(super) fn create(args: &SynthArgs, others: &[(&str, &Path)]) -> Result<Self, Error> {
        if args.length.is_some()
            && args.export_cnf.is_none()
            && args.export_smt.is_none()
            && args.export_cubes.is_none()
        {
            return Err(Error::Usage(
                "--length sets the length of --export-cnf, --export-smt or --export-cubes; \
                 give one of them"
                    .into(),
            ));
        }
        let cube_paths = match (&args.export_cubes, args.length) {
            (Some(dir), Some(length)) => {
                if !dir.is_dir() {
                    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
                }
                let (icnf, list) = cube_files(dir, length);
                Some((icnf, list))
            }
            _ => None,
        };
        let mut named: Vec<(&str, &Path)> = [
            ("--export-cnf", &args.export_cnf),
            ("--export-smt", &args.export_smt),
            ("--export-sygus", &args.export_sygus),
        ]
        .into_iter()
        .filter_map(|(name, p)| p.as_deref().map(|p| (name, p)))
        .collect();
        if let Some((icnf, list)) = &cube_paths {
            named.push(("--export-cubes", icnf));
            named.push(("--export-cubes", list));
        }
        named.extend_from_slice(others);
        let mut inputs: Vec<(&str, &Path)> = Vec::new();
        if let Some(p) = &args.problem.data {
            inputs.push(("--data", p));
        }
        if let Some(p) = args.problem.game.as_deref().and_then(spec::input_file) {
            inputs.push(("the game's file", p));
        }
        files::check_outputs(&named, &inputs)?;
        // The proofs are FILE.len<L>.cnf and .drat, for lengths not known yet.
        if let Some(proof) = &args.proof {
            let mut stem = proof.as_os_str().to_owned();
            stem.push(".len");
            let stem = stem.to_string_lossy().into_owned();
            if let Some((name, p)) = named
                .iter()
                .find(|(_, p)| p.to_string_lossy().starts_with(&stem))
            {
                return Err(Error::Usage(format!(
                    "{name} {} would collide with the proofs {stem}<L>.cnf/.drat",
                    p.display()
                )));
            }
        }
        let create = |p: &Option<PathBuf>| p.as_deref().map(OutputFile::create).transpose();
        Ok(Exports {
            cnf: create(&args.export_cnf)?,
            smt: create(&args.export_smt)?,
            sygus: create(&args.export_sygus)?,
            cubes: match cube_paths {
                Some((icnf, list)) => {
                    Some((OutputFile::create(&icnf)?, OutputFile::create(&list)?))
                }
                None => None,
            },
        })
    }

    pub(super) fn any(&self) -> bool {
        self.cnf.is_some() || self.smt.is_some() || self.sygus.is_some() || self.cubes.is_some()
    }
}

/// The cubes as iCNF `a` lines, each after a comment with its number and what it fixes.
fn cube_list(cubes: &[sat::Cube], length: usize) -> String {
    let mut s = format!(
        "c the {} cubes of len{length}.icnf, in its order: cube k is the k-th `a` line\n",
        cubes.len()
    );
    for (k, c) in cubes.iter().enumerate() {
        let lits: Vec<String> = c.lits.iter().map(|l| l.to_dimacs().to_string()).collect();
        s.push_str(&format!(
            "c cube {k}: {}\na {} 0\n",
            c.describe(),
            lits.join(" ")
        ));
    }
    s
}

/// Writes the exports: what was written, and the writes that failed; an export refused as a
/// whole (past its size limit) is an error before any is written.
pub(super) fn export(
    args: &SynthArgs,
    exports: Exports,
    setup: &Setup,
    problem: &Problem,
    searched: Option<&[usize]>,
) -> Result<(Vec<serde_json::Value>, Vec<Error>), Error> {
    let (examples, which): (Vec<usize>, String) = match searched {
        None => ((0..problem.examples.len()).collect(), "all".to_string()),
        Some(e) => (
            e.to_vec(),
            format!("cegis {} of {}", e.len(), problem.examples.len()),
        ),
    };
    let notes = setup.notes(&which, searched.map(|_| examples.as_slice()));
    let check_size = |what: &str, render: &size::Render<'_>| {
        let length = args.length.expect("required by clap");
        let bytes = size::estimate(problem, length, &examples, render)?;
        if bytes > EXPORT_LIMIT && !args.force {
            return Err(Error::Resource(format!(
                "the {what} for length {length} on {} examples would take about {} \
                 (estimated), over the limit of {}; pass --force to write it anyway",
                examples.len(),
                format_bytes(bytes),
                format_bytes(EXPORT_LIMIT)
            )));
        }
        Ok(())
    };
    if exports.cnf.is_some() || exports.cubes.is_some() {
        check_size("CNF", &|l, e| {
            sat::export_dimacs(problem, l, e, &[]).map(|s| s.len())
        })?;
    }
    if exports.smt.is_some() {
        check_size("SMT-LIB script", &|l, e| {
            smt::export_smtlib(problem, l, e, &[]).map(|s| s.len())
        })?;
    }
    let icnf = match (&exports.cubes, args.length) {
        (Some(_), Some(length)) => Some(sat::export_icnf(problem, length, &examples, &notes)?),
        _ => None,
    };
    let cubes_written = icnf.as_ref().map(|(_, cubes)| cubes.len());
    let mut written = Vec::new();
    let mut failed = Vec::new();
    // Each file is written whatever became of the others: one that fails is reported, and
    // the rest are still whole.
    let mut write = |file: OutputFile, format: &str, text: Result<String, Error>| {
        let mut file = file;
        let path = file.path().to_path_buf();
        let done = text.and_then(|text| {
            file.writer()
                .write_all(text.as_bytes())
                .map_err(|e| Error::io(&path, e))?;
            file.commit()
        });
        if let Err(e) = done {
            failed.push(e);
            return;
        }
        eprintln!(
            "wrote {} ({} examples: {which})",
            path.display(),
            examples.len()
        );
        written.push(serde_json::json!({
            "path": path,
            "format": format,
            "length": args.length.filter(|_| format != "sygus"),
            // How many `a` lines an iCNF or cube list holds.
            "cubes": cubes_written.filter(|_| matches!(format, "icnf" | "cubes")),
            "examples": examples.len(),
            "which": which,
        }));
    };
    if let Some(f) = exports.cnf {
        let length = args.length.expect("required by clap");
        write(
            f,
            "dimacs",
            sat::export_dimacs(problem, length, &examples, &notes),
        );
    }
    if let Some(f) = exports.smt {
        let length = args.length.expect("required by clap");
        write(
            f,
            "smtlib",
            smt::export_smtlib(problem, length, &examples, &notes),
        );
    }
    if let Some(f) = exports.sygus {
        write(f, "sygus", smt::export_sygus(problem, &examples, &notes));
    }
    if let (Some((icnf_file, list)), Some((text, cubes))) = (exports.cubes, icnf) {
        let length = args.length.expect("required by clap");
        write(list, "cubes", Ok(cube_list(&cubes, length)));
        write(icnf_file, "icnf", Ok(text));
    }
    Ok((written, failed))
}
