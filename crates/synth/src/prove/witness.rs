//! Candidate moves for (B) and (S2) over bit-vectors, written as terms of the position.
//!
//! Checking "every position outside Z has a move into Z" puts the move's amounts under a
//! universal block, which z3 decides over words by quantifier elimination: a time exponential
//! in the width, so that nim's `x0 - (x1 ^ x2)` takes 5 s at 6 bits and does not settle at 8.
//! A researcher's proof names the move instead ("take x0 - (x1 ^ x2) from heap 0"). So do we:
//! the program is solved for each heap of a face, step by step back from its root through the
//! instructions that can be undone (`^`, `+`, `-`, `~`, `min`, `max`), giving each heap's new
//! size as a term of the position (and of the value wanted, for the sg target). With those
//! moves in place of the universal block, the check is quantifier-free and z3 decides it at
//! 64 bits in well under a second.
//!
//! The candidates are only proposals: each is tried under the game's rules and the program's
//! exact word semantics, so a wrong or missing candidate can never prove a false claim. A
//! position the candidates fail on is then searched for any move at all: with none, it is a
//! counterexample; with one, the candidates were too few, and the caller falls back to the
//! universal block.

use z3::ast::{Bool, BV};
use z3::Model;

use super::clock::{Answer, Clock};
use super::target::{
    move_through, outside, position, reaches, smallest, unreached_at, Domain, Found,
};
use super::Reason;
use crate::lang::{Op, Program};
use crate::smt::apply;
use grundy_core::error::Error;
use grundy_core::game::hypergraph::vertices_of;

/// Most candidate moves tried through one face under one image.
const MAX_PER_FACE: usize = 64;

/// A program as a tree, to be solved for one variable.
#[derive(Clone, Debug)]
enum Node {
    /// x_j.
    Var(usize),
    /// A constant.
    Const(u64),
    /// An instruction and its operands (first/left first).
    Step(Op, Vec<Node>),
}

impl Node {
    fn of(program: &Program) -> Node {
        let mut stack: Vec<Node> = Vec::new();
        for &op in &program.0 {
            let node = match op {
                Op::Push(j) => Node::Var(j as usize),
                _ => match op.constant() {
                    Some(k) => Node::Const(k),
                    None => {
                        let from = stack.len().saturating_sub(op.arity());
                        Node::Step(op, stack.split_off(from))
                    }
                },
            };
            stack.push(node);
        }
        stack.pop().unwrap_or(Node::Const(0))
    }

    fn reads(&self, var: usize) -> bool {
        match self {
            Node::Var(j) => *j == var,
            Node::Const(_) => false,
            Node::Step(_, args) => args.iter().any(|a| a.reads(var)),
        }
    }

    fn eval(&self, x: &[BV], w: u32) -> BV {
        match self {
            Node::Var(j) => x[*j].clone(),
            Node::Const(k) => BV::from_u64(*k, w),
            Node::Step(op, args) => {
                let v: Vec<BV> = args.iter().map(|a| a.eval(x, w)).collect();
                let b = v.last().expect("an operand");
                apply(*op, &v[0], b, w)
            }
        }
    }

