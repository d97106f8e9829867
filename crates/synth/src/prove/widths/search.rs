//! Whether a circuit's formula holds for some naturals: a search of the states the machine
//! reaches, fewest columns first.
//!
//! The machine has finitely many states, so the search ends: either some state it reaches
//! accepts (the letters that led there are the naturals, of the fewest bits), or none does,
//! and then no naturals of any size satisfy the formula. The states reached are the proof's
//! certificate; their number is reported.

use std::collections::HashMap;
use std::time::Instant;

use super::circuit::{Circuit, State};
use super::live::Scratch;

/// Most variables (each doubles the letters read per state).
const MAX_VARS: usize = 14;

/// Most bytes the states may take (each is held twice: in the list and in the index).
const MAX_BYTES: usize = 1 << 30;

/// What the search found.
#[derive(Debug)]
pub(super) enum Outcome {
    /// No naturals satisfy the formula; this many states were reached.
    Never { states: usize },
    /// These values of the circuit's variables (in its order) satisfy it.
    Found(Vec<u128>),
    /// The search stopped: why.
    Open(String),
}

/// Searches the states of `c`, up to `max_states` or the `deadline`.
pub(super) fn search(c: &Circuit, max_states: usize, deadline: Option<Instant>) -> Outcome {
    if c.vars.len() > MAX_VARS {
        return Outcome::Open(format!("{} variables, more than {MAX_VARS}", c.vars.len()));
    }
    let letters = 1u32 << c.vars.len();
    let max_states = max_states.min(MAX_BYTES / (2 * State::bytes(c.state_bits)));
    let mut r = Scratch::default();
    // Each state's index, and the state and letter it was first reached from.
    let mut seen: HashMap<State, usize> = HashMap::new();
    let mut from: Vec<Option<(usize, u32)>> = Vec::new();
    let mut states: Vec<State> = Vec::new();
    for s in c.starts(&mut r) {
        if seen.contains_key(&s) {
            continue;
        }
        seen.insert(s.clone(), states.len());
        states.push(s);
        from.push(None);
    }
    let mut next = 0;
    let mut checked = 0;
    loop {
        // Every state found so far is checked before its successors are made.
        while checked < states.len() {
            match c.accepts(&states[checked], &mut r) {
                Ok(true) => {
                    return match values(c, &from, checked) {
                        Some(v) => Outcome::Found(v),
                        None => Outcome::Open("a solution wider than 128 bits".into()),
                    }
                }
                Ok(false) => checked += 1,
                Err(why) => return Outcome::Open(why),
            }
        }
        if next == states.len() {
            return Outcome::Never {
                states: states.len(),
            };
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Outcome::Open("the time limit passed".into());
        }
        if crate::solver::stop_requested() {
            return Outcome::Open("stopped on request".into());
        }
        let s = states[next].clone();
        for letter in 0..letters {
            let Some(t) = c.next(&s, letter, &mut r) else {
                continue;
            };
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(t) {
                states.push(e.key().clone());
                e.insert(states.len() - 1);
                from.push(Some((next, letter)));
            }
        }
        if states.len() > max_states {
            return Outcome::Open(format!("more than {max_states} states"));
        }
        next += 1;
    }
}

/// The variables' values along the letters that reach state `at` (none past 128 bits).
fn values(c: &Circuit, from: &[Option<(usize, u32)>], at: usize) -> Option<Vec<u128>> {
    let mut letters = Vec::new();
    let mut i = at;
    while let Some((prev, letter)) = from[i] {
        letters.push(letter);
        i = prev;
    }
    letters.reverse();
    if letters.len() > 128 {
        return None;
    }
    let value = |k: usize| {
        (letters.iter().enumerate())
            .map(|(col, &l)| (((l >> k) & 1) as u128) << col)
            .sum()
    };
    Some((0..c.vars.len()).map(value).collect())
}
