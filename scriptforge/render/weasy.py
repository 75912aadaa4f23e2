"""WeasyPrint, set up for scriptforge: a fast import, the bundled fonts only, fast subsetting.

``import weasyprint`` costs more than laying out a sheet. Most of that is work a sheet never
needs, so ``import_weasyprint`` imports it with these changes (each measured in
``benchmarks/bench_render.py``; the README has the figures):

- cffi's C declarations: WeasyPrint hands ~450 lines of C to ``cffi.FFI.cdef``, which parses
  them with pycparser in every process. Here they are compiled once into cffi's "out-of-line ABI"
  module (plain Python, no compiler) kept in the user cache, and loaded from there.
- Shared libraries: WeasyPrint tries several names per library, and for each name that does not
  load directly cffi calls ``ctypes.util.find_library``, which on Linux runs ``ldconfig -p``,
  ``gcc`` and ``ld`` (~70 subprocesses, 0.3-1 s). The compiled module opens libraries by name
  without it; should cffi still ask, one ``ldconfig -p`` listing answers every name.
- Modules WeasyPrint imports for features a sheet does not use (fontTools' subsetter, variable
  font instancer and ``ttLib``, Pillow, ``ssl`` for https; its HTML parser, see ``html_document``)
  are imported when first used.
- The user-agent stylesheets: WeasyPrint parses its 18 KB HTML stylesheet and the ones for forms
  and presentational hints at import (~30 ms of CPU). scriptforge's documents never use them:
  they are `SheetHTML`, WeasyPrint's ``HTML`` with ``templates/ua.css`` as its user-agent
  stylesheet (the same defaults for the few dozen elements the templates use; a test lays out
  every template with both and expects the same PDF bytes). So WeasyPrint's own are parsed only
  if something asks for them (a plain ``weasyprint.HTML`` document).

If any of this does not fit the installed WeasyPrint, it is imported again the ordinary way:
slower, same output. After the import, the bundled fonts are subset at byte level where
WeasyPrint would use fontTools (``_use_fast_subsetting``). PDF streams are deflated as pydyf
deflates them (zlib level 9: level 6 saved ~3 ms of a 0.5 s build and made the PDFs ~1 % larger
than stock WeasyPrint's).

``with_margin_boxes`` numbers the pages of a sheet's parts laid out one by one as pages of the
whole output: the footers alone are laid out over empty pages and moved onto the part's pages,
instead of laying the part out a second time (a third of the layouts of a 224-character script).

``html_document`` reads the templates' output, which is well-formed XHTML, with the XML parser
(C, ~20x faster than WeasyPrint's pure-Python HTML5 parser, and the same element tree: the same
test compares the PDFs) into a `SheetHTML`; anything that is not well-formed XML goes to
WeasyPrint's parser.

fontconfig sees only the bundled fonts while WeasyPrint is imported and whenever scriptforge
makes a font configuration (``only_bundled_fonts``).

These changes reach into WeasyPrint's internals: ``PATCHES`` at the end lists every one with a
check that it is in force, tests/test_weasy.py runs them all on the installed release, and
pyproject.toml pins WeasyPrint to the releases they pass on. ``SCRIPTFORGE_PLAIN_WEASYPRINT=1`` turns every one of them off (``plain``):
the ordinary import, WeasyPrint's own HTML class and parser, user-agent stylesheet and font
subsetting, and fontconfig's own configuration (the bundled fonts then come through
``@font-face``). A test renders the examples both ways and expects the same text and pages.
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
import re
import sys
import threading
import types
from typing import Any

from scriptforge.io.errors import ScriptforgeError
from scriptforge.io.fileio import read_cache_bytes, read_cache_text, write_cache_bytes, write_cache_text
from scriptforge.io.paths import PACKAGE_DIR, TEMPLATES_DIR, cache_dir

FONTS_DIR = PACKAGE_DIR / "fonts"
UA_STYLESHEET = TEMPLATES_DIR / "ua.css"

# Imported on first use (they load lazily; nothing at import time needs them).
LAZY_MODULES = frozenset({
    "fontTools.subset", "fontTools.ttLib.woff2", "PIL.Image", "PIL.ImageFile", "PIL.ImageOps",
    "PIL.EpsImagePlugin", "tinyhtml5",
})
# Functions WeasyPrint imports by name from heavy modules; they stand in until first called.
DEFERRED_FUNCTIONS = {
    "fontTools.varLib.instancer": ("instantiateVariableFont",),
    "PIL.ImageCms": ("ImageCmsProfile",),
}
# Names WeasyPrint imports from a heavy module, used only for what a sheet does not do; they stand
# in until one is first used, which imports the module and puts the real names in their place in
# WeasyPrint's modules. fontTools.ttLib (~40 M instructions, 2 % of a cold build): for
# @font-face woff fonts, variable and colour fonts, and subsetting without HarfBuzz-subset (the
# bundled fonts are subset at byte level).
DEFERRED_NAMES = {"fontTools.ttLib": ("TTFont", "TTLibError", "ttFont", "woff2")}
# Modules imported more than once while WeasyPrint is imported (LazyLoader's modules load at the
# second ``import``), whose attributes are only read when used: they run on first such read.
# ssl, which urllib.request and http.client import for https (~17 M instructions, 0.7 % of a
# cold build; a sheet fetches nothing).
DEFERRED_MODULES = frozenset({"ssl"})
PLAIN_SWITCH = "SCRIPTFORGE_PLAIN_WEASYPRINT"
SYSTEM_FONTS_SWITCH = "SCRIPTFORGE_SYSTEM_FONTS"  # any value but "" or "0": fontconfig always sees the system's fonts


def plain() -> bool:
    """Whether ``SCRIPTFORGE_PLAIN_WEASYPRINT`` asks for WeasyPrint as it comes (any value but 0)."""
    return os.environ.get(PLAIN_SWITCH, "0") not in ("", "0")


def system_fonts_switch() -> bool:
    """Whether ``SCRIPTFORGE_SYSTEM_FONTS`` asks that fontconfig never be kept to the bundled
    fonts (any value but "" or "0", as ``SCRIPTFORGE_PLAIN_WEASYPRINT``): to compare a page with
    what the system's fonts would make of it. It was read as set-or-not, so ``=0`` turned it on."""
    return os.environ.get(SYSTEM_FONTS_SWITCH, "0") not in ("", "0")


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
        ctypes.util.find_library = _ListedFindLibrary(original)
    try:
        try:
            with only_bundled_fonts(), _fast_import():
                importlib.import_module("weasyprint")
                importlib.import_module("weasyprint.text.fonts")
                importlib.import_module("weasyprint.pdf.fonts")
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
    _use_fast_subsetting()
    return sys.modules["weasyprint"]


