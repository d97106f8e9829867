#!/usr/bin/env bash
# Regenerates the committed instances with the release binary. Their expected status is in
# status.tsv; tests/synth.rs re-solves them with cadical, minisat and z3.
set -euo pipefail
cd "$(dirname "$0")"
g=../../target/release/grundy
[ -x "$g" ] || (cd ../.. && cargo build --release --quiet)
$g synth path:3 --max 5 --target indicator --export-examples cegis --length 6 --export-cnf p3-indicator-len6.cnf --export-sygus p3-indicator.sy
$g synth path:3 --max 5 --target indicator --export-examples cegis --length 5 --export-cnf p3-indicator-len5.cnf
$g synth shriek --max 4 --target sg --export-examples cegis --length 5 --export-cnf shriek-sg-len5.cnf --export-smt shriek-sg-len5.smt2
$g synth shriek --max 4 --target sg --export-examples cegis --length 4 --export-cnf shriek-sg-len4.cnf --export-smt shriek-sg-len4.smt2
$g synth circular:3,3 --max 4 --orbits --export-examples cegis --length 4 --export-cnf cn33-orbits-len4.cnf
$g synth circular:3,3 --max 4 --orbits --export-examples cegis --length 5 --export-cnf cn33-orbits-len5.cnf
