"""grundy from Python: Sprague-Grundy values, tables, nim-sequence periods, shortest
formulas and their proofs, by the engines of the ``grundy`` command line.

Each function mirrors a command (``grundy sg`` is :func:`sg`, ``grundy table`` is
:func:`table`, ...) with Python types: positions are tuples of ints (or a board's text),
tables are numpy arrays indexed by position. Long calls release the GIL and stop on Ctrl-C
(KeyboardInterrupt); progress shows with tqdm when it is installed. Failures raise
:class:`Error` subclasses: :class:`InputError` is a ValueError, :class:`TimedOut` a
TimeoutError. The reference is docs/python.md.
"""

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

import numpy as np

from . import _grundy
from ._errors import Error, FileError, InputError, InternalError, LimitError, TimedOut
from ._progress import bar as _bar

__version__ = _grundy.__version__

__all__ = [
    "Error", "InputError", "LimitError", "TimedOut", "FileError", "InternalError",
    "Move", "Period", "Proof", "Synthesis",
    "games", "sg", "best_move", "table", "period", "survey", "synth", "prove", "plot",
]

Position = Union[None, str, Sequence[int]]


def _words(position: Position) -> List[str]:
    """A position as the command line's words: ``(3, 0, 3)`` -> ``["3,0,3"]``."""
    if position is None:
        return []
    if isinstance(position, str):
        return [position]
    try:
        return [",".join(str(int(x)) for x in position)]
    except (TypeError, ValueError) as e:
        raise InputError(f"bad position: {position!r} is not a sequence of integers") from e


def _call(fn: Any, *args: Any, progress: Optional[bool] = None, **kwargs: Any) -> Any:
    """A native call with its progress bars, closed when it ends."""
    bars = _bar(progress)
    try:
        return fn(*args, progress=bars, **kwargs)
    finally:
        if bars is not None:
            bars.close()


def games() -> List[Dict[str, str]]:
    """Every game family: dicts with ``kind`` (hypergraph, heap or board), ``spec`` (how it
    is written), ``example`` and ``about``, as ``grundy games`` lists them."""
    listed = json.loads(_grundy.games())
    kinds = {"games": "hypergraph", "heap_games": "heap", "board_games": "board"}
    return [dict(kind=kind, **g) for key, kind in kinds.items() for g in listed[key]]


def sg(game: str, position: Position = None, engine: str = "auto", *,
       timeout: Optional[float] = None, progress: Optional[bool] = None) -> int:
    """The nimber (Sprague-Grundy value) of ``position`` in ``game``.

    ``position`` is a tuple of stones per vertex (heap sizes for a heap game, whose number of
    heaps it sets) or a board game's text; it may be left out where the game has a start (a
    board game's full board, e.g. ``cram:4x5``). ``engine`` is one of the command line's
    (auto, table, naive, lv, def, scut, cut, with suffixes); the search runs on one thread
    (a table on every core). Raises :class:`TimedOut` after ``timeout`` seconds; the search stops
    then, and on KeyboardInterrupt."""
    out = _call(_grundy.sg, game, _words(position), engine, False, timeout, progress=progress)
    return int(json.loads(out)["nimber"])


@dataclass(frozen=True)
class Move:
    """A winning move, or none (``move`` is None: the position's nimber is 0)."""

    nimber: int
    """The nimber of the position moved from."""
    move: Optional[str]
    """The move in words, e.g. ``take 2 from heap 1``; None when no move wins."""
    position: Optional[tuple]
    """The position the move leads to (a zero position)."""
    position_text: Optional[str]
    """That position as the game writes it."""
    winning_moves: int
    """How many moves win."""


def best_move(game: str, position: Position = None, engine: str = "auto", *,
              timeout: Optional[float] = None, progress: Optional[bool] = None) -> Move:
    """A winning move from ``position`` (arguments as for :func:`sg`): the first move to a
    zero position, or ``Move(move=None)`` when none wins."""
    out = json.loads(_call(_grundy.best_move, game, _words(position), engine, timeout,
                           progress=progress))
    to = out["position"]
    return Move(nimber=out["nimber"], move=out["move"],
                position=None if to is None else tuple(to),
                position_text=out["position_text"], winning_moves=out["winning_moves"])


def table(game: str, max: int = 8, *, heaps: Optional[int] = None, engine: str = "auto",
          progress: Optional[bool] = None) -> np.ndarray:
    """The nimbers of every position of the box [0, max)^n, as an int64 numpy array of shape
    ``(max,) * n`` indexed by position (``t[3, 0, 3]``); -1 where a point of the box is no
    position of the game (Chomp's heights must not grow). A heap game needs ``heaps``."""
    array, _meta = _call(_grundy.table, game, max, heaps, engine, progress=progress)
    return array


