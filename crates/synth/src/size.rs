//! Estimated sizes of exported instances, so that `--export-cnf --length 500` is refused with
//! its size before gigabytes are written (the CNF grows about as L^2 per example plus L^3 for
//! the structure, the SMT-LIB script as L^2 per example).
//!
//! The instance is rendered for a sample of the examples at two short lengths, and its size
//! extrapolated in the length by the power the two fit and in the examples by their points.

use super::problem::Problem;
use grundy_core::error::Error;

/// The longest length rendered to measure the growth.
const PROBE: usize = 24;
/// Examples rendered.
const SAMPLE: usize = 8;

/// Renders an instance for a length and examples, and gives its size in bytes.
pub type Render<'a> = dyn Fn(usize, &[usize]) -> Result<usize, Error> + 'a;

/// Bytes an instance of `length` instructions over `examples` takes, estimated; `render(l, e)`
/// gives the size of the instance for length `l` and examples `e`. The structure (no examples)
/// and the examples' part are measured apart, since only the latter grows with the examples.
/// Exact when the length is at most `PROBE` and there are at most `SAMPLE` examples.
pub fn estimate(
    problem: &Problem,
    length: usize,
    examples: &[usize],
    render: &Render<'_>,
) -> Result<u64, Error> {
    let weight = |e: &usize| problem.examples[*e].points().len();
    let step = examples.len().div_ceil(SAMPLE).max(1);
    let sample: Vec<usize> = examples.iter().copied().step_by(step).collect();
    let total: usize = examples.iter().map(weight).sum();
    let sampled: usize = sample.iter().map(weight).sum();
    let per_points = total as f64 / sampled.max(1) as f64;
    // Sizes at `length`, extrapolated past the probe by the power two short lengths fit.
    let at = length.min(PROBE);
    let grown = |examples: &[usize]| -> Result<f64, Error> {
        let measured = render(at, examples)? as f64;
        if length <= PROBE {
            return Ok(measured);
        }
        let shorter = render(at / 2, examples)? as f64;
        let power = ((measured / shorter).ln() / 2f64.ln()).clamp(1.0, 3.0);
        Ok(measured * (length as f64 / at as f64).powf(power))
    };
    let structure = grown(&[])?;
    let with_sample = if sample.is_empty() {
        structure
    } else {
        grown(&sample)?
    };
    Ok((structure + (with_sample - structure).max(0.0) * per_points) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::tests::boxed;
    use crate::problem::Target;
    use crate::sat::export_dimacs;

    fn cnf_size(problem: &Problem, l: usize, e: &[usize]) -> Result<usize, Error> {
        export_dimacs(problem, l, e, &[]).map(|s| s.len())
    }

    #[test]
    fn estimates_are_exact_when_small_and_close_when_extrapolated() {
        let problem = boxed("path:3", 4, Target::Zero, false);
        let few = [0, 5, 9];
        let exact = cnf_size(&problem, 6, &few).unwrap() as u64;
        assert_eq!(
            estimate(&problem, 6, &few, &|l, e| cnf_size(&problem, l, e)).unwrap(),
            exact
        );
        // No examples: the structure alone.
        let bare = cnf_size(&problem, 30, &[]).unwrap() as u64;
        let guess = estimate(&problem, 30, &[], &|l, e| cnf_size(&problem, l, e)).unwrap();
        assert!((bare / 2..bare * 2).contains(&guess), "{guess} for {bare}");
        // Past the probe length and the sample: within a factor of 2 of the real size.
        let all: Vec<usize> = (0..problem.examples.len()).collect();
        let real = cnf_size(&problem, 40, &all).unwrap() as f64;
        let guess = estimate(&problem, 40, &all, &|l, e| cnf_size(&problem, l, e)).unwrap() as f64;
        assert!(
            (0.5..2.0).contains(&(guess / real)),
            "estimated {guess}, real {real}"
        );
    }
}
