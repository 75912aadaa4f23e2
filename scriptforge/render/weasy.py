"""WeasyPrint, set up for scriptforge: a fast import, the bundled fonts only, our own HTML class.

``import weasyprint`` costs more than laying out a sheet. ``import_weasyprint`` imports it with
these changes (each measured in ``benchmarks/bench_render.py``; docs/benchmarks.md has the figures):

- Shared libraries: WeasyPrint tries several names per library, and for each name that does not
  load directly cffi calls ``ctypes.util.find_library``, which on Linux runs ``ldconfig -p``,
  ``gcc`` and ``ld`` (~70 subprocesses, 0.3-1 s). While WeasyPrint is imported one ``ldconfig -p``
  listing answers every name (``ListedFindLibrary``).
- cffi's C declarations: WeasyPrint hands ~450 lines of C to ``cffi.FFI.cdef``, which parses them
  with pycparser in every process. Here they are compiled once into cffi's documented
  "out-of-line ABI" module (plain Python, no compiler), kept as bytecode in the user cache.
- Modules WeasyPrint imports for what a sheet does not use (fontTools' subsetter and variable
  font instancer, Pillow and its plugins and colour profiles: a sheet of badges has no picture,
  the HTML5 parser) load on first use
  (``importlib.util.LazyLoader``; `DEFERRED_FUNCTIONS` for two imported by name), and its own user-agent
  stylesheets are parsed on first use: scriptforge's documents are `SheetHTML`, WeasyPrint's
  ``HTML`` with ``templates/ua.css`` as its user-agent stylesheet (a test lays out every template
  both ways and expects the same PDF bytes).

``html_document`` reads the templates' output, well-formed XHTML, with the XML parser (C, ~20x
faster than WeasyPrint's HTML5 parser, the same tree) into a `SheetHTML`; anything else goes to
WeasyPrint's parser.

Each change is an entry of ``PATCHES`` with a check that tests/test_weasy.py runs on the installed
release and the upstream change that would let us delete it (docs/upstream/). Whatever of this
does not fit the installed WeasyPrint falls back to the plain way, at import (the ordinary
import) and at run time (`lay_out`: the document laid out again with WeasyPrint's own ``HTML``,
and every later one too): slower, same output. ``SCRIPTFORGE_PLAIN_WEASYPRINT=1`` turns all of
them off (``plain``), fontconfig's own configuration included (render.fontconfig).
"""

import contextlib
import functools
import hashlib
import importlib.machinery
import importlib.util
import io
import marshal
import os
from pathlib import Path
import sys
import types
from typing import Any

from scriptforge.io import cache
from scriptforge.io.paths import TEMPLATES_DIR
from scriptforge.render.fontconfig import PLAIN_SWITCH, only_bundled_fonts
from scriptforge.render.footers import with_margin_boxes
from scriptforge.render.libraries import ListedFindLibrary, MissingLibrary, ldconfig_listing, pango_install_hint

UA_STYLESHEET = TEMPLATES_DIR / "ua.css"

# Imported on first use (they load lazily; nothing at import time needs them).
LAZY_MODULES = frozenset({"fontTools.subset", "PIL.Image", "PIL.ImageFile", "PIL.ImageOps", "PIL.EpsImagePlugin", "tinyhtml5"})
# Functions WeasyPrint imports by name (so LazyLoader cannot defer their modules) for what a sheet
# does not do: while it imports, a module whose function imports the real one when first called.
# fontTools' variable-font instancer: a third of the CPU of the import.
DEFERRED_FUNCTIONS = {"fontTools.varLib.instancer": "instantiateVariableFont", "PIL.ImageCms": "ImageCmsProfile"}
_FELL_BACK: list[str] = []  # the run-time failure after which this process lays out the plain way


def plain() -> bool:
    """Whether WeasyPrint is used as it comes: ``SCRIPTFORGE_PLAIN_WEASYPRINT`` (any value but 0),
    or a change that failed at run time in this process."""
    return os.environ.get(PLAIN_SWITCH, "0") not in ("", "0") or bool(_FELL_BACK)


