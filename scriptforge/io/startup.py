"""What the console command does before it imports the rest of scriptforge (``__main__.main``).

- ``dataclasses`` writes the ``__init__``, ``__repr__``, ``__eq__``… of every dataclass as source
  and compiles it with ``exec`` in every process: a cold ``build`` compiled ~230 such snippets,
  ~3 % of its instructions. While the command runs, that ``exec`` takes the code from
  ``<user cache>/scriptforge/dataclasses/`` when it has compiled the same source text before
  (the same text, with ``dataclasses``' own compile flags, is the same code), and the entries met
  for the first time are added when the command ends. A damaged or unreadable file is started
  again; a read-only cache only costs speed. Only the console command does this: scriptforge
  imported as a library leaves ``dataclasses`` as it is.
- The cyclic garbage collector runs a young-generation pass every `YOUNG_PASS` new objects
  instead of Python's 700: loading modules, the database and WeasyPrint makes some hundred
  thousand objects and almost no garbage, and the collector went through them again and again
  (~0.4 % of a cold build; a render pauses it anyway, see pipeline). Garbage in reference cycles is
  still collected, a little later.
"""

import atexit
import dataclasses
import gc
import hashlib
import marshal
import sys
from typing import Any

from scriptforge.io.paths import cache_dir

MAX_ENTRIES = 4000  # beyond this (old versions' classes), the file starts again with this run's
YOUNG_PASS = 20_000


def start() -> None:
    """Install the compiled-code cache for dataclasses; the collector's young passes less often."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_PASS, middle, old)
    if getattr(dataclasses, "exec", None) is None:  # once per process
        _CompiledSources().install()


class _CompiledSources:
    """``dataclasses``' ``exec``, with the code of source texts compiled before read from the user cache."""

    def __init__(self) -> None:
        tag = hashlib.sha256(sys.version.encode()).hexdigest()[:12]  # marshal's format and the compiler
        self.path = cache_dir("dataclasses") / f"{sys.implementation.cache_tag}-{tag}.marshal"
        self.known: dict[str, Any] = self._read()
        self.used: dict[str, Any] = {}
        self.new = 0

    def _read(self) -> dict[str, Any]:
        # fileio.read_cache_bytes' format, read here: fileio's own dataclasses come after install
        try:
            data = self.path.read_bytes()
            digest, body = data[:32], data[32:]
            known = marshal.loads(body) if hashlib.sha256(body).digest() == digest else {}
        except Exception:  # noqa: BLE001 — missing, damaged or from another Python: started again
            return {}
        return known if isinstance(known, dict) else {}

    def install(self) -> None:
        dataclasses.exec = self.exec  # type: ignore[attr-defined]  # a module global comes before the builtin
        atexit.register(self.save)

    def exec(self, source: Any, globals_: Any = None, locals_: Any = None) -> None:
        if globals_ is None:  # as the builtin does: the caller's globals (dataclasses passes its own)
            globals_ = sys._getframe(1).f_globals
        if not isinstance(source, str):
            return exec(source, globals_, locals_)
        code = self.known.get(source)
        if code is None:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.known[source] = code
            self.new += 1
        self.used[source] = code
        return exec(code, globals_, locals_)

    def save(self) -> None:
        if not self.new:
            return
        # deferred: start-up time (fileio's own dataclasses come after the cache is in place)
        from scriptforge.io.fileio import write_cache_bytes

        entries = self.known if len(self.known) <= MAX_ENTRIES else self.used
        try:
            write_cache_bytes(self.path, marshal.dumps(entries))
        except ValueError:
            pass  # a code object marshal cannot write: nothing kept