@dataclass(frozen=True)
class Period:
    """A heap game's nim sequence, and its period when the values prove one."""

    game: str
    status: str
    """``proved``, or ``unsettled`` when the values computed prove no period."""
    preperiod: Optional[int]
    period: Optional[int]
    saltus: Optional[int]
    """What the values grow by each period (0: plain periodicity)."""
    values: List[int]
    """The preperiod and one period of values when proved, else every value computed."""
    computed: int
    """Heaps valued, 0 .. computed - 1."""
    text: str
    """The theorem and its proof in words (or what the values show), as ``grundy period``
    prints it."""
    timed_out: bool
    details: Dict[str, Any] = field(default_factory=dict, repr=False)
    """Everything ``grundy period --json`` reports (criterion, checked_up_to, ...)."""

    def __str__(self) -> str:
        return self.text


def period(game: str, *, max_heap: int = 1_000_000, timeout: Optional[float] = None,
           on_disk: Optional[Union[str, "os.PathLike[str]"]] = None,
           progress: Optional[bool] = None) -> Period:
    """The nim sequence of a heap game (``subtraction:1,3,4``, ``octal:0.77``, ...) and its
    period, proved by a finite check; after ``timeout`` seconds the values so far are
    examined, and the result says ``timed_out`` unless they prove a period. With
    ``on_disk``, a directory, the values are held in a file there rather than in memory, as
    ``grundy period --on-disk`` holds them."""
    out = json.loads(_call(_grundy.period, game, max_heap, timeout, on_disk,
                           progress=progress))
    return Period(game=out["game"], status=out["status"], preperiod=out["preperiod"],
                  period=out["period"], saltus=out["saltus"], values=out["values"],
                  computed=out["computed"], text=out["text"], timed_out=out["timed_out"],
                  details=out)


@dataclass(frozen=True)
class Proof:
    """What z3 established about a program's reading, for all positions."""

    status: str
    """``proved``, ``refuted`` (with a counterexample) or ``unknown``."""
    scope: str
    """Which positions the statement is about, e.g. ``all positions``."""
    reading: Dict[str, Any]
    """The program read as a formula: ``words``, ``infix``, ``latex``."""
    counterexample: Optional[Dict[str, Any]]
    """Where the reading and the game disagree (re-checked by the game's moves)."""
    expression: str
    """The program as an expression."""
    details: Dict[str, Any] = field(default_factory=dict, repr=False)
    """Everything ``grundy prove --json`` reports."""


def prove(game: str, program: Union[str, Sequence[str]], orbits: bool = False,
          target: str = "zero", *, heaps: Optional[int] = None, width: Optional[int] = None,
          bound: Optional[int] = None, timeout: Optional[float] = None) -> Proof:
    """Proves with z3 that ``program`` (its instruction names, or one string of them) reads
    the zero positions of ``game`` (``target="zero"``), their indicator (``"indicator"``) or
    the SG value (``"sg"``) at every position; ``orbits`` reads it up to the game's
    automorphisms. A refuted claim is an answer (``status="refuted"``), not an exception."""
    text = program if isinstance(program, str) else " ".join(program)
    out = json.loads(_grundy.prove(game, text, orbits, target, heaps, width, bound, timeout))
    return Proof(status=out["status"], scope=out["scope"], reading=out["reading"],
                 counterexample=out["counterexample"], expression=out["expression"],
                 details=out)


@dataclass(frozen=True)
class Synthesis:
    """The shortest straight-line program found for a classification, and how far its length
    is established."""

    status: str
    """``minimal`` (every shorter length refuted), ``shortest found`` (the search stopped
    with lengths below it undecided) or ``undecided`` (no program found in time)."""
    program: Optional[List[str]]
    """The program's instruction names (``["Push(0)", "Push(1)", "Xor"]``)."""
    expression: Optional[str]
    """The program as an infix expression."""
    words: Optional[str]
    """Where the program is 0, in words, when that can be said simply (targets zero and
    indicator)."""
    latex: Optional[str]
    """The expression as LaTeX."""
    length: Optional[int]
    lower_bound: int
    """Every length below this is refuted."""
    upper_bound: Optional[int]
    """The length of the program found."""
    proof: Optional[Dict[str, Any]]
    """With ``prove=True``: the prover's ``status`` (proved, refuted, unknown), ``scope``,
    ``reading``, ``counterexample``, ``why``."""
    details: Dict[str, Any] = field(default_factory=dict, repr=False)
    """Everything else: the form chosen and why, the data's size, the seconds spent."""


