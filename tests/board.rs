//! End-to-end tests of the board games: Cram's nimbers against Lemoine & Viennot's published
//! tables, Chomp against the pruning paper, strips against Dawson's Kayles, typed boards, and
//! bad input.

mod common;
use common::{grundy, json_lines, json_ok, json_with_code, one_line};

fn nimber(args: &[&str]) -> u64 {
    let mut all = vec!["sg"];
    all.extend_from_slice(args);
    json_ok(&all)["nimber"].as_u64().unwrap()
}

/// Lemoine & Viennot (TCS 2012), Figures 13 and 14: 3 x n for n = 3..9, and the boards of
/// both sides at least 4 that run in seconds (4x5, 4x6, 4x7, 5x5).
#[test]
fn cram_matches_the_published_tables() {
    let three_by = [0, 1, 1, 4, 1, 3, 1];
    for (n, want) in (3..).zip(three_by) {
        assert_eq!(nimber(&[&format!("cram:3x{n}")]), want, "3x{n}");
    }
    for (board, want) in [("4x5", 2), ("4x6", 0), ("4x7", 3), ("5x5", 0)] {
        assert_eq!(nimber(&[&format!("cram:{board}")]), want, "{board}");
    }
    // The board turned a quarter is the same game.
    assert_eq!(nimber(&["cram:5x4"]), 2);
}

/// A strip of Cram is Dawson's Kayles (octal 0.07), with and without the theorems.
#[test]
fn cram_strips_are_dawsons_kayles() {
    for n in 1..=20 {
        let heap = nimber(&["octal:0.07", &n.to_string()]);
        let strip = format!("cram:1x{n}");
        assert_eq!(nimber(&[&strip]), heap, "1x{n}");
        let bare = nimber(&[&strip, "--bare"]);
        assert_eq!(bare, heap, "1x{n} bare");
    }
}

/// `auto` answers a board a theorem values (mirror image, a strip) without a search, says
/// which theorem, and agrees with the bare search; `--moves` searches when the value is not 0.
#[test]
fn theorems_answer_without_a_search() {
    for board in [
        &["cram:4x4"][..],
        &["cram:4x4", "..#./..../..../.#.."],
        &["cram:1x7"],
    ] {
        let v = json_ok(&[&["sg"], board].concat());
        assert_eq!(
            (v["engine"].as_str(), v["nodes"].as_u64()),
            (Some("theorem"), Some(0)),
            "{v}"
        );
        assert!(!v["engine_reason"].as_str().unwrap().is_empty());
        let bare = json_ok(&[&["sg"], board, &["--bare", "--engine", "cut_cEA"]].concat());
        assert!(bare["nodes"].as_u64().unwrap() > 1, "{bare}");
        assert_eq!(v["nimber"], bare["nimber"], "{board:?}");
    }
    let v = json_ok(&["sg", "cram:4x4", "--moves"]);
    assert_eq!(
        (v["engine"].as_str(), v["nimber"].as_u64()),
        (Some("theorem"), Some(0))
    );
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    // Dawson's Kayles of 7 is 1; its winning moves need each successor valued.
    let v = json_ok(&["sg", "cram:1x7", "--moves"]);
    assert_eq!(
        (v["engine"].as_str(), v["nimber"].as_u64()),
        (Some("cut_cEA"), Some(1))
    );
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 4, "{v}");
}

/// Chomp 6 x 4 of the pruning paper (Tables 5 and 6): nimber 16 by every engine family, and
/// the winning moves of a partial position all lead to zero positions.
#[test]
fn chomp_matches_the_paper() {
    for engine in ["auto", "def", "cut_cEA", "lv", "naive"] {
        assert_eq!(nimber(&["chomp:4x6", "--engine", engine]), 16, "{engine}");
    }
    let v = json_ok(&["sg", "chomp:4x6", "4,3,1,1,0,0", "--moves"]);
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    for m in moves {
        let heights: Vec<String> = m
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.to_string())
            .collect();
        assert_eq!(nimber(&["chomp:4x6", &heights.join(",")]), 0, "{m}");
    }
}

/// The pruning paper's unordered setting: seeded shuffles, a small FIFO table, the bare tree.
/// A seed fixes the search (the same counts twice); the value never depends on it.
#[test]
fn shuffled_orders_are_reproducible() {
    let stats = |seed: &str| {
        let v = json_ok(&[
            "sg",
            "cram:3x5",
            "--bare",
            "--engine",
            "cut_R",
            "--tt",
            "100",
            "--tt-policy",
            "fifo",
            "--order",
            "natural",
            "--shuffle",
            seed,
            "--stats",
        ]);
        assert_eq!(v["nimber"], 1, "seed {seed}");
        (
            v["nodes"].as_u64().unwrap(),
            v["tt_lookups"].as_u64().unwrap(),
        )
    };
    let one = stats("1");
    assert_eq!(one, stats("1"));
    assert_ne!(one, stats("2"));
}

