//! Take-and-break games given by a code, as in Winning Ways: octal (`0.77` is Kayles), hex
//! (`0.F`), and subtraction sets, finite (`1,3,4`) or all-but (`all-but:1,2`).
//!
//! Digit d_k of the code says what a move that takes k tokens from one heap may leave:
//! bit 1 nothing (the heap was exactly k), bit 2 one heap, bit 4 two heaps, bit 8 three heaps
//! (hex codes only). The digit before the point is d_0: taking nothing, a move may only split
//! (4 or 8). A subtraction set S is the code with d_k = 3 for k in S; an all-but set gives
//! d_k = 3 to every k it does not exclude.

use super::definition::{self, Moves};
use super::{HeapRule, MoveBounds, Values};
use crate::error::Error;
use crate::game::NimSet;
use crate::game::Nimber;

/// A take-and-break code: d_k for k < `digits.len()`, then `tail` for every larger k.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeBreak {
    name: String,
    digits: Vec<u8>,
    tail: u8,
    /// The k < `digits.len()` whose digit is not 0, in order: a heap's moves are found by
    /// these alone, so that a sparse code (`subtraction:100000`) costs its few amounts a heap,
    /// not max(S).
    active: Vec<usize>,
    /// The digit of each amount in `active`.
    active_digits: Vec<u8>,
}

/// An option of a heap that leaves at most two heaps ([`TakeBreak::each_option`]).
enum Leaves {
    /// It leaves no heap or one: its value.
    One(Nimber),
    /// It splits a total into two heaps: the total.
    Two(usize),
}

impl TakeBreak {
    /// An octal code such as `0.77`, `4.07` or `.137` (`0.` may be left out).
    pub fn octal(name: &str, code: &str) -> Result<Self, Error> {
        Self::from_code(name, code, 8)
    }

    /// A hexadecimal code such as `0.F` or `0.8`: digits up to F, bit 8 leaving three heaps.
    pub fn hex(name: &str, code: &str) -> Result<Self, Error> {
        Self::from_code(name, code, 16)
    }

    fn from_code(name: &str, code: &str, radix: u32) -> Result<Self, Error> {
        let (kind, article) = if radix == 8 {
            ("octal", "an")
        } else {
            ("hex", "a")
        };
        let (whole, fraction) = code.split_once('.').unwrap_or(("0", code));
        let whole = if whole.is_empty() { "0" } else { whole };
        let digit = |c: char| {
            c.to_digit(radix).map(|d| d as u8).ok_or_else(|| {
                let hint = if radix == 8 && c.is_ascii_hexdigit() {
                    " (digits 8-F need a hex code: hex:...)"
                } else {
                    ""
                };
                Error::spec(format!(
                    "`{c}` in {kind}:{code} is not {article} {kind} digit{hint}"
                ))
            })
        };
        let mut chars = whole.chars();
        let d0 = match (chars.next(), chars.next()) {
            (Some(c), None) => digit(c)?,
            _ => {
                return Err(Error::spec(format!(
                    "{kind}:{code}: one digit before the point (d0), e.g. 0.77 or 4.07"
                )))
            }
        };
        // Taking nothing must split: leaving the heap whole (or removing it, which takes
        // something) is not a move.
        if d0 & 3 != 0 {
            return Err(Error::spec(format!(
                "{kind}:{code}: d0 = {d0:X} would let a move take nothing and leave the heap as it \
                 was; d0 may only split (0, 4{})",
                if radix == 16 { ", 8 or C" } else { "" }
            )));
        }
        let mut digits = vec![d0];
        for c in fraction.chars() {
            digits.push(digit(c)?);
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.iter().all(|&d| d == 0) {
            return Err(Error::spec(format!("{kind}:{code} allows no move")));
        }
        Ok(Self::new(name, digits, 0))
    }

    /// The code with these digits and this tail digit.
    fn new(name: &str, digits: Vec<u8>, tail: u8) -> Self {
        let active: Vec<usize> = (0..digits.len()).filter(|&k| digits[k] != 0).collect();
        let active_digits = active.iter().map(|&k| digits[k]).collect();
        TakeBreak {
            name: name.into(),
            digits,
            tail,
            active,
            active_digits,
        }
    }

    /// A finite subtraction set such as `1,3,4`: take any of its amounts from one heap.
    pub fn subtraction(name: &str, set: &str) -> Result<Self, Error> {
        if let Some(excluded) = set.strip_prefix("all-but:") {
            let excluded = amounts(excluded, true)?;
            let top = excluded.last().copied().unwrap_or(0);
            let mut digits = vec![3u8; top + 1];
            digits[0] = 0;
            for &k in &excluded {
                digits[k] = 0;
            }
            return Ok(Self::new(name, digits, 3));
        }
        Ok(Self::of_amounts(name, &amounts(set, false)?))
    }

    /// The finite subtraction set of `set` (positive amounts, sorted, distinct).
    pub fn of_amounts(name: &str, set: &[usize]) -> Self {
        let mut digits = vec![0u8; set.last().map_or(1, |&m| m + 1)];
        for &k in set {
            digits[k] = 3;
        }
        Self::new(name, digits, 0)
    }

    /// d_k.
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(self.tail)
    }