def synth(game: Optional[str] = None, *, max: Optional[int] = None, target: str = "zero",
          orbits: bool = False, timeout: Optional[float] = None, data: Optional[str] = None,
          ops: Optional[str] = None, heaps: Optional[int] = None, width: int = 8,
          max_len: int = 20, solver: str = "auto", plain: bool = False, prove: bool = False,
          bound: Optional[int] = None, consts: Union[None, str, Sequence[int]] = None,
          progress: Optional[bool] = None) -> Synthesis:
    """The shortest stack program that classifies the zero positions of ``game`` on the box
    [0, max)^n (``target="zero"``: 0 exactly there; ``"indicator"``: 0 there and 1
    elsewhere; ``"sg"``: the SG value itself), or of the table file ``data``, as ``grundy
    synth`` finds it.

    ``orbits`` classifies up to the game's automorphisms; ``plain`` keeps the plain form
    where both would be tried. ``ops`` edits the instruction set as ``--ops`` does
    (``"+Mul,-Lt"``). ``timeout`` stops the search with what it established (the best
    program as ``shortest found``, or ``undecided``); so does Ctrl-C, which then raises
    KeyboardInterrupt. ``prove=True`` proves the program for every position, searching
    again on the prover's counterexamples (``bound``: its bit-vector bound). ``consts`` adds
    constants to the instructions: a list such as ``[2, 3]``, ``"auto"`` (a heap game's
    period p gives p - 1 and p) or ``"none"``; by default a heap game with a plain period
    gets its period's, other games none."""
    if consts is not None and not isinstance(consts, str):
        consts = ",".join(str(k) for k in consts) or "none"
    out = json.loads(_call(_grundy.synth, game, max, data, target, orbits, timeout, ops, heaps,
                           width, max_len, solver, plain, prove, bound, consts,
                           progress=progress))
    return Synthesis(status=out["status"], program=out["program"],
                     expression=out["expression"], words=out["words"], latex=out["latex"],
                     length=out["length"], lower_bound=out["lower_bound"],
                     upper_bound=out["upper_bound"], proof=out["proof"], details=out)


def plot(game: str, max: int = 16, *, heaps: Optional[int] = None,
         at: Sequence[int] = (), out: Optional[str] = None, ax: Any = None) -> Any:
    """A heatmap of the nimbers of ``game`` on [0, max)^2 (the first two coordinates, the
    others fixed at ``at``), or for one coordinate its values as a sequence: a matplotlib
    Figure. With ``out`` the figure is written there too (PNG, SVG, ... by its extension)."""
    import matplotlib.pyplot as plt

    values = table(game, max, heaps=heaps)
    rest = tuple(at) + (0,) * (values.ndim - 2 - len(at)) if values.ndim > 2 else ()
    shown = values[(slice(None), slice(None)) + rest] if values.ndim > 2 else values
    if ax is None:
        fig, ax = plt.subplots()
    else:
        fig = ax.figure
    if shown.ndim == 1:
        ax.plot(range(len(shown)), shown, marker="o")
        ax.set_xlabel("x0")
        ax.set_ylabel("nimber")
    else:
        masked = np.ma.masked_less(shown, 0)
        image = ax.imshow(masked.T, origin="lower", cmap="viridis")
        fig.colorbar(image, ax=ax, label="nimber")
        ax.set_xlabel("x0")
        ax.set_ylabel("x1")
    ax.set_title(game if not rest else f"{game} at {rest}")
    if out is not None:
        fig.savefig(out)
    return fig


def survey(family: Union[str, Sequence[str]], *, size: Optional[int] = None,
           max_element: Optional[int] = None, digits: Optional[int] = None,
           max_heap: Optional[int] = None) -> Iterator[Dict[str, Any]]:
    """The period of every heap game of a family, one dict per game as it is settled (as
    ``grundy survey`` writes its rows): ``game``, ``status`` (proved, observed or unsettled),
    ``preperiod``, ``period``, ``saltus``, ``criterion``, ``checked_up_to``, ``computed``.

    ``family`` is ``"subtraction"`` (with ``size`` and ``max_element``), ``"octal"`` or
    ``"hex"`` (with ``digits``), or a list of heap game specs. ``max_heap`` defaults as the
    command's: 1000 for hex codes, 100000 otherwise. ``list(...)`` of it is a list of dicts
    that ``pandas.DataFrame`` takes."""
    if isinstance(family, str):
        members = _grundy.survey_members(family, size, max_element, digits)
        limit = max_heap or (1_000 if family == "hex" else 100_000)
    else:
        members = list(family)
        limit = max_heap or 100_000
    for game in members:
        row = json.loads(_grundy.survey_row(game, limit))
        row.setdefault("saltus", None)
        yield row