class MissingLibrary(ScriptforgeError):
    """A system library WeasyPrint needs is not installed."""

    exit_code = 2


#: How to install Pango (>= 1.44, which WeasyPrint needs), per system.
PANGO_PACKAGES = {
    "debian": "apt-get install libpango-1.0-0 libpangoft2-1.0-0",
    "fedora": "dnf install pango",
    "alpine": "apk add pango",
    "arch": "pacman -S pango",
    "suse": "zypper install pango",
    "darwin": "brew install pango",
    "win32": "install GTK 3 with MSYS2 (pacman -S mingw-w64-x86_64-pango) and add its bin folder to PATH",
}


def pango_install_hint(detail: str) -> str:
    """The one line for a machine without Pango: what is missing and the command that installs it."""
    system = _system_family()
    how = PANGO_PACKAGES.get(system) or "install Pango 1.44 or later with your system's package manager"
    library = re.search(r"'([^']+)'", detail)
    missing = f" ({library.group(1)} not found)" if library else ""
    return (f"rendering needs the Pango text library, version 1.44 or later{missing}; "
            f"install it: {how} (see the README, Requirements)")


def _system_family() -> str:
    if sys.platform in ("darwin", "win32"):
        return sys.platform
    try:
        release = Path("/etc/os-release").read_text(encoding="utf-8", errors="replace").lower()
    except OSError:
        return ""
    ids = " ".join(re.findall(r"^id(?:_like)?=\"?([^\"\n]+)", release, re.MULTILINE))
    for family in ("debian", "ubuntu", "fedora", "rhel", "alpine", "arch", "suse"):
        if family in ids:
            return {"ubuntu": "debian", "rhel": "fedora"}.get(family, family)
    return ""


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