/// A board typed inline or read from a file; the text form comes back in the JSON.
#[test]
fn boards_are_typed_as_rows() {
    let v = json_ok(&["sg", "cram:3x4", "..../.##./...."]);
    assert_eq!(v["position_text"], "..../.##./....");
    assert_eq!(v["position"], serde_json::json!([15, 9, 15]));
    // A ring of ten cells: any domino leaves a strip of eight, Dawson's Kayles 1, so the
    // ring is *0 (mex of {1}).
    assert_eq!(v["nimber"], 0);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.txt");
    std::fs::write(&file, "....\n.##.\n....\n").unwrap();
    let at = format!("@{}", file.display());
    assert_eq!(nimber(&["cram:3x4", &at]), 0);
    let out = grundy()
        .args(["sg", "cram:2x3", "..#/...", "--moves"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("0\n"), "{text}");
}

/// Boards of 65 to 128 cells, in the 128-bit word: igs's 6 x 12 and 6 x 14 by the half-turn
/// theorem, and shapes valued the same placed on a large board as on a board of their own.
#[test]
fn boards_over_64_cells() {
    for board in ["cram:6x12", "cram:6x14", "cram:8x16"] {
        let v = json_ok(&["sg", board]);
        assert_eq!(
            (v["nimber"].as_u64(), v["engine"].as_str()),
            (Some(0), Some("theorem")),
            "{v}"
        );
    }
    for small in ["..../..../....", "..#./..../.#..", ".#../..../...#"] {
        let want = nimber(&["cram:3x4", small]);
        // Rows 4 to 6 of a 9 x 13 board, columns 5 to 8; every other cell filled.
        let big: Vec<String> = (0..9)
            .map(|r| match r {
                4..=6 => format!("#####{}####", small.split('/').nth(r - 4).unwrap()),
                _ => "#".repeat(13),
            })
            .collect();
        let big = big.join("/");
        for engine in ["cut_cEA", "lv", "naive"] {
            let got = nimber(&["cram:9x13", &big, "--engine", engine]);
            assert_eq!(got, want, "{small} {engine}");
        }
    }
    assert_eq!(nimber(&["cram:3x4", "..../..../...."]), 1);
}

/// At its memory limit a search's unbounded table gives entries up for new ones and says how
/// many; the value stays.
#[test]
fn a_search_at_its_memory_limit_goes_on() {
    let tight = json_ok(&["sg", "cram:5x6", "--mem-limit", "0.0001"]);
    let roomy = json_ok(&["sg", "cram:5x6"]);
    assert_eq!((&tight["nimber"], &roomy["nimber"]), (&2.into(), &2.into()));
    assert!(tight["tt_evictions"].as_u64().unwrap() > 0, "{tight}");
    assert_eq!(roomy["tt_evictions"], 0, "{roomy}");
    one_line(&["sg", "cram:5x6", "--mem-limit", "0"], 2, "positive");
}

/// `sg --timeout`: an answer within it as without it; past it, a timeout (exit 3) naming the
/// bounds known without search. (Cram 7 x 9 takes hours.)
#[test]
fn sg_gives_up_at_its_timeout() {
    let v = json_ok(&["sg", "cram:5x6", "--timeout", "100"]);
    assert_eq!(v["nimber"], 2);
    let v = json_with_code(&["sg", "cram:7x9", "--timeout", "0.5"], 3);
    assert_eq!(v["kind"], "timeout", "{v}");
    // 7 x 8 horizontal and 6 x 9 vertical places for a domino.
    let text = v["error"].as_str().unwrap();
    assert!(text.contains("from 0 to 110"), "{text}");
    one_line(&["sg", "cram:5x6", "--timeout", "-1"], 2, "seconds");
}

#[test]
fn bad_boards_are_one_line() {
    one_line(&["sg", "cram:12x11"], 2, "128 cells");
    one_line(&["sg", "cram:2x33"], 2, "32 columns");
    one_line(&["sg", "cram:3"], 2, "ROWSxCOLUMNS");
    one_line(&["sg", "cram:0x3"], 2, "at least one row");
    one_line(&["sg", "cram:2x3", "../..."], 2, "has 2 cells");
    one_line(&["sg", "cram:2x3", "..x/..."], 2, "`x`");
    one_line(&["sg", "cram:2x3", "..."], 2, "1 rows");
    one_line(&["sg", "cram:2x3", "@/nonexistent/board"], 2, "nonexistent");
    one_line(&["sg", "chomp:4x6", "4,5,1,1,0,0"], 2, "never grow");
    one_line(&["sg", "chomp:4x6", "0,0,0,0,0,0"], 2, "poisoned");
    one_line(&["sg", "chomp:4x6", "5,4,4,4,4,4"], 2, "4 rows");
    one_line(&["sg", "chomp:4x6", "1,2"], 2, "6 columns");
    one_line(&["sg", "chomp:16x16"], 2, "64 bits");
    one_line(&["sg", "path:3"], 2, "needs a position");
    one_line(&["sg", "subtraction:1,2,3"], 2, "needs a position");
    let out = grundy()
        .args(["sg", "cram:2x3", "..x/...", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let obj: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(obj["kind"], "bad_input");
}

/// Chomp's boxes hold points that are not positions (an empty first column, a column higher
/// than the one before it): `table` writes, `verify` checks and `synth` learns from its
/// positions alone, and the table engine values them right (the second audit's first defect).
#[test]
fn chomp_boxes_hold_only_its_positions() {
    let rows = json_lines(&["table", "chomp:3x3", "--max", "4", "--format", "jsonl"]);
    assert_eq!(rows.len(), 19, "C(6,3) - 1 positions");
    for r in &rows {
        let p: Vec<u64> = serde_json::from_value(r["position"].clone()).unwrap();
        assert!(p[0] >= 1 && p.windows(2).all(|w| w[0] >= w[1]), "{r}");
        let text: Vec<String> = p.iter().map(|h| h.to_string()).collect();
        let searched = nimber(&["chomp:3x3", &text.join(","), "--engine", "naive"]);
        assert_eq!(r["nimber"].as_u64(), Some(searched), "{r}");
    }
    // The full board and (2,2,0), by the table engine, and its winning moves.
    let v = json_ok(&["sg", "chomp:3x3", "3,3,3", "--engine", "table", "--moves"]);
    assert_eq!(v["nimber"], 5, "{v}");
    assert_eq!(nimber(&["chomp:3x3", "2,2,0", "--engine", "table"]), 2);
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{v}");
    for m in moves {
        let q: Vec<String> = m
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.to_string())
            .collect();
        assert_eq!(
            nimber(&["chomp:3x3", &q.join(","), "--engine", "naive"]),
            0,
            "{m}"
        );
    }
    let best = json_ok(&["best-move", "chomp:3x3", "3,3,3", "--engine", "table"]);
    let q: Vec<String> = best["position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.to_string())
        .collect();
    assert_eq!(nimber(&["chomp:3x3", &q.join(",")]), 0, "{best}");
    // Chomp 2 x 2: zero exactly at (1,0) and (2,1), where x0 - x1 = 1; the five positions of
    // [0,3)^2 are checked, and a wrong program fails at a position.
    let ok = json_ok(&[
        "verify",
        "chomp:2x2",
        "--max",
        "3",
        "--program",
        "Push(0) Push(1) Minus One Minus",
    ]);
    assert_eq!(ok["check"]["points"], 5, "{ok}");
    assert!(ok["check"]["counterexample"].is_null(), "{ok}");
    let bad = json_with_code(
        &["verify", "chomp:2x2", "--max", "3", "--program", "Push(1)"],
        1,
    );
    let why = bad["check"]["counterexample"].as_str().unwrap();
    assert!(why.starts_with("(2,0) (SG 1)"), "{bad}");
    // synth learns the same zero positions from the five.
    let s = json_ok(&["synth", "chomp:2x2", "--max", "3", "--quiet"]);
    assert_eq!(s["data_points"], 5, "{s}");
}

/// One position on two threads (naive splitting its options, cut_cEA as Young Brothers Wait) has
/// one thread's nimber, and reports the nodes of both threads.
#[test]
fn two_threads_give_one_threads_nimber() {
    for (board, engine) in [("chomp:6x7", "naive"), ("cram:4x5", "cut_cEA")] {
        let one = json_ok(&["sg", board, "--engine", engine, "--threads", "1"]);
        let two = json_ok(&["sg", board, "--engine", engine, "--threads", "2"]);
        assert_eq!(two["nimber"], one["nimber"], "{board}");
        assert!(two["nodes"].as_u64().unwrap() > 0, "{board}");
    }
}

/// Without `--threads`, an engine that would race its threads (Lazy SMP: `cut`) searches alone,
/// expanding exactly one thread's nodes, while one that splits its work (`cut_cEA`) takes every
/// core and gives the same nimber. (Cram 5 x 5 takes `cut` about 0.2 s: long enough for
/// Lazy SMP's helpers to join, which add nodes of their own.)
#[test]
fn by_default_only_engines_that_split_take_every_core() {
    let alone = json_ok(&["sg", "cram:5x5", "--engine", "cut", "--threads", "1"]);
    for threads in [None, Some("0")] {
        let mut args = vec!["sg", "cram:5x5", "--engine", "cut"];
        args.extend(threads.map(|t| ["--threads", t]).into_iter().flatten());
        let got = json_ok(&args);
        assert_eq!(got["nimber"], alone["nimber"]);
        assert_eq!(got["nodes"], alone["nodes"], "{args:?} raced");
    }
    let split = json_ok(&["sg", "cram:5x5", "--engine", "cut_cEA"]);
    assert_eq!(split["nimber"], alone["nimber"]);
}
