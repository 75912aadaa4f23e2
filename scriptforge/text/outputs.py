"""What the printing commands (build, nightsheet, almanac, tokens) say at the end of a batch."""

from typing import Sequence

from scriptforge.io.batch import failures_of


def failure_lines(results: Sequence[object]) -> list[str]:
    """What a batch reports at its end: a line per failure, in input order, then a count."""
    failures = failures_of(results)
    lines = [f"Error: {line}" for failure in failures for line in failure.message.splitlines()]
    if failures and len(results) > 1:
        lines.append(f"Error: {len(failures)} of {len(results)} scripts failed; the others were written")
    return lines
