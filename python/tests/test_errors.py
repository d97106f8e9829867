"""Bad input, limits, time and Ctrl-C: Python exceptions with the command line's messages."""

import os
import signal
import threading
import time

import pytest

import grundy


def test_bad_input_is_a_value_error_with_the_command_lines_message(cli):
    with pytest.raises(grundy.InputError) as e:
        grundy.sg("nope:3", (1,))
    assert isinstance(e.value, ValueError) and isinstance(e.value, grundy.Error)
    answer, code = cli("sg", "nope:3", "1")
    assert code == 2 and answer["kind"] == "bad_input"
    assert str(e.value) == answer["error"]


@pytest.mark.parametrize("call", [
    lambda: grundy.sg("path:3", (1, 2)),
    lambda: grundy.sg("path:3", "x,y,z"),
    lambda: grundy.sg("path:3"),
    lambda: grundy.sg("nim:2", (1, 2), engine="fastest"),
    lambda: grundy.table("nim:2", 0),
    lambda: grundy.period("path:3"),
    lambda: grundy.period("subtraction:1,2", max_heap=0),
    lambda: grundy.prove("nim:2", "Push(0) Frobnicate"),
    lambda: grundy.prove("nim:2", "Push(0)", target="everything"),
    lambda: grundy.prove("cram:3x3", "Push(0)"),
])
def test_bad_input_raises_input_error(call):
    with pytest.raises(grundy.InputError) as e:
        call()
    assert "\n" not in str(e.value) and str(e.value)


def test_a_time_limit_raises_timed_out():
    # Cram on 5x6 takes seconds of search; a tenth of a second is not enough.
    with pytest.raises(grundy.TimedOut) as e:
        grundy.sg("cram:5x6", timeout=0.1, progress=False)
    assert isinstance(e.value, TimeoutError) and "undecided" in str(e.value)


def test_a_timed_out_period_reports_what_it_has():
    p = grundy.period("grundy-game", max_heap=1 << 28, timeout=0.2, progress=False)
    assert p.status == "unsettled" and p.timed_out and p.computed >= 1


def test_max_heap_reaches_the_sequences_limit_not_the_positions():
    # Past the 2^28 heaps of a position, up to the 2^32 of a nim sequence, as `grundy period`.
    p = grundy.period("grundy-game", max_heap=(1 << 28) + 1, timeout=0.2, progress=False)
    assert p.status == "unsettled" and p.timed_out and p.computed >= 1
    with pytest.raises(grundy.InputError) as e:
        grundy.period("grundy-game", max_heap=(1 << 32) + 1, progress=False)
    assert str(1 << 32) in str(e.value)


def test_ctrl_c_raises_keyboard_interrupt_and_leaves_grundy_usable():
    # The analysis of Grundy's game never settles (no finite check applies): only the signal
    # ends it.
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            grundy.period("grundy-game", max_heap=1 << 28, progress=False)
    finally:
        timer.cancel()
    assert grundy.sg("nim:2", (3, 5), progress=False) == 6


def test_progress_reaches_the_callback():
    heard = []
    array, _ = grundy._grundy.table("nim:3", 16, None, "auto", progress=lambda *a: heard.append(a))
    assert array.shape == (16, 16, 16)
    assert heard, "no progress was reported"
    phase, what, done, total = heard[-1]
    assert phase >= 1 and what and done == total > 0


@pytest.mark.parametrize("on_worker", [False, True])
def test_a_panic_is_an_internal_error_and_grundy_stays_usable(on_worker):
    from grundy import _grundy

    with pytest.raises(grundy.InternalError) as caught:
        _grundy._panic("a deliberate panic", on_worker)
    assert "a bug in grundy" in str(caught.value) and "a deliberate panic" in str(caught.value)
    assert isinstance(caught.value, grundy.Error)
    assert grundy.sg("nim:3", [1, 2, 3], progress=False) == 0


def _interrupted(call):
    """Runs `call` with a Ctrl-C 0.3 s in, which it must answer with KeyboardInterrupt."""
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()


def _no_thread_left(grundy_threads):
    """The call waited for its work to end; a thread's exit may lag a moment behind."""
    for _ in range(100):
        if not grundy_threads():
            break
        time.sleep(0.05)
    assert grundy_threads() == []


@pytest.mark.parametrize("stop", ["timeout", "ctrl-c"])
def test_a_stopped_search_stops_and_the_next_call_works(cli, grundy_threads, stop):
    # Cram 7x9 searches for hours: only the stop ends its thread.
    if stop == "timeout":
        with pytest.raises(grundy.TimedOut):
            grundy.sg("cram:7x9", timeout=0.3, progress=False)
    else:
        _interrupted(lambda: grundy.sg("cram:7x9", progress=False))
    _no_thread_left(grundy_threads)
    answer, code = cli("sg", "cram:4x5")
    assert code == 0 and grundy.sg("cram:4x5", progress=False) == answer["nimber"]


def test_an_interrupted_table_stops_its_tabulation(grundy_threads):
    # 2^24 positions of four heaps: seconds of work in a debug build, more than the 0.3 s
    # before the interruption.
    _interrupted(lambda: grundy.table("nim:4", 64, progress=False))
    _no_thread_left(grundy_threads)
    assert grundy.table("nim:2", 4, progress=False)[3, 3] == 0
