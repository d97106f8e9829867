//! A quantifier-free formula over words, read one column of bits at a time from the lowest.
//!
//! Every step the prover's formulas use is *automatic*: the bit of a sum in column i needs
//! only the operands' bits there and one carry from column i - 1, a comparison needs only
//! which operand the columns below made larger, an equality only whether some column
//! differed. So the formula becomes a finite machine: its state is those carries, flags and
//! comparisons (and the column, while a constant still has bits), its input letter one bit of
//! each variable. A word of letters is a choice of the variables' low bits; the variables are
//! naturals, so every column past the word is 0, and the machine's state after enough zero
//! columns no longer changes and says whether the formula holds.
//!
//! The words are read as integers in two's complement, wide enough never to wrap: a
//! difference below 0 has ones in every column above, and compares above every natural
//! (as the program's words do at every width wide enough for the position). A choice
//! (`ite`) needs its condition before the columns that decide it are read, so it is guessed
//! at the start and checked at the end.

use super::live::Scratch;
pub(super) use super::state::State;

/// Most bits a state may have (carries, flags, comparisons, guesses and the column).
pub(super) const STATE_BITS: u32 = 1 << 16;

/// Most zero columns read after a word before the state must be still (each level of the
/// formula settles within one column).
const MAX_TAIL: usize = 4096;

/// A word-valued step, one bit per column.
#[derive(Clone, Debug)]
pub(super) enum Word {
    Var(usize),
    Const(u64),
    Not(usize),
    And(usize, usize),
    Or(usize, usize),
    Xor(usize, usize),
    /// a + b, or a - b (a + ~b + 1), with its carry's state bit.
    Sum {
        a: usize,
        b: usize,
        sub: bool,
        carry: u32,
    },
    /// ite(guess, a, b).
    Choice {
        guess: u32,
        a: usize,
        b: usize,
    },
}

/// A truth value, known once every column is read.
#[derive(Clone, Debug)]
pub(super) enum Prop {
    Const(bool),
    Not(usize),
    And(Vec<usize>),
    Or(Vec<usize>),
    Iff(usize, usize),
    Ite(usize, usize, usize),
    /// Words a and b equal: no column differed (the flag is set where one did).
    Eq {
        flag: u32,
        a: usize,
        b: usize,
    },
    /// a < b (or a <= b with `or_equal`) as integers, a negative word above every natural:
    /// two state bits, 01 where the columns read make a smaller, 10 where larger.
    Below {
        cmp: u32,
        or_equal: bool,
        a: usize,
        b: usize,
    },
}

/// The machine of one formula.
pub(super) struct Circuit {
    pub(super) words: Vec<Word>,
    pub(super) props: Vec<Prop>,
    /// For each word of a comparison or equality: (state bit, a, b, is a comparison).
    pub(super) atoms: Vec<(u32, usize, usize, bool)>,
    /// Each guess's condition.
    pub(super) guesses: Vec<usize>,
    /// The formula.
    pub(super) goal: usize,
    /// The variables' names, in letter-bit order.
    pub(super) vars: Vec<String>,
    pub(super) carries: Vec<(u32, bool)>,
    /// Where the guesses and the column counter start, and the counter's top.
    pub(super) guess_at: u32,
    pub(super) column_at: u32,
    pub(super) column_top: u32,
    /// The state's bits in all: the column counter's end.
    pub(super) state_bits: u32,
    /// The bits every state keeps: the guesses and the column.
    pub(super) always: State,
}

impl Circuit {
    /// The states before any column: one per choice of the guesses (but those already
    /// decided false).
    pub(super) fn starts(&self, r: &mut Scratch) -> Vec<State> {
        let mut base = State::zeros(self.state_bits);
        for &(bit, sub) in &self.carries {
            base.set(bit, sub);
        }
        let guesses = self.guesses.len() as u32;
        (0..1u64 << guesses)
            .filter_map(|g| {
                let mut s = base.clone();
                s.set_field(self.guess_at, guesses, g);
                self.reduce(s, r)
            })
            .collect()
    }

    /// The state after reading one column whose bit for variable k is bit k of `letter`;
    /// `bits` is scratch room for the words' bits.
    pub(super) fn step(&self, s: &State, letter: u32, bits: &mut Vec<bool>) -> State {
        let column_bits = self.state_bits - self.column_at;
        let column = s.field(self.column_at, column_bits) as u32;
        let mut next = s.clone();
        bits.clear();
        for w in &self.words {
            let v = match *w {
                Word::Var(k) => (letter >> k) & 1 == 1,
                Word::Const(c) => column < 64 && (c >> column) & 1 == 1,
                Word::Not(a) => !bits[a],
                Word::And(a, b) => bits[a] & bits[b],
                Word::Or(a, b) => bits[a] | bits[b],
                Word::Xor(a, b) => bits[a] ^ bits[b],
                Word::Sum { a, b, sub, carry } => {
                    let (x, y, c) = (bits[a], bits[b] ^ sub, s.get(carry));
                    next.set(carry, (x & y) | (c & (x ^ y)));
                    x ^ y ^ c
                }
                Word::Choice { guess, a, b } => match s.get(self.guess_at + guess) {
                    true => bits[a],
                    false => bits[b],
                },
            };
            bits.push(v);
        }
        for &(bit, a, b, compare) in &self.atoms {
            let (x, y) = (bits[a], bits[b]);
            if !compare {
                if x != y {
                    next.set(bit, true);
                }
            } else if x != y {
                // This column outranks the ones below: 01 when a is smaller, 10 when larger.
                next.set_field(bit, 2, if y { 1 } else { 2 });
            }
        }
        if column < self.column_top {
            next.set_field(self.column_at, column_bits, column as u64 + 1);
        }
        next
    }

