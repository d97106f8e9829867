//! The same work on 1 and 2 MPI ranks of this machine, and on 1 rank of 2 threads (what two
//! cores of this machine give at best), in one run, best of three each (of one for the table):
//! `cargo bench --features mpi --bench mpi` (`-- synth` for the work whose name says so). Each
//! rank runs one worker thread (`RAYON_NUM_THREADS=1`), as on a cluster with one rank per core,
//! so the first two columns compare ranks, not threads. Checks that both runs write the same bytes, and reports wall time, each
//! rank's peak memory and bytes sent (from `--stats`), and an estimate for 64 ranks from the
//! two measurements (Amdahl's law with the serial fraction the 2-rank time implies).
//! Output is Markdown for docs/benchmarks.md.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Read;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// One workload: the grundy arguments, with `OUT` standing for the output file (without one,
/// the output compared is standard output) and `THREADS` for each rank's worker threads, and
/// text the output must hold. mpirun runs without
/// its abort on a non-zero exit (which takes a second or two), and then exits 0 whatever the
/// ranks' codes, so the output tells how the work ended.
struct Work {
    name: &'static str,
    args: &'static [&'static str],
    expect: &'static str,
    runs: usize,
}

const WORK: &[Work] = &[
    Work {
        name: "sg cram:5x8 (nimber 1), subtrees dealt",
        args: &["sg", "cram:5x8", "--threads", "THREADS"],
        expect: "1",
        runs: 3,
    },
    Work {
        name: "sg cram:4x11 (nimber 1), subtrees dealt",
        args: &["sg", "cram:4x11", "--threads", "THREADS"],
        expect: "1",
        runs: 3,
    },
    Work {
        name: "sg cram:5x9 (nimber 1), subtrees dealt",
        args: &["sg", "cram:5x9", "--threads", "THREADS"],
        expect: "1",
        runs: 1,
    },
    Work {
        name: "survey of 3-element subtraction sets up to 80 (82 160 games)",
        args: &[
            "survey",
            "subtraction",
            "--size",
            "3",
            "--max-element",
            "80",
            "--out",
            "OUT",
            "--stats",
        ],
        expect: "\"period\"",
        runs: 3,
    },
    Work {
        name: "synth circular:5,2 on [0,5)^5, enumeration: every length up to 11 refuted",
        args: &[
            "synth",
            "circular:5,2",
            "--max",
            "5",
            "--solver",
            "enum",
            "--max-len",
            "11",
            "--json",
            "--quiet",
            "--stats",
        ],
        expect: "no program of length at most 11",
        runs: 3,
    },
    Work {
        name: "table projective-plane [0,24)^6 (191 M positions, 3.6 GB of rows)",
        args: &[
            "table",
            "projective-plane",
            "--max",
            "24",
            "--out",
            "OUT",
            "--zeros",
            "/dev/null",
            "--stats",
        ],
        expect: "x0",
        runs: 1,
    },
];

/// What one run measured.
struct Run {
    seconds: f64,
    /// Per rank: peak memory in MiB, bytes sent.
    ranks: Vec<(f64, u64)>,
    /// The output's length and a hash of its bytes.
    output: (u64, u64),
}

/// The length and a hash of what `r` reads, and its first 64 KiB as text.
fn digest(mut r: impl Read) -> ((u64, u64), String) {
    let mut hasher = DefaultHasher::new();
    let (mut len, mut head) = (0u64, Vec::new());
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = r.read(&mut buf).expect("the output reads");
        if n == 0 {
            break;
        }
        if head.len() < 1 << 16 {
            head.extend_from_slice(&buf[..n.min((1 << 16) - head.len())]);
        }
        buf[..n].hash(&mut hasher);
        len += n as u64;
    }
    (
        (len, hasher.finish()),
        String::from_utf8_lossy(&head).into_owned(),
    )
}