    /// The largest k with a non-zero digit (for an all-but set, where the tail begins).
    fn last_digit(&self) -> usize {
        self.digits.len() - 1
    }

    /// The amounts k <= n a move may take from a heap of `n` (with some digit d_k not 0), in
    /// order: the code's active digits, and every k past them for a code with a tail.
    fn takes(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let listed = self.active.iter().copied().take_while(move |&k| k <= n);
        let tail = (self.tail != 0).then_some(self.digits.len()..=n);
        listed.chain(tail.into_iter().flatten())
    }

    /// Names each option of a heap of `n` that leaves at most two heaps to `visit`, in the
    /// order of the amounts taken, given the values of the smaller heaps.
    fn each_option(
        &self,
        n: usize,
        value: impl Fn(usize) -> Nimber,
        mut visit: impl FnMut(Leaves),
    ) {
        for k in self.takes(n) {
            let d = self.digit(k);
            let rest = n - k;
            if d & 1 != 0 && rest == 0 && k > 0 {
                visit(Leaves::One(0));
            }
            if d & 2 != 0 && rest >= 1 && k > 0 {
                visit(Leaves::One(value(rest)));
            }
            if d & 4 != 0 && rest >= 2 {
                visit(Leaves::Two(rest));
            }
        }
    }

    /// Inserts into `seen` the values of the options of a heap of `n` that leave at most one
    /// heap, and pushes onto `splits` the totals a move may split into two heaps.
    fn plain_options(
        &self,
        n: usize,
        value: impl Fn(usize) -> Nimber,
        seen: &mut NimSet,
        splits: &mut Vec<usize>,
    ) {
        self.each_option(n, value, |option| match option {
            Leaves::One(v) => seen.insert(v),
            Leaves::Two(rest) => splits.push(rest),
        });
    }

    /// The amounts with a digit not 0 and their digits, as [`super::definition`] reads them,
    /// unless a move may leave three heaps or take unboundedly many tokens.
    pub(super) fn listed_moves(&self) -> Option<Moves<'_>> {
        let plain = self.tail != 0 || self.active_digits.iter().any(|&d| d & 8 != 0);
        (!plain).then_some(Moves {
            amounts: &self.active,
            digits: &self.active_digits,
        })
    }

    /// Whether a move may leave `heaps` heaps after taking k (0 heaps: the heap was exactly k).
    fn leaves(&self, k: usize, heaps: usize) -> bool {
        self.digit(k) >> heaps & 1 == 1
    }
}