def parsed_css(css: str, base_url: str | None = None, counter_style: dict | None = None) -> Any:
    """``weasyprint.CSS(string=css, ...)``: parsed once and kept in the user cache
    (``render.stylesheets``), or WeasyPrint's own parse under ``SCRIPTFORGE_PLAIN_WEASYPRINT``."""
    weasyprint = import_weasyprint()
    if plain():
        return weasyprint.CSS(string=css, base_url=base_url, counter_style=counter_style)
    # deferred: start-up time
    from scriptforge.render.stylesheets import parsed

    return parsed(weasyprint, css, base_url, counter_style)


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

        self.cffi = cffi
        self.real_ffi = cffi.FFI
        cffi.FFI = _CompiledFFI
        self.finder = _ImportFinder()
        sys.meta_path.insert(0, self.finder)
        self.stand_ins = {}
        for name, functions in DEFERRED_FUNCTIONS.items():
            if name not in sys.modules:
                self.stand_ins[name] = sys.modules[name] = _stand_in(name, functions)
        for name, names in DEFERRED_NAMES.items():
            if name not in sys.modules:
                self.stand_ins[name] = sys.modules[name] = _DeferredNames(name, names)
        return self

    def __exit__(self, *exc):
        self.cffi.FFI = self.real_ffi
        sys.meta_path.remove(self.finder)
        for name, module in self.stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
        return False


def _stand_in(name: str, functions: tuple[str, ...]) -> types.ModuleType:
    """A module holding functions that import `name` and call the real function."""
    module = types.ModuleType(name)
    for function in functions:
        def call(*args, _function=function, **kwargs):
            return getattr(importlib.import_module(name), _function)(*args, **kwargs)

        call.__name__ = function
        setattr(module, function, call)
    return module


class _DeferredNames(types.ModuleType):
    """Stands for a module while WeasyPrint imports names from it: each name is a `_DeferredName`
    (an exception class, ``...Error``, a placeholder of its own). The first use of any imports the
    real module and rebinds, in every WeasyPrint module, each stand-in to the real object, so an
    ``except`` clause met after that first use catches the real exception."""

    def __init__(self, name: str, names: tuple[str, ...]):
        super().__init__(name)
        self._real: types.ModuleType | None = None
        for attribute in names:
            stand_in = type(attribute, (Exception,), {}) if attribute.endswith("Error") else _DeferredName(self, attribute)
            setattr(self, attribute, stand_in)

    def load(self, attribute: str) -> Any:
        """The real `attribute` of the module (imported now if it is not yet)."""
        if self._real is None:
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            self._real = importlib.import_module(self.__name__)
            stand_ins = {id(value): key for key, value in vars(self).items() if not key.startswith("_")}
            for name, module in list(sys.modules.items()):
                if name.partition(".")[0] != "weasyprint":
                    continue
                for key, value in list(vars(module).items()):
                    if id(value) in stand_ins:
                        setattr(module, key, self._real_name(stand_ins[id(value)]))
        return self._real_name(attribute)

    def _real_name(self, attribute: str) -> Any:
        if not hasattr(self._real, attribute):  # a submodule (woff2): imported on first use
            importlib.import_module(f"{self.__name__}.{attribute}")
        return getattr(self._real, attribute)


class _DeferredName:
    """Stands for one name of a `_DeferredNames` module until it is called or an attribute of it read."""

    def __init__(self, module: _DeferredNames, name: str):
        self._module, self._name = module, name

    def __call__(self, *args, **kwargs):
        return self._module.load(self._name)(*args, **kwargs)

    def __getattr__(self, attribute):
        return getattr(self._module.load(self._name), attribute)


class _ImportFinder:
    """A meta path finder for the imports ``_fast_import`` changes."""

    def find_spec(self, name, path, target=None):
        if name not in LAZY_MODULES and name not in DEFERRED_MODULES and name != "weasyprint.html":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        if name == "weasyprint.html":
            spec.loader = _DeferredUserAgentLoader(spec.loader)
        elif name in DEFERRED_MODULES:
            spec.loader = _DeferredModuleLoader(spec.loader)
        else:
            spec.loader = importlib.util.LazyLoader(spec.loader)
        return spec


