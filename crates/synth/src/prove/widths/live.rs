//! Forgetting what no longer matters, so that fewer states are told apart.
//!
//! An equality is false for good once a column differed (its flag never clears), and so is
//! every conjunction that needs it: the formula of a position outside the set stays false
//! once one equality of each of its images failed. The carries and comparisons that feed
//! only such decided conditions can no longer change the verdict, so they are set to 0, and
//! a state whose formula (or a guess's condition, against its guess) is already decided
//! false is dropped: nothing read after it can be accepted. Two states that agree on what
//! still matters then meet as one, which is what keeps sums of many images to a few states.
//!
//! The decided conditions keep the flags that decide them, so each condition's value (and
//! what it decides) is the same before and after; what is still undecided keeps every bit
//! its words and comparisons read.

use super::circuit::{Circuit, Prop, State, Word};

/// Room for the reduction, reused from state to state.
#[derive(Default)]
pub(super) struct Scratch {
    /// The words' bits in the column being read.
    pub(super) bits: Vec<bool>,
    /// Each proposition's value where it is already decided.
    known: Vec<Option<bool>>,
    /// Each proposition, whether the formula (or a guess) still needs it.
    need: Vec<bool>,
    /// Each word, whether an undecided condition still reads it.
    read: Vec<bool>,
}

impl Circuit {
    /// The state after one column, with what no longer matters set to 0, or `None` when
    /// nothing read after it can be accepted.
    pub(super) fn next(&self, s: &State, letter: u32, r: &mut Scratch) -> Option<State> {
        let t = self.step(s, letter, &mut r.bits);
        self.reduce(t, r)
    }

    /// `s` with what no longer matters set to 0, or `None` when it is decided false.
    pub(super) fn reduce(&self, mut s: State, r: &mut Scratch) -> Option<State> {
        let on = |bit: u32| s.get(bit);
        self.decided(&s, r);
        if r.known[self.goal] == Some(false) {
            return None;
        }
        for (g, &c) in self.guesses.iter().enumerate() {
            if r.known[c].is_some_and(|v| v != on(self.guess_at + g as u32)) {
                return None;
            }
        }
        r.need.clear();
        r.need.resize(self.props.len(), false);
        r.need[self.goal] = true;
        for &c in &self.guesses {
            r.need[c] = true;
        }
        r.read.clear();
        r.read.resize(self.words.len(), false);
        // The guesses and the column always stay.
        let mut keep = self.always.clone();
        for i in (0..self.props.len()).rev() {
            if !r.need[i] {
                continue;
            }
            if let Some(v) = r.known[i] {
                // Decided: only the parts that decide it are kept.
                match &self.props[i] {
                    &Prop::Eq { flag, .. } => keep.set(flag, true),
                    p => self.deciding(p, v, &r.known, &mut |x| r.need[x] = true),
                }
                continue;
            }
            // Undecided: every part, and every bit its words and comparisons read.
            let mut pass = |x: usize| r.need[x] = true;
            match &self.props[i] {
                Prop::Const(_) => {}
                Prop::Not(a) => pass(*a),
                Prop::And(xs) | Prop::Or(xs) => xs.iter().for_each(|&x| pass(x)),
                Prop::Iff(a, b) => [*a, *b].into_iter().for_each(pass),
                Prop::Ite(c, a, b) => [*c, *a, *b].into_iter().for_each(pass),
                &Prop::Eq { flag, a, b } => {
                    keep.set(flag, true);
                    (r.read[a], r.read[b]) = (true, true);
                }
                &Prop::Below { cmp, a, b, .. } => {
                    keep.set_field(cmp, 2, 3);
                    (r.read[a], r.read[b]) = (true, true);
                }
            }
        }
        for i in (0..self.words.len()).rev() {
            if !r.read[i] {
                continue;
            }
            match self.words[i] {
                Word::Var(_) | Word::Const(_) => {}
                Word::Not(a) => r.read[a] = true,
                Word::And(a, b) | Word::Or(a, b) | Word::Xor(a, b) => {
                    (r.read[a], r.read[b]) = (true, true);
                }
                Word::Sum { a, b, carry, .. } => {
                    (r.read[a], r.read[b]) = (true, true);
                    keep.set(carry, true);
                }
                Word::Choice { a, b, .. } => (r.read[a], r.read[b]) = (true, true),
            }
        }
        s.keep(&keep);
        Some(s)
    }

