//! Progress bars on standard error, for the library's [`Progress`] reports; hidden when
//! standard error is not a terminal.

use indicatif::{ProgressBar, ProgressStyle};

use crate::progress::Progress;

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
