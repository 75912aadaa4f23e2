"""The cyclic garbage collector kept out of the way where it costs and finds nothing.

Loading the database and WeasyPrint makes a few hundred thousand long-lived objects, and a render
about a million more, nearly all freed by reference counting; the collector went through them again
and again (~7 % of the CPU time of a cold ``build --night``, ~30 ms of checking a 224-character
script). These three are the only places scriptforge tunes it:

- `paused`: no collection while a render or a check runs (their cycles are collected after it);
- `frozen`: what exists now is kept out of the collector's passes (and forked workers share its
  memory pages instead of copying them as the collector touches them), until the block ends;
- `leave_alone`: at the end of a command, what is left is frozen, so the interpreter's exit does
  not go through it (~0.1 s of a 1 s command); objects are still freed and ``atexit`` still runs.
"""

from collections.abc import Iterator
from contextlib import contextmanager
import gc


@contextmanager
def paused() -> Iterator[None]:
    """The collector off for the block (if it was on), on again after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def frozen() -> Iterator[None]:
    """What exists now out of the collector's passes for the block."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def leave_alone() -> None:
    """Everything now alive out of the collector's passes for the rest of the process."""
    gc.freeze()


def collect_young() -> None:
    """The cycles the last unit of work left (they are all in the youngest generation)."""
    gc.collect(0)
