//! Programs written as infix expressions, the form `synth` prints (`x0 - (x1 ^ x2)`), so that
//! a program read off a result, a paper or a notebook can be given back as it is written.
//!
//! Operators take C's precedence, loosest first: `|`, `^`, `&`, `==`, `<`, `<<` `>>`, `+` `-`,
//! `*` `/` `%`; all associate to the left. `!a` and `~a` bind tightest; `min(a, b)` and
//! `max(a, b)` are calls; atoms are `x0`, `x1`, ... and decimal constants (0 and 1 are the
//! instructions `Zero` and `One`). The printer parenthesizes every nested operation, so what it
//! prints parses back to the same program.

use super::{Op, Program};

/// Parses an infix expression into the program that computes it, or says what is wrong.
pub(super) fn parse(text: &str) -> Result<Program, String> {
    let tokens = tokens(text)?;
    let mut p = Parser {
        tokens: &tokens,
        at: 0,
        out: Vec::new(),
    };
    p.expression(0)?;
    match p.tokens.get(p.at) {
        None => Ok(Program(p.out)),
        Some(t) => Err(format!("unexpected `{t}` in `{text}`")),
    }
}

/// The tokens of `text`: numbers, names, operators and punctuation.
fn tokens(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            if ["<<", ">>", "=="].contains(&two.as_str()) {
                out.push(two);
                i += 2;
            } else if "+-*/%&|^<!~(),".contains(c) {
                out.push(c.to_string());
                i += 1;
            } else {
                return Err(format!("unexpected `{c}` in `{text}`"));
            }
        }
    }
    Ok(out)
}

/// A binary operator's instruction and precedence (higher binds tighter).
fn binary(token: &str) -> Option<(Op, u8)> {
    Some(match token {
        "|" => (Op::Or, 1),
        "^" => (Op::Xor, 2),
        "&" => (Op::And, 3),
        "==" => (Op::BooleanEq, 4),
        "<" => (Op::Lt, 5),
        "<<" => (Op::LeftShift, 6),
        ">>" => (Op::RightShift, 6),
        "+" => (Op::Plus, 7),
        "-" => (Op::Minus, 7),
        "*" => (Op::Mul, 8),
        "/" => (Op::Div, 8),
        "%" => (Op::Mod, 8),
        _ => return None,
    })
}

struct Parser<'a> {
    tokens: &'a [String],
    at: usize,
    /// The instructions so far, in stack order.
    out: Vec<Op>,
}

impl Parser<'_> {
    fn next(&mut self) -> Option<&str> {
        let t = self.tokens.get(self.at)?;
        self.at += 1;
        Some(t)
    }

    fn expect(&mut self, want: &str) -> Result<(), String> {
        match self.next() {
            Some(t) if t == want => Ok(()),
            Some(t) => Err(format!("expected `{want}`, found `{t}`")),
            None => Err(format!("expected `{want}` at the end")),
        }
    }

    /// An expression whose operators bind tighter than `floor`.
    fn expression(&mut self, floor: u8) -> Result<(), String> {
        self.operand()?;
        while let Some((op, prec)) = self.tokens.get(self.at).and_then(|t| binary(t)) {
            if prec <= floor {
                break;
            }
            self.at += 1;
            self.expression(prec)?;
            self.out.push(op);
        }
        Ok(())
    }

    fn operand(&mut self) -> Result<(), String> {
        let token = self
            .next()
            .ok_or("an expression ends too early")?
            .to_string();
        match token.as_str() {
            "(" => {
                self.expression(0)?;
                self.expect(")")
            }
            "!" | "~" => {
                self.operand()?;
                self.out.push(match token.as_str() {
                    "!" => Op::BooleanNot,
                    _ => Op::Not,
                });
                Ok(())
            }
            "min" | "max" => {
                self.expect("(")?;
                self.expression(0)?;
                self.expect(",")?;
                self.expression(0)?;
                self.expect(")")?;
                self.out.push(match token.as_str() {
                    "min" => Op::Min,
                    _ => Op::Max,
                });
                Ok(())
            }
            t => {
                let op = if let Some(v) = t.strip_prefix('x') {
                    Op::Push(
                        v.parse()
                            .map_err(|_| format!("`{t}` is not a variable x0, x1, ..."))?,
                    )
                } else {
                    match t.parse::<u64>() {
                        Ok(0) => Op::Zero,
                        Ok(1) => Op::One,
                        Ok(k) => Op::Const(k),
                        Err(_) => return Err(format!("unexpected `{t}`")),
                    }
                };
                self.out.push(op);
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::{mask, run};

    fn ops(text: &str) -> String {
        parse(text).unwrap().to_string()
    }

    #[test]
    fn precedence_is_cs() {
        assert_eq!(ops("x0 - x1 ^ x2"), "Push(0) Push(1) Minus Push(2) Xor");
        assert_eq!(ops("x0 ^ x1 - x2"), "Push(0) Push(1) Push(2) Minus Xor");
        assert_eq!(ops("x0 - x1 - x2"), "Push(0) Push(1) Minus Push(2) Minus");
        assert_eq!(
            ops("x0 | x1 & x2 == 3"),
            "Push(0) Push(1) Push(2) Const(3) BooleanEq And Or"
        );
        assert_eq!(
            ops("!(x0 < 1) + ~x2 * 0"),
            "Push(0) One Lt BooleanNot Push(2) Not Zero Mul Plus"
        );
        assert_eq!(
            ops("min(x0, x1 >> 1)"),
            "Push(0) Push(1) One RightShift Min"
        );
    }

    #[test]
    fn bad_expressions_say_why() {
        for bad in ["x0 +", "(x0", "x0 x1", "y0", "x0 $ x1", "min(x0)", ""] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    /// What the printer writes parses back to a program with the same value everywhere
    /// (`1` reads as `One` even where the program had `Const(1)`).
    #[test]
    fn printed_programs_parse_back() {
        let mut ops = super::super::THESIS_OPS.to_vec();
        ops.extend([
            Op::Mod,
            Op::Min,
            Op::Max,
            Op::Lt,
            Op::Const(1),
            Op::Const(5),
        ]);
        for p in crate::testing::random_programs(7, 3, 500, &ops) {
            let q = parse(&p.infix()).unwrap_or_else(|e| panic!("{}: {e}", p.infix()));
            for x in [[0, 1, 2], [3, 0, 7], [255, 9, 4], [6, 6, 1]] {
                assert_eq!(run(&p, &x, mask(8)), run(&q, &x, mask(8)), "{}", p.infix());
            }
        }
    }
}
