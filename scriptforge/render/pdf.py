"""HTML → PDF (and PNG) with WeasyPrint: bundled fonts, a safe URL fetcher, fixed bytes.

- ``weasyprint`` and ``pypdfium2`` are imported only inside the render functions, so commands that
  render nothing stay fast; WeasyPrint through ``weasy.import_weasyprint`` (a fast import, the
  bundled fonts only).
- Fonts: the package's pre-subset Noto Sans CJK KR (``scriptforge/fonts``). fontconfig sees only
  those fonts, so output does not depend on the system's fonts, and finds them by family name
  (sheet.css); where fontconfig is not ours, and in the HTML output, they come through
  ``@font-face``. WeasyPrint embeds and subsets them (``fontsubset`` does the subsetting of these
  fonts at byte level). Text the bundled font cannot draw (``fonts/coverage.txt``) is reported
  as a warning naming the characters, and that render uses a font configuration that also sees
  the system's fonts (else it would print as boxes).
- Speed (see the README's Benchmarks): fixed table layout, one HTML document for sheet, back page
  and nights, XHTML read by the XML parser (``weasy.html_document``), sheet.css parsed once per
  Renderer, compiled templates cached in the user cache, a FontConfiguration reused for every
  document of a batch.
- URLs: ``data:`` URLs and files inside the package fonts folder, the script's folder and the
  ``--icons`` folder only; ``http(s)`` only with ``allow_network``. Anything else is refused, a
  warning is recorded and the character gets its generated icon instead.
- Same input, same bytes: no dates in the PDF metadata, a fixed identifier.
- One page: a part (sheet, back page, night) that does not fit on one page is set smaller, at
  one of ``SHRINK_STEPS`` (100 %, 94 % … 70 %) chosen from at most three layouts
  (``fit.choose_scale``); one that fits at none is printed at the largest that takes the fewest
  pages, and a warning says how many it took. Nothing is clipped.
"""

import atexit
import base64
from dataclasses import dataclass, field, replace
import functools
import gc
import mimetypes
from pathlib import Path
import unicodedata
import logging
import os
from typing import Any, Sequence
import urllib.parse

import jinja2
import markupsafe

from scriptforge.errors import InputError
from scriptforge.paths import TEMPLATES_DIR, cache_dir
from scriptforge.model import TEAM_COLOURS
from scriptforge.render.fit import SHRINK_STEPS, choose_scale
from scriptforge.render.images import MAX_IMAGE_BYTES, SVG_TOTAL_ELEMENTS, checked_image, image_problem
from scriptforge.render.system_fonts import Choice, bundled_only_refusal, use_system_fonts
from scriptforge.render.views import BADGE_COLOURS, WORD_JOINER, keep_korean_words, keep_words
from scriptforge.render.weasy import FONTS_DIR, html_document, import_weasyprint, only_bundled_fonts, \
    with_margin_boxes

FONT_FAMILY = "Scriptforge Sans"
FONT_FILES = {400: "NotoSansKR-Subset-Regular.ttf", 700: "NotoSansKR-Subset-Bold.ttf"}
ARABIC_FAMILY, ARABIC_FILE = "Noto Naskh Arabic", "NotoNaskhArabic-Subset-Regular.ttf"  # the Djinn's flavor
# the Latin, Greek and Cyrillic letters of the official translations that the Korean face lacks
LATIN_FAMILY, LATIN_FILES = "Noto Sans", {400: "NotoSans-Subset-Regular.ttf", 700: "NotoSans-Subset-Bold.ttf"}
PAPER = {"a4": ("A4", "9mm 11mm 9mm 11mm"), "letter": ("letter", "8mm 12mm 8mm 12mm")}
FORMATS = ("pdf", "html", "png")
PNG_DPI = 150
FIXED_EPOCH = "1704067200"  # 2024-01-01: the date stamped into embedded font subsets

_cmap_cache: dict[str, frozenset[int]] = {}


FETCH_SECONDS = 5.0  # a remote picture (--allow-network): the whole download, per file
FETCH_TOTAL_TIMES = 4  # all remote pictures of one command: 4 × that (20 s by default)
FETCH_TOTAL_BYTES = 32 * 1024 * 1024  # and 32 MiB in all (each at most images.MAX_IMAGE_BYTES)