def import_weasyprint() -> types.ModuleType:
    """``import weasyprint`` the fast way (see the module's docstring), else the ordinary way."""
    if "weasyprint" in sys.modules:
        return sys.modules["weasyprint"]
    if plain():
        return importlib.import_module("weasyprint")
    # deferred: start-up time
    import ctypes.util

    original = ctypes.util.find_library
    if sys.platform.startswith("linux"):
        ctypes.util.find_library = ListedFindLibrary(original)
    try:
        try:
            with only_bundled_fonts(), _fast_import():
                importlib.import_module("weasyprint")
                importlib.import_module("weasyprint.text.fonts")
        except Exception:  # noqa: BLE001 — whatever the changes break: import it plainly
            for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
                del sys.modules[name]
            ctypes.util.find_library = original
            with only_bundled_fonts():
                try:
                    importlib.import_module("weasyprint")
                except OSError as exc:  # cffi could not load Pango (or GObject, HarfBuzz, fontconfig)
                    raise MissingLibrary(pango_install_hint(str(exc))) from exc
    finally:
        ctypes.util.find_library = original
    return sys.modules["weasyprint"]


def html_document(html: str, base_url: str, url_fetcher: Any) -> Any:
    """``SheetHTML(string=html, ...)``, parsed with the XML parser where it can be."""
    weasyprint = import_weasyprint()
    # deferred: start-up time
    import xml.etree.ElementTree as ElementTree

    if plain():
        return weasyprint.HTML(string=html, base_url=base_url, url_fetcher=url_fetcher)
    sheet_html = sheet_html_class()
    try:
        root = ElementTree.fromstring(html)
    except ElementTree.ParseError:
        return sheet_html(string=html, base_url=base_url, url_fetcher=url_fetcher)
    # deferred: start-up time
    import cssselect2

    # What weasyprint.HTML.__init__ does with the tree its own parser returns (a test compares
    # the PDFs of both ways, so a change there is noticed).
    document = sheet_html.__new__(sheet_html)
    document.base_url = base_url
    document.url_fetcher = url_fetcher or weasyprint.urls.URLFetcher()
    document.media_type = "print"
    document.wrapper_element = cssselect2.ElementWrapper.from_html_root(root, content_language=None)
    document.etree_element = document.wrapper_element.etree_element
    return document


def lay_out(html: str, base_url: str, url_fetcher: Any, **options: Any) -> Any:
    """``html_document(...).render(**options)``; where our changes fail at run time (another
    WeasyPrint release), the document is laid out again the plain way, and so is every later one."""
    if plain():
        return html_document(html, base_url, url_fetcher).render(**options)
    try:
        return html_document(html, base_url, url_fetcher).render(**options)
    except Exception as exc:  # noqa: BLE001 — any failure of our changes; the plain way raises its own
        _FELL_BACK.append(f"{type(exc).__name__}: {exc}")
        return html_document(html, base_url, url_fetcher).render(**options)


def parsed_css(css: str, base_url: str | None = None, counter_style: dict | None = None) -> Any:
    """``weasyprint.CSS(string=css, ...)`` (a stylesheet serves the plain way as well)."""
    return import_weasyprint().CSS(string=css, base_url=base_url, counter_style=counter_style)


@functools.cache
def sheet_html_class() -> Any:
    """`SheetHTML`: ``weasyprint.HTML`` whose user-agent stylesheet is ``templates/ua.css``
    (parsed once, with its own counter styles), through the methods WeasyPrint's style
    computation asks a document for its user-agent stylesheets (``_ua_stylesheets``,
    ``_ua_counter_style``; WeasyPrint's own tests subclass ``HTML`` the same way)."""
    weasyprint = import_weasyprint()
    # deferred: start-up time
    from weasyprint.css.counters import CounterStyle

    counters = CounterStyle()
    ua = parsed_css(UA_STYLESHEET.read_text(encoding="utf-8"), counter_style=counters)

    base: Any = weasyprint.HTML

    class SheetHTML(base):
        def _ua_stylesheets(self, forms=False):
            if forms:  # no template has a form: WeasyPrint's form stylesheet if one ever does
                return [ua, *super()._ua_stylesheets(forms)[1:]]
            return [ua]

        def _ua_counter_style(self):
            return [counters.copy()]

    return SheetHTML


