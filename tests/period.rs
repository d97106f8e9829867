//! End-to-end tests of `grundy period`: proved periods as text, LaTeX and JSON; unsettled
//! ranges; bad heap-game specs.

mod common;
use common::{grundy, one_line};

fn json(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let out = grundy().args(args).arg("--json").output().unwrap();
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
    (out.status.code(), v)
}

/// Kayles: preperiod 71, period 12, by the Guy-Smith check; the JSON holds what a reader
/// needs to re-check it.
#[test]
fn kayles_period_is_proved_in_json() {
    let (code, v) = json(&["period", "octal:0.77"]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["status"], "proved");
    assert_eq!(
        (v["preperiod"].as_u64(), v["period"].as_u64()),
        (Some(71), Some(12))
    );
    assert_eq!(v["criterion"]["name"], "guy-smith", "{v}");
    assert_eq!(v["criterion"]["take"], 2, "{v}");
    // Values of the preperiod and one period, from heap 0.
    let values = v["values"].as_array().unwrap();
    assert_eq!(values.len(), 71 + 12);
    assert_eq!(values[..5], [0, 1, 2, 3, 1]);
    // 2 max(n0, 1) + p + t = 156, values compared up to 156 + 12 - 1.
    assert_eq!(v["checked_up_to"], 2 * 71 + 12 + 2 + 12 - 1, "{v}");
}