/// The amounts of a subtraction set: positive, distinct, sorted (an all-but set may be empty).
fn amounts(list: &str, may_be_empty: bool) -> Result<Vec<usize>, Error> {
    if list.trim().is_empty() {
        return if may_be_empty {
            Ok(Vec::new())
        } else {
            Err(Error::spec(
                "a subtraction set needs amounts, e.g. subtraction:1,3,4",
            ))
        };
    }
    let mut out = Vec::new();
    for word in list.split(',') {
        let k: usize = word.trim().parse().map_err(|_| {
            Error::spec(format!(
                "`{word}` in a subtraction set is not a whole number"
            ))
        })?;
        if k == 0 {
            return Err(Error::spec(
                "0 in a subtraction set: a move must take at least one token",
            ));
        }
        if k > MAX_AMOUNT {
            return Err(Error::spec(format!(
                "{k} in a subtraction set is too large (at most {MAX_AMOUNT})"
            )));
        }
        if out.contains(&k) {
            return Err(Error::spec(format!(
                "{k} is listed twice in the subtraction set"
            )));
        }
        out.push(k);
    }
    out.sort_unstable();
    Ok(out)
}

/// The largest amount a subtraction set may name: its code is a vector of this length.
const MAX_AMOUNT: usize = 1 << 20;

impl HeapRule for TakeBreak {
    fn name(&self) -> &str {
        &self.name
    }

    fn moves(&self, n: u32, visit: &mut dyn FnMut(&[u32])) {
        let n = n as usize;
        for k in self.takes(n) {
            let rest = (n - k) as u32;
            if k == n && self.leaves(k, 0) && k > 0 {
                visit(&[]);
            }
            if rest >= 1 && k > 0 && self.leaves(k, 1) {
                visit(&[rest]);
            }
            if self.leaves(k, 2) {
                for a in 1..=rest / 2 {
                    visit(&[a, rest - a]);
                }
            }
            if self.leaves(k, 3) {
                for a in 1..=rest / 3 {
                    for b in a..=(rest - a) / 2 {
                        visit(&[a, b, rest - a - b]);
                    }
                }
            }
        }
    }

    /// Per amount k taken, with r = n - k left: removing the heap (r = 0), leaving one heap,
    /// r / 2 ways of leaving two, and round(r^2 / 12) ways of leaving three (the partitions
    /// of r into three parts). The tail of an all-but code never splits: it adds the heaps
    /// left, one for each amount past the digits, plus removing the whole heap.
    fn move_count(&self, n: u32) -> u64 {
        let n = n as usize;
        let per_amount = |k: usize| {
            let d = self.digit(k);
            let r = (n - k) as u64;
            let mut count = 0;
            if d & 1 != 0 && r == 0 && k > 0 {
                count += 1;
            }
            if d & 2 != 0 && r >= 1 && k > 0 {
                count += 1;
            }
            if d & 4 != 0 {
                count += r / 2;
            }
            if d & 8 != 0 {
                count += (r * r + 6) / 12;
            }
            count
        };
        let listed: u64 = self
            .active
            .iter()
            .take_while(|&&k| k <= n)
            .map(|&k| per_amount(k))
            .sum();
        let first = self.digits.len();
        let tail = match self.tail {
            _ if n < first => 0,
            0 => 0,
            3 => (n - first) as u64 + 1,
            _ => (first..=n).map(per_amount).sum(),
        };
        listed + tail
    }

    fn option_values(&self, n: usize, values: &[Nimber], seen: &mut NimSet) {
        // The values below 64 of the options that leave one heap, gathered in a register and
        // inserted once (one insert after another waits on the word the last one wrote).
        let mut low = 0u64;
        self.each_option(
            n,
            |m| values[m],
            |option| match option {
                Leaves::One(v) if v < 64 => low |= 1 << v,
                Leaves::One(v) => seen.insert(v),
                Leaves::Two(rest) => {
                    let half = rest / 2;
                    seen.insert_xors(&values[1..=half], &values[rest - half..rest]);
                }
            },
        );
        seen.insert_low(low);
        for k in self.takes(n) {
            if self.digit(k) & 8 != 0 {
                let rest = n - k;
                for a in 1..=rest / 3 {
                    let b = a..=(rest - a) / 2;
                    seen.extend(b.map(|b| values[a] ^ values[b] ^ values[rest - a - b]));
                }
            }
        }
    }

    fn extend(&self, values: &mut Vec<Nimber>, n: usize, stop: &dyn Fn() -> bool) {
        if self.sparse() {
            super::sparse::extend_wide(self, values, n, stop);
        } else if let Some(tail) = self.open_tail() {
            self.extend_open(tail.window, values, n, stop);
        } else {
            self.extend_by_definition(values, n, stop);
        }
    }

