"""The fonts of a render: the bundled faces, which letters they have, WeasyPrint's font configurations.

- The package's pre-subset Noto Sans CJK KR (``scriptforge/fonts``, with Noto Sans for the Latin,
  Greek and Cyrillic letters of the official translations and Noto Naskh Arabic for the Djinn's
  flavor). fontconfig sees only those fonts (``fontconfig.only_bundled_fonts``), so output does not
  depend on the system's fonts, and finds them by family name (sheet.css); where fontconfig is
  not ours, and in the HTML output, they come through ``@font-face`` (`Fonts.faces`).
- Scriptforge Marks, our own font of the punctuation the others lack (the danda and double danda
  of the Hindu's flavor; ``tools/marks_font.py`` draws it to the text face's measure), last in
  every font stack: it sets only what no font before it has.
- Text the bundled fonts cannot draw (``fonts/coverage.txt``) is reported as a warning naming the
  characters, and that render uses a font configuration that also sees the system's fonts (else
  it would print as boxes); a sheet language no font on the machine can set is refused before
  anything is rendered (`require_printable`).
"""

import atexit
import base64
import functools
import gc
from pathlib import Path
import unicodedata
from typing import Any

from scriptforge.io.errors import InputError
from scriptforge.render.system_fonts import Choice, bundled_only_refusal
from scriptforge.io.paths import FONTS_DIR
from scriptforge.render.fontconfig import only_bundled_fonts
from scriptforge.render.weasy import import_weasyprint
from scriptforge.model.languages import font_packages, get, shown, unprintable_letters

FONT_FAMILY = "Scriptforge Sans"
#: the system's fonts named after the bundled ones, for what those lack (sheet.css's stack)
SYSTEM_FAMILIES = ("Noto Sans CJK KR", "Noto Sans KR", "Noto Sans", "Noto Naskh Arabic")


def font_stack(lang: str) -> str:
    """The CSS font-family list of a page in `lang`: the bundled fonts, then the system fonts that
    set the language in its own glyph forms (the registry's `fonts`: a Japanese page's Han
    characters in Japanese forms, not the Korean ones "Noto Sans CJK KR" would give), then the rest,
    and last our marks (only for what none of those has)."""
    families = dict.fromkeys((FONT_FAMILY, *get(lang).fonts, *SYSTEM_FAMILIES, MARKS_FAMILY))
    return ", ".join(f'"{family}"' for family in families) + ", sans-serif"
FONT_FILES = {400: "NotoSansKR-Subset-Regular.ttf", 700: "NotoSansKR-Subset-Bold.ttf"}
ARABIC_FAMILY, ARABIC_FILE = "Noto Naskh Arabic", "NotoNaskhArabic-Subset-Regular.ttf"  # the Djinn's flavor
# the Latin, Greek and Cyrillic letters of the official translations that the Korean face lacks
LATIN_FAMILY, LATIN_FILES = "Noto Sans", {400: "NotoSans-Subset-Regular.ttf", 700: "NotoSans-Subset-Bold.ttf"}
# our own punctuation marks that every font before it lacks (the danda, U+0964, and double danda, U+0965)
MARKS_FAMILY, MARKS_FILES = "Scriptforge Marks", {400: "ScriptforgeMarks-Regular.ttf", 700: "ScriptforgeMarks-Bold.ttf"}


@functools.cache
def font_coverage() -> frozenset[int]:
    """Code points the bundled fonts have glyphs for.

    Read from ``fonts/coverage.txt`` (written by ``tools/subset_fonts.py`` next to the fonts), so
    fontTools is not loaded for this; from the font's cmap if that file is missing.
    """
    listing = FONTS_DIR / "coverage.txt"
    if listing.is_file():
        points: set[int] = set()
        for line in listing.read_text(encoding="ascii").splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                start, _, end = line.partition("-")
                points.update(range(int(start, 16), int(end or start, 16) + 1))
        return frozenset(points)
    # deferred: start-up time
    from fontTools.ttLib import TTFont

    font = TTFont(str(FONTS_DIR / FONT_FILES[400]), lazy=True)
    try:
        return frozenset(font.getBestCmap())
    finally:
        font.close()


def require_printable(sheet_lang: str, fmt: str = "pdf", system_fonts: Choice = None) -> None:
    """Refuse (InputError, one line) a sheet language whose letters neither the bundled fonts nor
    a system font can set, naming the package to install (with `system_fonts` False: that the
    bundled fonts cannot set; see render.system_fonts). Where only system fonts have them, the
    render takes them (the glyph check of each render sees the letters the bundled fonts lack). HTML
    is never refused: the browser sets it with its own fonts."""
    if fmt == "html":
        return
    for code in shown(sheet_lang):
        missing = unprintable_letters(code, font_coverage())
        if missing and system_fonts is False:
            raise InputError(bundled_only_refusal(f"--lang {code}: ", missing, font_packages(code)))
        if missing and not system_fonts_cover(missing):
            language = get(code)
            install = " or ".join(font_packages(code)) or "a font for it"
            raise InputError(f"--lang {code}: neither the bundled fonts nor a system font can set {language.name} "
                             f"({language.native}): no font has {' '.join(missing[:5])}"
                             f"{' …' if len(missing) > 5 else ''}; install {install} (Debian/Ubuntu package), "
                             f"or render --format html")


