//! End-to-end tests of `grundy play` (scripted games on standard input, agents against each
//! other) and `grundy best-move`.

mod common;
use common::{grundy, json_ok, one_line};

/// Plays `script` (one command a line) and returns standard output.
fn scripted(args: &[&str], script: &str) -> String {
    let out = grundy().args(args).write_stdin(script).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    String::from_utf8(out.stdout).unwrap()
}

/// A scripted game of take-1-to-3 on heaps 2 and 3: refused moves leave the game going, the
/// hint is the one winning move, and playing it wins against any reply.
#[test]
fn scripted_games_refuse_bad_moves_and_follow_hints() {
    let out = scripted(
        &["play", "subtraction:1,2,3", "2,3"],
        "hint\n9,9\n#9\nx\nundo\n2,2\n",
    );
    assert!(out.contains("nimber 1: a winning move exists"), "{out}");
    assert!(out.contains("wins: heap 1: 3 -> 2  ->  2,2"), "{out}");
    assert!(out.contains("9,9 is not a move from 2,3"), "{out}");
    assert!(out.contains("the moves are #1 to #5"), "{out}");
    assert!(out.contains("`x` is not a whole number"), "{out}");
    assert!(out.contains("nothing to take back"), "{out}");
    assert!(out.contains("you: heap 1: 3 -> 2\ngrundy: "), "{out}");
    // The input ends before the game does.
    assert!(
        out.trim_end().ends_with("(end of input: game left)"),
        "{out}"
    );

    // Taking the last heap leaves the agent no move: the game ends with the person's win.
    let out = scripted(&["play", "subtraction:1,2,3", "0,3"], "#3\n");
    assert!(out.contains("you: heap 1: 3 -> 0"), "{out}");
    assert!(out.contains("no move left for grundy: you win."), "{out}");
}

/// Boards are drawn as boards; moving first, the agent wins from the full 3x4 Chomp board
/// (every rectangle is a first-player win) and the game ends when no move is left.
#[test]
fn boards_are_drawn_and_the_agent_wins_what_it_can() {
    let out = scripted(
        &["play", "chomp:3x4", "--first", "computer"],
        &"#1\n".repeat(12),
    );
    assert!(out.contains("grundy: eat"), "{out}");
    assert!(out.contains("\nx"), "the poisoned corner is drawn: {out}");
    assert!(out.trim_end().ends_with("no move left: you lose."), "{out}");
    let out = scripted(&["play", "cram:2x3"], "moves\nundo\nquit\n");
    assert!(out.contains("\n...\n...\n"), "{out}");
    assert!(
        out.contains("#4   domino on (1,1) and (1,2)  ->  .../.##"),
        "{out}"
    );
}

/// Optimal play wins every game it can win, from either seat, and a seed repeats a run.
#[test]
fn agents_play_each_other() {
    let args = [
        "play",
        "path:3",
        "3,2,3",
        "--agents",
        "optimal,random",
        "--games",
        "50",
        "--seed",
        "3",
    ];
    let v = json_ok(&args);
    assert_ne!(v["nimber"], 0);
    let pairings = v["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 2);
    assert_eq!(pairings[0]["first"], "optimal");
    assert_eq!(pairings[0]["first_wins"], 50);
    assert_eq!(pairings[1]["first"], "random");
    assert_eq!(v, json_ok(&args));
    let out = grundy().args(&args[..args.len() - 2]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("first wins"), "{text}");
    one_line(
        &["play", "path:3", "1,1,1", "--agents", "optimal,mcts"],
        2,
        "unknown agent `mcts`",
    );
}

#[test]
fn best_moves_lead_to_zero_positions() {
    // Kayles, one heap of 9: the winning move leaves two heaps of 4 (nimber 1 ^ 1 = 0).
    let v = json_ok(&["best-move", "octal:0.77", "9"]);
    assert_eq!(v["position"], serde_json::json!([4, 4]), "{v}");
    let back = json_ok(&["sg", "octal:0.77", "4", "4"]);
    assert_eq!(back["nimber"], 0);
    let v = json_ok(&["best-move", "cram:3x4"]);
    let after = v["position_text"].as_str().unwrap();
    assert_eq!(json_ok(&["sg", "cram:3x4", after])["nimber"], 0, "{v}");
    // Heaps that are all multiples of 4: no move wins.
    let v = json_ok(&["best-move", "subtraction:1,2,3", "4,8"]);
    assert_eq!(
        (v["nimber"].as_u64(), v["position"].is_null()),
        (Some(0), true)
    );
    let out = grundy()
        .args(["best-move", "subtraction:1,2,3", "4,8"])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with("none wins"));
    one_line(
        &["best-move", "chomp:3x4", "1,2,0,0"],
        2,
        "higher than column 0",
    );
}
