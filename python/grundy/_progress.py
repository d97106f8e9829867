"""Progress of long calls: tqdm bars when tqdm is installed and asked for, silence otherwise."""

from typing import Any, Callable, Optional


def bar(progress: Optional[bool]) -> Optional[Callable[[int, str, int, int], None]]:
    """The callback the native code reports progress to, or None for silence.

    ``progress=None`` (the default) shows bars when tqdm is installed; ``True`` the same;
    ``False`` never."""
    if progress is False:
        return None
    try:
        import ipywidgets  # noqa: F401  (tqdm's notebook bars need it)
        from tqdm.auto import tqdm
    except ImportError:
        try:
            from tqdm import tqdm
        except ImportError:
            return None
    return _Bars(tqdm)


class _Bars:
    """One tqdm bar per phase of the work (``phase`` counts them from 1)."""

    def __init__(self, tqdm: Any) -> None:
        self._tqdm = tqdm
        self._phase = 0
        self._bar: Any = None

    def __call__(self, phase: int, what: str, done: int, total: int) -> None:
        if phase != self._phase:
            self.close()
            self._phase = phase
            # Calls that end within half a second show no bar.
            self._bar = self._tqdm(total=total or None, desc=what, leave=False, delay=0.5)
        if self._bar is not None:
            self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __del__(self) -> None:
        self.close()