/// The course project's game (take 1-3 from a heap): period 4, stated as a theorem.
#[test]
fn subtraction_theorem_in_text_and_latex() {
    let out = grundy()
        .args(["period", "subtraction:1,2,3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("period:     4"), "{text}");
    assert!(text.contains("period values:    0 1 2 3"), "{text}");
    assert!(
        text.contains("Theorem.") && text.contains("Proof."),
        "{text}"
    );
    let out = grundy()
        .args(["period", "subtraction:1,2,3", "--latex"])
        .output()
        .unwrap();
    let tex = String::from_utf8(out.stdout).unwrap();
    assert!(tex.starts_with("\\begin{theorem}"), "{tex}");
    assert!(tex.contains("\\end{proof}"), "{tex}");
}

/// Values that settle nothing are reported as such, with exit 3 and the largest value
/// reached: Grundy's game has no finite check, and Kayles needs more than 100 heaps.
#[test]
fn unsettled_ranges_say_so() {
    let (code, v) = json(&["period", "grundy-game", "--max-heap", "300"]);
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(v["status"], "unsettled");
    assert_eq!(v["computed"], 301);
    assert!(v["no_criterion"].is_string(), "{v}");
    // The largest value reached, and the first heap with it.
    let want = grundy_core::game::heap::nim_sequence(&grundy_core::game::heap::GrundysGame, 300);
    let top = *want.iter().max().unwrap();
    let heap = want.iter().position(|&g| g == top).unwrap();
    assert_eq!(
        v["largest"],
        serde_json::json!({ "value": top, "heap": heap })
    );
    let out = grundy()
        .args(["period", "grundy-game", "--max-heap", "300"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("largest:    {top}, first at heap {heap}\n")),
        "{text}"
    );
    let (code, v) = json(&["period", "octal:0.77", "--max-heap", "100"]);
    assert_eq!(code, Some(3), "{v}");
    assert!(v["no_criterion"].is_null(), "{v}");
    assert!(v["note"].as_str().unwrap().contains("0..100"), "{v}");
}

/// A time limit ends a run that would go on for hours (three-heap splits make each value
/// quadratic) with the values so far, undecided: exit 3, as JSON and as text.
#[test]
fn time_limits_end_undecided_with_the_values_so_far() {
    let (code, v) = json(&["period", "hex:0.9", "--timeout", "0.5"]);
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(
        (&v["status"], &v["timed_out"]),
        (&"unsettled".into(), &true.into())
    );
    assert!(v["computed"].as_u64().unwrap() > 256, "{v}");
    assert!(v["note"].as_str().unwrap().contains("time limit"), "{v}");
    let out = grundy()
        .args(["period", "hex:0.9", "--timeout", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("the run stopped (a time limit or an interruption) with heaps 0..0 valued"),
        "{text}"
    );
    // A limit the proof comes within changes nothing.
    let (code, v) = json(&["period", "octal:0.77", "--timeout", "600"]);
    assert_eq!(
        (code, &v["period"], &v["timed_out"]),
        (Some(0), &12.into(), &false.into())
    );
    let out = grundy()
        .args(["period", "octal:0.77", "--timeout", "soon"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// All-but sets grow arithmetically, and a repeated state proves it: taking 2 or more has
/// G(n) = floor(n / 2); all-but {1, 4, 5, 9} has period 8 and saltus 2 (values checked here
/// from the definition, independently of the proof).
#[test]
fn all_but_sets_have_proved_arithmetic_periods() {
    let out = grundy()
        .args(["period", "subtraction:all-but:1", "--max-heap", "400"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("G(n + 2) = G(n) + 1 for every n >= 0") && text.contains("saltus:     1"),
        "{text}"
    );
    let (code, v) = json(&["period", "subtraction:all-but:1,4,5,9"]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(
        (v["period"].as_u64(), v["saltus"].as_u64()),
        (Some(8), Some(2))
    );
    assert_eq!(v["criterion"]["name"], "repeated-state", "{v}");
    // By the definition: G(n) = mex{G(m) : n - m not in {1, 4, 5, 9}}.
    let mut g: Vec<u64> = Vec::new();
    for n in 0..300usize {
        let opts: Vec<u64> = (0..n)
            .filter(|m| ![1, 4, 5, 9].contains(&(n - m)))
            .map(|m| g[m])
            .collect();
        g.push((0..).find(|x| !opts.contains(x)).unwrap());
    }
    let n0 = v["preperiod"].as_u64().unwrap() as usize;
    assert!((n0..292).all(|n| g[n + 8] == g[n] + 2));
    assert!(n0 == 0 || g[n0 + 7] != g[n0 - 1] + 2);
    let out = grundy()
        .args(["period", "subtraction:all-but:1,4,5,9", "--latex"])
        .output()
        .unwrap();
    let tex = String::from_utf8(out.stdout).unwrap();
    assert!(
        tex.contains("arithmetic-periodic") && tex.contains("$G(n + 8) = G(n) + 2$"),
        "{tex}"
    );
}

/// Hex codes that leave three heaps grow arithmetically, proved by the slices' check: 0.C
/// (take one, leave two or three heaps) has G(n) = floor((n - 1) / 2), checked here from the
/// definition; 0.8F's first period reaches its saltus, so it stays observed, unproved.
#[test]
fn hex_codes_have_proved_arithmetic_periods() {
    let (code, v) = json(&["period", "hex:0.C"]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(
        (
            v["preperiod"].as_u64(),
            v["period"].as_u64(),
            v["saltus"].as_u64()
        ),
        (Some(1), Some(2), Some(1)),
        "{v}"
    );
    assert_eq!(v["criterion"]["name"], "slices", "{v}");
    let end = v["checked_up_to"].as_u64().unwrap() as usize;
    // By the definition: the options of n are G(a) ^ G(b) and G(a) ^ G(b) ^ G(c) over the
    // ways of splitting n - 1 into two or three non-empty heaps.
    let mut g: Vec<u64> = vec![0];
    for n in 1..(4 * end).max(120) {
        let r = n - 1;
        let mut opts = Vec::new();
        for a in 1..r {
            opts.push(g[a] ^ g[r - a]);
            for b in 1..r - a {
                opts.push(g[a] ^ g[b] ^ g[r - a - b]);
            }
        }
        g.push((0..).find(|x| !opts.contains(x)).unwrap());
    }
    assert!((1..g.len()).all(|n| g[n] == (n as u64 - 1) / 2));
    let out = grundy().args(["period", "hex:0.C"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("G(n + 2) = G(n) + 1 for every n >= 1") && text.contains("Proof."),
        "{text}"
    );
    let (code, v) = json(&["period", "hex:0.8F", "--max-heap", "300"]);
    assert_eq!(code, Some(3), "{v}");
    assert_eq!(v["status"], "unsettled", "{v}");
    assert_eq!(
        (
            v["observed"]["period"].as_u64(),
            v["observed"]["saltus"].as_u64()
        ),
        (Some(7), Some(4)),
        "{v}"
    );
}

#[test]
fn bad_heap_specs_are_one_line_and_exit_2() {
    one_line(&["period", "octal:0.78"], 2, "not an octal digit");
    one_line(&["period", "subtraction:0,2"], 2, "at least one token");
    one_line(&["period", "subtraction:3,3"], 2, "twice");
    one_line(&["period", "path:3"], 2, "hypergraph nim");
    one_line(
        &["period", "octal:0.77", "--max-heap", "0"],
        2,
        "--max-heap",
    );
    // The sequence's own limit, 2^32 (positions of sums stay below 2^28): past it is bad input,
    // at it a run that does not fit the memory limit is refused before it starts.
    one_line(
        &["period", "grundy-game", "--max-heap", "4294967297"],
        2,
        "between 1 and 4294967296",
    );
    let (code, v) = json(&[
        "period",
        "grundy-game",
        "--max-heap",
        "4294967296",
        "--mem-limit",
        "1",
    ]);
    assert_eq!((code, &v["kind"]), (Some(2), &"resource".into()), "{v}");
    let (code, v) = json(&["period", "hex:0.G"]);
    assert_eq!(code, Some(2));
    assert_eq!(v["kind"], "bad_input", "{v}");
}

/// {1, 3, 5} plays as {1}: the contraction is listed, in text and JSON; other games are refused.
#[test]
fn contractions_of_subtraction_sets() {
    let out = grundy()
        .args(["period", "subtraction:1,3,5", "--contractions"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("contraction: {1} (preperiod 0, period 2"),
        "{text}"
    );
    let (code, v) = json(&["period", "subtraction:1,2,4,8", "--contractions"]);
    assert_eq!(code, Some(0), "{v}");
    assert_eq!(v["contractions"], serde_json::json!([[1, 2]]), "{v}");
    let out = grundy()
        .args(["period", "subtraction:2,3,5,7", "--contractions"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("contractions: none"), "{text}");
    one_line(
        &["period", "octal:0.77", "--contractions"],
        2,
        "finite subtraction set",
    );
}

/// `--report` writes the theorem up with the sequence drawn beside it; a report that is
/// neither Markdown nor LaTeX is refused before any work.
#[test]
fn reports_write_the_theorem_up_with_a_figure() {
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("kayles.md");
    let out = grundy()
        .args(["period", "octal:0.77", "--report", md.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.contains("Theorem. The nim sequence G of octal:0.77 satisfies G(n + 12) = G(n)"));
    assert!(text.contains("![G(n) for n <= 106: preperiod 71, period 12, proved](kayles.png)"));
    let png = std::fs::read(dir.path().join("kayles.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let tex = dir.path().join("s.tex");
    let out = grundy()
        .args([
            "period",
            "subtraction:1,3,4",
            "--report",
            tex.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = std::fs::read_to_string(&tex).unwrap();
    assert!(text.contains("\\begin{theorem}") && text.contains("\\includegraphics"));
    assert!(text.trim_end().ends_with("\\end{document}"));
    let bad = dir.path().join("r.html");
    one_line(
        &["period", "octal:0.77", "--report", bad.to_str().unwrap()],
        2,
        ".md (Markdown) or .tex",
    );
}

/// `--values` writes the values computed in the documented format (read back by the
/// library's reader: the definition's values of Grundy's game), and `--threads` changes
/// nothing in them.
#[test]
fn values_file_holds_the_sequence_for_any_thread_count() {
    use grundy_core::game::heap::{nim_sequence, GrundysGame};
    use grundy_core::period::values_file;
    let dir = tempfile::tempdir().unwrap();
    let want = nim_sequence(&GrundysGame, 3000);
    for threads in ["1", "2"] {
        let path = dir.path().join(format!("g{threads}.values"));
        let out = grundy()
            .args([
                "period",
                "grundy-game",
                "--max-heap",
                "3000",
                "--threads",
                threads,
            ])
            .arg("--values")
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3), "{out:?}");
        let back = values_file::read(&path).unwrap();
        assert_eq!(back.game, "grundy-game");
        assert_eq!(back.values.to_vec(), want);
        let raw = std::fs::read(&path).unwrap();
        assert_eq!(&raw[..8], b"GRUNDYNS");
        assert_eq!(raw.len(), 28 + "grundy-game".len() + 3001);
    }
}

/// A checkpoint resumes: a file holding the first values of a run gives the answer of a run
/// straight through and ends holding every value; another game's file, and a run too big for
/// the memory limit, are refused with one line (exit 2) before any work.
#[test]
fn checkpoints_resume_and_bad_ones_are_refused() {
    use grundy_core::game::heap::{nim_sequence, TakeBreak};
    use grundy_core::period::values_file;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.values");
    let rule = TakeBreak::octal("octal:0.16", "0.16").unwrap();
    values_file::write(&path, "octal:0.16", &nim_sequence(&rule, 1000).into()).unwrap();
    let p = path.to_str().unwrap();
    let (code, resumed) = json(&[
        "period",
        "octal:0.16",
        "--max-heap",
        "4000",
        "--checkpoint",
        p,
    ]);
    let (_, straight) = json(&["period", "octal:0.16", "--max-heap", "4000"]);
    assert_eq!(code, Some(3));
    assert_eq!(resumed, straight);
    assert_eq!(
        values_file::read(&path).unwrap().values.to_vec(),
        nim_sequence(&rule, 4000)
    );
    one_line(
        &["period", "grundy-game", "--checkpoint", p],
        2,
        "a checkpoint of octal:0.16, not of grundy-game",
    );
    one_line(
        &["period", "grundy-game", "--mem-limit", "0.001"],
        2,
        "--mem-limit",
    );
}

/// `--on-disk` holds the values in a file of the directory and answers as a run in memory
/// (JSON and `--values` alike, on two threads, for the rare/common technique and a code that
/// never splits a heap); it leaves nothing behind, and is refused in one line (exit 2) for a
/// rule valued at full width in memory and for a directory that is not there.
#[test]
fn values_on_disk_answer_as_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for game in ["grundy-game", "octal:0.16", "subtraction:2,5,7"] {
        let run = |extra: &[&str], name: &str| {
            let path = dir.path().join(name);
            let mut args = vec!["period", game, "--max-heap", "20000", "--threads", "2"];
            args.extend(extra);
            args.extend(["--values", path.to_str().unwrap()]);
            let (code, v) = json(&args);
            (code, v, std::fs::read(&path).unwrap())
        };
        let memory = run(&[], "memory.values");
        let disk = run(&["--on-disk", d], "disk.values");
        assert_eq!(disk, memory, "{game}");
        // The values' own file had no name: only the two values files are there.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
    one_line(
        &["period", "hex:0.8", "--on-disk", d],
        2,
        "--on-disk holds the values of rules valued in place",
    );
    let gone = dir.path().join("gone");
    one_line(
        &["period", "grundy-game", "--on-disk", gone.to_str().unwrap()],
        2,
        "gone",
    );
}

/// Ctrl-C stops a run with `--checkpoint`: it reports what it has (exit 3, `timed_out`) and
/// the file holds the definition's values as far as they were computed.
#[cfg(unix)]
#[test]
fn ctrl_c_saves_the_values_and_reports() {
    use grundy_core::game::heap::{nim_sequence, GrundysGame};
    use grundy_core::period::values_file;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.values");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "period",
            "grundy-game",
            "--max-heap",
            "100000000",
            "--mem-limit",
            "4",
        ])
        .args(["--checkpoint-every", "1", "--json", "--checkpoint"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first save is made a second into the valuation, long after the handler is set.
    let waited = std::time::Instant::now();
    while !file.exists() {
        assert!(waited.elapsed().as_secs() < 120, "no save within 2 minutes");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    let said: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(said["timed_out"], true, "{said}");
    let kept = values_file::read(&file).unwrap();
    assert_eq!(kept.values.len() as u64, said["computed"].as_u64().unwrap());
    let want = nim_sequence(&GrundysGame, kept.values.len() - 1);
    assert_eq!(kept.values.to_vec(), want);
}