ICON_SUFFIXES = (".svg", ".png", ".webp", ".jpg", ".jpeg")  # pictures in an --icons folder, by id


class FetchRefused(Exception):
    pass


class NotFetched(FetchRefused):
    """A remote image not in the cache while the network is off: counted, one warning per script."""


def not_fetched_warning(count: int) -> str:
    return f"{count} image{'s' if count != 1 else ''} not fetched: use --allow-network"


def css_string(text: str) -> markupsafe.Markup:
    """`text` as a quoted CSS string, safe inside a <style> element read as XML or as HTML."""
    escaped = "".join(c if c.isalnum() or c in " .,;:!?()'-/·" or ord(c) > 0x7f else f"\\{ord(c):x} " for c in text)
    return markupsafe.Markup(f'"{escaped}"')


@dataclass
class Rendered:
    """One output: its bytes per file suffix (a PNG per page), page counts and warnings."""

    files: list[tuple[str, bytes]]  # (suffix such as ".pdf" or "-1.png", data)
    pages: int = 0
    warnings: list[str] = field(default_factory=list)


def font_coverage() -> frozenset[int]:
    """Code points the bundled fonts have glyphs for.

    Read from ``fonts/coverage.txt`` (written by ``tools/subset_fonts.py`` next to the fonts), so
    fontTools is not loaded for this; from the font's cmap if that file is missing.
    """
    key = "regular"
    if key not in _cmap_cache:
        listing = FONTS_DIR / "coverage.txt"
        if listing.is_file():
            points: set[int] = set()
            for line in listing.read_text(encoding="ascii").splitlines():
                line = line.strip()
                if line and not line.startswith("#"):
                    start, _, end = line.partition("-")
                    points.update(range(int(start, 16), int(end or start, 16) + 1))
            _cmap_cache[key] = frozenset(points)
        else:
            from fontTools.ttLib import TTFont

            font = TTFont(str(FONTS_DIR / FONT_FILES[400]), lazy=True)
            _cmap_cache[key] = frozenset(font.getBestCmap())
            font.close()
    return _cmap_cache[key]


def require_printable(sheet_lang: str, fmt: str = "pdf", system_fonts: "Choice" = None) -> None:
    """Refuse (InputError, one line) a sheet language whose letters neither the bundled fonts nor
    a system font can set, naming the package to install (with `system_fonts` False: that the
    bundled fonts cannot set; see render.system_fonts). Where only system fonts have them, the
    render takes them (the glyph check in `_prepare` sees the letters the bundled fonts lack). HTML
    is never refused: the browser sets it with its own fonts."""
    from scriptforge.languages import font_packages, get, shown, unprintable_letters

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


def _bytecode_cache():
    """Compiled templates kept in the user cache (saves compiling them in every cold run)."""
    directory = cache_dir("jinja")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not os.access(directory, os.W_OK):
            return None
    except OSError:
        return None
    return _CheckedBytecodeCache(str(directory))


class _CheckedBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's cache of compiled templates, but a damaged entry is compiled again, never fatal
    (Jinja itself only survives a wrong magic number or checksum, not a truncated pickle)."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass  # a full or read-only cache only costs speed (Jinja removes its temporary)


