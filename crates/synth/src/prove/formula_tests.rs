//! The linear language: negation and printing, and evaluation that rounds as z3 does.

use super::*;

fn x(i: u8) -> Term {
    Term::Var(i)
}

#[test]
fn negation_and_printing() {
    let f = and(vec![
        cmp(Rel::Eq, x(2), x(0)),
        cmp(Rel::Eq, x(1), Term::Const(0)),
    ]);
    assert_eq!(f.text(Style::Words), "x2 = x0 and x1 = 0");
    assert_eq!(f.text(Style::Infix), "x2 == x0 && x1 == 0");
    assert_eq!(f.text(Style::Latex), "x_{2} = x_{0} \\land x_{1} = 0");
    assert_eq!(f.negated().text(Style::Words), "x2 != x0 or x1 != 0");
    assert_eq!(f.negated().negated(), f);
    assert_eq!(
        or(vec![f.clone(), Formula::Const(true)]),
        Formula::Const(true)
    );
    assert_eq!(and(vec![f.clone(), Formula::Const(true)]), f);
}

#[test]
fn evaluation_is_euclidean_like_z3() {
    let t = Term::Mod(Box::new(Term::Sub(Box::new(x(0)), Box::new(x(1)))), 4);
    assert_eq!(t.eval(&[1, 2]), Some(3));
    let d = Term::Div(Box::new(Term::Sub(Box::new(x(0)), Box::new(x(1)))), 4);
    assert_eq!(d.eval(&[1, 2]), Some(-1));
    let s = z3::Solver::new();
    let v = [Int::new_const("a"), Int::new_const("b")];
    s.assert(v[0].eq(Int::from_i64(1)));
    s.assert(v[1].eq(Int::from_i64(2)));
    assert_eq!(s.check(), z3::SatResult::Sat);
    let m = s.get_model().unwrap();
    assert_eq!(m.eval(&t.z3(&v), true).unwrap().as_i64(), Some(3));
    assert_eq!(m.eval(&d.z3(&v), true).unwrap().as_i64(), Some(-1));
}
