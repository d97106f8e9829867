//! A period's analysis in words: the theorem and its proof, as `grundy period` prints them
//! and every front end shows them.

use super::{Analysis, Criterion, Period};
use crate::game::heap::Values;
use crate::game::Nimber;

/// The values printed in full: the preperiod and one period, or this many.
const SHOWN: usize = 120;

/// Why nothing is proved: the heaps valued, and whether a stop (a time limit, or an
/// interruption the caller asked to answer) cut them short.
pub fn unsettled(a: &Analysis) -> String {
    let upto = a.values.len() - 1;
    if a.stopped {
        format!(
            "the run stopped (a time limit or an interruption) with heaps 0..{upto} valued, \
             which do not settle a period"
        )
    } else {
        format!("heaps 0..{upto} do not settle a period")
    }
}

/// The first values, and ` ...` when there are more.
fn listed(values: &Values, range: std::ops::Range<usize>) -> String {
    let shown: Vec<String> = range
        .clone()
        .take(SHOWN)
        .map(|i| values.get(i).to_string())
        .collect();
    let more = if range.len() > SHOWN { " ..." } else { "" };
    format!("{}{more}", shown.join(" "))
}

/// The outcome of [`analyse`](super::analyse) in words: the period with its theorem and proof,
/// or what the values show when they settle nothing.
pub fn text(name: &str, a: &Analysis) -> String {
    let mut s = String::new();
    match &a.proved {
        Some(p) => {
            let (n0, per) = (p.preperiod, p.period);
            s += &format!("game:       {name}\n");
            s += &format!("preperiod:  {n0}\nperiod:     {per}\n");
            if p.saltus > 0 {
                s += &format!("saltus:     {}\n", p.saltus);
            }
            if n0 > 0 {
                s += &format!("preperiod values: {}\n", listed(&a.values, 0..n0));
            }
            s += &format!("period values:    {}\n", listed(&a.values, n0..n0 + per));
            s += &format!(
                "\nTheorem. The nim sequence G of {name} satisfies {} for every n >= {n0}, and \
                 for no smaller period or preperiod.\n",
                relation(per, p.saltus)
            );
            s += &format!("Proof. {}\n", proof(name, p));
        }
        None => {
            s += &format!("game:       {name}\n");
            s += &format!("status:     unsettled: {}\n", unsettled(a));
            if let Some(why) = a.no_criterion {
                s += &format!("why:        {why}\n");
            }
            if let Some(o) = &a.observed {
                let kind = if o.saltus == 0 {
                    format!("G(n + {}) = G(n)", o.period)
                } else {
                    format!("G(n + {}) = G(n) + {}", o.period, o.saltus)
                };
                s += &format!(
                    "observed:   {kind} for {} <= n <= {} (not proved)\n",
                    o.preperiod,
                    a.values.len() - 1 - o.period
                );
            }
            s += &format!("values:     {}\n", listed(&a.values, 0..a.values.len()));
            if let Some((top, heap)) = a.values.largest() {
                s += &format!("largest:    {top}, first at heap {heap}\n");
            }
        }
    }
    if let Some(r) = &a.rarity {
        let mask = r.classes.mask;
        let which = match r.classes.shift {
            None => format!("values with an even number of bits in mask {mask:#x}"),
            Some(s) => format!("heaps h with popcount(G(h) & {mask:#x}) + h + {s} even"),
        };
        s += &format!(
            "rare heaps: {} of heaps 1..{} ({which})\n",
            r.rare,
            a.values.len() - 1,
        );
    }
    s
}

/// `G(n + p) = G(n)`, or `G(n + p) = G(n) + s` for an arithmetic period.
pub fn relation(period: usize, saltus: Nimber) -> String {
    if saltus == 0 {
        format!("G(n + {period}) = G(n)")
    } else {
        format!("G(n + {period}) = G(n) + {saltus}")
    }
}