@functools.cache
def system_fonts_cover(letters: str) -> bool:
    """Whether one font fontconfig knows has every character of `letters` (asked through
    `fc-list`; where fontconfig's tools are missing the answer is yes, and the render's glyph
    warning says what printed as boxes)."""
    # deferred: start-up time
    import shutil
    import subprocess

    if not letters or not shutil.which("fc-list"):
        return True
    charset = " ".join(f"{ord(c):x}" for c in sorted(set(letters)))
    try:
        found = subprocess.run(["fc-list", f":charset={charset}", "family"], capture_output=True, text=True,
                               timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return True
    return bool(found.strip())


def missing_glyphs(text: str) -> list[str]:
    """Characters of `text` the bundled font cannot draw (spaces and controls ignored)."""
    covered = font_coverage()
    missing = {c for c in text if ord(c) not in covered and not c.isspace()
               and unicodedata.category(c)[0] not in "CZ"}
    return sorted(missing)


def missing_glyph_warning(missing: list[str]) -> str | None:
    """The warning for `missing`, the characters the bundled fonts lack (None if there are none,
    or if a system font has them all: a Japanese sheet is set in the system's CJK font by design)."""
    if not missing or system_fonts_cover("".join(missing)):
        return None
    return ("the bundled font has no glyph for " + describe_chars(missing)
            + "; they print with a system font if one has them, else as boxes")


def describe_chars(chars: list[str], limit: int = 12) -> str:
    shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in chars[:limit])
    return shown + (f" and {len(chars) - limit} more" if len(chars) > limit else "")


class Fonts:
    """One renderer's fonts: the ``@font-face`` rules, and the two FontConfigurations (the bundled
    fonts only; also the system's), each made on first use and reused for every document of a
    batch. What is kept here are caches: a render gets the same fonts whatever came before it."""

    def __init__(self) -> None:
        self._bundled: Any = None  # weasyprint FontConfiguration
        self._bundled_only = False
        self._system: Any = None
        self._data_urls: dict[str, str] = {}  # font file name -> data: URL

    def faces(self, embed: bool) -> list[dict]:
        """The ``@font-face`` rules (family, weight, url) of the bundled fonts; with `embed`, as
        ``data:`` URLs (the self-contained HTML output)."""
        faces = []
        fonts = [(FONT_FAMILY, weight, filename) for weight, filename in FONT_FILES.items()]
        latin = [(LATIN_FAMILY, weight, filename) for weight, filename in LATIN_FILES.items()]
        marks = [(MARKS_FAMILY, weight, filename) for weight, filename in MARKS_FILES.items()]
        for family, weight, filename in (*fonts, *latin, (ARABIC_FAMILY, 400, ARABIC_FILE), *marks):
            path = FONTS_DIR / filename
            if embed:
                if filename not in self._data_urls:
                    data = base64.b64encode(path.read_bytes()).decode("ascii")
                    self._data_urls[filename] = f"data:font/ttf;base64,{data}"
                url = self._data_urls[filename]
            else:
                url = path.resolve().as_uri()
            faces.append({"family": family, "weight": weight, "url": url})
        return faces

    def config(self, system_fonts: bool = False):
        """The FontConfiguration to lay out with (`system_fonts`: the one that also sees the system's)."""
        return self.system if system_fonts else self.bundled

    @property
    def bundled(self):
        """The FontConfiguration for sheets: the bundled fonts only."""
        if self._bundled is None:
            import_weasyprint()
            # deferred: start-up time
            from weasyprint.text.fonts import FontConfiguration

            with only_bundled_fonts() as fonts:
                self._bundled = FontConfiguration()
            self._bundled_only = fonts.applied
        return self._bundled

    @property
    def fontconfig_has_bundled_fonts(self) -> bool:
        """Whether `bundled` is fontconfig limited to the bundled fonts folder (then the fonts are
        found by family name, which lays out faster than loading them again through @font-face)."""
        self.bundled  # noqa: B018 — made on first use
        return self._bundled_only

    @property
    def system(self):
        """A FontConfiguration that also sees the system's fonts: the fallback for text the
        bundled fonts cannot draw (a system font may have those characters)."""
        if self._system is None:
            import_weasyprint()
            # deferred: start-up time
            from weasyprint.text.fonts import FontConfiguration

            with only_bundled_fonts(active=False):
                self._system = FontConfiguration()
        return self._system

    def temporary_folders(self) -> set[Path]:
        """The folders WeasyPrint copied @font-face fonts into for these configurations (it deletes
        each when its FontConfiguration is freed; ``_folder`` is where WeasyPrint keeps it)."""
        return {config._folder for config in (self._bundled, self._system) if getattr(config, "_folder", None)}


@functools.cache
def free_font_copies_at_exit() -> None:
    """For @font-face, WeasyPrint copies the font files into a temporary folder that it deletes
    when the FontConfiguration is freed; a laid-out document's styles hold it in reference cycles,
    and ``cli.run`` excludes what is left at exit from garbage collection. So once a document
    has loaded fonts that way, they are collected before exit, and the folder goes with them."""
    def collect():
        gc.unfreeze()
        gc.collect()

    atexit.register(collect)