class Renderer:
    """Templates, CSS and fonts loaded once; render many sheets in one process."""

    def __init__(self, *, allow_network: bool = False, icons_dir: Path | None = None, dpi: int = PNG_DPI,
                 fetch_seconds: float = FETCH_SECONDS, packs: Sequence[Path] = (), system_fonts: Choice = None):
        from scriptforge.fetch import Budget

        self.system_fonts = system_fonts  # None: where the bundled fonts lack letters (render.system_fonts)
        self.allow_network = allow_network
        self.fetch_seconds = fetch_seconds  # per remote picture; the whole command gets FETCH_TOTAL_TIMES that
        self.fetch_budget = Budget(seconds=FETCH_TOTAL_TIMES * fetch_seconds, bytes=FETCH_TOTAL_BYTES)
        self.dpi = dpi  # of PNG output
        self.icons_dir = Path(icons_dir).resolve() if icons_dir else None
        self.packs = tuple(packs)  # data packs whose character icons are used (scriptforge.icons)
        self._pack_icon_urls: dict[str, str | None] = {}
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            bytecode_cache=_bytecode_cache(),
        )
        from scriptforge.markup import to_html

        self.env.filters["marks"] = to_html  # the official texts' :reminder: and *TOKEN* as typography
        self.env.filters["css_string"] = css_string
        self.env.globals["BADGE_COLOURS"] = BADGE_COLOURS
        self.css = (TEMPLATES_DIR / "sheet.css").read_text(encoding="utf-8") + self.env.get_template(
            "colours.css.j2").render(teams=TEAM_COLOURS, badges=BADGE_COLOURS)
        self._font_config: Any = None  # weasyprint FontConfiguration
        self._font_config_bundled_only = False
        self._system_font_config: Any = None
        self._font_data_urls: dict[str, str] | None = None  # font file name -> data: URL
        self._stylesheet = None
        #: (part, layouts made, scale, pages) of every part `_fit` laid out (for benchmarks and tests)
        self.fitted: list[tuple[str, int, float, int]] = []

    # -- fetching -------------------------------------------------------------------------

    def allowed_roots(self, base_dir: Path | None) -> list[Path]:
        roots = [FONTS_DIR.resolve()]
        if base_dir is not None:
            roots.append(Path(base_dir).resolve())
        if self.icons_dir is not None:
            roots.append(self.icons_dir)
        return roots

    def read_url(self, url: str, base_dir: Path | None) -> tuple[bytes, str]:
        """(bytes, mime type) of an allowed URL; FetchRefused with the reason otherwise."""
        parsed = urllib.parse.urlsplit(url)
        scheme = parsed.scheme.lower()
        if scheme == "data":
            header, _, payload = url[5:].partition(",")
            mime = header.split(";")[0] or "text/plain"
            data = base64.b64decode(payload) if header.endswith(";base64") else urllib.parse.unquote_to_bytes(payload)
            return data, mime
        if scheme == "file":
            path = Path(os.fsdecode(urllib.parse.unquote_to_bytes(parsed.path))).resolve()  # a name's bytes as they are
            if not any(path.is_relative_to(root) for root in self.allowed_roots(base_dir)):
                raise FetchRefused(f"{url}: outside the script's folder, the icons folder and the fonts")
            if not path.is_file():
                raise FetchRefused(f"{url}: no such file")
            if path.stat().st_size > MAX_IMAGE_BYTES:
                raise FetchRefused(f"{url}: larger than the limit of {MAX_IMAGE_BYTES // (1024 * 1024)} MiB")
            return path.read_bytes(), mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if scheme in ("http", "https"):
            return self._remote(url)
        raise FetchRefused(f"{url}: unsupported URL scheme")

    def _remote(self, url: str) -> tuple[bytes, str]:
        """A remote image from the user cache, else (with --allow-network) fetched and cached."""
        from scriptforge import imagecache

        cached = imagecache.lookup(url)
        if cached is not None and not (self.allow_network and cached.stale):
            return cached.data, cached.mime
        if not self.allow_network:
            raise NotFetched(f"{url}: network access is off (use --allow-network)")
        from scriptforge.fetch import FetchFailed, fetch_url

        try:
            data, mime = fetch_url(url, max_bytes=MAX_IMAGE_BYTES, timeout=self.fetch_seconds, budget=self.fetch_budget)
        except FetchFailed as exc:
            if cached is not None:
                return cached.data, cached.mime
            raise FetchRefused(f"{url}: {exc}") from None
        problem = image_problem(data, mime) if mime.startswith("image/") else f"not an image ({mime})"
        if problem:
            raise FetchRefused(f"{url}: {problem}")
        imagecache.store(url, data, mime)
        return data, mime

    def pack_icon_url(self, character_id: str) -> str | None:
        """The data: URL of a character's icon in the packs (``icons.icon_for``), read once per Renderer."""
        if character_id not in self._pack_icon_urls:
            from scriptforge.icons import icon_for

            path = icon_for(character_id, self.packs) if self.packs else None
            try:
                data = path.read_bytes() if path else None
            except OSError:
                data = None
            self._pack_icon_urls[character_id] = \
                f"data:image/png;base64,{base64.b64encode(data).decode('ascii')}" if data else None
        return self._pack_icon_urls[character_id]

    def url_fetcher(self, base_dir: Path | None, warnings: list[str]):
        """A WeasyPrint URL fetcher that only reads what `read_url` allows."""
        import_weasyprint()
        from weasyprint.urls import URLFetcher, URLFetcherResponse

        renderer = self

        class SafeFetcher(URLFetcher):
            def fetch(self, url, headers=None):
                try:
                    data, mime = renderer.read_url(url, base_dir)
                    problem = image_problem(data, mime) if (mime or "").startswith("image/") else None
                    if problem:  # e.g. a picture an SVG refers to
                        raise FetchRefused(f"{url[:60]}: {problem}")
                except FetchRefused as exc:
                    warnings.append(f"not loaded: {exc}")
                    raise ValueError(str(exc)) from None
                return URLFetcherResponse(url, data, {"Content-Type": mime})

        return SafeFetcher()

    def icon_file(self, character_id: str) -> Path | None:
        """The picture of a character in the --icons folder (<id>.svg, .png, .webp, .jpg)."""
        if self.icons_dir is None:
            return None
        for suffix in ICON_SUFFIXES:
            candidate = self.icons_dir / f"{character_id}{suffix}"
            if candidate.is_file():
                return candidate
        return None

    def resolve_icons(self, icons, base_dir: Path | None, warnings: list[str]) -> None:
        """Give each icon its picture as a data: URL: the --icons file of its character, else its
        own URL read through the safe `read_url`; none (the generated badge) when refused or not
        an image. Each URL is read once. Called on the renderer's own copy of a view."""
        seen: dict[str, str | None] = {}
        not_fetched: set[str] = set()
        svg_left = SVG_TOTAL_ELEMENTS
        for icon in icons:
            found = self.icon_file(icon.character) if icon.character else None
            if found is not None:
                icon.url = found.resolve().as_uri()
            if not icon.url:
                continue
            if icon.url not in seen:
                shown = icon.url[:60] + "…" if icon.url.startswith("data:") and len(icon.url) > 80 else icon.url
                try:
                    data, mime = self.read_url(icon.url, base_dir)
                    if not (mime or "").startswith("image/"):
                        raise FetchRefused(f"{shown}: not an image ({mime})")
                    problem, cost = checked_image(data, mime)
                    if problem is None and cost > svg_left:
                        problem = (f"the SVG pictures of this document would have more than "
                                   f"{SVG_TOTAL_ELEMENTS:,} elements together; too costly to draw")
                    if problem:
                        raise FetchRefused(f"{shown}: {problem}")
                    svg_left -= cost
                    seen[icon.url] = icon.url if icon.url.startswith("data:") else \
                        f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
                except NotFetched:
                    not_fetched.add(icon.url)
                    seen[icon.url] = None
                except (FetchRefused, OSError, ValueError) as exc:
                    instead = "the title is printed instead" if icon.key == "logo" else "generated icon instead"
                    warnings.append(f"{'logo' if icon.key == 'logo' else 'image'} not used, {instead}: {exc}")
                    seen[icon.url] = None
            icon.url = seen[icon.url]
        for icon in icons:
            if not icon.url and icon.character:
                icon.url = self.pack_icon_url(icon.character)
                icon.official = icon.url is not None
        if not_fetched:
            warnings.append(not_fetched_warning(len(not_fetched)))

    # -- HTML -----------------------------------------------------------------------------

    def font_faces(self, embed: bool) -> list[dict]:
        faces = []
        fonts = [(FONT_FAMILY, weight, filename) for weight, filename in FONT_FILES.items()]
        latin = [(LATIN_FAMILY, weight, filename) for weight, filename in LATIN_FILES.items()]
        for family, weight, filename in (*fonts, *latin, (ARABIC_FAMILY, 400, ARABIC_FILE)):
            path = FONTS_DIR / filename
            if embed:
                if self._font_data_urls is None:
                    self._font_data_urls = {}
                if filename not in self._font_data_urls:
                    data = base64.b64encode(path.read_bytes()).decode("ascii")
                    self._font_data_urls[filename] = f"data:font/ttf;base64,{data}"
                url = self._font_data_urls[filename]
            else:
                url = path.resolve().as_uri()
            faces.append({"family": family, "weight": weight, "url": url})
        return faces

    def html(self, view, template: str = "sheet.html.j2", *, embed_fonts: bool = False,
             system_fonts: bool = False) -> str:
        """The HTML of `view`; with `embed_fonts`, the self-contained HTML output; `system_fonts`
        as for `layout`.

        The HTML output carries no WORD JOINERs (``views.keep_words``): browsers honour
        ``word-break: keep-all`` (sheet.css) themselves, and the text stays plain to search and copy.
        """
        size, margin = PAPER[view.paper]
        # For PDF/PNG, sheet.css is not inlined: `layout` passes it parsed once per Renderer (as a
        # user stylesheet, so any <style> of a template still overrides it).
        css = markupsafe.Markup(self.css if embed_fonts else "")
        # Where fontconfig sees only the bundled fonts it finds them by family name (sheet.css),
        # which lays out faster than loading them again through @font-face.
        found = not (embed_fonts or system_fonts) and self.fontconfig_has_bundled_fonts
        faces = [] if found else self.font_faces(embed_fonts)
        if faces and not embed_fonts:
            _free_font_copies_at_exit()
        html = self.env.get_template(template).render(
            view=view, css=css, font_faces=faces, page_size=size, page_margin=margin, standalone=embed_fonts)
        return html.replace(WORD_JOINER, "") if embed_fonts else html

    @property
    def stylesheet(self):
        """sheet.css parsed once (it has no @font-face, so it serves every FontConfiguration)."""
        if self._stylesheet is None:
            weasyprint = import_weasyprint()
            self._stylesheet = weasyprint.CSS(string=self.css, base_url=FONTS_DIR.resolve().as_uri() + "/")
        return self._stylesheet

    # -- PDF ------------------------------------------------------------------------------

    @property
    def font_config(self):
        """The FontConfiguration for sheets: the bundled fonts only, made once per Renderer."""
        if self._font_config is None:
            import_weasyprint()
            from weasyprint.text.fonts import FontConfiguration

            with only_bundled_fonts() as fonts:
                self._font_config = FontConfiguration()
            self._font_config_bundled_only = fonts.applied
        return self._font_config

    @property
    def fontconfig_has_bundled_fonts(self) -> bool:
        """Whether `font_config` is fontconfig limited to the bundled fonts folder."""
        self.font_config  # noqa: B018 — made on first use
        return self._font_config_bundled_only

    @property
    def system_font_config(self):
        """A FontConfiguration that also sees the system's fonts: the fallback for text the
        bundled fonts cannot draw (a system font may have those characters)."""
        if self._system_font_config is None:
            import_weasyprint()
            from weasyprint.text.fonts import FontConfiguration

            with only_bundled_fonts(active=False):
                self._system_font_config = FontConfiguration()
        return self._system_font_config

    def temporary_font_folders(self) -> set[Path]:
        """The folders WeasyPrint copied @font-face fonts into for this Renderer (it deletes each
        when its FontConfiguration is freed; ``_folder`` is where WeasyPrint keeps it)."""
        configs = (self._font_config, self._system_font_config)
        return {config._folder for config in configs if getattr(config, "_folder", None)}

    def layout(self, html: str, base_dir: Path | None, warnings: list[str], *, system_fonts: bool = False):
        """A WeasyPrint Document for `html` (layout only)."""
        base_url = (Path(base_dir).resolve().as_uri() + "/") if base_dir else FONTS_DIR.resolve().as_uri() + "/"
        font_config = self.system_font_config if system_fonts else self.font_config
        return html_document(html, base_url, self.url_fetcher(base_dir, warnings)).render(
            font_config=font_config, stylesheets=[self.stylesheet])

    def _fit(self, view, template: str, base_dir, warnings: list[str], what: str, pages_wanted: int = 1,
             system_fonts: bool = False, first=None):
        """Lay out `view`, its text at the largest of SHRINK_STEPS at which it takes `pages_wanted`
        pages (else at the largest at which it takes the fewest), chosen by ``fit.choose_scale``
        from at most three layouts, each size a copy of `view` (the view itself is left as it was);
        `first`: its layout at 100 % if already made."""
        laid: dict[float, Any] = {}  # scale -> weasyprint Document

        def lay(scale: float) -> list[float]:
            if scale == SHRINK_STEPS[0] and first is not None:
                laid[scale] = first
            else:  # without the page footer (`_numbered` gives the chosen layout its footers)
                sized = replace(view, scale=scale, **({"footer": None, "art_notice": None} if view.footer else {}))
                laid[scale] = self.layout(self.html(sized, template, system_fonts=system_fonts), base_dir, warnings,
                                          system_fonts=system_fonts)
            return [page_used(page) for page in laid[scale].pages]

        scale, layouts = choose_scale(lay, pages_wanted)
        document = laid[scale]
        self.fitted.append((what, layouts, scale, len(document.pages)))
        wanted = f"{pages_wanted} page{'s' if pages_wanted > 1 else ''}"
        if len(document.pages) > pages_wanted:
            warnings.append(f"{what} does not fit on {wanted}: it takes {len(document.pages)} pages, "
                            f"at {round(scale * 100)}% text size")
        elif scale < SHRINK_STEPS[0]:
            warnings.append(f"{what}: text set at {round(scale * 100)}% to fit on {wanted}")
        return document

    def documents(self, view, base_dir, warnings: list[str], system_fonts: bool = False) -> list:
        """The laid-out parts: sheet (one page), back page, one page per night.

        Everything is laid out as one HTML document first (one style computation, one layout
        pass); when some part does not fit on its page, the parts that do are taken from it as
        they are, and each of the others is shrunk by `_fit`, starting from its pages there.
        """
        parts = []
        if view.show_sheet:
            parts.append((replace(view, nights=[], back=None), "sheet.html.j2", "the character sheet"))
        if view.back:
            parts.append((replace(view, nights=[], show_sheet=False), "sheet.html.j2", "the back page"))
        for night in view.nights:
            parts.append((replace(view, nights=[night], back=None, show_sheet=False), "nightsheet.html.j2",
                          f"the night sheet '{night.title}'"))
        firsts: list[Any] = [None] * len(parts)
        if len(parts) > 1:
            whole = replace(view, scale=SHRINK_STEPS[0])
            document = self.layout(self.html(whole, "sheet.html.j2", system_fonts=system_fonts), base_dir, warnings,
                                   system_fonts=system_fonts)
            if len(document.pages) == len(parts):
                return [document]
            firsts = _split_parts(document, len(parts))
        docs = []
        for (part, template, what), first in zip(parts, firsts):
            if first is not None and len(first.pages) == 1:
                docs.append(first)
            else:
                docs.append(self._fit(part, template, base_dir, warnings, what, system_fonts=system_fonts,
                                      first=first))
        return self._numbered([(part, template) for part, template, _ in parts], docs, base_dir, system_fonts,
                              [first for first in firsts if first is not None])

    def _numbered(self, parts: list, docs: list, base_dir, system_fonts: bool, from_whole: Sequence = ()) -> list:
        """Parts laid out one by one each count their pages from 1 (or, fitted, have no footer):
        where the view has a footer, each gets the footers of its pages numbered as pages of the
        whole output, laid out over empty pages (``weasy.with_margin_boxes``; page breaks do not
        depend on the footer); a part taken from the layout of the whole (`from_whole`) is laid out
        again alone, at the text size it was fitted to (`laid_out_scale`), since a part alone
        prints a little more (a night page's language-tag notes)."""
        if getattr(parts[0][0], "footer", None) is None:
            return docs
        total, offset, out = sum(len(d.pages) for d in docs), 0, []
        for (part, template), doc in zip(parts, docs):
            numbered = replace(part, scale=laid_out_scale(doc, part),
                               footer=replace(part.footer, offset=offset, total=total, pages=len(doc.pages)))
            again = None
            if not any(doc is whole for whole in from_whole):  # empty pages: only the footers are laid out
                again = with_margin_boxes(doc, self.layout(self.html(numbered, "footers.html.j2", system_fonts=system_fonts),
                                                           base_dir, [], system_fonts=system_fonts))
            if again is None:
                again = self.layout(self.html(numbered, template, system_fonts=system_fonts), base_dir, [],
                                    system_fonts=system_fonts)
            out.append(again if len(again.pages) == len(doc.pages) else doc)
            offset += len(doc.pages)
        return out

    def pdf_bytes(self, docs: list) -> bytes:
        pages = [page for doc in docs for page in doc.pages]
        document = docs[0].copy(pages)
        # Fixed metadata: no creation or modification date; a fixed /ID.
        document.metadata.created = None
        document.metadata.modified = None
        document.metadata.generator = "scriptforge"
        # The word joiners that keep Korean words whole are layout, not text: not in the title
        # and bookmarks a PDF viewer shows.
        document.metadata.title = (document.metadata.title or "").replace(WORD_JOINER, "") or None
        for page in document.pages:
            page.bookmarks = [(level, label.replace(WORD_JOINER, ""), *rest) for level, label, *rest in page.bookmarks]
        # fontTools stamps the subset fonts with the time of writing unless SOURCE_DATE_EPOCH is set.
        saved = os.environ.get("SOURCE_DATE_EPOCH")
        os.environ["SOURCE_DATE_EPOCH"] = saved or FIXED_EPOCH
        try:
            return document.write_pdf(pdf_identifier=b"scriptforge", uncompressed_pdf=False)
        finally:
            if saved is None:
                os.environ.pop("SOURCE_DATE_EPOCH", None)

    # -- one output -----------------------------------------------------------------------

    def render(self, view, fmt: str = "pdf", base_dir: Path | None = None) -> Rendered:
        warnings: list[str] = []
        with _captured_weasyprint_warnings(warnings):
            return self._render(view, fmt, base_dir, warnings)

    def _render(self, view, fmt, base_dir, warnings) -> Rendered:
        view, missing = self._prepare(view, base_dir, warnings, fmt)
        if fmt == "html":
            return self._html_output(view, "sheet.html.j2", warnings)
        return self._pdf_output(self.documents(view, base_dir, warnings, system_fonts=missing), fmt, warnings)

    def render_document(self, view, template: str, fmt: str = "pdf", base_dir: Path | None = None,
                        balance: bool = False) -> Rendered:
        """HTML, PDF or PNG pages of a view laid out as one document (almanacs, game sheets), with
        what `render` does for sheets: glyph check, safe icons, Korean words kept whole. With
        `balance`, a last page under a quarter used is saved by smaller text where it can be."""
        warnings: list[str] = []
        with _captured_weasyprint_warnings(warnings):
            view, missing = self._prepare(view, base_dir, warnings, fmt)
            if fmt == "html":
                return self._html_output(view, template, warnings)
            html = self.html(view, template, system_fonts=missing)
            document = self.layout(html, base_dir, warnings, system_fonts=missing)
            if balance:
                document = self._save_last_page(view, template, document, base_dir, warnings, missing)
            return self._pdf_output([document], fmt, warnings)

    def page_count(self, view, template: str, base_dir: Path | None = None) -> int:
        """How many pages `view` takes, laid out as `render_document` would (no output written)."""
        warnings: list[str] = []
        with _captured_weasyprint_warnings(warnings):
            view, missing = self._prepare(view, base_dir, warnings)
            return len(self.layout(self.html(view, template, system_fonts=missing), base_dir, warnings,
                                   system_fonts=missing).pages)

    def _save_last_page(self, view, template: str, document, base_dir, warnings: list[str], missing: bool):
        """`document` laid out again with smaller text (SHRINK_STEPS down to 82 %) when its last
        page is under a quarter used and that saves the page; else `document` as it was."""
        if len(document.pages) < 2 or page_used(document.pages[-1]) >= BALANCED_PAGE:
            return document
        for scale in SHRINK_STEPS[1:4]:
            tighter = self.layout(self.html(replace(view, scale=scale), template, system_fonts=missing), base_dir, [],
                                  system_fonts=missing)
            if len(tighter.pages) < len(document.pages):
                return tighter
        return document

    def _prepare(self, view, base_dir, warnings: list[str], fmt: str = "pdf"):
        """(the view to lay out — a copy with Korean words kept whole and the icons resolved —,
        whether the system's fonts are used beside the bundled ones: by default where it has text
        the bundled fonts lack; see render.system_fonts)."""
        missing = missing_glyphs(view.all_text())
        system_fonts = use_system_fonts(self.system_fonts if fmt != "html" else None, missing)  # HTML: the browser's fonts
        warning = missing_glyph_warning(missing)
        if warning:
            warnings.append(warning)
        laid_out = keep_korean_words(view)
        icons = list(laid_out.icons())
        self.resolve_icons(icons, base_dir, warnings)
        if any(icon.official for icon in icons):  # official art on the pages: the community-content notice
            laid_out.art_notice = keep_words(laid_out.labels.get("art_notice") or "") or None
        return laid_out, system_fonts

    def _html_output(self, view, template: str, warnings: list[str]) -> Rendered:
        html = self.html(view, template, embed_fonts=True)
        return Rendered(files=[(".html", html.encode("utf-8"))], pages=0, warnings=_unique(warnings))

    def _pdf_output(self, docs: list, fmt: str, warnings: list[str]) -> Rendered:
        pdf = self.pdf_bytes(docs)
        files = [(".pdf", pdf)] if fmt == "pdf" else pdf_to_png(pdf, self.dpi)
        return Rendered(files=files, pages=sum(len(d.pages) for d in docs), warnings=_unique(warnings))