/// Why the period holds, in words.
fn proof(name: &str, p: &Period) -> String {
    let (n0, per) = (p.preperiod, p.period);
    let least = if n0 == 0 {
        "The preperiod is 0: the relation holds from n = 0.".to_string()
    } else {
        format!(
            "{} fails at n = {}, so the preperiod is {n0}.",
            relation(per, p.saltus),
            n0 - 1
        )
    };
    match p.criterion {
        Criterion::RepeatedState {
            at, repeat, shift, ..
        } => format!(
            "In {name}, {}. The values G(0), ..., G({}) were computed from the definition: the \
             states at n = {at} and n = {} are equal and mu grows by {shift} between them, so by \
             induction G(n + {repeat}) = G(n) + {shift} for every n >= {at}. The differences \
             G(n + d) - G(n) therefore repeat with period {repeat} from {at} on, and over one \
             such stretch they are constant for d = {per} (equal to {}) and for no smaller \
             divisor d of {repeat}; periods are closed under gcd, so {per} is the least. Below \
             {at} the values show {} down to n = {n0}. {least}",
            p.criterion.describe(),
            p.checked_up_to,
            at + repeat,
            p.saltus,
            relation(per, p.saltus),
        ),
        Criterion::Slices {
            from,
            block,
            saltus,
            window,
            end,
            ..
        } => format!(
            "In {name}, {}. The values G(0), ..., G({}) were computed from the definition: \
             those before {} are below s, and G(n + {block}) = G(n) + {saltus} for {from} <= n \
             < {}. By induction on N >= {end}, with the claim true below N: the heaps an \
             option leaves have eta summing to at most eta(N), so no option reaches \
             s (eta(N) + 1); in the top slice [s eta(N), s (eta(N) + 1)) their eta have \
             disjoint bits, so moving all blocks onto one big heap keeps the value, and adding \
             {block} to that heap matches these options one to one with those of N - {block} \
             in its top slice, whose mex is lambda(N - {block}) = lambda(N); and every value \
             below s eta(N) is an option, as the values show for {window} <= N < {} by \
             options with a heap y >= {from} whose other heaps' eta xor to 0 (slice 0 by such \
             options whose other heaps include two of equal eta, both >= {from}), which adding \
             {block} to y (or to both of the pair) carries to N + {block} one slice up (or to \
             N + {} in place). So G(N) = s eta(N) + lambda(N) = G(N - {block}) + {saltus}. \
             Over one stretch of {block} heaps from {from} the differences G(n + d) - G(n) \
             are constant for d = {per} and for no smaller divisor d of {block}; arithmetic \
             periods are closed under gcd, so {per} is the least. {least}",
            p.criterion.describe(),
            p.checked_up_to,
            from + block,
            end - block,
            window + 2 * block,
            2 * block,
        ),
        c => format!(
            "In {name}, {}. So if G(n + p) = G(n) holds for {n0} <= n < {} (= {}, with \
             n0 = {n0}, p = {per}), it holds for every n >= {n0}. The values G(0), ..., G({}) \
             were computed from the definition, and it does hold there; no smaller p passes the \
             same check on them. {least}",
            c.describe(),
            c.end(n0, per),
            c.formula(),
            p.checked_up_to,
        ),
    }
}

/// The analysis as one JSON object, as `grundy period --json` prints it and the Python package
/// returns it: the period proved (or why none is), the values up to its end, the criterion.
pub fn json(name: &str, a: &Analysis) -> serde_json::Value {
    serde_json::to_value(Report::of(name, a)).expect("a report is JSON")
}

/// [`json`] as it is written: the values serialized from the analysis's own as they are
/// written, never held as JSON (an unsettled run prints every value it computed: 2^32 of them
/// would take tens of bytes each as JSON values, and a byte or two here).
pub struct Report<'a> {
    /// Every field but the values, which a front end may add to (in key order, as
    /// `serde_json`'s maps keep them; the values take their place among them).
    pub fields: serde_json::Map<String, serde_json::Value>,
    values: &'a Values,
    shown: usize,
}

impl<'a> Report<'a> {
    /// The report of `a`, a run of the game `name`.
    pub fn of(name: &str, a: &'a Analysis) -> Report<'a> {
        let shown = match &a.proved {
            Some(p) => p.preperiod + p.period,
            None => a.values.len(),
        };
        let proved = a.proved.as_ref();
        let mut obj = serde_json::json!({
            "game": name,
            "status": if proved.is_some() { "proved" } else { "unsettled" },
            "preperiod": proved.map(|p| p.preperiod),
            "period": proved.map(|p| p.period),
            "saltus": proved.map(|p| p.saltus),
            "computed": a.values.len(),
            "checked_up_to": proved.map(|p| p.checked_up_to),
            "criterion": proved.map(|p| p.criterion),
            "observed": a.observed,
            "no_criterion": a.no_criterion,
            "rarity": a.rarity,
        });
        if proved.is_none() {
            obj["note"] = unsettled(a).into();
            if let Some((value, heap)) = a.values.largest() {
                obj["largest"] = serde_json::json!({ "value": value, "heap": heap });
            }
        }
        obj["timed_out"] = a.stopped.into();
        let serde_json::Value::Object(fields) = obj else {
            unreachable!("built as an object")
        };
        Report {
            fields,
            values: &a.values,
            shown: shown.min(a.values.len()),
        }
    }
}

impl serde::Serialize for Report<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        const VALUES: &str = "values";
        let shown = Shown(self.values, self.shown);
        let mut map = s.serialize_map(Some(self.fields.len() + 1))?;
        let mut pending = true;
        for (key, value) in &self.fields {
            if pending && key.as_str() > VALUES {
                map.serialize_entry(VALUES, &shown)?;
                pending = false;
            }
            map.serialize_entry(key, value)?;
        }
        if pending {
            map.serialize_entry(VALUES, &shown)?;
        }
        map.end()
    }
}

/// The first values of a run, serialized one by one.
struct Shown<'a>(&'a Values, usize);

impl serde::Serialize for Shown<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().take(self.1))
    }
}