class _DeferredModuleLoader:
    """Makes a `_DeferredModule` whose code the real loader runs on first use."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return _DeferredModule(spec.name)

    def exec_module(self, module):
        module.__dict__["_deferred_loader"] = self.loader

    def __getattr__(self, name):  # get_source and the like: the real loader's
        return getattr(self.loader, name)


class _DeferredModule(types.ModuleType):
    """A module whose code runs when an attribute it does not have yet is first read. Unlike
    LazyLoader's modules, the attributes the import system reads (``__spec__``...) are there
    from the start, so a second ``import`` does not run it."""

    def __getattr__(self, name):
        with _DEFERRED_LOAD:  # another thread that asks meanwhile waits for the module's code to have run
            loader = self.__dict__.pop("_deferred_loader", None)
            if loader is not None:
                loader.exec_module(self)
        try:
            return self.__dict__[name]
        except KeyError:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}") from None


_DEFERRED_LOAD = threading.RLock()


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
    the cffi version and the declarations; everything but ``cdef`` is the compiled ``FFI``.
    """

    def cdef(self, source, *args, **kwargs):
        # deferred: start-up time
        import cffi
        from cffi.api import FFI  # the real class: cffi.FFI is this one while WeasyPrint imports

        key = hashlib.sha256(repr((cffi.__version__, source, args, sorted(kwargs.items()))).encode()).hexdigest()
        name = f"_scriptforge_cffi_{key[:20]}"
        path = cache_dir("cffi") / f"{name}.py"
        code = read_cache_text(path)
        if code is None:  # missing or damaged: compiled again
            builder = FFI()
            builder.set_source(name, None)
            builder.cdef(source, *args, **kwargs)
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                with contextlib.redirect_stdout(io.StringIO()):  # cffi prints "generating <file>"
                    builder.emit_python_code(str(temporary))
                write_cache_text(path, temporary.read_text(encoding="utf-8"))
            except OSError:  # a full or read-only cache (or a file where it should be): parse every time
                self._ffi = builder
                return
            finally:
                try:
                    temporary.unlink()
                except OSError:
                    pass
            code = read_cache_text(path)
            if code is None:  # written nowhere (write_cache_text ignores a full disk)
                self._ffi = builder
                return
        # the checked text, compiled here with its bytecode kept checksummed beside it (~5 ms a
        # process), not imported: Python would trust an unchecked bytecode copy in __pycache__
        bytecode = path.with_name(f"{name}.{importlib.util.MAGIC_NUMBER.hex()}.bytecode")
        try:
            compiled = marshal.loads(read_cache_bytes(bytecode) or b"")
        except (ValueError, EOFError, TypeError):
            compiled = compile(code, str(path), "exec")
            write_cache_bytes(bytecode, marshal.dumps(compiled))
        namespace: dict = {"__name__": name}
        exec(compiled, namespace)
        self._ffi = namespace["ffi"]

    def __getattr__(self, name):
        if "_ffi" not in self.__dict__:
            raise AttributeError(name)
        value = getattr(self._ffi, name)
        setattr(self, name, value)  # later uses skip __getattr__
        return value


def _use_fast_subsetting() -> None:
    """Subset the bundled fonts with ``fontsubset`` instead of fontTools when writing PDFs.

    Only where WeasyPrint would use fontTools (no HarfBuzz-subset library), only for the bundled
    font files, and only when the byte-level subset can handle the font; anything else goes to
    WeasyPrint's own method. If WeasyPrint's internals differ from what this expects, nothing
    is changed.
    """
    try:
        # deferred: start-up time
        from weasyprint.pdf.fonts import Font
    except ImportError:
        return
    original = getattr(Font, "_fonttools_subset", None)
    if original is None or getattr(original, "_scriptforge", False):
        return

    def _fonttools_subset(self, to_unicode, hinting):
        # deferred: start-up time
        from scriptforge.render.fontsubset import is_bundled_font, subset_keeping_gids

        content = getattr(self, "file_content", None)
        if isinstance(content, bytes) and not getattr(self, "index", 0) and is_bundled_font(content):
            subset = subset_keeping_gids(content, to_unicode)
            if subset is not None:
                self.file_content = subset
                return
        original(self, to_unicode, hinting)

    setattr(_fonttools_subset, "_scriptforge", True)  # the mark that it is already replaced
    Font._fonttools_subset = _fonttools_subset


class _ListedFindLibrary:
    """``ctypes.util.find_library`` answered from one ``ldconfig -p`` listing, made on first use
    (the original function if there is no listing)."""

    def __init__(self, original):
        self.original = original
        self.listing = None

    def __call__(self, name):
        if self.listing is None:
            self.listing = _ldconfig_listing()
        if not self.listing:
            return self.original(name)
        match = re.search(r"\s(lib%s\.[^\s]+)\s" % re.escape(name), self.listing)
        return match.group(1) if match else None


