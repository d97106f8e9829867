//! How `synth --prove` reports its proof: the theorem in words, the JSON `proof` object, and
//! the exit status it makes.

use crate::cli::Status;
use grundy_synth::cegis::Answer;
use grundy_synth::prove::{Target, Verdict};
use grundy_synth::theorem::{Proof, ProofStatus};

/// Proved: answered (exit 0); refuted with no search left: a counterexample (exit 1); else
/// undecided (exit 3).
pub(super) fn status(proof: &Proof, answer: &Answer) -> Status {
    match proof.status {
        ProofStatus::Proved => Status::Answered,
        ProofStatus::Refuted => {
            let program = match answer {
                Answer::Found(o) => o.program.infix(),
                Answer::Undecided(_) => "the program".into(),
            };
            let at = match proof.theorem.as_ref().map(|t| &t.verdict) {
                Some(Verdict::Refuted(c)) => format!(": {c}"),
                _ => String::new(),
            };
            let claim = match proof.theorem.as_ref().map(|t| t.target) {
                Some(Target::Sg) => format!("{program} is not the SG value"),
                _ => format!("the zero set of {program} is not the set of P-positions"),
            };
            Status::Counterexample(format!("{claim}{at}"))
        }
        ProofStatus::Unknown => Status::Undecided,
    }
}

fn status_name(s: ProofStatus) -> &'static str {
    match s {
        ProofStatus::Proved => "proved",
        ProofStatus::Refuted => "refuted",
        ProofStatus::Unknown => "unknown",
    }
}

/// The statement proved (or not): "for all positions of G, the P-positions are exactly ...".
fn statement(proof: &Proof, game: &str) -> Option<String> {
    let t = proof.theorem.as_ref()?;
    let scope = match t.bound {
        None => format!("for {} of {game}", t.scope),
        Some(_) => format!("for every position of {game} with {}", t.scope),
    };
    if t.target == Target::Sg {
        return Some(format!("{scope}, the SG value is {}", t.reading.words));
    }
    let and = match t.target {
        Target::Indicator => ", and the program is 1 at every other position",
        _ => "",
    };
    Some(match t.automorphisms {
        1 => format!(
            "{scope}, the P-positions are exactly those with {}{and}",
            t.reading.words
        ),
        k => format!(
            "{scope}, the P-positions are exactly those with an image under the {k} \
             automorphisms where {}{and}",
            t.reading.words
        ),
    })
}

/// The JSON `proof` object: status, scope, reading, the statement, the refuted programs.
pub(in crate::cli) fn json(proof: &Proof, game: &str) -> serde_json::Value {
    let t = proof.theorem.as_ref();
    let counterexample = match t.map(|t| &t.verdict) {
        Some(Verdict::Refuted(c)) if proof.status == ProofStatus::Refuted => {
            serde_json::json!(c)
        }
        _ => serde_json::Value::Null,
    };
    serde_json::json!({
        "status": status_name(proof.status),
        "scope": t.map(|t| &t.scope),
        "target": t.map(|t| t.target),
        "reading": t.map(|t| &t.reading),
        "statement": statement(proof, game),
        "automorphisms": t.map(|t| t.automorphisms),
        "counterexample": counterexample,
        "why": proof.why,
        "counterexamples": proof.history.len(),
        "history": proof.history,
        "seconds": t.map(|t| t.seconds),
    })
}

/// The theorem in one sentence, or why there is none: the text's `theorem:` line and a
/// report's "Theorem" item.
pub(in crate::cli) fn sentence(proof: &Proof, game: &str) -> String {
    let on_the_way = match proof.history.len() {
        0 => String::new(),
        1 => "; 1 program refuted on the way".to_string(),
        k => format!("; {k} programs refuted on the way"),
    };
    match (proof.status, statement(proof, game)) {
        (ProofStatus::Proved, Some(s)) => {
            let t = proof.theorem.as_ref();
            let by = match t.map(|t| (t.bound, t.width, t.states)) {
                Some((Some(b), Some(w), _)) => {
                    format!("by z3 over {w}-bit words for heaps below 2^{b}")
                }
                Some((_, _, Some(k))) => format!("column by column at every width, {k} states"),
                _ => "by z3 over unbounded naturals".to_string(),
            };
            format!(
                "proved {s} ({by}, {:.2} s{on_the_way})",
                t.map_or(0.0, |t| t.seconds)
            )
        }
        (status, _) => format!(
            "none ({}): {}",
            status_name(status),
            proof.why.as_deref().unwrap_or("no proof")
        ),
    }
}

/// The text lines: the theorem (or why there is none), then each program refuted on the way.
pub(in crate::cli) fn text(proof: &Proof, game: &str) -> Vec<String> {
    let mut lines = vec![format!("theorem:      {}", sentence(proof, game))];
    if proof.status == ProofStatus::Refuted {
        if let Some(Verdict::Refuted(c)) = proof.theorem.as_ref().map(|t| &t.verdict) {
            lines.push(format!("refuted at:   {c}"));
        }
    }
    for r in &proof.history {
        lines.push(format!(
            "refuted:      {} at {} ({} added to the data)",
            r.program,
            r.counterexample
                .position
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(","),
            match r.added {
                1 => "1 position".to_string(),
                k => format!("{k} positions"),
            }
        ));
    }
    lines
}