    /// In vector registers (the module `definition`) where the code and the CPU allow, until a
    /// heap has an option of 64 or more; from there the plain way (values that large go on
    /// growing, and each heap would be read twice).
    fn extend_by_definition(&self, values: &mut Vec<Nimber>, n: usize, stop: &dyn Fn() -> bool) {
        if let Some(moves) = self.listed_moves().filter(|_| !values.is_empty()) {
            definition::extend(moves, values, n, stop);
        }
        super::by_definition(self, values, n, stop);
    }

    fn compact_valuation_bytes(&self, n: usize) -> u64 {
        if self.sparse() {
            super::sparse::valuation_bytes(n)
        } else if self.unsplit() {
            n as u64 + 1
        } else {
            self.valuation_bytes(n).saturating_add(n as u64 + 1)
        }
    }

    /// The rare/common technique, and a code that never splits a heap, work on the compact
    /// values themselves.
    fn extend_values(&self, values: &mut Values, n: usize, stop: &dyn Fn() -> bool) {
        if self.sparse() {
            super::sparse::extend(self, values, n, stop);
        } else if self.unsplit() {
            self.extend_unsplit(values, n, stop);
        } else {
            let mut wide = values.to_vec();
            self.extend(&mut wide, n, stop);
            *values = Values::from_slice(&wide);
        }
    }

    /// The values, and what the method beside them keeps: the rare/common technique its
    /// compact values and rare heaps, and the full-width copy made of them at the end
    /// (`sparse::wide_valuation_bytes`); an open tail a count for each value.
    fn valuation_bytes(&self, n: usize) -> u64 {
        if self.sparse() {
            return super::sparse::wide_valuation_bytes(n);
        }
        let per_heap = if self.tail != 0 { 8 } else { 4 };
        per_heap * (n as u64 + 1)
    }

    fn subtraction_set(&self) -> Option<Vec<usize>> {
        let plain = self.tail == 0 && self.digits.iter().all(|&d| d == 0 || d == 3);
        plain.then(|| {
            (1..self.digits.len())
                .filter(|&k| self.digits[k] == 3)
                .collect()
        })
    }

    /// An all-but set (or any code whose tail takes anything and whose digits never split).
    fn open_tail(&self) -> Option<super::OpenTail> {
        let plain = self.tail == 3 && self.digits.iter().all(|&d| d & !3 == 0);
        plain.then(|| super::OpenTail {
            window: self.last_digit(),
            leave_one: (1..=self.last_digit())
                .filter(|&k| self.digits[k] & 2 != 0)
                .collect(),
        })
    }

    /// Under the heaps' parity too when every split takes amounts of one parity.
    fn rarity(&self, values: &Values) -> Option<super::classes::Rarity> {
        use super::sparse::Splits;
        let parity = self.split_parity();
        self.sparse()
            .then(|| super::classes::rarity(values, parity))
    }

    fn values_in_place(&self) -> bool {
        self.sparse() || self.unsplit()
    }

    /// A finite code whose moves split into two heaps and never three.
    fn sparse(&self) -> bool {
        self.tail == 0
            && self.digits.iter().any(|&d| d & 4 != 0)
            && self.digits.iter().all(|&d| d & 8 == 0)
    }

    fn bounds(&self) -> Option<MoveBounds> {
        if self.tail != 0 {
            return None;
        }
        let heaps = self
            .digits
            .iter()
            .map(|&d| (0..4).filter(|b| d >> b & 1 == 1).max().unwrap_or(0))
            .max()
            .unwrap_or(0);
        // Taking k and leaving the rest whole, or removing a heap of exactly k, as one option
        // "a heap of n - k >= 0" (G(0) = 0): true when every digit has both bits or neither.
        let plain = self.digits.iter().all(|&d| (d & 1 == 0) == (d & 2 == 0));
        Some(MoveBounds {
            take: self.digits.len() - 1,
            heaps,
            plain_removal: plain,
        })
    }
}

