"""The native module: thin calls of grundy-core and grundy-synth answering JSON objects.
Use the functions of ``grundy`` instead; these are their building blocks."""

import os
from typing import Callable, List, Optional, Tuple, Union

import numpy as np

Progress = Optional[Callable[[int, str, int, int], None]]
"""Called with (phase, what, done, total) as the work goes."""

__version__: str

def games() -> str: ...
def sg(game: str, position: List[str], engine_name: str = "auto", moves: bool = False,
       timeout: Optional[float] = None, progress: Progress = None) -> str: ...
def best_move(game: str, position: List[str], engine_name: str = "auto",
              timeout: Optional[float] = None, progress: Progress = None) -> str: ...
def table(game: str, max: int, heaps: Optional[int] = None, engine_name: str = "auto",
          progress: Progress = None) -> Tuple[np.ndarray, str]: ...
def period(game: str, max_heap: int = 1000000, timeout: Optional[float] = None,
           on_disk: Optional[Union[str, "os.PathLike[str]"]] = None,
           progress: Progress = None) -> str: ...
def prove(game: str, program: str, orbits: bool = False, target: str = "zero",
          heaps: Optional[int] = None, width: Optional[int] = None,
          bound: Optional[int] = None, timeout: Optional[float] = None) -> str: ...
def survey_members(family: str, size: Optional[int] = None, max_element: Optional[int] = None,
                   digits: Optional[int] = None) -> List[str]: ...
def survey_row(game: str, max_heap: int) -> str: ...
def synth(game: Optional[str] = None, max: Optional[int] = None, data: Optional[str] = None,
          target_name: str = "zero", orbits: bool = False, timeout: Optional[float] = None,
          ops: Optional[str] = None, heaps: Optional[int] = None, width: int = 8,
          max_len: int = 20, solver: str = "auto", plain: bool = False, prove: bool = False,
          bound: Optional[int] = None, consts: Optional[str] = None,
          progress: Progress = None) -> str: ...
def _panic(message: str, on_worker: bool = False) -> None:
    """Panics in the native code, for the tests: it raises grundy.InternalError."""
