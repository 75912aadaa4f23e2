"""Batches with one rule, whatever the number of processes: every input is tried; an input that
fails becomes a `Failure` in its place (the others go on); the failures are reported at the end,
one line each (an error that lists several problems, such as unknown characters, a line per
problem); a batch with a failure exits 1 (a single input keeps its error's own exit code)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from scriptforge.errors import ScriptforgeError

Result = TypeVar("Result")


@dataclass(frozen=True)
class Failure:
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


def failure_lines(results: Sequence[object]) -> list[str]:
    """What a batch reports at its end: a line per failure, in input order, then a count."""
    failures = failures_of(results)
    lines = [f"Error: {line}" for failure in failures for line in failure.message.splitlines()]
    if failures and len(results) > 1:
        lines.append(f"Error: {len(failures)} of {len(results)} scripts failed; the others were written")
    return lines


def exit_code(results: Sequence[object]) -> int:
    failures = failures_of(results)
    if not failures:
        return 0
    return failures[0].exit_code if len(results) == 1 else 1