impl TakeBreak {
    /// Whether the code is finite and never splits a heap, with fewer than 255 amounts: each
    /// option is then a single heap at most the last digit back and every value is below 255
    /// (at most the number of options), so [`TakeBreak::extend_unsplit`] values heaps in
    /// compact values, a byte each, in memory or on disk.
    fn unsplit(&self) -> bool {
        self.tail == 0
            && self.digits.iter().all(|&d| d & !3 == 0)
            && self.active.len() < usize::from(super::ESCAPE)
    }

    /// Extends compact `values` up to G(n) (less when `stop` says so) for an
    /// [`TakeBreak::unsplit`] code, reading the options in place: values on disk
    /// ([`Values::on_disk`]) then need in memory only the pages of the last heaps.
    fn extend_unsplit(&self, values: &mut Values, n: usize, stop: &dyn Fn() -> bool) {
        let mut seen = NimSet::new();
        let mut splits = Vec::new();
        while values.len() <= n && !stop() {
            seen.clear();
            self.plain_options(values.len(), |m| values.get(m), &mut seen, &mut splits);
            debug_assert!(splits.is_empty(), "an unsplit code splits no heap");
            values.push(seen.mex());
        }
    }

    /// Extends `values` up to G(n) (less when `stop` says so) for a code with an open tail, in
    /// time linear in the heaps whatever its window w: from a heap of h, a move leaves any
    /// heap m < h (m = 0: it takes all of h) but those a digit up to w forbids, the amounts
    /// excluded from an all-but set. So G(h) is the least of mu, the mex of every value
    /// before h, and the values that only forbidden heaps have: a count of each value, and
    /// of those at the forbidden heaps, decides it.
    fn extend_open(&self, w: usize, values: &mut Vec<Nimber>, n: usize, stop: &dyn Fn() -> bool) {
        if values.is_empty() && !stop() {
            values.push(0);
        }
        // The amounts up to w that may not leave a heap behind (taking all of a heap of h <= w
        // is forbidden by bit 1 instead, one heap at a time).
        let forbidden: Vec<usize> = (1..=w).filter(|&k| !self.leaves(k, 1)).collect();
        // How many heaps below the next one have each value; mu, the least value none has.
        let mut count: Vec<u32> = Vec::new();
        let mut mu = 0;
        let tally = |count: &mut Vec<u32>, v: Nimber| {
            let v = v as usize;
            if count.len() <= v {
                count.resize(v + 1, 0);
            }
            count[v] += 1;
        };
        for &v in values.iter() {
            tally(&mut count, v);
        }
        let mut lost: Vec<Nimber> = Vec::with_capacity(forbidden.len() + 1);
        while values.len() <= n && !stop() {
            let h = values.len();
            while count.get(mu).is_some_and(|&c| c > 0) {
                mu += 1;
            }
            // The values of the heaps no move from h leaves, sorted: a value every heap of
            // which is among them is not an option.
            lost.clear();
            lost.extend(
                forbidden
                    .iter()
                    .take_while(|&&k| k < h)
                    .map(|&k| values[h - k]),
            );
            if h <= w && !self.leaves(h, 0) {
                lost.push(values[0]);
            }
            lost.sort_unstable();
            let mut g = mu as Nimber;
            for run in lost.chunk_by(|a, b| a == b) {
                if run[0] < g && count[run[0] as usize] as usize == run.len() {
                    g = run[0];
                }
            }
            values.push(g);
            tally(&mut count, g);
        }
    }
}

impl super::sparse::Splits for TakeBreak {
    fn options<'a, S: super::Seq<'a>>(
        &self,
        h: usize,
        values: S,
        plain: &mut NimSet,
        splits: &mut Vec<usize>,
    ) {
        self.plain_options(h, |m| values.at(m), plain, splits);
    }

    fn unequal(&self) -> bool {
        false
    }

    /// Past the last digit every amount with a splitting digit leaves two heaps of at least
    /// one token each, whatever the heap.
    fn split_takes(&self) -> (usize, Vec<usize>) {
        let takes = self.active.iter().copied();
        let splitting = takes.filter(|&k| self.digit(k) & 4 != 0).collect();
        (self.digits.len() + 1, splitting)
    }
}

#[cfg(test)]
#[path = "takebreak_tests.rs"]
mod tests;