    /// Whether the formula holds once every column past those read is 0 (and the guesses
    /// were right), or an error if the state never settles.
    pub(super) fn accepts(&self, s: &State, r: &mut Scratch) -> Result<bool, String> {
        let mut s = s.clone();
        for _ in 0..MAX_TAIL {
            let Some(t) = self.next(&s, 0, r) else {
                return Ok(false);
            };
            if t == s {
                let truth = self.truths(&s);
                let right = (self.guesses.iter().enumerate())
                    .all(|(g, &c)| truth[c] == s.get(self.guess_at + g as u32));
                return Ok(right && truth[self.goal]);
            }
            s = t;
        }
        Err("a state that does not settle on zero columns".into())
    }

    /// Every proposition's truth in a settled state.
    fn truths(&self, s: &State) -> Vec<bool> {
        let mut t: Vec<bool> = Vec::with_capacity(self.props.len());
        for p in &self.props {
            let v = match p {
                Prop::Const(b) => *b,
                Prop::Not(a) => !t[*a],
                Prop::And(xs) => xs.iter().all(|&x| t[x]),
                Prop::Or(xs) => xs.iter().any(|&x| t[x]),
                Prop::Iff(a, b) => t[*a] == t[*b],
                Prop::Ite(c, a, b) => match t[*c] {
                    true => t[*a],
                    false => t[*b],
                },
                Prop::Eq { flag, .. } => !s.get(*flag),
                Prop::Below { cmp, or_equal, .. } => match s.field(*cmp, 2) {
                    1 => true,
                    0 => *or_equal,
                    _ => false,
                },
            };
            t.push(v);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::{Bool, BV};

    /// Runs `f` on the numbers `x` (bits of each, lowest first) and reads the verdict.
    fn holds(f: &Bool, x: &[(&str, u64)]) -> bool {
        let c = Circuit::of(f).unwrap();
        let mut r = Scratch::default();
        let value = |name: &str| x.iter().find(|(n, _)| *n == name).map_or(0, |&(_, v)| v);
        c.starts(&mut r).into_iter().any(|mut s| {
            for col in 0..64 {
                let letter = (c.vars.iter().enumerate())
                    .map(|(k, v)| (((value(v) >> col) & 1) as u32) << k)
                    .sum();
                match c.next(&s, letter, &mut r) {
                    Some(t) => s = t,
                    None => return false,
                }
            }
            c.accepts(&s, &mut r).unwrap()
        })
    }

    /// What a formula says of two naturals, by Rust's own integers.
    type Truth = fn(u64, u64) -> bool;

    /// A flag tested for 0 under `|`, and a choice one side of an equality, split on their
    /// conditions: no guesses, one start state.
    #[test]
    fn choices_tested_for_zero_need_no_guess() {
        let w = 64;
        let a = BV::new_const("a", w);
        let b = BV::new_const("b", w);
        let flag = a.bvult(&b).ite(&BV::from_u64(1, w), &BV::from_u64(0, w));
        let f = a.bvsub(&b).bvor(&flag).eq(BV::from_u64(0, w));
        let mut r = Scratch::default();
        assert_eq!(Circuit::of(&f).unwrap().starts(&mut r).len(), 1);
        let min = a.bvule(&b).ite(&a, &b);
        let g = b.bvsub(&min).eq(BV::from_u64(0, w));
        assert_eq!(Circuit::of(&g).unwrap().starts(&mut r).len(), 1);
        for x in 0..12u64 {
            for y in 0..12u64 {
                assert_eq!(holds(&f, &[("a", x), ("b", y)]), x == y);
                assert_eq!(holds(&g, &[("a", x), ("b", y)]), y <= x);
            }
        }
    }

    /// Sums, differences below 0, comparisons and choices read as integers wide enough.
    #[test]
    fn words_are_read_as_integers_that_never_wrap() {
        let w = 64;
        let a = BV::new_const("a", w);
        let b = BV::new_const("b", w);
        let k = |c: u64| BV::from_u64(c, w);
        let cases: Vec<(Bool, Truth)> = vec![
            (a.bvadd(&b).eq(k(13)), |a, b| a + b == 13),
            (a.bvsub(&b).bvult(k(5)), |a, b| a >= b && a - b < 5),
            (a.bvsub(&b).bvxor(&b).eq(&a), |a, b| {
                (a as i128 - b as i128) ^ b as i128 == a as i128
            }),
            (a.bvule(&b).ite(&a, &b).eq(k(3)), |a, b| a.min(b) == 3),
            (a.bvnot().bvadd(k(1)).bvadd(&a).eq(k(0)), |_, _| true),
            (a.bvand(&b).bvor(k(6)).eq(k(7)), |a, b| (a & b) | 6 == 7),
            // One side decided false early, its carries forgotten, the other still read.
            (
                Bool::or(&[
                    Bool::and(&[a.eq(k(3)), a.bvadd(&b).eq(k(8))]),
                    a.bvsub(&b).bvult(&b),
                ]),
                |a, b| (a == 3 && b == 5) || (a >= b && a - b < b),
            ),
            (
                Bool::and(&[a.eq(&b).not(), a.bvadd(&b).eq(k(9))]),
                |a, b| a != b && a + b == 9,
            ),
        ];
        for (f, truth) in cases {
            for x in 0..12u64 {
                for y in 0..12u64 {
                    assert_eq!(
                        holds(&f, &[("a", x), ("b", y)]),
                        truth(x, y),
                        "{f} at {x}, {y}"
                    );
                }
            }
        }
    }
}