    /// The parts of `p`, decided `v`, that decide it: the first part that decides a
    /// conjunction or disjunction alone, or all of them.
    fn deciding(&self, p: &Prop, v: bool, known: &[Option<bool>], pass: &mut dyn FnMut(usize)) {
        match p {
            Prop::Const(_) | Prop::Eq { .. } | Prop::Below { .. } => {}
            Prop::Not(a) => pass(*a),
            Prop::And(xs) | Prop::Or(xs) => {
                // A conjunction decided false (a disjunction true) needs one part; else all.
                let alone = matches!(p, Prop::Or(_));
                match xs.iter().find(|&&x| v == alone && known[x] == Some(v)) {
                    Some(&x) => pass(x),
                    None => xs.iter().for_each(|&x| pass(x)),
                }
            }
            Prop::Iff(a, b) => [*a, *b].into_iter().for_each(pass),
            Prop::Ite(c, a, b) => match known[*c] {
                Some(true) => [*c, *a].into_iter().for_each(pass),
                Some(false) => [*c, *b].into_iter().for_each(pass),
                None => [*a, *b].into_iter().for_each(pass),
            },
        }
    }

    /// Which propositions the flags already decide, whatever the columns still to come.
    fn decided(&self, s: &State, r: &mut Scratch) {
        let known = &mut r.known;
        known.clear();
        for p in &self.props {
            let k = match p {
                Prop::Const(v) => Some(*v),
                Prop::Eq { flag, .. } => s.get(*flag).then_some(false),
                Prop::Below { .. } => None,
                Prop::Not(a) => known[*a].map(|v| !v),
                Prop::And(xs) => all_or_any(xs.iter().map(|&x| known[x]), false),
                Prop::Or(xs) => all_or_any(xs.iter().map(|&x| known[x]), true),
                Prop::Iff(a, b) => match (known[*a], known[*b]) {
                    (Some(x), Some(y)) => Some(x == y),
                    _ => None,
                },
                Prop::Ite(c, a, b) => match known[*c] {
                    Some(true) => known[*a],
                    Some(false) => known[*b],
                    None if known[*a] == known[*b] => known[*a],
                    None => None,
                },
            };
            known.push(k);
        }
    }
}

/// A conjunction (`wins` false) or disjunction (`wins` true) of partly known values: `wins`
/// once one part is, the other value once all are, else unknown.
fn all_or_any(parts: impl Iterator<Item = Option<bool>>, wins: bool) -> Option<bool> {
    let mut all = true;
    for p in parts {
        match p {
            Some(v) if v == wins => return Some(wins),
            Some(_) => {}
            None => all = false,
        }
    }
    all.then_some(!wins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::{Bool, BV};

    /// (a = 2 and a + b = 8) or c = 1: once a's lowest bit is 1 the conjunction is false for
    /// good, and the carry of a + b, which only it reads, is forgotten.
    #[test]
    fn a_carry_feeding_only_a_decided_condition_is_forgotten() {
        let w = 64;
        let [a, b, c] = ["a", "b", "c"].map(|n| BV::new_const(n, w));
        let k = |v: u64| BV::from_u64(v, w);
        let f = Bool::or(&[Bool::and(&[a.eq(k(2)), a.bvadd(&b).eq(k(8))]), c.eq(k(1))]);
        let circuit = Circuit::of(&f).unwrap();
        let mut r = Scratch::default();
        let [start] = &circuit.starts(&mut r)[..] else {
            panic!("one start state");
        };
        let letter = |x: u32, y: u32, z: u32| {
            let value = |name: &str| match name {
                "a" => x,
                "b" => y,
                _ => z,
            };
            (circuit.vars.iter().enumerate()).fold(0, |l, (i, n)| l | value(n) << i)
        };
        // a = 1, c = 1 in column 0, b either: the carries differ, the reduced states do not.
        let (one, zero) = (letter(1, 1, 1), letter(1, 0, 1));
        let mut bits = Vec::new();
        assert_ne!(
            circuit.step(start, one, &mut bits),
            circuit.step(start, zero, &mut bits)
        );
        assert_eq!(
            circuit.next(start, one, &mut r),
            circuit.next(start, zero, &mut r)
        );
        // c's lowest bit 0 and a's 1 decide both sides false: the state is dropped.
        assert_eq!(circuit.next(start, letter(1, 0, 0), &mut r), None);
        // a's lowest bit 0 keeps the conjunction open: the state stays.
        assert!(circuit.next(start, letter(0, 0, 0), &mut r).is_some());
    }
}
