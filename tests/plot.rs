//! End-to-end tests of `grundy plot`: heatmaps of slices and nim sequences, as PNG and SVG;
//! bad input leaves no picture.

mod common;
use common::{grundy, json_ok, one_line};

/// The zeros of a heatmap slice are those `table` lists on the same slice; the PNG decodes
/// to the picture's size and holds the zero cells' black.
#[test]
fn heatmaps_count_the_slices_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("p.png");
    let png_arg = png.to_str().unwrap();
    let v = json_ok(&[
        "plot",
        "circular:5,2",
        "--max",
        "8",
        "--axes",
        "0,2",
        "--fix",
        "1=1",
        "--fix",
        "3=1",
        "--fix",
        "4=1",
        "--out",
        png_arg,
    ]);
    assert_eq!(v["positions"], 64, "{v}");
    // The same slice by `table` (its box is [0, 8)^5): x1 = x3 = x4 = 1.
    let out = grundy()
        .args(["table", "circular:5,2", "--max", "8"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let zeros = text
        .lines()
        .skip(1)
        .map(|l| {
            l.split('\t')
                .map(|x| x.parse::<u32>().unwrap())
                .collect::<Vec<_>>()
        })
        .filter(|r| r[1] == 1 && r[3] == 1 && r[4] == 1 && r[5] == 0)
        .count();
    assert!(zeros > 0);
    assert_eq!(v["zeros"], zeros, "{v}");
    let img = image::open(&png).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (900, 720));
    assert!(
        img.pixels().any(|p| p.0 == [0, 0, 0]),
        "zero cells are black"
    );
    assert!(
        img.pixels().any(|p| p.0 == [253, 231, 37]),
        "the largest value is yellow"
    );
}

#[test]
fn nim_sequences_mark_their_period() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("k.svg");
    let v = json_ok(&[
        "plot",
        "octal:0.77",
        "--max",
        "120",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(
        (v["preperiod"].as_u64(), v["period"].as_u64()),
        (Some(71), Some(12))
    );
    assert_eq!(v["proved"], true);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..80.min(text.len())]);
    assert!(text.contains("period 12, proved"));
}

#[test]
fn bad_plots_are_refused_and_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let cases: [(&[&str], &str); 9] = [
        (
            &[
                "plot",
                "octal:0.77",
                "--max",
                "5",
                "--fix",
                "1=1",
                "--out",
                &at("g.png"),
            ],
            "--heaps",
        ),
        (
            &["plot", "path:3", "--max", "5", "--out", &at("a.jpg")],
            ".png or .svg",
        ),
        (
            &[
                "plot",
                "path:3",
                "--max",
                "5",
                "--axes",
                "1,1",
                "--out",
                &at("b.png"),
            ],
            "two different",
        ),
        (
            &[
                "plot",
                "path:3",
                "--max",
                "5",
                "--axes",
                "0,3",
                "--out",
                &at("c.png"),
            ],
            "below 3",
        ),
        (
            &[
                "plot",
                "path:3",
                "--max",
                "5",
                "--fix",
                "0=2",
                "--out",
                &at("d.png"),
            ],
            "off the axes",
        ),
        (
            &[
                "plot",
                "path:3",
                "--max",
                "5",
                "--fix",
                "2:1",
                "--out",
                &at("e.png"),
            ],
            "K=V",
        ),
        (
            &["plot", "path:3", "--max", "100000", "--out", &at("f.png")],
            "--max must be",
        ),
        // --axes on a nim sequence is refused as --fix is, and a game of one coordinate
        // says so rather than blame --axes, which nobody gave.
        (
            &[
                "plot",
                "octal:0.77",
                "--max",
                "5",
                "--axes",
                "0,1",
                "--out",
                &at("h.png"),
            ],
            "--heaps",
        ),
        (
            &["plot", "nim:1", "--max", "5", "--out", &at("i.png")],
            "has one vertex",
        ),
    ];
    for (args, needle) in cases {
        one_line(args, 2, needle);
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
