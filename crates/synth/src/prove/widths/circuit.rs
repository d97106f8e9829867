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

use std::collections::HashMap;

use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::AstKind;

/// Most bits a state may have (carries, flags, comparisons, guesses and the column).
pub(super) const STATE_BITS: u32 = 128;

/// Most guessed conditions (each doubles the start states).
const MAX_GUESSES: usize = 12;

/// Most zero columns read after a word before the state must be still (each level of the
/// formula settles within one column).
const MAX_TAIL: usize = 4096;

/// A word-valued step, one bit per column.
#[derive(Clone, Debug)]
enum Word {
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
enum Prop {
    Const(bool),
    Not(usize),
    And(Vec<usize>),
    Or(Vec<usize>),
    Iff(usize, usize),
    Ite(usize, usize, usize),
    /// Words equal: no column differed (the flag is set where one did).
    Eq {
        flag: u32,
    },
    /// a < b (or a <= b with `or_equal`) as integers, a negative word above every natural:
    /// two state bits, 01 where the columns read make a smaller, 10 where larger.
    Below {
        cmp: u32,
        or_equal: bool,
    },
}

/// The machine of one formula.
pub(super) struct Circuit {
    words: Vec<Word>,
    props: Vec<Prop>,
    /// For each word of a comparison or equality: (state bit, a, b, is a comparison).
    atoms: Vec<(u32, usize, usize, bool)>,
    /// Each guess's condition.
    guesses: Vec<usize>,
    /// The formula.
    goal: usize,
    /// The variables' names, in letter-bit order.
    pub(super) vars: Vec<String>,
    carries: Vec<(u32, bool)>,
    /// Where the guesses and the column counter start, and the counter's top.
    guess_at: u32,
    column_at: u32,
    column_top: u32,
}

/// A state: its bits (carries, flags, comparisons, guesses, column) in one word.
pub(super) type State = u128;

impl Circuit {
    /// The machine of `formula`, or why it has none (a step that is not automatic, or more
    /// state than [`STATE_BITS`]).
    pub(super) fn of(formula: &Bool) -> Result<Circuit, String> {
        let mut b = Builder::default();
        let goal = b.prop(&Dynamic::from_ast(formula))?;
        if b.guesses.len() > MAX_GUESSES {
            return Err(format!(
                "{} conditions inside words, more than {MAX_GUESSES}",
                b.guesses.len()
            ));
        }
        let top = b.widest_constant;
        let column_bits = 32 - top.leading_zeros();
        let guess_at = b.next_bit;
        let column_at = guess_at + b.guesses.len() as u32;
        if column_at + column_bits > STATE_BITS {
            return Err(format!(
                "{} bits of state, more than {STATE_BITS}",
                column_at + column_bits
            ));
        }
        Ok(Circuit {
            words: b.words,
            props: b.props,
            atoms: b.atoms,
            guesses: b.guesses,
            goal,
            vars: b.vars,
            carries: b.carries,
            guess_at,
            column_at,
            column_top: top,
        })
    }

    /// The states before any column: one per choice of the guesses.
    pub(super) fn starts(&self) -> Vec<State> {
        let mut base: State = 0;
        for &(bit, sub) in &self.carries {
            if sub {
                base |= 1 << bit;
            }
        }
        (0..1u128 << self.guesses.len())
            .map(|g| base | (g << self.guess_at))
            .collect()
    }

