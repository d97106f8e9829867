"""Values from Python against a brute force written here and against the command line."""

from functools import lru_cache
from itertools import product

import numpy as np
import pytest

import grundy


def mex(values):
    m = 0
    while m in values:
        m += 1
    return m


@lru_cache(maxsize=None)
def subtraction_sg(subset, n):
    """G(n) of the subtraction game with the amounts in `subset`, by its definition."""
    return mex({subtraction_sg(subset, n - k) for k in subset if k <= n})


@lru_cache(maxsize=None)
def nim_sg(position):
    """The nimber of plain nim by mex over every move (not by the xor rule)."""
    options = set()
    for i, h in enumerate(position):
        for left in range(h):
            options.add(nim_sg(position[:i] + (left,) + position[i + 1:]))
    return mex(options)


@pytest.mark.parametrize("position", [(1, 2, 4), (3, 5, 6), (0, 0, 7), (2, 2, 0)])
def test_nim_nimbers_are_the_mex_over_moves(position):
    assert grundy.sg("nim:3", position, progress=False) == nim_sg(position)


@pytest.mark.parametrize("engine", ["auto", "naive", "cut"])
def test_subtraction_nimbers_by_every_engine(engine):
    for n in range(0, 40, 7):
        got = grundy.sg("subtraction:1,3,4", (n,), engine=engine, progress=False)
        assert got == subtraction_sg((1, 3, 4), n)


def test_a_table_is_indexed_by_position():
    t = grundy.table("nim:2", 6, progress=False)
    assert t.shape == (6, 6) and t.dtype == np.int64
    for a, b in product(range(6), repeat=2):
        assert t[a, b] == nim_sg((a, b))


def test_table_and_sg_agree_with_the_command_line(cli):
    t = grundy.table("path:3", 5, progress=False)
    for p in [(3, 0, 3), (1, 2, 3), (4, 4, 1), (0, 0, 0)]:
        answer, code = cli("sg", "path:3", ",".join(map(str, p)))
        assert code == 0
        assert t[p] == answer["nimber"] == grundy.sg("path:3", p, progress=False)


def test_a_board_game_starts_from_its_full_board(cli):
    answer, code = cli("sg", "cram:3x4")
    assert code == 0
    assert grundy.sg("cram:3x4", progress=False) == answer["nimber"]


def test_best_move_leads_to_a_zero_position(cli):
    m = grundy.best_move("subtraction:1,2,3", (10,), progress=False)
    assert m.nimber == subtraction_sg((1, 2, 3), 10) != 0
    assert m.position is not None and subtraction_sg((1, 2, 3), m.position[0]) == 0
    answer, code = cli("best-move", "subtraction:1,2,3", "10")
    assert code == 0 and tuple(answer["position"]) == m.position and answer["move"] == m.move
    none = grundy.best_move("subtraction:1,2,3", (8,), progress=False)
    assert none.move is None and none.nimber == 0 and none.winning_moves == 0


def test_a_period_matches_the_values_by_definition(cli):
    p = grundy.period("subtraction:1,3,4", progress=False)
    assert p.status == "proved"
    n0, per = p.preperiod, p.period
    for n in range(n0, 300):
        assert subtraction_sg((1, 3, 4), n + per) == subtraction_sg((1, 3, 4), n)
    assert p.values == [subtraction_sg((1, 3, 4), n) for n in range(n0 + per)]
    assert "Theorem." in p.text and "Proof." in p.text
    answer, code = cli("period", "subtraction:1,3,4")
    assert code == 0
    assert (answer["preperiod"], answer["period"], answer["values"]) == (n0, per, p.values)


def test_values_on_disk_are_those_in_memory(tmp_path):
    for game in ("grundy-game", "subtraction:2,5,7"):
        memory = grundy.period(game, max_heap=20000, progress=False)
        disk = grundy.period(game, max_heap=20000, on_disk=tmp_path, progress=False)
        assert (disk.status, disk.values) == (memory.status, memory.values)
    # The values' file had no name: nothing is left behind.
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(grundy.InputError):
        grundy.period("hex:0.8", on_disk=tmp_path, progress=False)
    with pytest.raises(grundy.FileError):
        grundy.period("grundy-game", on_disk=tmp_path / "gone", progress=False)


def test_prove_agrees_with_the_command_line(cli):
    proved = grundy.prove("nim:2", ["Push(0)", "Push(1)", "Xor"])
    assert proved.status == "proved" and proved.counterexample is None
    refuted = grundy.prove("nim:2", "Push(0) Push(1) BooleanEq")
    assert refuted.status == "refuted"
    # The counterexample is checked here too: two positions a move apart that the program
    # reads as zero positions (x0 != x1), which nim's zero positions never are.
    c = refuted.counterexample
    p, q = tuple(c["position"]), tuple(c["move_to"])
    assert c["reason"] == "move_between_zeros" and p[0] != p[1] and q[0] != q[1]
    assert sum(a != b for a, b in zip(p, q)) == 1 and sum(q) < sum(p)
    assert nim_sg(p) != 0 or nim_sg(q) != 0
    answer, code = cli("prove", "nim:2", "--program", "Push(0) Push(1) BooleanEq")
    assert code == 1 and answer["counterexample"] == refuted.counterexample
    assert answer["reading"] == refuted.reading


def test_games_lists_every_family(cli):
    listed, code = cli("games")
    assert code == 0
    specs = [g["spec"] for g in grundy.games()]
    assert specs == [g["spec"] for key in ("games", "heap_games", "board_games")
                     for g in listed[key]]
    for g in grundy.games():
        assert g["kind"] in ("hypergraph", "heap", "board")


def test_survey_rows_are_the_command_lines(cli):
    import json
    import subprocess
    from conftest import _binary

    rows = list(grundy.survey("subtraction", size=2, max_element=5))
    done = subprocess.run([_binary(), "survey", "subtraction", "--size", "2", "--max-element",
                           "5", "--json"], capture_output=True, text=True, check=True)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [{k: v for k, v in r.items() if v is not None or k != "saltus"} for r in rows] == lines
    for r in rows:
        subset = tuple(int(k) for k in r["game"].split(":")[1].split(","))
        n0, per = r["preperiod"], r["period"]
        assert all(subtraction_sg(subset, n + per) == subtraction_sg(subset, n)
                   for n in range(n0, 200))


def test_a_heap_games_table_takes_its_heaps():
    t = grundy.table("subtraction:1,3,4", 12, heaps=2, progress=False)
    assert t.shape == (12, 12)
    for a, b in product(range(12), repeat=2):
        assert t[a, b] == subtraction_sg((1, 3, 4), a) ^ subtraction_sg((1, 3, 4), b)


def test_chomps_table_marks_points_that_are_no_position():
    t = grundy.table("chomp:2x3", 4, progress=False)
    # Heights may not grow to the right: (1, 2, 0) is no Chomp position, (2, 1, 0) is.
    assert t[1, 2, 0] == -1 and t[2, 1, 0] >= 0


def test_plot_draws_a_heatmap_and_writes_it(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    out = tmp_path / "nim.png"
    fig = grundy.plot("nim:2", 8, out=str(out))
    image = fig.axes[0].images[0].get_array()
    assert image.shape == (8, 8) and image[3, 5] == 3 ^ 5
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
