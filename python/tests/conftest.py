"""Shared helpers: the command line binary the values are checked against, the threads
grundy's work runs on, and Python's own handling of Ctrl-C."""

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _binary():
    given = os.environ.get("GRUNDY_BIN")
    if given:
        return given
    for profile in ("debug", "release"):
        path = ROOT / "target" / profile / "grundy"
        if path.exists():
            return str(path)
    return None


@pytest.fixture(autouse=True)
def ctrl_c_raises():
    """Python's own SIGINT handler for every test: a process started with SIGINT ignored
    (under `nohup`, as a background job) has none, and the tests that send the signal to
    interrupt a call that never ends by itself would wait for ever."""
    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, handler)


@pytest.fixture(scope="session")
def cli():
    """Runs `grundy ARGS --json` and returns its JSON object (and exit code)."""
    binary = _binary()
    if binary is None:
        pytest.skip("no grundy binary: build it (cargo build) or set GRUNDY_BIN")

    def run(*args):
        done = subprocess.run([binary, *args, "--json"], capture_output=True, text=True)
        return json.loads(done.stdout), done.returncode

    return run


@pytest.fixture
def grundy_threads():
    """A function listing the names of this process's threads that run grundy's work (the
    package's workers and the searches': named `grundy-...`), from Linux's /proc."""
    if not os.path.isdir("/proc/self/task"):
        pytest.skip("needs Linux's /proc")

    def names():
        found = []
        for task in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{task}/comm") as f:
                    found.append(f.read().strip())
            except OSError:
                pass  # the thread ended meanwhile
        return [n for n in found if n.startswith("grundy-")]

    return names