@functools.cache
def _free_font_copies_at_exit() -> None:
    """For @font-face, WeasyPrint copies the font files into a temporary folder that it deletes
    when the FontConfiguration is freed; a laid-out document's styles hold it in reference cycles,
    and ``cli.run`` excludes what is left at exit from garbage collection. So once a document
    has loaded fonts that way, they are collected before exit, and the folder goes with them."""
    def collect():
        gc.unfreeze()
        gc.collect()

    atexit.register(collect)


BALANCED_PAGE = 0.25  # a page used less than this is nearly empty


def laid_out_scale(document, view) -> float:
    """The text size (one of SHRINK_STEPS) `document`, laid out from `view`, was set at: read from
    its root element's font size (9 pt × scale × the view's font_scale)."""
    box = document.pages[0]._page_box  # WeasyPrint keeps the page's boxes here (weasy.PATCHES)
    root = next((child for child in box.children if getattr(child, "element_tag", None) == "html"), None)
    if root is None:
        return view.scale
    scale = root.style["font_size"] / (12.0 * getattr(view, "font_scale", 1.0))  # 9 pt = 12 CSS px
    return min(SHRINK_STEPS, key=lambda step: abs(step - scale))


def page_used(page) -> float:
    """How much of a laid-out WeasyPrint page's height its lines of text take, from the top (0-1)."""
    box = page._page_box  # WeasyPrint keeps the page's boxes here
    # the page's content only: the margin boxes (the footer) sit below it
    content = [child for child in box.children if type(child).__name__ != "MarginBox"]
    bottoms = [line.position_y + line.height for child in content for line in child.descendants()
               if type(line).__name__ == "LineBox"]
    return (max(bottoms, default=box.content_box_y()) - box.content_box_y()) / box.height