/// `work` on `ranks` ranks of `threads` worker threads each.
fn run(work: &Work, ranks: usize, threads: usize, dir: &Path) -> Run {
    let out = dir.join(format!("out-{ranks}-{threads}"));
    let _ = std::fs::remove_file(&out);
    let args: Vec<String> = work
        .args
        .iter()
        .map(|&a| match a {
            "OUT" => out.to_str().unwrap().to_string(),
            "THREADS" => threads.to_string(),
            a => a.to_string(),
        })
        .collect();
    let start = Instant::now();
    let result = Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(ranks.to_string())
        // A non-zero exit ends the job without mpirun's abort, which takes a second or two.
        .args(["--mca", "orte_abort_on_non_zero_status", "0"])
        // mpirun binds a rank to one core by default, which would leave one rank's second
        // thread nothing to run on.
        .args(["--bind-to", "none"])
        .arg("-x")
        .arg(format!("RAYON_NUM_THREADS={threads}"))
        .arg(env!("CARGO_BIN_EXE_grundy"))
        .args(&args)
        .output()
        .expect("mpirun runs");
    let seconds = start.elapsed().as_secs_f64();
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{}: {err}", work.name);
    let ranks = err
        .lines()
        .filter_map(|l| {
            // "rank 0: peak memory 26.6 MiB, sent 2266805 bytes"
            let rest = l.strip_prefix("rank ")?;
            let mib = rest.split("peak memory ").nth(1)?.split(' ').next()?;
            let sent = rest.split("sent ").nth(1)?.split(' ').next()?;
            Some((mib.parse().ok()?, sent.parse().ok()?))
        })
        .collect::<Vec<(f64, u64)>>();
    // One process's `table --stats` says "peak memory: 26.6 MiB" instead.
    let ranks = match ranks.is_empty() {
        true => err
            .lines()
            .filter_map(|l| {
                l.strip_prefix("peak memory: ")?
                    .split(' ')
                    .next()?
                    .parse()
                    .ok()
            })
            .map(|mib| (mib, 0))
            .collect(),
        false => ranks,
    };
    let (output, text) = match work.args.contains(&"OUT") {
        true => digest(std::fs::File::open(&out).expect("the output file")),
        false => digest(&result.stdout[..]),
    };
    let _ = std::fs::remove_file(&out);
    assert!(text.contains(work.expect), "{}: {text}{err}", work.name);
    Run {
        seconds,
        ranks,
        output,
    }
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    println!("| work | ranks | wall (s) | peak memory per rank (MiB) | bytes sent per rank | 64 ranks (estimate, s) |");
    println!("|---|---|---|---|---|---|");
    // `cargo bench --features mpi --bench mpi -- synth`: only the work whose name has a word.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let chosen = WORK
        .iter()
        .filter(|w| only.is_empty() || only.iter().any(|o| w.name.contains(o.as_str())));
    for work in chosen {
        // Best of RUNS, the three alternating, so that all see the machine's slow spells. One
        // rank of two threads is the machine's own ceiling for two cores.
        let mut best: Option<[Run; 3]> = None;
        for _ in 0..work.runs {
            let runs = [(1, 1), (2, 1), (1, 2)].map(|(r, t)| run(work, r, t, dir.path()));
            best = Some(match best {
                None => runs,
                Some(b) => {
                    let mut pairs = b.into_iter().zip(runs);
                    std::array::from_fn(|_| {
                        let (old, new) = pairs.next().expect("three runs");
                        if new.seconds < old.seconds {
                            new
                        } else {
                            old
                        }
                    })
                }
            });
        }
        let [one, two, threads] = best.expect("at least one run");
        for r in [&two, &threads] {
            assert!(r.output == one.output, "{}: the outputs differ", work.name);
        }
        // Amdahl: t2 = t1 (s + (1 - s) / 2) gives the serial fraction s.
        let serial = (2.0 * two.seconds / one.seconds - 1.0).clamp(0.0, 1.0);
        let t64 = one.seconds * (serial + (1.0 - serial) / 64.0);
        for (r, ranks) in [(&one, 1), (&two, 2)] {
            let mem: Vec<String> = r.ranks.iter().map(|(m, _)| format!("{m:.1}")).collect();
            let sent: Vec<String> = r.ranks.iter().map(|(_, b)| b.to_string()).collect();
            let est = if ranks == 2 {
                format!("{t64:.2} (serial fraction {serial:.2})")
            } else {
                String::new()
            };
            println!(
                "| {} | {ranks} | {:.2} | {} | {} | {est} |",
                work.name,
                r.seconds,
                mem.join(" / "),
                sent.join(" / ")
            );
        }
        println!(
            "| {}: 2 ranks / 1 rank | | {:.2} | | | |",
            work.name,
            two.seconds / one.seconds
        );
        println!(
            "| {}: 1 rank of 2 threads / 1 rank | | {:.2} ({:.2} s) | | | |",
            work.name,
            threads.seconds / one.seconds,
            threads.seconds
        );
    }
}