def _ldconfig_listing() -> str:
    # deferred: start-up time
    import subprocess

    for ldconfig in ("ldconfig", "/sbin/ldconfig"):
        try:
            return subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=False, timeout=10,
                                  env={**os.environ, "LC_ALL": "C", "LANG": "C"}).stdout
        except (OSError, subprocess.SubprocessError):
            continue
    return ""


# -- page footers without a second layout -----------------------------------------------------


def with_margin_boxes(document: Any, donor: Any) -> Any:
    """`document` with the margin boxes (the page footer) of `donor`'s pages, page by page, or None
    where the two do not match (another page count or page size).

    A part of a sheet laid out alone numbers its pages from 1; its pages in the whole output are
    numbered by laying out `donor` — the same ``@page`` rules with the right numbers over empty
    pages (``templates/footers.html.j2``) — and moving its margin boxes onto the part's pages. Margin
    boxes depend on the page's size and ``@page`` rules only (no ``string-set`` on sheets), so the
    PDF is the one a layout of the whole part with those numbers gives, for a fraction of the work
    (``footer-graft`` in PATCHES checks it on the installed WeasyPrint). `document`'s pages are
    changed in place."""
    # deferred: start-up time
    from weasyprint.formatting_structure.boxes import MarginBox

    if len(document.pages) != len(donor.pages) or any(
            (page.width, page.height) != (other.width, other.height) for page, other in zip(document.pages, donor.pages)):
        return None
    for page, other in zip(document.pages, donor.pages):
        box = page._page_box
        box.children = (*(child for child in box.children if not isinstance(child, MarginBox)),
                        *(child for child in other._page_box.children if isinstance(child, MarginBox)))
    return document


# -- fontconfig: the bundled fonts only ------------------------------------------------------

_FONTCONFIG_TEMPLATE = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<!-- Written by scriptforge: fontconfig sees only the bundled fonts (fast start, same output on
     every machine). -->
<fontconfig>
  <dir>{fonts}</dir>
  <cachedir>{cache}</cachedir>
