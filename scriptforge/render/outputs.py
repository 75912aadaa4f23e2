"""Where rendered files go: the `-o` rules of `build`, `nightsheet`, `almanac` and the game sheets.

- ``-o -``: the PDF or HTML is written to standard output (one script, one file);
- ``-o DIR/`` (a trailing slash) or an existing folder: the files go into that folder, created
  if needed; with several scripts ``-o`` is always a folder;
- the format follows the output's suffix when ``--format`` is not given (``-o sheet.png`` is a
  PNG); a suffix naming another format than ``--format`` is an error;
- a script read from standard input is named after its ``_meta.name`` (else ``script``);
- before anything is written: two scripts that would write the same file, or an output that is
  one of the inputs, are an error;
- a file that cannot be written is one line naming it.
"""

import os
from pathlib import Path
import re
import sys
from typing import TYPE_CHECKING

from scriptforge.io.errors import ScriptforgeError
from scriptforge.io.fileio import atomic_write_bytes, is_special, refuse_to_overwrite
from scriptforge.io.userfiles import file_key, reserved_name

if TYPE_CHECKING:
    from scriptforge.render.writing import Rendered

STDOUT = "-"


class OutputError(ScriptforgeError):
    """An output that cannot be written where it was asked for."""

    exit_code = 2


def output_format(out: str | None, fmt: str | None, formats: tuple[str, ...], default: str = "pdf") -> str:
    """The format: `fmt` if given, else the one the output's suffix names, else `default`."""
    suffix = Path(out).suffix.lower().lstrip(".") if out and out != STDOUT and not is_folder(out) else ""
    named = suffix if suffix in formats else None
    if fmt and named and named != fmt:
        raise OutputError(f"the output is named .{suffix} but --format {fmt} was given; "
                          f"drop --format or name the file .{fmt}", where=out)
    return fmt or named or default


def is_folder(out: str) -> bool:
    return out.endswith(("/", os.sep)) or Path(out).is_dir()


def file_stem(script: Path, name: str | None) -> str:
    """The output's name: the script file's stem; for standard input the script's name, as a
    file name (``script`` when it has none)."""
    if str(script) != STDOUT:
        return renamed(script.stem)
    cleaned = re.sub(r"[^\w.-]+", "-", (name or "").strip(), flags=re.UNICODE).strip("-.")
    return renamed(cleaned[:80] or "script")


def renamed(stem: str) -> str:
    """A stem Windows reserves (CON, NUL, COM1…) gets a `_` (CON_.pdf), so the output can be copied there."""
    return f"{stem}_" if reserved_name(stem) else stem


def output_target(script: Path, out: str | Path | None, fmt: str, many: bool, suffix: str = "",
                  name: str | None = None) -> Path:
    """Where one script's output goes (without a page suffix for PNGs); ``Path("-")`` for stdout.

    Default: the script's file stem (+ `suffix`) + .fmt in the current folder. With several
    scripts `out` is a folder; with one it is a file, or a folder if it ends in / or is one.
    """
    filename = f"{file_stem(Path(script), name)}{suffix}.{fmt}"
    if out is None:
        return Path(filename)
    out = str(out)
    if out == STDOUT:
        if many:
            raise OutputError("-o - writes one file to standard output; give a folder for several scripts")
        return Path(STDOUT)
    if many or is_folder(out):
        return Path(out) / filename
    return Path(out)


def check_targets(pairs: list[tuple[Path, Path]]) -> None:
    """Refuse, before anything is written, two inputs that map to one output and an output that
    is one of the inputs, a file the run read or a data file (the files themselves are compared,
    through symlinks and hard links: `fileio.refuse_to_overwrite`). `pairs`: (input, output) per
    script (stdin and stdout are skipped)."""
    inputs = {file_key(source): source for source, _ in pairs if str(source) != STDOUT}
    seen: dict[tuple, Path] = {}
    for source, target in pairs:
        if str(target) == STDOUT:
            continue
        key = file_key(target)
        if key in inputs:
            raise OutputError(f"the output would overwrite the input {inputs[key]}; choose another -o",
                              where=str(target))
        if key in seen and str(source) != STDOUT:
            raise OutputError(f"{seen[key]} and {source} would both be written to this file; "
                              f"render them into separate folders or rename one", where=str(target))
        seen[key] = source
    refuse_to_overwrite(dict.fromkeys(target for _, target in pairs))


def write_rendered(rendered: "Rendered", target: Path, *, durable: bool = True) -> list[Path]:
    """Write each file of `rendered` atomically (PNG pages get -1, -2… before the suffix), or to
    standard output when `target` is ``-``; the paths written. `durable=False` does not wait for
    the disk (no fsync; a viewer still never sees half a file): for a preview that the next save
    replaces anyway (`watch`)."""
    if str(target) == STDOUT:
        if len(rendered.files) != 1:
            raise OutputError(f"-o - writes one file, but this output is {len(rendered.files)} PNG pages; "
                              f"give a file name")
        sys.stdout.buffer.write(rendered.files[0][1])
        sys.stdout.buffer.flush()
        return [Path(STDOUT)]
    stem = target.with_suffix("")
    if is_special(target) and len(rendered.files) == 1:  # -o /dev/null, a FIFO: that file, whatever its name
        paths = [target]
    else:
        paths = [target if suffix == target.suffix else Path(f"{stem}{suffix}") for suffix, _ in rendered.files]
    refuse_to_overwrite(paths)
    for path, (_, data) in zip(paths, rendered.files):
        atomic_write_bytes(path, data, durable=durable)  # a WriteError (one line, exit 2) when it cannot be written
    return paths


def written_lines(written: list[Path], pages: int) -> list[str]:
    """What the CLI prints per file written: ``sheet.pdf (4 pages)``, ``sheet-2.png (page 2 of 4)``."""
    if not pages:
        return [str(path) for path in written]
    if len(written) > 1:
        return [f"{path} (page {i} of {len(written)})" for i, path in enumerate(written, 1)]
    count = 1 if written and written[0].suffix == ".png" else pages
    return [f"{path} ({count} page{'s' if count != 1 else ''})" for path in written]
