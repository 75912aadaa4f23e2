"""`scriptforge watch`: print a script's sheet again whenever the script or a file it uses changes.

For authors: one long-running process keeps the database, the fonts, the templates and the parsed
CSS loaded (the warm path), so a save becomes a new PDF in about the time of one warm render. What
is watched is polled by modification time and size (no file-notification dependency): the script,
every YAML file of the ``--homebrew`` folder (a file added or removed counts), the ``--icons``
folder and the YAML files the script's embedded homebrew characters were added from. After each render it prints what `add`/`remove` print: the files written, then how the
validate findings moved since the previous render. A save that cannot be read (half-written JSON,
an unknown character) prints its one-line error and the watch goes on, once the file has stayed
the same for ``SETTLE_SECONDS`` (an editor that writes a file in two steps gets no error between
them). The files a render writes are never watched (an output inside the ``--icons`` folder would
start the next render, for ever), and a script that does not exist is refused at once. The output is written
atomically (``outputs.write_rendered``), so a PDF viewer that reloads on change never sees half a
file; it is a preview the next save replaces, so it is not flushed to disk first (no fsync). The cyclic garbage collector is kept out of each render and run after the output is written,
while the watch waits for the next save.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
import os
from pathlib import Path
import time
from typing import Any

from scriptforge.io import collector
from scriptforge.io.batch import attempt, Failure
from scriptforge.io.errors import InputError, ScriptforgeError
from scriptforge.render.outputs import STDOUT, written_lines
from scriptforge.model.findings import Selection

POLL_SECONDS = 0.02  # how often the files are looked at (a few stat calls: no measurable CPU)
SETTLE_SECONDS = 0.3  # how long a file that cannot be read must stay unchanged before it is called broken

Stamp = dict[Path, tuple[int, int]]  # path -> (mtime_ns, size)


@dataclass
class Watch:
    """What one `watch` keeps between renders."""

    script: Path
    load_db: Callable[[], Any]  # the database without the homebrew folder (loaded once)
    renderer: Any  # a render.pdf.Renderer, reused for every render
    target: Callable[[Path, str | None], Path]
    options: dict[str, Any]  # pipeline.build's keyword options (lang, paper, fmt, back, night, ...)
    homebrew: Path | None = None
    icons: Path | None = None
    chosen: Selection = field(default_factory=Selection)
    _base: Any = None  # the database as load_db gave it
    _db: Any = None  # with the homebrew folder's characters
    _homebrew_stamp: Stamp | None = None
    _last: Any = None  # the Analysis of the last render
    _outputs: set[tuple[int, int]] = field(default_factory=set)  # (device, inode) of what renders wrote: not watched
    _failed: bool = False  # whether the last render ended in an error

    def files(self) -> Stamp:
        """The watched files with their modification times and sizes (a missing file is left out)."""
        stamp: Stamp = {}
        folders = [folder for folder in (self.homebrew, self.icons) if folder is not None]
        for path in [self.script, *(entry for folder in folders for entry in _entries(folder)), *self.sources()]:
            try:
                info = os.stat(path)
            except OSError:
                continue
            if (info.st_dev, info.st_ino) in self._outputs:
                continue
            stamp[path] = (info.st_mtime_ns, info.st_size)
        return stamp

    def sources(self) -> list[Path]:
        """The YAML files the script's embedded homebrew characters were added from (as the last
        render read them): an edit of one prints the sheet again, from the YAML."""
        return list(self._last.script.homebrew_sources.values()) if self._last is not None else []

    def database(self, stamp: Stamp):
        """The database with the homebrew folder's characters, read again when one of its files moved."""
        if self._base is None:
            self._base = self._db = self.load_db()
        if self.homebrew is not None:
            mine = {p: s for p, s in stamp.items() if p.parent == self.homebrew and p.suffix in (".yaml", ".yml")}
            if mine != self._homebrew_stamp:
                # deferred: start-up time
                from scriptforge.scripts.homebrew import with_homebrew

                self._db = with_homebrew(self._base, self.homebrew)
                self._homebrew_stamp = mine
        return self._db

    def render(self, stamp: Stamp) -> list[str]:
        """Render once; the lines to print (what was written and how the findings moved, or the error)."""
        # deferred: start-up time
        from scriptforge.scripts.edit import change_between
        from scriptforge.render.pipeline import build

        start = time.perf_counter()
        self._failed = True
        with collector.paused():
            try:
                db = self.database(stamp)
            except ScriptforgeError as exc:
                return [f"Error: {exc}"]
            result = attempt(lambda path: build(path, db, self.renderer, target=self.target, keep_analysis=True,
                                                durable=False, **self.options), self.script)
        seconds = time.perf_counter() - start
        if isinstance(result, Failure):
            return [f"Error: {line}" for line in result.message.splitlines()]
        self._failed = False
        self._outputs = {(info.st_dev, info.st_ino) for path in result.written if (info := _stat(path)) is not None}
        lines = [f"Warning: {self.script}: {warning}" for warning in result.warnings]
        done = [f"wrote {line} in {seconds:.2f} s" for line in written_lines(result.written, result.pages)]
        lines += change_between(self.script, self._last, result.analysis, done).lines(self.chosen)
        self._last = result.analysis
        return lines

    def _settled(self, stamp: Stamp, poll: float) -> bool:
        """Whether the watched files stay as `stamp` for SETTLE_SECONDS."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline:
            if self.files() != stamp:
                return False
            time.sleep(poll)
        return True

    def run(self, echo: Callable[[str], None], renders: int | None = None, poll: float = POLL_SECONDS) -> None:
        """Render now and after every change until Ctrl-C (or after `renders` renders: for tests)."""
        if str(self.target(self.script, None)) == STDOUT:
            raise InputError("watch writes a file that a viewer can reload; give -o FILE, not -o -")
        if not self.script.is_file():
            raise InputError("file not found (watch needs a script to print; make it first, e.g. "
                             "'scriptforge new')" if not self.script.exists() else "is not a file",
                             where=str(self.script))
        echo(f"watching {self.script} (Ctrl-C to stop)")
        seen: Stamp | None = None
        done = 0
        try:
            while renders is None or done < renders:
                stamp = self.files()
                if stamp != seen and self.script in stamp:
                    seen = stamp
                    lines = self.render(stamp)
                    if self._failed and not self._settled(stamp, poll):
                        continue  # written again meanwhile: the next render reads the finished file
                    seen = {path: value for path, value in seen.items()
                            if (info := _stat(path)) is None or (info.st_dev, info.st_ino) not in self._outputs}
                    for line in lines:
                        echo(line)
                    # the homebrew sources the render found are watched from now on
                    seen = {**{p: v for p, v in self.files().items() if p not in stamp}, **stamp}
                    done += 1
                    collector.collect_young()  # the render's garbage, while nothing waits for it
                    continue
                time.sleep(poll)
        except KeyboardInterrupt:
            echo("stopped")


def _stat(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except OSError:
        return None


def _entries(folder: Path) -> list[Path]:
    try:
        return sorted(entry for entry in folder.iterdir() if entry.is_file())
    except OSError:
        return []
