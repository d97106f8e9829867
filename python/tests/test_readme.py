"""The README's Python example runs and prints what the README shows under it."""

import contextlib
import io
import re

from conftest import ROOT


def test_the_readmes_python_example_prints_what_it_shows():
    text = (ROOT / "README.md").read_text()
    found = re.search(r"```python\n(.*?)```\n\n```text\n(.*?)```", text, re.S)
    assert found, "the README has a python block followed by its output"
    code, shown = found.groups()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue() == shown
