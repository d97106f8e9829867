//! End-to-end tests of limits that must hold on every path (issue 40, items 2 to 5): a time
//! limit reached while a heap game values its heaps, memory refused before it is taken, one
//! move limit for every command that lists moves, heap counts checked before anything of
//! their size is built, and subtraction games valued in time linear in the heaps.

mod common;
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{grundy, json_with_code, one_line};

/// A subtraction set's values cost its amounts a heap, not max(S): {100000} (G(n) = floor(n /
/// 100000) mod 2) proves its period 200000 at once, where it ran past 100 s; all-but {3,
/// 100000} (which ran past a minute) its arithmetic period 6, saltus 3, as all-but {3, 1000}
/// does. The time limits only keep a regression from running on.
#[test]
fn subtraction_sets_are_valued_in_time_linear_in_the_heaps() {
    let v = json_with_code(&["period", "subtraction:100000", "--timeout", "60"], 0);
    assert_eq!(
        (&v["preperiod"], &v["period"]),
        (&0.into(), &200000.into()),
        "{v}"
    );
    for set in ["all-but:3,1000", "all-but:3,100000"] {
        let spec = format!("subtraction:{set}");
        let v = json_with_code(&["period", &spec, "--timeout", "60"], 0);
        let got = (&v["preperiod"], &v["period"], &v["saltus"]);
        assert_eq!(got, (&0.into(), &6.into(), &3.into()), "{v}");
    }
}
