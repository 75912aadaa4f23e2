"""The fast WeasyPrint import and parsing (scriptforge.render.weasy) change speed, never output."""

import hashlib
import os
from pathlib import Path
import subprocess
import sys

from click.testing import CliRunner
from pypdf import PdfReader
import pytest

from scriptforge.cli import main
from scriptforge.db.games import load_game
from scriptforge.scripts.analysis import analyse
from scriptforge.render.almanac import almanac_view
from scriptforge.render.game_views import game_view
from scriptforge.render.pdf import Renderer
from scriptforge.render.templating import base_url
from scriptforge.render.writing import pdf_bytes
from scriptforge.render.views import keep_korean_words, make_view
from scriptforge.render.weasy import PLAIN_SWITCH, import_weasyprint, imported_fast
from scriptforge.scripts.script import read_script

from .conftest import EXAMPLES

FTPD = EXAMPLES / "faith-trust-and-pixie-dust.json"
FANG_GU = EXAMPLES / "fang-gu-zealot.json"
EXAMPLE_FILES = sorted(str(p) for p in EXAMPLES.glob("*.json"))

# two tests compare the plain way's pages with the same printed examples (the `ours` fixture): one
# worker runs the module
pytestmark = pytest.mark.xdist_group("weasy")


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    """The three examples printed with --night by scriptforge's own way in this process, once for
    the tests that compare the plain way's pages with them (read only)."""
    out = tmp_path_factory.mktemp("ours")
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(PLAIN_SWITCH, raising=False)
        result = CliRunner().invoke(main, ["build", *EXAMPLE_FILES, "--night", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _python(code: str, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_weasyprint_is_imported_the_fast_way(tmp_path):
    code = """
import sys
from scriptforge.render.weasy import import_weasyprint, imported_fast
import_weasyprint()
loaded = [m for m in ("fontTools.subset", "PIL.Image", "PIL.ImageOps", "tinyhtml5")
          if m in sys.modules and type(sys.modules[m]).__name__ != "_LazyModule"]
import weasyprint.html
print(imported_fast(), "pycparser" in sys.modules, loaded, type(weasyprint.html.UA_STYLESHEET).__name__)
"""
    # the first run compiles the C declarations into the cache (with pycparser), later runs load them
    for compiles in (True, False):
        result = _python(code, tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == ["True", str(compiles), "[]", "_Deferred"], result.stdout
        assert result.stderr == ""
    assert len(list((tmp_path / "scriptforge" / "cffi").glob("_scriptforge_cffi_*"))) == 1


def test_every_change_to_weasyprint_is_in_force_on_the_installed_version(tmp_path):
    code = """
from scriptforge.render.weasy import PATCHES, inactive_patches
print(len(PATCHES), inactive_patches())
"""
    result = _python(code, tmp_path)
    assert result.returncode == 0, result.stderr
    count, inactive = result.stdout.split(" ", 1)
    assert int(count) >= 7 and inactive.strip() == "[]", result.stdout


def test_weasyprint_is_imported_the_ordinary_way_when_the_fast_way_fails(tmp_path):
    code = """
from scriptforge.render import weasy
def broken(self, *args, **kwargs):
    raise RuntimeError("as if WeasyPrint had changed")
weasy._CompiledFFI.cdef = broken
weasyprint = weasy.import_weasyprint()
with weasy.only_bundled_fonts():  # as every render: a machine may have no system font at all
    document = weasy.html_document("<p>가나다</p>", "file:///", None).render()
print(weasy.imported_fast(), len(document.write_pdf()) > 1000)
"""
    result = _python(code, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]


def test_a_change_that_fails_at_run_time_falls_back_to_the_plain_way(tmp_path, ours):
    # as WeasyPrint 69 did with SheetHTML: a TypeError in the middle of the layout
    code = f"""
import sys
from scriptforge.cli import main
from scriptforge.render import weasy
def broken(self, *args, **kwargs):
    raise TypeError("as if WeasyPrint had changed")
weasy.sheet_html_class()._ua_stylesheets = broken
main.main(["build", {str(FTPD)!r}, "--night", "-o", sys.argv[1]], standalone_mode=False)
print(weasy.plain())
"""
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path / "fell-back.pdf")], capture_output=True,
                            text=True, env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}, timeout=120)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout.splitlines()[-1] == "True"
    assert _pages_text(tmp_path / "fell-back.pdf") == _pages_text(ours / "faith-trust-and-pixie-dust.pdf")


def test_a_read_only_cache_still_renders(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o500)
    try:
        result = _python("from scriptforge.render import weasy\nweasy.import_weasyprint()\n"
                         "print(weasy.html_document('<p>x</p>', 'file:///', None).render().pages[0].width > 0)", cache)
    finally:
        cache.chmod(0o700)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


# -- same pages with our user-agent stylesheet and XML parsing as with WeasyPrint's own ----------

