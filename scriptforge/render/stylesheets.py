"""WeasyPrint stylesheets parsed once and kept in the user cache.

Parsing sheet.css and ua.css cost ~20 ms of every cold render: tinycss2 tokenizes them,
WeasyPrint validates every declaration, cssselect2 compiles every selector into a Python
function with ``eval``. What a parse leaves in a ``weasyprint.CSS`` (its selector matcher with
the validated declarations, its ``@page`` rules and layers) and in the counter styles it fills
is pickled into the user cache, keyed by the CSS text and the versions of Python, WeasyPrint,
tinycss2 and cssselect2. The selectors' test functions do not pickle: their source, recorded as
cssselect2 compiles it, is kept instead, as one marshalled code object made of all of them, and
the functions are made from it again when the entry is read (~1 ms in all).

What WeasyPrint logged while parsing (sheet.css's ``word-break: keep-all``, for browsers, is
"invalid" to it) is kept too and logged again when the entry is read, so a handler sees the same
records either way. An entry is kept only where every test function's source was recorded (a
cssselect2 that compiles selectors another way is parsed every time). A missing, damaged (each
entry starts with its checksum: ``fileio.read_cache_bytes``) or unreadable entry is parsed again.

``weasy.parsed_css`` is the way in (WeasyPrint's own parse under SCRIPTFORGE_PLAIN_WEASYPRINT);
``stylesheet-cache`` in ``weasy.PATCHES`` checks that a cached stylesheet is the one a parse
gives, and tests/test_weasy.py that the PDFs of every template are the same bytes.
"""

import hashlib
import io
import logging
import marshal
import pickle
from pathlib import Path
import sys
import types
from typing import Any

from scriptforge.io.fileio import read_cache_bytes, write_cache_bytes
from scriptforge.io.paths import cache_dir

FORMAT = 1  # of a cache entry: raise it when what is kept changes


def parsed(weasyprint: Any, css: str, base_url: str | None = None, counter_style: dict | None = None) -> Any:
    """``weasyprint.CSS(string=css, base_url=base_url, counter_style=counter_style)``, read from
    the user cache where an earlier process parsed the same text (`counter_style` is filled as
    the parse fills it). `weasyprint`: the imported module (``weasy.import_weasyprint``)."""
    path = cache_dir("stylesheets") / f"{_key(css, base_url, counter_style is not None)}.pickle"
    found = _read(path)
    if found is not None:
        stylesheet, counters, records = found
        for name, level, message, args in records:
            logging.getLogger(name).log(level, message, *args)
        if counter_style is not None:
            counter_style.update(counters)
        return stylesheet
    stylesheet, entry = parse(weasyprint, css, base_url, counter_style)
    if entry is not None:
        write_cache_bytes(path, entry)
    return stylesheet


def _key(css: str, base_url: str | None, counters: bool) -> str:
    # deferred: start-up time (WeasyPrint's own modules: imported with it)
    import cssselect2
    import tinycss2

    weasyprint = sys.modules["weasyprint"]
    versions = (FORMAT, sys.version, weasyprint.__version__, tinycss2.__version__, cssselect2.__version__)
    text = repr((versions, base_url, counters)) + "\0" + css
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def parse(weasyprint: Any, css: str, base_url: str | None, counter_style: dict | None) -> tuple[Any, bytes | None]:
    """(the parsed stylesheet, its cache entry or None where it cannot be kept)."""
    # deferred: start-up time (imported with WeasyPrint)
    import cssselect2.compiler

    sources: dict[int, tuple[str, Any]] = {}  # id(test function) -> (its source, the function)
    names: set[tuple[str, ...]] = set()  # the globals each test function was compiled with

    def recording_eval(source, globals_=None, locals_=None):
        if globals_ is None:  # as the builtin does: cssselect2's globals (it passes its own, kept by name)
            globals_, names_kept = vars(cssselect2.compiler), ("<all>",)
        else:
            names_kept = tuple(sorted(globals_))
        function = eval(source, globals_, locals_)
        sources[id(function)] = (source, function)
        names.add(names_kept)
        return function

    logged = _Logged()
    logger = logging.getLogger("weasyprint")
    logger.addHandler(logged)
    cssselect2.compiler.eval = recording_eval  # a module global comes before the builtin
    try:
        stylesheet = weasyprint.CSS(string=css, base_url=base_url, counter_style=counter_style)
    finally:
        del cssselect2.compiler.eval
        logger.removeHandler(logged)
    if len(names) > 1 or ("<all>",) in names:  # not one set of globals, named: parsed every time
        return stylesheet, None
    kept = (stylesheet, dict(counter_style or {}), logged.records)
    return stylesheet, _entry(kept, sources, next(iter(names), ()))


class _Logged(logging.Handler):
    """Keeps what WeasyPrint logs while a stylesheet is parsed: (logger, level, message, arguments)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[tuple[str, int, str, tuple]] = []

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args if isinstance(record.args, tuple) else (record.args,) if record.args else ()
        self.records.append((record.name, record.levelno, str(record.msg), args))


def _entry(kept: tuple, sources: dict[int, tuple[str, Any]], names: tuple[str, ...]) -> bytes | None:
    order: list[str] = []
    index: dict[int, int] = {}

    class Pickler(pickle.Pickler):
        def persistent_id(self, obj):
            if type(obj) is types.FunctionType and obj.__name__ == "<lambda>":
                if id(obj) not in sources or sources[id(obj)][1] is not obj:
                    raise pickle.PicklingError("a test function whose source was not recorded")
                if id(obj) not in index:
                    index[id(obj)] = len(order)
                    order.append(sources[id(obj)][0])
                return index[id(obj)]
            return None

    buffer = io.BytesIO()
    try:
        Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(kept)
        code = compile("(" + "".join(f"{source},\n" for source in order) + ")", "<stylesheet tests>", "eval")
    except Exception:  # noqa: BLE001 — something that does not pickle: parse it every time
        return None
    return pickle.dumps((names, marshal.dumps(code), buffer.getvalue()), protocol=pickle.HIGHEST_PROTOCOL)


def _read(path: Path) -> tuple[Any, dict, list] | None:
    """(stylesheet, counter styles, log records) of the cache entry at `path`; None where it is
    missing or damaged (fileio's checksum)."""
    entry = read_cache_bytes(path)
    return loaded(entry) if entry is not None else None


def loaded(entry: bytes) -> tuple[Any, dict, list] | None:
    """(stylesheet, counter styles, log records) of a cache entry's bytes; None where they are damaged."""
    # deferred: start-up time (imported with WeasyPrint)
    import cssselect2.compiler

    try:
        names, code, payload = pickle.loads(entry)
        tests = eval(marshal.loads(code), {name: getattr(cssselect2.compiler, name) for name in names})

        class Unpickler(pickle.Unpickler):
            def persistent_load(self, pid):
                return tests[pid]

        stylesheet, counters, records = Unpickler(io.BytesIO(payload)).load()
    except Exception:  # noqa: BLE001 — damaged, or from another version: parsed again
        return None
    if not isinstance(stylesheet, sys.modules["weasyprint"].CSS) or not isinstance(counters, dict):
        return None
    return stylesheet, counters, records
