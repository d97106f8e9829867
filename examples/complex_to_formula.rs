//! From a complex in a file to a formula, through the library: the complex is read from JSON,
//! its box of values tabulated and written as a TSV table (what `grundy table` writes), the
//! table read back as a data set, and the shortest program for its zero positions searched,
//! proved minimal and checked on every position.
//!
//! The complex: an edge 0-1 and a lone vertex 2. The lone vertex is a nim heap, so the zero
//! positions are those where the edge's value equals x2; the search finds that value to be
//! x0 + x1, as a program of five instructions.
//!
//! `cargo run --release --example complex_to_formula` (it also runs in `cargo test`).

use grundy_core::catalog::spec::{self, Heaps};
use grundy_core::sg::table::TableOptions;
use grundy_synth::cegis::synthesize;
use grundy_synth::data::Dataset;
use grundy_synth::enumerate::EnumBackend;
use grundy_synth::lang::OpSet;
use grundy_synth::problem::{Problem, Target};

fn main() -> Result<(), grundy_core::Error> {
    let dir = tempfile::tempdir().expect("a temporary directory");

    // 1. A custom complex from a file.
    let complex = dir.path().join("edge-and-vertex.json");
    std::fs::write(&complex, r#"{"vertices": 3, "faces": [[0, 1], [2]]}"#)
        .expect("writing the complex");
    let game = spec::parse(
        &format!("complex-file:{}", complex.display()),
        Heaps::default(),
    )?;
    println!("{}: {}", game.name(), game.describe_variables());

    // 2. Its values on [0,8)^3, written as `grundy table` writes them.
    let table = game.tabulate(&[8, 8, 8], &TableOptions::default())?;
    let mut tsv = String::from("x0\tx1\tx2\tsg\n");
    for i in 0..table.len() {
        let p = table.grid().point(i);
        let cells: Vec<String> = p.iter().map(|x| x.to_string()).collect();
        tsv += &format!(
            "{}\t{}\n",
            cells.join("\t"),
            table.value_at(i).expect("every point is a position")
        );
    }
    let file = dir.path().join("table.tsv");
    std::fs::write(&file, tsv).expect("writing the table");

    // 3. The table read back: the same positions and values.
    let data = Dataset::from_file(&file)?;
    assert_eq!(data.points.len(), table.len());
    for (p, &v) in data.points.iter().zip(&data.values) {
        let p: Vec<u32> = p.iter().map(|&x| x as u32).collect();
        assert_eq!(table.get(&p), Some(v), "{p:?}");
    }
    let zeros = data.values.iter().filter(|&&v| v == 0).count();
    println!(
        "{} positions read back, {zeros} zero positions",
        data.points.len()
    );

    // 4. The shortest program that is 0 exactly on the zero positions, by enumeration.
    let problem = Problem::new(data, OpSet::thesis(3), 8, Target::Zero, None)?;
    let backend = EnumBackend::new(0, 1 << 30);
    let found = synthesize(&problem, &backend, 9, None)?;
    let program = &found.program;
    assert!(
        problem.failures(program).is_empty(),
        "verified on every position"
    );
    println!(
        "{} instructions{}: {}  ({})",
        program.len(),
        if found.minimal {
            ", proved minimal"
        } else {
            ""
        },
        program.infix(),
        program
    );
    assert!(found.minimal);
    assert_eq!(program.len(), 5);
    Ok(())
}
