//! Progress bars on standard error, for the library's [`Progress`] reports; hidden when
//! standard error is not a terminal.

use indicatif::{ProgressBar, ProgressStyle};

use grundy_core::progress::Progress;
use grundy_synth::cegis::State;

/// A bar drawn while a phase runs and cleared when it ends.
pub struct Bar(ProgressBar);

impl Bar {
    /// A bar, or an invisible one when `show` is false.
    pub fn new(show: bool) -> Self {
        Bar(if show {
            ProgressBar::new(0)
        } else {
            ProgressBar::hidden()
        })
    }
}

impl Progress for Bar {
    fn start(&self, what: &str, total: u64) {
        let template = format!("{{bar:40}} {{pos}}/{{len}} {what}, eta {{eta}}");
        if let Ok(style) = ProgressStyle::with_template(&template) {
            self.0.set_style(style);
        }
        self.0.set_length(total);
        self.0.set_position(0);
    }

    fn advance(&self, n: u64) {
        self.0.inc(n);
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// The live line of a synthesis run on standard error: the length being searched, the lower
/// bound, the best program so far and the examples in use. It appears only for runs longer
/// than a second, on a terminal, and not with `--quiet`.
pub struct Live {
    bar: ProgressBar,
}

/// Runs shorter than this show no live line.
const LIVE_AFTER: std::time::Duration = std::time::Duration::from_secs(1);

impl Live {
    pub fn new(show: bool) -> Self {
        let bar = ProgressBar::hidden();
        if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
            bar.set_style(style);
        }
        if show {
            let later = bar.clone();
            let _ = std::thread::Builder::new()
                .name("grundy-live".into())
                .spawn(move || {
                    std::thread::sleep(LIVE_AFTER);
                    if !later.is_finished() {
                        later.set_draw_target(indicatif::ProgressDrawTarget::stderr());
                        later.enable_steady_tick(std::time::Duration::from_millis(200));
                    }
                });
        }
        Live { bar }
    }

    /// Shows the search's state.
    pub fn update(&self, s: &State<'_>) {
        self.bar.set_message(live_message(s));
    }

    /// Clears the line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The best program's infix form is cut to this many characters on the live line.
const LIVE_PROGRAM_CHARS: usize = 48;

/// "length 12, round 3, 40 examples | no program shorter than 12 | best: 15 (x0 + ...)".
fn live_message(s: &State<'_>) -> String {
    let best = match s.best {
        None => "none yet".to_string(),
        Some(p) => {
            let infix = p.infix();
            let shown = match infix.char_indices().nth(LIVE_PROGRAM_CHARS) {
                Some((cut, _)) => format!("{}...", &infix[..cut]),
                None => infix,
            };
            format!("{} instructions, {shown}", p.len())
        }
    };
    let at = if s.length == 0 {
        "looking for upper bounds".to_string()
    } else {
        format!(
            "length {}, round {}, {} examples",
            s.length, s.rounds, s.examples
        )
    };
    format!(
        "{at} | no program shorter than {} | best: {best}",
        s.lower_bound
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy_synth::lang::Program;

    #[test]
    fn the_live_line_shows_length_bound_and_best() {
        let p: Program = "Push(0) Push(1) Xor".parse().unwrap();
        let s = State {
            length: 4,
            lower_bound: 4,
            best: Some(&p),
            examples: 12,
            rounds: 2,
        };
        assert_eq!(
            live_message(&s),
            "length 4, round 2, 12 examples | no program shorter than 4 | best: 3 instructions, x0 ^ x1"
        );
        let long: Program = format!("Push(0){}", " Push(1) Plus".repeat(20))
            .parse()
            .unwrap();
        let s = State {
            length: 0,
            best: Some(&long),
            ..s
        };
        let line = live_message(&s);
        assert!(
            line.starts_with(
                "looking for upper bounds | no program shorter than 4 | best: 41 instructions, "
            ),
            "{line}"
        );
        assert!(line.ends_with("..."), "{line}");
    }
}
