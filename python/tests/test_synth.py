"""Synthesis from Python: the command line's answer, proved by z3, and stopped by time or
Ctrl-C with what it established."""

import os
import signal
import threading
import time

import pytest

import grundy


def test_synth_finds_the_command_lines_minimal_program(cli):
    r = grundy.synth("nim:2", max=8, progress=False)
    answer, code = cli("synth", "nim:2", "--max", "8")
    assert code == 0
    assert r.status == answer["status"] == "minimal"
    assert r.program == answer["program"] and r.expression == answer["expression"]
    assert r.length == len(r.program) == r.lower_bound == r.upper_bound
    # Checked here on the box: the program's zero set, in words, is nim's (x0 = x1).
    assert r.words == "x0 = x1"
    assert grundy.prove("nim:2", r.program).status == "proved"


def test_synth_proves_what_it_finds_when_asked():
    r = grundy.synth("path:3", max=8, target="indicator", prove=True, progress=False)
    assert r.status == "minimal" and r.proof["status"] == "proved"
    assert r.proof["scope"] == "all positions"
    t = grundy.table("path:3", 8, progress=False)
    # The words say where the program is 0; the table's zeros are exactly there.
    assert r.words == "x0 = x2 and x1 = 0"
    assert all((t[a, b, c] == 0) == (a == c and b == 0)
               for a in range(8) for b in range(8) for c in range(8))


def test_a_time_limit_answers_with_the_bounds_established():
    r = grundy.synth("circular:5,2", max=6, timeout=0.5, progress=False)
    assert r.status in ("undecided", "shortest found")
    assert r.details["stopped"] == "timed out" and r.lower_bound >= 1


def test_ctrl_c_stops_a_synthesis_and_the_next_one_runs():
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            grundy.synth("circular:5,2", max=6, progress=False)
    finally:
        timer.cancel()
    # The stop asked of the interrupted search does not stop the next one.
    assert grundy.synth("nim:2", max=8, progress=False).status == "minimal"


@pytest.mark.parametrize("call", [
    lambda: grundy.synth("nim:2"),
    lambda: grundy.synth("nim:2", max=4, target="everything"),
    lambda: grundy.synth("nim:2", max=4, ops="+Frobnicate"),
    lambda: grundy.synth("nim:2", max=4, solver="oracle"),
    lambda: grundy.synth("cram:3x3", max=4, prove=True),
])
def test_bad_synthesis_input_raises_input_error(call):
    with pytest.raises(grundy.InputError):
        call()


def test_ctrl_c_stops_a_proof_in_z3_and_the_next_one_runs(grundy_threads):
    # Xor has no linear reading: the proof runs over bit-vectors. The shift by 0 hides it
    # from the candidate moves, so condition (B) goes to the universal block, which z3 does
    # not settle for CN(7,1) below 2^6 in minutes.
    program = ("Push(0) Push(1) Xor Push(2) Xor Push(3) Xor Push(4) Xor Push(5) Xor "
               "Push(6) Xor Zero RightShift")
    before = len(grundy_threads())
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            grundy.prove("circular:7,1", program, bound=6)
    finally:
        timer.cancel()
    # The interrupted z3 check ends and its thread with it, rather than running on
    # unseen (a generous wait: the check would otherwise take minutes).
    deadline = time.monotonic() + 30
    while len(grundy_threads()) > before and time.monotonic() < deadline:
        time.sleep(0.05)
    # (Workers of earlier tests may end meanwhile: at most as many as before.)
    assert len(grundy_threads()) <= before
    assert grundy.prove("nim:2", "Push(0) Push(1) Minus").status == "proved"


def test_a_heap_game_gets_its_periods_constants_unless_told(cli):
    r = grundy.synth("subtraction:1,2,3", heaps=2, max=6, prove=True, progress=False)
    answer, code = cli("synth", "subtraction:1,2,3", "--heaps", "2", "--max", "6")
    assert code == 0 and r.program == answer["program"]
    assert "Const(3)" in r.program and r.proof["scope"] == "all positions"
    plain = grundy.synth("subtraction:1,2,3", heaps=2, max=6, consts=[], progress=False)
    assert not any(op.startswith("Const") for op in plain.program)
    assert grundy.synth("subtraction:1,2,3", heaps=2, max=6, consts=[3],
                        progress=False).program == r.program
    with pytest.raises(grundy.InputError):
        grundy.synth("path:3", max=4, consts="auto", progress=False)