def _documents(db):
    """(name, HTML, base folder) of every template: sheet with back page and nights, almanac,
    a game's sheet and night script."""
    renderer = Renderer()
    script = read_script(FTPD, db)
    sheet = keep_korean_words(make_view(analyse(script, db), "ko", "a4", night=True, back=True))
    almanac = keep_korean_words(almanac_view(analyse(read_script(FANG_GU, db), db), "ko"))
    salem = load_game("salem")
    yield "sheet", renderer.html(sheet), FTPD.parent
    yield "almanac", renderer.html(almanac, "almanac.html.j2"), FANG_GU.parent
    yield "game sheet", renderer.html(game_view(salem, "ko", "a4", sheet=True, night=False), "game_sheet.html.j2"), None
    yield "game night", renderer.html(game_view(salem, "en", "letter", sheet=False, night=True),
                                      "game_night.html.j2"), None


@pytest.fixture(scope="module")
def weasyprints_own(db):
    """A renderer whose documents use WeasyPrint's own HTML parser and user-agent stylesheet."""
    weasyprint = import_weasyprint()
    from weasyprint.css.counters import CounterStyle
    from weasyprint.html import UA

    counters = CounterStyle()
    stylesheet = weasyprint.CSS(string=UA, counter_style=counters)

    class OwnUserAgent(weasyprint.HTML):
        def _ua_stylesheets(self, forms=False):
            return [stylesheet]

        def _ua_counter_style(self):
            return [counters.copy()]

    class WeasyPrintsOwnRenderer(Renderer):
        def layout(self, html, base_dir, warnings, *, system_fonts=False):
            return OwnUserAgent(string=html, base_url=base_url(base_dir),
                                url_fetcher=self.urls.fetcher(base_dir, warnings)).render(
                font_config=self.fonts.bundled, stylesheets=[self.templates.stylesheet])

    return WeasyPrintsOwnRenderer()


def test_our_user_agent_stylesheet_and_xml_parsing_give_the_same_pdfs(db, weasyprints_own):
    ours = Renderer()
    for name, html, base_dir in _documents(db):
        assert html.lstrip().startswith("<!DOCTYPE html>")
        fast = pdf_bytes([ours.layout(html, base_dir, [])])
        own = pdf_bytes([weasyprints_own.layout(html, base_dir, [])])
        assert hashlib.sha256(fast).hexdigest() == hashlib.sha256(own).hexdigest(), name


def test_the_console_command_leaves_no_temporary_font_copies(tmp_path):
    from scriptforge.render.typefaces import system_fonts_cover

    # a glyph the bundled fonts lack: the sheet loads the fonts through @font-face, which WeasyPrint
    # copies to a temporary folder it deletes only when its font configuration is collected
    script = tmp_path / "rare.json"
    script.write_text('[{"id": "_meta", "name": "똠"}, "imp"]', encoding="utf-8")
    # a batch whose first script needs no @font-face: the worker processes load the fonts that way
    batch = tmp_path / "batch"
    batch.mkdir()
    (batch / "0-plain.json").write_text('["imp"]', encoding="utf-8")
    for index in range(1, 4):
        (batch / f"{index}-rare.json").write_bytes(script.read_bytes())
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    env = {**os.environ, "TMPDIR": str(temporary), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for command in (["build", str(script), "-o", str(tmp_path / "rare.pdf")],
                    ["almanac", str(script), "-o", str(tmp_path / "rare-almanac.pdf")],
                    ["build", str(batch), "-o", str(tmp_path / "batch-out"), "--jobs", "2"]):
        result = subprocess.run([sys.executable, "-m", "scriptforge", *command], capture_output=True, text=True,
                                env=env, timeout=120)
        assert result.returncode == 0, result.stderr
        # the glyph is set by a system font: named in a warning unless a system font has it
        assert ("U+B620" in result.stderr) != system_fonts_cover("똠"), result.stderr
    assert list(temporary.iterdir()) == []
    missing = subprocess.run([sys.executable, "-m", "scriptforge", "build", str(tmp_path / "nothing.json")],
                             capture_output=True, text=True, env=env, timeout=120)
    assert missing.returncode != 0 and "nothing.json" in missing.stderr and "Traceback" not in missing.stderr


def _pages_text(pdf: Path) -> list[str]:
    return [page.extract_text() for page in PdfReader(pdf).pages]


def test_plain_weasyprint_renders_the_examples_with_the_same_text_and_pages(tmp_path, ours, monkeypatch):
    # every change scriptforge makes to WeasyPrint is process-wide: the plain way runs in its own process
    monkeypatch.delenv(PLAIN_SWITCH, raising=False)
    examples = EXAMPLE_FILES
    assert len(examples) == 3
    code = f"""
import sys
from scriptforge.cli import main
from scriptforge.render import weasy
main.main(["build", *{examples!r}, "--night", "-o", sys.argv[1]], standalone_mode=False)
import pydyf
print(weasy.imported_fast(), type(pydyf.zlib).__name__)
"""
    env = {**os.environ, PLAIN_SWITCH: "1", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    plain = subprocess.run([sys.executable, "-c", code, str(tmp_path / "plain")], capture_output=True, text=True,
                           env=env, timeout=120)
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout.splitlines()[-1].split() == ["False", "module"], plain.stdout  # no change made
    assert imported_fast()  # the `ours` fixture printed them in this process, the fast way
    for example in examples:
        name = Path(example).with_suffix(".pdf").name
        mine, theirs = _pages_text(ours / name), _pages_text(tmp_path / "plain" / name)
        assert len(mine) == len(theirs) == 3, name
        assert mine == theirs, name
        assert (ours / name).read_bytes() != (tmp_path / "plain" / name).read_bytes()