def _split_parts(document, count: int) -> list:
    """`document` (the parts laid out as one) as one Document per part, cut where a page starts
    with a level-1 bookmark (each part's first heading is an <h1>); Nones when it does not cut
    into `count` parts."""
    starts = [index for index, page in enumerate(document.pages)
              if any(mark[0] == 1 for mark in page.bookmarks)]
    if len(starts) != count or starts[0] != 0:
        return [None] * count
    ends = [*starts[1:], len(document.pages)]
    return [document.copy(document.pages[start:end]) for start, end in zip(starts, ends)]


def pdf_to_png(pdf: bytes, dpi: int = PNG_DPI) -> list[tuple[str, bytes]]:
    """One PNG per page (suffix ``.png`` for a single page, ``-1.png``, ``-2.png``… otherwise)."""
    import io

    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        out = []
        count = len(document)
        for index in range(count):
            page = document[index]
            image = page.render(scale=dpi / 72).to_pil()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", optimize=False, dpi=(dpi, dpi))  # the pHYs chunk
            out.append((".png" if count == 1 else f"-{index + 1}.png", buffer.getvalue()))
            page.close()
        return out
    finally:
        document.close()


class _Collect(logging.Handler):
    """Keeps WeasyPrint's warnings about fonts and missing glyphs, to report them to the user."""

    def __init__(self, sink: list[str]):
        super().__init__(logging.WARNING)
        self.sink = sink

    def emit(self, record):
        message = record.getMessage()
        if "Font-face" in message or "notdef" in message:
            self.sink.append("WeasyPrint: " + message)


class _captured_weasyprint_warnings:
    def __init__(self, sink: list[str]):
        self.handler = _Collect(sink)

    def __enter__(self):
        logging.getLogger("weasyprint").addHandler(self.handler)

    def __exit__(self, *exc):
        logging.getLogger("weasyprint").removeHandler(self.handler)
        return False


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))
