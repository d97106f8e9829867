"""The example notebook runs from top to bottom, and its cells answer what they say."""

import nbformat
from nbclient import NotebookClient

from conftest import ROOT


def test_the_example_notebook_runs():
    path = ROOT / "examples" / "grundy.ipynb"
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    results = [c.outputs for c in nb.cells if c.cell_type == "code"]
    for outputs in results:
        assert not [o for o in outputs if o.output_type == "error"]
    def text(outputs):
        shown = "".join(o.get("data", {}).get("text/plain", "")
                        for o in outputs if o.output_type == "execute_result")
        return " ".join(shown.split())

    assert text(results[0]) == "(8, 0, 2)"
    assert text(results[1]).startswith("((16, 16, 16), ")
    assert any("image/png" in o.get("data", {}) for o in results[1])
    assert "'minimal'" in text(results[2])
    assert text(results[3]).startswith("('proved', 'all positions', 'x0 = x1', 'refuted', {")