def imported_fast() -> bool:
    """Whether the loaded WeasyPrint came through the fast import (used by the tests)."""
    module = sys.modules.get("weasyprint.text.ffi")
    return isinstance(getattr(module, "ffi", None), _CompiledFFI)


class _fast_import:
    """While active: compiled cffi declarations, lazy modules, WeasyPrint's user-agent stylesheets
    parsed on first use."""

    def __enter__(self):
        # deferred: start-up time
        import cffi

        self.cffi, self.real_ffi = cffi, cffi.FFI
        cffi.FFI = _CompiledFFI
        self.finder = _ImportFinder()
        sys.meta_path.insert(0, self.finder)
        self.stand_ins = {name: _stand_in(name, function) for name, function in DEFERRED_FUNCTIONS.items()
                          if name not in sys.modules}
        sys.modules.update(self.stand_ins)
        return self

    def __exit__(self, *exc):
        self.cffi.FFI = self.real_ffi
        sys.meta_path.remove(self.finder)
        for name, module in self.stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
        return False


def _stand_in(name: str, function: str) -> types.ModuleType:
    module = types.ModuleType(name)

    def call(*args, **kwargs):
        return getattr(importlib.import_module(name), function)(*args, **kwargs)

    setattr(module, function, call)
    return module


class _ImportFinder:
    """A meta path finder for the imports ``_fast_import`` changes."""

    def find_spec(self, name, path, target=None):
        if name not in LAZY_MODULES and name != "weasyprint.html":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        if name == "weasyprint.html":
            spec.loader = _DeferredUserAgentLoader(spec.loader)
        else:
            spec.loader = importlib.util.LazyLoader(spec.loader)
        return spec