    /// Values of x_var (the others as in `x`) at which this node's word is `want`, as far as
    /// the path from here to the variable can be undone.
    fn solve(&self, var: usize, want: BV, x: &[BV], w: u32) -> Vec<BV> {
        match self {
            Node::Var(j) if *j == var => vec![want],
            Node::Step(Op::Not, args) => args[0].solve(var, want.bvnot(), x, w),
            Node::Step(op, args) if args.len() == 2 => {
                let (a, b) = (&args[0], &args[1]);
                match (a.reads(var), b.reads(var)) {
                    (true, false) => {
                        let other = b.eval(x, w);
                        let want = match op {
                            Op::Xor => want.bvxor(&other),
                            Op::Plus => want.bvsub(&other),
                            Op::Minus => want.bvadd(&other),
                            Op::Min | Op::Max => want,
                            _ => return Vec::new(),
                        };
                        a.solve(var, want, x, w)
                    }
                    (false, true) => {
                        let other = a.eval(x, w);
                        let want = match op {
                            Op::Xor => want.bvxor(&other),
                            Op::Plus => want.bvsub(&other),
                            Op::Minus => other.bvsub(&want),
                            Op::Min | Op::Max => want,
                            _ => return Vec::new(),
                        };
                        b.solve(var, want, x, w)
                    }
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }

    /// Equations whose conjunction makes the word 0 where no step wraps: an `Or` or a sum is
    /// 0 when both operands are, a difference or an exclusive or when its operands are equal.
    /// The right side `None` is 0.
    fn zero_equations(&self) -> Vec<(&Node, Option<&Node>)> {
        match self {
            Node::Step(Op::Or | Op::Plus, args) => {
                let mut all = args[0].zero_equations();
                all.extend(args[1].zero_equations());
                all
            }
            Node::Step(Op::Minus | Op::Xor, args) => vec![(&args[0], Some(&args[1]))],
            _ => vec![(self, None)],
        }
    }
}

/// What a move must reach.
pub(super) enum Goal<'a, N> {
    /// A position where the program is 0.
    Zero,
    /// A position where the program's word is this.
    Value(&'a N),
}

/// The program, ready to propose moves.
pub(super) struct Proposer {
    root: Node,
    width: u32,
}

impl Proposer {
    pub(super) fn new(program: &Program, width: u32) -> Self {
        Proposer {
            root: Node::of(program),
            width,
        }
    }

    /// New sizes for x_var that may reach `goal`, the others as in `x`.
    fn sizes(&self, var: usize, goal: &Goal<BV>, x: &[BV]) -> Vec<BV> {
        let w = self.width;
        let zero = || BV::from_u64(0, w);
        match goal {
            Goal::Value(u) => self.root.solve(var, (*u).clone(), x, w),
            Goal::Zero => {
                let mut out = Vec::new();
                for (l, r) in self.root.zero_equations() {
                    let r_reads = r.is_some_and(|r| r.reads(var));
                    let side = |n: Option<&Node>| n.map_or_else(zero, |n| n.eval(x, w));
                    if l.reads(var) && !r_reads {
                        out.extend(l.solve(var, side(r), x, w));
                    } else if r_reads && !l.reads(var) {
                        let r = r.expect("a right side that reads the variable");
                        out.extend(r.solve(var, l.eval(x, w), x, w));
                    }
                }
                out
            }
        }
    }

    /// Candidate moves through the vertices `face` from `p`, the program reading `p[img[j]]`
    /// as x_j: each is the new size of every vertex of the face, in order. A vertex's size
    /// comes from solving the program for it with the face's other vertices unchanged, or set
    /// to one of their own candidates (or 0) first.
    pub(super) fn moves(
        &self,
        p: &[BV],
        img: &[usize],
        face: &[usize],
        goal: &Goal<BV>,
    ) -> Vec<Vec<BV>> {
        let w = self.width;
        let x: Vec<BV> = img.iter().map(|&v| p[v].clone()).collect();
        // The program's variable at each vertex of the face (none: the program ignores it).
        let var: Vec<Option<usize>> = (face.iter())
            .map(|&v| img.iter().position(|&u| u == v))
            .collect();
        // First round: each vertex alone, and 0.
        let first: Vec<Vec<BV>> = var
            .iter()
            .map(|j| {
                let mut c = j.map_or_else(Vec::new, |j| self.sizes(j, goal, &x));
                c.push(BV::from_u64(0, w));
                c
            })
            .collect();
        let mut out: Vec<Vec<BV>> = Vec::new();
        let push = |m: Vec<BV>, out: &mut Vec<Vec<BV>>| {
            if out.len() < MAX_PER_FACE {
                out.push(m);
            }
        };
        // Second round first (it is what a face of two or more needs): one vertex solved with
        // the others at a first-round size.
        if face.len() > 1 {
            for (k, j) in var.iter().enumerate() {
                let Some(j) = *j else { continue };
                for others in product(&first, k) {
                    let mut y = x.clone();
                    for (i, size) in others.iter().enumerate() {
                        if let (Some(s), Some(vi)) = (size, var[i]) {
                            y[vi] = s.clone();
                        }
                    }
                    for s in self.sizes(j, goal, &y) {
                        let m = (others.iter())
                            .map(|o| o.clone().unwrap_or_else(|| s.clone()))
                            .collect();
                        push(m, &mut out);
                    }
                }
            }
        }
        for m in product(&first, usize::MAX) {
            push(
                m.into_iter()
                    .map(|s| s.expect("every vertex sized"))
                    .collect(),
                &mut out,
            );
        }
        out
    }
}

/// Every choice of one size per vertex from `sizes`, the vertex `skip` left open (`None`),
/// up to [`MAX_PER_FACE`] choices.
fn product(sizes: &[Vec<BV>], skip: usize) -> Vec<Vec<Option<BV>>> {
    let mut all: Vec<Vec<Option<BV>>> = vec![Vec::new()];
    for (i, c) in sizes.iter().enumerate() {
        let options: Vec<Option<BV>> = match i == skip {
            true => vec![None],
            false => c.iter().cloned().map(Some).collect(),
        };
        all = (all.iter())
            .flat_map(|pre| {
                options.iter().map(move |o| {
                    let mut m = pre.clone();
                    m.push(o.clone());
                    m
                })
            })
            .take(MAX_PER_FACE)
            .collect();
    }
    all
}

/// (B) (`reason` [`Reason::NoMoveToZero`]) or (S2) decided by the domain's candidate moves:
/// `None` when they do not settle it (there are none, or a position they miss has a move
/// after all), so that the caller may try a universal block.
pub(super) fn settle<D: Domain>(
    d: &D,
    n: usize,
    faces: &[u64],
    clock: &Clock,
    reason: Reason,
) -> Result<Option<Found>, Error> {
    let s = match d.solver(clock, false) {
        Ok(s) => s,
        Err(why) => return Ok(Some(Err(why))),
    };
    let p = position(d, "p", n);
    let u = d.number("u");
    for x in &p {
        s.assert(d.in_scope(x));
    }
    let Some(missed) = missed(d, &p, &u, faces, reason) else {
        return Ok(None);
    };
    s.assert(&missed);
    let first = match clock.check(&s) {
        Answer::Unsat => return Ok(Some(Ok(None))),
        Answer::Unknown(why) => return Ok(Some(Err(why))),
        Answer::Sat(m) => match stuck(d, faces, clock, &m, &p, &u, reason)? {
            true => m,
            false => return Ok(None),
        },
    };
    let mut keep = |m: &Model| stuck(d, faces, clock, m, &p, &u, reason);
    let best = smallest(d, &s, clock, &p, first, &mut keep)?;
    Ok(Some(Ok(Some(unreached_at(d, &best, &p, &u, reason)?))))
}

/// `p` (with `u`) is outside what it must reach and no candidate move through any face
/// reaches it; none when there are no candidates.
pub(super) fn missed<D: Domain>(
    d: &D,
    p: &[D::N],
    u: &D::N,
    faces: &[u64],
    reason: Reason,
) -> Option<Bool> {
    let goal = match reason {
        Reason::NoMoveToZero => Goal::Zero,
        _ => Goal::Value(u),
    };
    let mut all = vec![outside(d, p, u, reason)];
    for &face in faces {
        let verts: Vec<usize> = vertices_of(face).collect();
        for sizes in d.proposals(p, &verts, &goal) {
            let mut q = p.to_vec();
            let mut legal = Vec::new();
            for (&v, size) in verts.iter().zip(sizes) {
                legal.push(d.lt(&size, &p[v]));
                q[v] = size;
            }
            legal.push(reaches(d, &q, u, reason));
            all.push(Bool::and(&legal).not());
        }
    }
    (all.len() > 1).then(|| Bool::and(&all))
}

/// Whether the position of `m` (with its `u`) is a counterexample: no move of any amount
/// through any face reaches what it must (false: one does, and the candidates were too few;
/// or z3 could not tell).
fn stuck<D: Domain>(
    d: &D,
    faces: &[u64],
    clock: &Clock,
    m: &Model,
    p: &[D::N],
    u: &D::N,
    reason: Reason,
) -> Result<bool, Error> {
    let Ok(s) = d.solver(clock, false) else {
        return Ok(false);
    };
    let at: Vec<D::N> = (p.iter())
        .map(|x| d.read(m, x).map(|v| d.konst(v)))
        .collect::<Result<_, _>>()?;
    let want = d.konst(d.read(m, u)?);
    let mut some = Vec::new();
    for (i, &face) in faces.iter().enumerate() {
        let take = position(d, &format!("d{i}_"), face.count_ones() as usize);
        let (q, legal) = move_through(d, &at, face, &take);
        some.push(Bool::and(&[legal, reaches(d, &q, &want, reason)]));
    }
    s.assert(Bool::or(&some));
    Ok(matches!(clock.check(&s), Answer::Unsat))
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Ast;

    const W: u32 = 16;

    fn word(v: &BV) -> u64 {
        v.simplify().as_u64().expect("a constant word")
    }

    fn at(p: &[u64]) -> Vec<BV> {
        p.iter().map(|&x| BV::from_u64(x, W)).collect()
    }

    /// Every position of [0,top)^n whose program value is not `goal` has, among the proposals
    /// through some face, a legal move to a position whose value is `goal` (evaluated on
    /// constants, as the interpreter would).
    fn proposals_reach(text: &str, n: usize, faces: &[&[usize]], top: u64, sg: bool) {
        let program: Program = text.parse().unwrap();
        let proposer = Proposer::new(&program, W);
        let root = Node::of(&program);
        let value = |p: &[u64]| word(&root.eval(&at(p), W));
        let id: Vec<usize> = (0..n).collect();
        let mut p = vec![0u64; n];
        loop {
            let here = value(&p);
            let wants: Vec<u64> = match sg {
                true => (0..here).collect(),
                false => vec![0].into_iter().filter(|_| here != 0).collect(),
            };
            for want in wants {
                let u = BV::from_u64(want, W);
                let goal = match sg {
                    true => Goal::Value(&u),
                    false => Goal::Zero,
                };
                let reached = faces.iter().any(|face| {
                    proposer.moves(&at(&p), &id, face, &goal).iter().any(|m| {
                        let mut q = p.clone();
                        for (&v, s) in face.iter().zip(m) {
                            q[v] = word(s);
                        }
                        face.iter().all(|&v| q[v] < p[v]) && value(&q) == want
                    })
                });
                assert!(reached, "{text}: no proposal from {p:?} reaches {want}");
            }
            // The next position of the box.
            let Some(i) = (0..n).find(|&i| p[i] + 1 < top) else {
                break;
            };
            p[i] += 1;
            p[..i].iter_mut().for_each(|x| *x = 0);
        }
    }

    #[test]
    fn nims_moves_are_proposed() {
        let singles: &[&[usize]] = &[&[0], &[1], &[2]];
        proposals_reach("Push(0) Push(1) Push(2) Xor Minus", 3, singles, 8, false);
        proposals_reach("Push(0) Push(1) Xor Push(2) Xor", 3, singles, 8, false);
        proposals_reach("Push(0) Push(1) Xor Push(2) Xor", 3, singles, 6, true);
    }

    /// The star's centre and a leaf move together: the leaf is solved with the centre at 0.
    #[test]
    fn a_face_of_two_vertices_is_solved_one_vertex_at_a_time() {
        let star: &[&[usize]] = &[&[0], &[1], &[2], &[0, 1], &[0, 2]];
        proposals_reach("Push(0) Push(1) Push(2) Xor Plus", 3, star, 6, false);
        // The shriek's SG value (x0 + x1) ^ x2, its faces {0, 1, 2} and below.
        let shriek: &[&[usize]] = &[&[0], &[1], &[2], &[0, 1], &[0, 2], &[1, 2], &[0, 1, 2]];
        proposals_reach("Push(0) Push(1) Plus Push(2) Xor", 3, shriek, 5, true);
    }

    /// Steps that cannot be undone propose nothing but 0: the caller then falls back.
    #[test]
    fn steps_that_cannot_be_undone_propose_only_zero() {
        let program: Program = "Push(0) Push(1) Mul Push(2) Minus".parse().unwrap();
        let proposer = Proposer::new(&program, W);
        let moves = proposer.moves(&at(&[3, 4, 5]), &[0, 1, 2], &[0], &Goal::Zero);
        assert!(moves.iter().all(|m| word(&m[0]) == 0), "{moves:?}");
        // x2 is solved: it must equal x0 * x1.
        let moves = proposer.moves(&at(&[3, 4, 15]), &[0, 1, 2], &[2], &Goal::Zero);
        assert!(moves.iter().any(|m| word(&m[0]) == 12), "{moves:?}");
    }
}