</fontconfig>
"""


def _fontconfig_file() -> Path | None:
    """A fonts.conf that only knows the bundled fonts folder (written once to the user cache)."""
    base = cache_dir("fontconfig")
    text = _FONTCONFIG_TEMPLATE.format(fonts=_xml(str(FONTS_DIR.resolve())), cache=_xml(str(base / "cache")))
    name = "fonts-" + hashlib.sha256(text.encode()).hexdigest()[:12] + ".conf"
    path = base / name
    try:
        current = path.read_bytes() if path.is_file() else None
    except OSError:
        current = None
    try:
        if current != text.encode("utf-8"):  # missing or damaged (fontconfig would trust it): written again
            base.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        return path
    except OSError:  # a read-only home: fontconfig's own configuration then
        return None


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class only_bundled_fonts:
    """While active, a new fontconfig configuration sees only the bundled fonts.

    fontconfig reads ``FONTCONFIG_FILE`` whenever a configuration is made (at ``import
    weasyprint`` and in each ``FontConfiguration()``); the variable is restored afterwards, so
    nothing else in the process is affected.
    """

    def __init__(self, active: bool = True):
        self.active = active and sys.platform.startswith("linux") and not system_fonts_switch() and not plain()

    def __enter__(self):
        self.saved = os.environ.get("FONTCONFIG_FILE")
        config = _fontconfig_file() if self.active else None
        if config is not None:
            os.environ["FONTCONFIG_FILE"] = str(config)
        self.applied = config is not None
        return self

    def __exit__(self, *exc):
        if self.saved is None:
            os.environ.pop("FONTCONFIG_FILE", None)
        else:
            os.environ["FONTCONFIG_FILE"] = self.saved
        return False


# -- every change to WeasyPrint, and whether it applies --------------------------------------


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


def _lazy_modules_deferred() -> bool:
    """(In a process that has not used them yet.)"""
    return all(name not in sys.modules or type(sys.modules[name]).__name__ == "_LazyModule"
               for name in ("fontTools.subset", "fontTools.varLib.instancer")) and \
        "fontTools.ttLib" not in sys.modules and all(
            name not in sys.modules or "_deferred_loader" in vars(sys.modules[name]) for name in DEFERRED_MODULES)


def _fast_subsetting() -> bool:
    # deferred: start-up time
    from weasyprint.pdf.fonts import Font

    return getattr(getattr(Font, "_fonttools_subset", None), "_scriptforge", False)


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
    with _fixed_date():
        return grafted is not None and grafted.write_pdf(pdf_identifier=b"x") == \
            laid_out(numbered, body).write_pdf(pdf_identifier=b"x")


@contextlib.contextmanager
def _fixed_date():
    """PDFs written meanwhile carry one date (SOURCE_DATE_EPOCH), so two can be compared byte for byte."""
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "0"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved


def _stylesheet_cache_matches() -> bool:
    """A stylesheet read back from its cache entry (``render.stylesheets``) lays out a page to the
    PDF its parse gives, selectors, ``@page`` rules and counter styles included."""
    weasyprint = import_weasyprint()
    # deferred: start-up time
    from weasyprint.css.counters import CounterStyle
    from scriptforge.render.stylesheets import loaded, parse

    css = ("@page { size: 300px 200px; margin: 20px; @bottom-center { content: counter(page) } } "
           "@counter-style dots { system: cyclic; symbols: '*'; suffix: ' ' } "
           "p.a { color: #a00; font-weight: 700 } .b > em { letter-spacing: 2px } li { list-style: dots }")
    html = '<p class="a">one</p><div class="b"><em>two</em></div><ol><li>three</li></ol>'
    counters = CounterStyle()
    fresh, entry = parse(weasyprint, css, "file:///", counters)
    read = loaded(entry) if entry is not None else None
    if read is None or set(read[1]) != set(counters):
        return False
    base: Any = sheet_html_class()

    def pdf(stylesheet: Any, styles: dict) -> bytes:
        class Page(base):
            def _ua_counter_style(self):
                return [CounterStyle(styles)]

        return Page(string=html).write_pdf(stylesheets=[stylesheet], pdf_identifier=b"x")

    with _fixed_date():
        return pdf(fresh, counters) == pdf(read[0], read[1])


#: Every change scriptforge makes to WeasyPrint or internal it relies on: (name, what, a check that
#: it is in force in this process after ``import_weasyprint``). tests/test_weasy.py runs every
#: check in a new process on the installed WeasyPrint, so a release that makes one stop applying
#: fails the tests instead of silently costing speed or changing the output.
PATCHES: tuple[tuple[str, str, Any], ...] = (
    ("compiled-cffi", "C declarations compiled once into the user cache (no pycparser per process)", imported_fast),
    ("lazy-modules", "fontTools' subsetter, instancer and ttLib, Pillow, the HTML parser, ssl imported on first use",
     _lazy_modules_deferred),
    ("deferred-ua-stylesheets", "WeasyPrint's own user-agent, form and hint stylesheets parsed on first use",
     _ua_stylesheets_deferred),
    ("sheet-html", "SheetHTML: templates/ua.css through HTML._ua_stylesheets and _ua_counter_style (protected)",
     _sheet_html_gives_our_stylesheet),
    ("xml-parser", "html_document: XHTML read by the XML parser into WeasyPrint's HTML object", _xml_document_matches),
    ("fast-subsetting", "the bundled fonts subset at byte level where HarfBuzz-subset is missing", _fast_subsetting),
    ("private-reads", "FontConfiguration._folder (the temporary copies of @font-face fonts)", _private_reads),
    ("anchor-rectangles", "Page.anchors: the rectangle of each element with an id (how full a page is)",
     _anchor_rectangles),
    ("footer-graft", "with_margin_boxes: a part's page footers laid out over empty pages, moved onto its pages",
     _margin_boxes_move),
    ("stylesheet-cache", "sheet.css and ua.css parsed once, kept in the user cache with their selectors' source",
     _stylesheet_cache_matches),
)


def inactive_patches() -> list[str]:
    """The names of the PATCHES not in force (all of them under SCRIPTFORGE_PLAIN_WEASYPRINT,
    where none is wanted, but for the private reads)."""
    import_weasyprint()
    # the checks that lay out a page need a font: the bundled ones, as every render has (a
    # machine without any system font would otherwise crash in Pango)
    with only_bundled_fonts():
        return [name for name, _, check in PATCHES if not check()]
