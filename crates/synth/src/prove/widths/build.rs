//! The circuit of a formula, read from z3's terms by the operations' SMT-LIB names (the
//! kinds' numbering differs between z3 versions), one node per distinct term.

use std::collections::HashMap;

use z3::ast::{Ast, Bool, Dynamic, BV};
use z3::AstKind;

use super::circuit::{Circuit, Prop, State, Word, STATE_BITS};

/// Most guessed conditions (each doubles the start states).
const MAX_GUESSES: usize = 12;

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
        let mut always = State::zeros(column_at + column_bits);
        for bit in guess_at..column_at + column_bits {
            always.set(bit, true);
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
            state_bits: column_at + column_bits,
            always,
        })
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
            true => Prop::Below {
                cmp: bit,
                or_equal,
                a,
                b,
            },
            false => Prop::Eq { flag: bit, a, b },
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