    /// The state after reading one column whose bit for variable k is bit k of `letter`;
    /// `bits` is scratch room for the words' bits.
    pub(super) fn step(&self, s: State, letter: u32, bits: &mut Vec<bool>) -> State {
        let column =
            ((s >> self.column_at) & ((1 << (32 - self.column_top.leading_zeros())) - 1)) as u32;
        let on = |bit: u32| (s >> bit) & 1 == 1;
        let mut next = s;
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
                    let (x, y, c) = (bits[a], bits[b] ^ sub, on(carry));
                    let out = (x & y) | (c & (x ^ y));
                    next = (next & !(1 << carry)) | ((out as State) << carry);
                    x ^ y ^ c
                }
                Word::Choice { guess, a, b } => match on(self.guess_at + guess) {
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
                    next |= 1 << bit;
                }
            } else if x != y {
                // This column outranks the ones below: 01 when a is smaller, 10 when larger.
                let code: State = if y { 1 } else { 2 };
                next = (next & !(3 << bit)) | (code << bit);
            }
        }
        if column < self.column_top {
            next += 1 << self.column_at;
        }
        next
    }

    /// Whether the formula holds once every column past those read is 0 (and the guesses
    /// were right), or an error if the state never settles.
    pub(super) fn accepts(&self, s: State, bits: &mut Vec<bool>) -> Result<bool, String> {
        let mut s = s;
        for _ in 0..MAX_TAIL {
            let t = self.step(s, 0, bits);
            if t == s {
                let truth = self.truths(s);
                let right = (self.guesses.iter().enumerate())
                    .all(|(g, &c)| truth[c] == ((s >> (self.guess_at + g as u32)) & 1 == 1));
                return Ok(right && truth[self.goal]);
            }
            s = t;
        }
        Err("a state that does not settle on zero columns".into())
    }

    /// Every proposition's truth in a settled state.
    fn truths(&self, s: State) -> Vec<bool> {
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
                Prop::Eq { flag } => (s >> flag) & 1 == 0,
                Prop::Below { cmp, or_equal } => match (s >> cmp) & 3 {
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

/// Builds a circuit from z3's terms, one node per distinct term.
#[derive(Default)]
struct Builder {
    words: Vec<Word>,
    props: Vec<Prop>,
    atoms: Vec<(u32, usize, usize, bool)>,
    guesses: Vec<usize>,
    guess_of: HashMap<usize, u32>,
    vars: Vec<String>,
    carries: Vec<(u32, bool)>,
    word_of: HashMap<Dynamic, usize>,
    prop_of: HashMap<Dynamic, usize>,
    next_bit: u32,
    widest_constant: u32,
}

impl Builder {
    fn bit(&mut self, n: u32) -> u32 {
        let b = self.next_bit;
        self.next_bit += n;
        b
    }

    fn push_word(&mut self, w: Word) -> usize {
        self.words.push(w);
        self.words.len() - 1
    }

    fn push_prop(&mut self, p: Prop) -> usize {
        self.props.push(p);
        self.props.len() - 1
    }

    fn sum(&mut self, a: usize, b: usize, sub: bool) -> usize {
        let carry = self.bit(1);
        self.carries.push((carry, sub));
        self.push_word(Word::Sum { a, b, sub, carry })
    }

    fn word(&mut self, e: &Dynamic) -> Result<usize, String> {
        if let Some(&w) = self.word_of.get(e) {
            return Ok(w);
        }
        let args = e.children();
        let name = e.decl().name();
        let arg = |i: usize, b: &mut Builder| b.word(&args[i]);
        // By the operation's SMT-LIB name: the kinds' numbering differs between z3 versions.
        let w = match name.as_str() {
            _ if e.kind() == AstKind::Numeral => {
                let c = e
                    .as_bv()
                    .and_then(|v| v.as_u64())
                    .ok_or("a constant wider than 64 bits")?;
                self.widest_constant = self.widest_constant.max(64 - c.leading_zeros());
                self.push_word(Word::Const(c))
            }
            _ if args.is_empty() => {
                self.vars.push(name.clone());
                self.push_word(Word::Var(self.vars.len() - 1))
            }
            "bvnot" => {
                let a = arg(0, self)?;
                self.push_word(Word::Not(a))
            }
            "bvneg" => {
                let zero = self.push_word(Word::Const(0));
                let a = arg(0, self)?;
                self.sum(zero, a, true)
            }
            "bvsub" if args.len() == 2 => {
                let (a, b) = (arg(0, self)?, arg(1, self)?);
                self.sum(a, b, true)
            }
            "bvadd" | "bvand" | "bvor" | "bvxor" if !args.is_empty() => {
                let mut acc = arg(0, self)?;
                for i in 1..args.len() {
                    let b = arg(i, self)?;
                    acc = match name.as_str() {
                        "bvadd" => self.sum(acc, b, false),
                        "bvand" => self.push_word(Word::And(acc, b)),
                        "bvor" => self.push_word(Word::Or(acc, b)),
                        _ => self.push_word(Word::Xor(acc, b)),
                    };
                }
                acc
            }
            "if" | "ite" => {
                let c = self.prop(&args[0])?;
                let (a, b) = (arg(1, self)?, arg(2, self)?);
                let next = self.guesses.len() as u32;
                let guess = *self.guess_of.entry(c).or_insert(next);
                if guess == next {
                    self.guesses.push(c);
                }
                self.push_word(Word::Choice { guess, a, b })
            }
            other => return Err(format!("the step {other} is not read column by column")),
        };
        self.word_of.insert(e.clone(), w);
        Ok(w)
    }

    fn atom(
        &mut self,
        a: &Dynamic,
        b: &Dynamic,
        compare: bool,
        or_equal: bool,
    ) -> Result<Prop, String> {
        let (a, b) = (self.word(a)?, self.word(b)?);
        let bit = self.bit(1 + compare as u32);
        self.atoms.push((bit, a, b, compare));
        Ok(match compare {
            true => Prop::Below { cmp: bit, or_equal },
            false => Prop::Eq { flag: bit },
        })
    }

    /// `w = 0` (the term `e`), read without guesses where it can be: an `|` is 0 when both
    /// sides are, and a choice when its chosen side is (so a 0/1 flag tested for 0, as
    /// programs' `<` and `==` under `|` are, is its condition, known at the end).
    fn zero_test(&mut self, e: &Dynamic, w: &Dynamic) -> Result<usize, String> {
        if let Some(&p) = self.prop_of.get(e) {
            return Ok(p);
        }
        let args = w.children();
        let p = match w.decl().name().as_str() {
            "bvor" if !args.is_empty() && w.kind() != AstKind::Numeral => {
                let parts = (args.iter())
                    .map(|a| self.zero_of(a))
                    .collect::<Result<_, _>>()?;
                Prop::And(parts)
            }
            "bvsub" | "bvxor" if args.len() == 2 => return self.equal(e, &args[0], &args[1]),
            _ => {
                let zero = BV::from_u64(0, w.as_bv().ok_or("a word")?.get_size());
                return self.equal(e, w, &Dynamic::from_ast(&zero));
            }
        };
        let p = self.push_prop(p);
        self.prop_of.insert(e.clone(), p);
        Ok(p)
    }

    /// `a = b` (the term `e`): a choice on either side splits on its condition, so that it
    /// needs no guess.
    fn equal(&mut self, e: &Dynamic, a: &Dynamic, b: &Dynamic) -> Result<usize, String> {
        if let Some(&p) = self.prop_of.get(e) {
            return Ok(p);
        }
        let choice = |d: &Dynamic| matches!(d.decl().name().as_str(), "if" | "ite");
        let (x, y) = match (choice(a), choice(b)) {
            (true, _) => (a, b),
            (_, true) => (b, a),
            _ => {
                let p = self.atom(a, b, false, false)?;
                let p = self.push_prop(p);
                self.prop_of.insert(e.clone(), p);
                return Ok(p);
            }
        };
        // x = ite(c, t, f): (c and t = y) or (not c and f = y).
        let args = x.children();
        let c = self.prop(&args[0])?;
        let eq = |t: &Dynamic| -> Result<Dynamic, String> {
            let (t, y) = (t.as_bv().ok_or("a word")?, y.as_bv().ok_or("a word")?);
            Ok(Dynamic::from_ast(&t.eq(y)))
        };
        let (et, ef) = (eq(&args[1])?, eq(&args[2])?);
        let t = self.equal(&et, &args[1], y)?;
        let f = self.equal(&ef, &args[2], y)?;
        let not_c = self.push_prop(Prop::Not(c));
        let then = self.push_prop(Prop::And(vec![c, t]));
        let other = self.push_prop(Prop::And(vec![not_c, f]));
        let p = self.push_prop(Prop::Or(vec![then, other]));
        self.prop_of.insert(e.clone(), p);
        Ok(p)
    }

    /// The proposition `w = 0`, through [`Builder::zero_test`].
    fn zero_of(&mut self, w: &Dynamic) -> Result<usize, String> {
        let bv = w.as_bv().ok_or("a word")?;
        let test = bv.eq(BV::from_u64(0, bv.get_size()));
        self.zero_test(&Dynamic::from_ast(&test), w)
    }

    fn prop(&mut self, e: &Dynamic) -> Result<usize, String> {
        if let Some(&p) = self.prop_of.get(e) {
            return Ok(p);
        }
        let args = e.children();
        let is_word = |d: &Dynamic| d.as_bv().is_some();
        let zero = |d: &Dynamic| d.as_bv().and_then(|v| v.as_u64()) == Some(0);
        let name = e.decl().name();
        let p = match name.as_str() {
            "true" => Prop::Const(true),
            "false" => Prop::Const(false),
            "not" => Prop::Not(self.prop(&args[0])?),
            "and" => Prop::And(
                args.iter()
                    .map(|a| self.prop(a))
                    .collect::<Result<_, _>>()?,
            ),
            "or" => Prop::Or(
                args.iter()
                    .map(|a| self.prop(a))
                    .collect::<Result<_, _>>()?,
            ),
            "=>" => {
                let a = self.prop(&args[0])?;
                let na = self.push_prop(Prop::Not(a));
                Prop::Or(vec![na, self.prop(&args[1])?])
            }
            "if" | "ite" => {
                let c = self.prop(&args[0])?;
                Prop::Ite(c, self.prop(&args[1])?, self.prop(&args[2])?)
            }
            "=" if args.len() == 2 && is_word(&args[0]) => match (zero(&args[0]), zero(&args[1])) {
                (false, true) => return self.zero_test(e, &args[0]),
                (true, false) => return self.zero_test(e, &args[1]),
                _ => return self.equal(e, &args[0], &args[1]),
            },
            "=" | "iff" if args.len() == 2 => Prop::Iff(self.prop(&args[0])?, self.prop(&args[1])?),
            "distinct" if args.len() == 2 && is_word(&args[0]) => {
                let eq = self.atom(&args[0], &args[1], false, false)?;
                let eq = self.push_prop(eq);
                Prop::Not(eq)
            }
            "bvult" => self.atom(&args[0], &args[1], true, false)?,
            "bvule" => self.atom(&args[0], &args[1], true, true)?,
            "bvugt" => self.atom(&args[1], &args[0], true, false)?,
            "bvuge" => self.atom(&args[1], &args[0], true, true)?,
            other => {
                return Err(format!(
                    "the condition {other} is not read column by column"
                ))
            }
        };
        let p = self.push_prop(p);
        self.prop_of.insert(e.clone(), p);
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::BV;

    /// Runs `f` on the numbers `x` (bits of each, lowest first) and reads the verdict.
    fn holds(f: &Bool, x: &[(&str, u64)]) -> bool {
        let c = Circuit::of(f).unwrap();
        let mut bits = Vec::new();
        let value = |name: &str| x.iter().find(|(n, _)| *n == name).map_or(0, |&(_, v)| v);
        c.starts().into_iter().any(|mut s| {
            for col in 0..64 {
                let letter = (c.vars.iter().enumerate())
                    .map(|(k, v)| (((value(v) >> col) & 1) as u32) << k)
                    .sum();
                s = c.step(s, letter, &mut bits);
            }
            c.accepts(s, &mut bits).unwrap()
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
        assert_eq!(Circuit::of(&f).unwrap().starts().len(), 1);
        let min = a.bvule(&b).ite(&a, &b);
        let g = b.bvsub(&min).eq(BV::from_u64(0, w));
        assert_eq!(Circuit::of(&g).unwrap().starts().len(), 1);
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
