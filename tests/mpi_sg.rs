//! `sg` under `mpirun -np 2` on loopback (built with `--features mpi`): the ranks answer what
//! one process answers, dealt or raced, keep their table in `--checkpoint`'s file, and refuse
//! ranks asked different searches.
#![cfg(feature = "mpi")]

mod common;
use common::ranks::{grundy_lines, mpirun, mpmd, single};

use std::process::Output;

#[test]
fn sg_on_two_ranks_answers_what_one_process_answers() {
    // Cram's `auto` and cut_cE deal subtrees to rank 1; naive and plain cut race the ranks.
    for (case, scheme) in [
        (&["sg", "cram:3x5", "--moves"][..], "dealt"),
        (&["sg", "cram:4x7", "--moves"], "dealt"),
        (&["sg", "path:3", "5,4,3", "--engine", "cut_cE"], "dealt"),
        (&["sg", "chomp:5x5", "--moves"], "race"),
        (&["sg", "path:3", "3,4,2", "--engine", "cut"], "race"),
        (&["sg", "cram:4x4", "--engine", "naive"], "race"),
    ] {
        let args = [case, &["--json"]].concat();
        let s = single(&args);
        assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
        let m = mpirun(&args);
        assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
        let [a, b] = [&s, &m].map(|o| {
            serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("one JSON object")
        });
        for key in ["nimber", "engine", "winning_moves", "position"] {
            assert_eq!(a[key], b[key], "{case:?}: {key}");
        }
        let ranks = &b["ranks"];
        assert_eq!(
            (&ranks["size"], &ranks["scheme"]),
            (&2.into(), &scheme.into()),
            "{b}"
        );
        let nodes: Vec<u64> = serde_json::from_value(ranks["nodes"].clone()).unwrap();
        match scheme {
            // Every rank's nodes, summed.
            "dealt" => assert_eq!(nodes.iter().sum::<u64>(), b["nodes"], "{b}"),
            // The first answer's, each rank's listed.
            _ => {
                let winner = ranks["winner"].as_u64().unwrap() as usize;
                assert_eq!(nodes[winner], b["nodes"], "{b}");
            }
        }
    }
    // On a board with subtrees to deal, rank 1 searches some of them.
    let out = mpirun(&["sg", "cram:4x7", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert!(v["ranks"]["nodes"][1].as_u64().unwrap() > 0, "{v}");
    // Text, with the ranks' share in --stats.
    for (game, says) in [
        ("cram:3x5", "ranks: 2 (rank 0 dealt the subtrees"),
        ("chomp:4x4", "ranks: 2 (answered first by rank"),
    ] {
        let out = mpirun(&["sg", game, "--stats"]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(says), "{text}");
    }
    // A time limit passed at once: undecided (exit 3) on every rank, one line.
    let out = mpirun(&["sg", "cram:5x5", "--timeout", "0"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(grundy_lines(&out).len(), 1, "{:?}", grundy_lines(&out));
}

/// `sg --checkpoint` under mpirun keeps the whole dealt search's table in rank 0's file, which
/// one process goes on from, and the reverse; in a race rank 0 keeps its own.
#[test]
fn a_dealt_search_keeps_its_table_for_one_process_and_the_reverse() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cram.ckpt");
    let file = file.to_str().unwrap();
    let json = |out: &Output| -> serde_json::Value {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("one JSON object")
    };
    let args = ["sg", "cram:4x7", "--json", "--checkpoint", file];
    let first = json(&mpirun(&args));
    assert_eq!(first["ranks"]["scheme"], "dealt", "{first}");
    let saved = first["checkpoint"]["saved"].as_u64().expect("a save") as i64;
    assert!(saved > 0, "{first}");
    // One process learns every entry and answers at the root.
    let one = json(&single(&args));
    assert_eq!(one["nimber"], first["nimber"]);
    assert_eq!(one["checkpoint"]["learned"], saved, "{one}");
    assert!(one["nodes"].as_u64().unwrap() < first["nodes"].as_u64().unwrap());
    // A time limit on the ranks saves the table and says so (exit 3, one line), and two ranks
    // go on from a file one process stopped.
    let other = dir.path().join("five.ckpt");
    let other = other.to_str().unwrap();
    let out = single(&["sg", "cram:5x8", "--checkpoint", other, "--timeout", "0.5"]);
    assert_eq!(out.status.code(), Some(3));
    let out = mpirun(&["sg", "cram:5x8", "--checkpoint", other, "--timeout", "0.5"]);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = grundy_lines(&out);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("is saved in"), "{lines:?}");
    let both = json(&mpirun(&[
        "sg",
        "cram:5x8",
        "--json",
        "--checkpoint",
        other,
    ]));
    let alone = json(&single(&["sg", "cram:5x8", "--json"]));
    assert_eq!(both["nimber"], alone["nimber"]);
    assert!(
        both["checkpoint"]["learned"].as_u64().unwrap() > 0,
        "{both}"
    );
    // In a race rank 0 keeps its own table, as one process does; one process learns it.
    let chomp = dir.path().join("chomp.ckpt");
    let chomp = chomp.to_str().unwrap();
    let args = ["sg", "chomp:5x5", "--json", "--checkpoint", chomp];
    let race = json(&mpirun(&args));
    assert_eq!(race["ranks"]["scheme"], "race", "{race}");
    let saved = race["checkpoint"]["saved"].as_u64().expect("a save");
    let one = json(&single(&args));
    assert_eq!(one["nimber"], race["nimber"]);
    assert_eq!(one["checkpoint"]["learned"], saved, "{one}");
    // A file rank 0 cannot read ends every rank with one line, dealt or raced (whichever rank
    // could have answered).
    for (game, path) in [("cram:4x7", file), ("chomp:5x5", chomp)] {
        std::fs::write(path, "not a table").unwrap();
        let out = mpirun(&["sg", game, "--checkpoint", path]);
        assert_eq!(out.status.code(), Some(2), "{game}");
        let lines = grundy_lines(&out);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("not a saved table"), "{lines:?}");
    }
}

#[test]
fn ranks_asked_different_searches_are_refused_on_every_rank() {
    for (first, second) in [
        (&["sg", "cram:3x5"][..], &["sg", "cram:3x6"][..]),
        // One would deal and the other race: refused before either starts.
        (&["sg", "cram:3x5"], &["sg", "chomp:3x5"]),
    ] {
        let out = mpmd(first, second);
        assert_eq!(out.status.code(), Some(2), "{second:?}");
        let lines = grundy_lines(&out);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("run one search"), "{lines:?}");
        assert!(out.stdout.is_empty());
    }
}
