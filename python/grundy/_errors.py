"""grundy's exceptions: one base, and a class per kind of failure that also subclasses the
built-in exception a Python caller already catches for it."""


class Error(Exception):
    """Every failure grundy reports; the message is the command line's one line."""


class InputError(Error, ValueError):
    """Bad input: a game spec, a position, an argument, a program, a file's contents."""


class LimitError(Error):
    """A memory or size limit was reached; the message names the argument that raises it."""


class TimedOut(Error, TimeoutError):
    """The time limit passed before the question was settled; the message says what is known."""


class FileError(Error, OSError):
    """A file could not be read or written."""


class InternalError(Error):
    """A bug in grundy (a result that contradicts itself, or a panic of the native code)."""