class _DeferredUserAgentLoader:
    """Runs ``weasyprint.html`` with its ``CSS`` wrapped: its user-agent, form and
    presentational-hint stylesheets (and the counter styles the first fills) are made on first
    use. scriptforge's documents (`SheetHTML`) never ask for them."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        package = sys.modules["weasyprint"]
        real_css = package.CSS

        def css(*args, string=None, **kwargs):
            names = vars(module)
            if string is not None and any(string is names.get(key) for key in ("UA", "UA_FORM", "PH")):
                return _Deferred(lambda: real_css(*args, string=string, **kwargs))
            return real_css(*args, string=string, **kwargs)

        package.CSS = css
        try:
            self.loader.exec_module(module)
        finally:
            package.CSS = real_css
        stylesheet, counters = module.UA_STYLESHEET, module.UA_COUNTER_STYLE
        if isinstance(stylesheet, _Deferred):  # the counter styles are filled by parsing the stylesheet

            def parsed_counters():
                stylesheet.matcher  # noqa: B018 — parses it, which fills `counters`
                return counters

            module.UA_COUNTER_STYLE = _Deferred(parsed_counters)


class _Deferred:
    """Stands for an object made on first use (a stylesheet only some documents ask for)."""

    def __init__(self, make):
        self._make = make

    def __getattr__(self, name):
        real = self.__dict__.get("_real")
        if real is None:
            real = self.__dict__["_real"] = self._make()
        return getattr(real, name)


class _CompiledFFI:
    """``cffi.FFI`` whose ``cdef`` loads the declarations compiled once into the user cache.

    The compiled module is cffi's own out-of-line ABI mode (``set_source(name, None)``), keyed by
    the cffi version and the declarations and kept as bytecode (`io.cache`: checked, this
    Python's only); everything but ``cdef`` is the compiled ``FFI``.
    """

    def cdef(self, source, *args, **kwargs):
        # deferred: start-up time
        import cffi
        from cffi.api import FFI  # the real class: cffi.FFI is this one while WeasyPrint imports

        key = hashlib.sha256(repr((cffi.__version__, source, args, sorted(kwargs.items()))).encode()).hexdigest()
        name = f"_scriptforge_cffi_{key[:20]}"
        kept = cache.read("cffi", name, code=True)
        try:
            code = None if kept is None else marshal.loads(kept)
        except (ValueError, EOFError, TypeError):
            code = None
        if code is None:
            # deferred: start-up time (only a first run compiles)
            import tempfile

            builder = FFI()
            builder.set_source(name, None)
            builder.cdef(source, *args, **kwargs)
            with tempfile.TemporaryDirectory() as folder:
                with contextlib.redirect_stdout(io.StringIO()):  # cffi prints "generating <file>"
                    builder.emit_python_code(str(Path(folder) / f"{name}.py"))
                code = compile((Path(folder) / f"{name}.py").read_text(encoding="utf-8"), f"<{name}>", "exec")
            cache.write("cffi", name, marshal.dumps(code), code=True)
        module = types.ModuleType(name)
        exec(code, module.__dict__)
        self._ffi = module.ffi

    def __getattr__(self, name):
        if "_ffi" not in self.__dict__:
            raise AttributeError(name)
        value = getattr(self._ffi, name)
        setattr(self, name, value)  # later uses skip __getattr__
        return value


# -- every change to WeasyPrint, and whether it applies --------------------------------------


def _lazy_modules_deferred() -> bool:
    """(In a process that has not used them yet.)"""
    return all(name not in sys.modules or type(sys.modules[name]).__name__ == "_LazyModule"
               for name in ("fontTools.subset", "PIL.Image", "PIL.ImageOps", "tinyhtml5")) and \
        not any(name in sys.modules for name in DEFERRED_FUNCTIONS)


def _libraries_listed() -> bool:
    """One ``ldconfig -p`` listing names Pango's library (where there is ``ldconfig``)."""
    found = ListedFindLibrary(lambda name: None)("pango-1.0")
    return not sys.platform.startswith("linux") or not ldconfig_listing() or bool(found)


def _ua_stylesheets_deferred() -> bool:
    html = sys.modules.get("weasyprint.html")
    return html is not None and all(isinstance(getattr(html, name, None), _Deferred)
                                    for name in ("UA_STYLESHEET", "UA_FORM_STYLESHEET", "PH_STYLESHEET"))


def _sheet_html_gives_our_stylesheet() -> bool:
    """WeasyPrint's style computation still asks the document (a `SheetHTML`) for its user-agent
    stylesheets and counter styles."""
    ours = html_document('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>', "file:///", None)
    asked = set()
    for name in ("_ua_stylesheets", "_ua_counter_style"):
        method = getattr(ours, name)
        def asking(*args, _method=method, _name=name):
            asked.add(_name)
            return _method(*args)

        setattr(ours, name, asking)
    ours.render()
    return asked == {"_ua_stylesheets", "_ua_counter_style"} and isinstance(ours, import_weasyprint().HTML)


def _xml_document_matches() -> bool:
    """``html_document`` builds the HTML object WeasyPrint's own constructor would: same attributes."""
    weasyprint = import_weasyprint()
    page = '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>x</p></body></html>'
    ours = html_document(page, "file:///", None)
    theirs = weasyprint.HTML(string=page, base_url="file:///")
    return isinstance(ours, weasyprint.HTML) and set(vars(ours)) == set(vars(theirs))


def _private_reads() -> bool:
    """The private attribute scriptforge reads: a FontConfiguration's temporary folder
    (``typefaces.Fonts.temporary_folders``)."""
    import_weasyprint()
    # deferred: start-up time
    from weasyprint.text.fonts import FontConfiguration

    return hasattr(FontConfiguration(), "_folder")


def _anchor_rectangles() -> bool:
    """``Page.anchors`` gives each anchor's rectangle (x1, y1, x2, y2), not only the point its
    docstring names: ``pages.page_used`` reads the bottom of the ``fit-`` elements."""
    page = html_document('<html xmlns="http://www.w3.org/1999/xhtml"><body><div id="fit-x" style="height: 20px">'
                         '</div></body></html>', "file:///", None).render().pages[0]
    place = page.anchors.get("fit-x")
    return place is not None and len(place) == 4 and round(place[3] - place[1]) == 20


def _margin_boxes_move() -> bool:
    """``with_margin_boxes`` gives the PDF that laying the pages out with the donor's footer gives."""
    weasyprint = import_weasyprint()

    def laid_out(footer: str, body: str) -> Any:
        rules = f"@page {{ size: 300px 200px; margin: 40px; @bottom-center {{ content: {footer} }} }}"
        return weasyprint.HTML(string=f"<style>{rules}</style>{body}").render()

    body = "<p>one</p><p style='break-before: page'>two</p>"
    numbered = '"page " counter(page) " of 9"'
    grafted = with_margin_boxes(laid_out('"x"', body), laid_out(numbered, "<div></div><div style='break-before: page'></div>"))
    return grafted is not None and _undated_pdf(grafted) == _undated_pdf(laid_out(numbered, body))


def _undated_pdf(document: Any) -> bytes:
    document.metadata.created = document.metadata.modified = None  # as render.writing writes them
    return document.write_pdf(pdf_identifier=b"x", full_fonts=True)  # subsets depend on the order glyphs come in


#: Every change scriptforge makes to WeasyPrint or internal it relies on: (name, what, the upstream
#: change that would let us delete it, a check that it is in force in this process after
#: ``import_weasyprint``). tests/test_weasy.py runs every check in a new process on the installed
#: WeasyPrint, so a release that makes one stop applying fails the tests instead of silently
#: costing speed or changing the output. docs/upstream/ holds the proposed changes.
PATCHES: tuple[tuple[str, str, str, Any], ...] = (
    ("soname-lookup", "ctypes.util.find_library answered from one ldconfig -p listing while WeasyPrint imports",
     "docs/upstream/0001: WeasyPrint tries the .so.N names first on Linux", _libraries_listed),
    ("compiled-cffi", "C declarations compiled once into the user cache (no pycparser per process)",
     "docs/upstream/0002: WeasyPrint ships cffi's out-of-line ABI module in its wheel", imported_fast),
    ("lazy-modules", "fontTools' subsetter and instancer, Pillow's plugins and ImageCms, tinyhtml5 imported on first use",
     "WeasyPrint importing them where they are used (not yet proposed)", _lazy_modules_deferred),
    ("deferred-ua-stylesheets", "WeasyPrint's own user-agent, form and hint stylesheets parsed on first use",
     "docs/upstream/0003: the user-agent stylesheets made on first use", _ua_stylesheets_deferred),
    ("sheet-html", "SheetHTML: templates/ua.css through HTML._ua_stylesheets and _ua_counter_style (protected)",
     "docs/upstream/0003: a public user-agent stylesheet argument of HTML", _sheet_html_gives_our_stylesheet),
    ("xml-parser", "html_document: XHTML read by the XML parser into WeasyPrint's HTML object",
     "docs/upstream/0003: HTML(etree_element=...), a parsed tree handed to HTML", _xml_document_matches),
    ("private-reads", "FontConfiguration._folder (the temporary copies of @font-face fonts)",
     "FontConfiguration removing its temporary folder itself when freed (not yet proposed)", _private_reads),
    ("anchor-rectangles", "Page.anchors: the rectangle of each element with an id (how full a page is)",
     "Page.anchors documented as rectangles (its docstring names the point only; not yet proposed)",
     _anchor_rectangles),
    ("footer-graft", "with_margin_boxes: a part's page footers laid out over empty pages, moved onto its pages",
     "a first page number for render() (not yet proposed)", _margin_boxes_move),
)


def inactive_patches() -> list[str]:
    """The names of the PATCHES not in force (all of them under SCRIPTFORGE_PLAIN_WEASYPRINT,
    where none is wanted, but for the private reads)."""
    import_weasyprint()
    # the checks that lay out a page need a font: the bundled ones, as every render has (a
    # machine without any system font would otherwise crash in Pango)
    with only_bundled_fonts():
        return [name for name, _, _, check in PATCHES if not check()]
