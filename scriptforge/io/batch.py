"""Batches with one rule, whatever the number of processes: every input is tried; an input that
fails becomes a `Failure` in its place (the others go on); the failures are reported at the end,
one line each (an error that lists several problems, such as unknown characters, a line per
problem); a batch with a failure exits 1 (a single input keeps its error's own exit code)."""

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from scriptforge.io import collector
from scriptforge.io.errors import ScriptforgeError

Result = TypeVar("Result")


@dataclass(frozen=True)
class Failure:
    """An input of a batch that failed: the script, the error's message and its exit code."""

    script: Path
    message: str  # names the file (and the place); one line, or one per problem (unknown characters)
    exit_code: int


def attempt(work: Callable[[Path], Result], script: Path) -> Result | Failure:
    """`work(script)`, or the user error it raised as a Failure; a bug is raised as it is."""
    try:
        return work(script)
    except ScriptforgeError as exc:
        message = str(exc)
        if not message.startswith(str(script)):
            message = f"{script}: {message}"
        return Failure(script, message, exc.exit_code)


def failures_of(results: Sequence[object]) -> list[Failure]:
    return [result for result in results if isinstance(result, Failure)]


def exit_code(results: Sequence[object]) -> int:
    failures = failures_of(results)
    if not failures:
        return 0
    return failures[0].exit_code if len(results) == 1 else 1


Item = TypeVar("Item")

_forked_work: Callable[[Any], Any] | None = None  # the running `forked_map`'s work, seen by its workers


def can_fork() -> bool:
    # deferred: start-up time
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def forked_map(work: Callable[[Item], Result], items: Iterable[Item], jobs: int = 1,
               chunksize: int = 16) -> Iterator[Result]:
    """`work` over `items`, the results in input order as they come (a stream: nothing is kept
    once the caller has it). With ``jobs`` > 1, where processes can be forked, by ``jobs``
    worker processes forked from this one, so they share what is loaded (the database) instead
    of loading it again; `work` and its results must then be picklable results of plain data.
    multiprocessing is imported only then (a run at one job never pays for it)."""
    if jobs <= 1 or not can_fork():
        yield from map(work, items)
        return
    # deferred: start-up time
    import multiprocessing
    import threading

    global _forked_work
    _forked_work = work
    # At most `window` items in the workers or waiting to be taken: the pool hands out every
    # item at once and keeps every result until it is taken, so a caller slower than the
    # workers (printing 10,000 reports) held them all (157 MiB for 10,000 files at 2 jobs).
    window = threading.Semaphore(4 * jobs * chunksize)
    done = threading.Event()

    def handed_out() -> Iterator[Item]:
        for item in items:
            while not window.acquire(timeout=0.05):
                if done.is_set():  # the caller stopped: the pool's feeder must not wait forever
                    return
            yield item

    try:
        with collector.frozen(), multiprocessing.get_context("fork").Pool(jobs) as pool:
            try:
                for result in pool.imap(_call_forked_work, handed_out(), chunksize):
                    window.release()
                    yield result
            finally:
                done.set()  # before the pool ends: its feeder may be waiting in handed_out
    finally:
        _forked_work = None


def _call_forked_work(item: Any) -> Any:
    assert _forked_work is not None
    return _forked_work(item)
