"""Views → PDF, PNG or HTML: the `Renderer` puts the render's parts together.

One module per job, each loaded once per Renderer and reused for every render of a batch:

- ``urls``: which URLs a render may read (``UrlPolicy``), and the command's download budget;
- ``pictures``: the picture each icon gets (``--icons``, the script's own, the pack's, the badge);
- ``typefaces``: the bundled fonts, the glyph check, WeasyPrint's font configurations;
- ``templating``: the Jinja templates and sheet.css → HTML;
- ``fit`` (with ``pages``, which reads how full a laid-out page is): the text size of a part that
  does not fit on its page, from at most three layouts (``SHRINK_STEPS`` 100 %, 94 % … 70 %); one
  that fits at none is printed at the largest that takes the fewest pages, and a warning says how
  many it took. Nothing is clipped;
- ``writing``: the PDF's bytes (same input, same bytes) and the PNG pages;
- ``weasy``: WeasyPrint itself, imported the fast way (``weasyprint`` and ``pypdfium2`` are
  imported only inside the render functions, so commands that render nothing stay fast).

No render changes the view it is given or the Renderer: each render works on its own copy of the
view (Korean words kept whole, icons resolved), each text size is laid out from a copy, and what
fitting chose comes back in the `Rendered` (``fitted``). What a Renderer keeps between renders
are caches (compiled templates, parsed CSS, font configurations, pack icons), which give every
render the same answer, and the command's download budget for remote pictures (``urls``).

Speed (see the README's Benchmarks): fixed table layout, one HTML document for sheet, back page and
nights, XHTML read by the XML parser (``weasy.html_document``), sheet.css parsed once per
Renderer, compiled templates cached in the user cache, a FontConfiguration reused for every
document of a batch.
"""

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from scriptforge.render.fit import SHRINK_STEPS, Fitted, fit_part, mark_continued, save_last_page, steps_for
from scriptforge.render.pages import split_parts
from scriptforge.render.pictures import Pictures
from scriptforge.render.system_fonts import Choice, use_system_fonts
from scriptforge.render.templating import Templates, base_url
from scriptforge.render.typefaces import Fonts, free_font_copies_at_exit, missing_glyph_warning, missing_glyphs
from scriptforge.render.urls import FETCH_SECONDS, UrlPolicy
from scriptforge.render.views import WORD_JOINER, keep_korean_words, keep_words, with_page_starts
from scriptforge.render.footers import with_margin_boxes
from scriptforge.render import weasy
from scriptforge.render.choices import PNG_DPI
from scriptforge.render.options import PrintSettings
from scriptforge.render.writing import Rendered, captured_weasyprint_warnings, output, unique


@dataclass
class Parts:
    """A sheet's laid-out parts (sheet, back page, nights: WeasyPrint Documents, in order) and
    what fitting each part that did not fit at full size came to."""

    docs: list
    fitted: list[Fitted] = field(default_factory=list)


class Renderer:
    """Templates, CSS and fonts loaded once; render many sheets in one process."""

    def __init__(self, *, allow_network: bool = False, icons_dir: Path | None = None, dpi: int = PNG_DPI,
                 fetch_seconds: float = FETCH_SECONDS, packs: Sequence[Path] = (), system_fonts: Choice = None):
        self.system_fonts = system_fonts  # None: where the bundled fonts lack letters (render.system_fonts)
        self.urls = UrlPolicy(allow_network=allow_network, icons_dir=icons_dir, fetch_seconds=fetch_seconds)
        self.pictures = Pictures(self.urls, packs)
        self.fonts = Fonts()
        self.templates = Templates()
        self.dpi = dpi  # of PNG output

    @classmethod
    def for_settings(cls, settings: PrintSettings, packs: Sequence[Path] = (), *, dpi: int = PNG_DPI) -> "Renderer":
        """A Renderer for a printing command's `settings` (`dpi`: the output's default where the
        settings chose none)."""
        return cls(allow_network=settings.allow_network, icons_dir=settings.icons_dir, dpi=settings.dpi or dpi,
                   fetch_seconds=settings.fetch_seconds, packs=packs, system_fonts=settings.system_fonts)

    # -- HTML and layout ------------------------------------------------------------------

    def html(self, view, template: str = "sheet.html.j2", *, embed_fonts: bool = False,
             system_fonts: bool = False) -> str:
        """The HTML of `view`; with `embed_fonts`, the self-contained HTML output; `system_fonts`
        as for `layout`."""
        # Where fontconfig sees only the bundled fonts it finds them by family name (sheet.css),
        # which lays out faster than loading them again through @font-face.
        found = not (embed_fonts or system_fonts) and self.fonts.fontconfig_has_bundled_fonts
        faces = [] if found else self.fonts.faces(embed_fonts)
        if faces and not embed_fonts:
            free_font_copies_at_exit()
        return self.templates.html(view, template, font_faces=faces, standalone=embed_fonts)

    def layout(self, html: str, base_dir: Path | None, warnings: list[str], *, system_fonts: bool = False):
        """A WeasyPrint Document for `html` (layout only); refused URLs are `warnings`."""
        return weasy.lay_out(html, base_url(base_dir), self.urls.fetcher(base_dir, warnings),
                             font_config=self.fonts.config(system_fonts), stylesheets=[self.templates.stylesheet])

    def _laid_out(self, view, template: str, base_dir, warnings: list[str], system_fonts: bool):
        return self.layout(self.html(view, template, system_fonts=system_fonts), base_dir, warnings,
                           system_fonts=system_fonts)

    def documents(self, view, base_dir, warnings: list[str], system_fonts: bool = False) -> Parts:
        """The laid-out parts: sheet (one page), back page, one page per night.

        Everything is laid out as one HTML document first (one style computation, one layout
        pass); when some part does not fit on its page, the parts that do are taken from it as
        they are, and each of the others is shrunk by ``fit.fit_part``, starting from its pages there.
        A sheet that still takes more pages is laid out again with its rows anchored, and once
        more with the heading of each team (and of the jinx list) a page goes on with marked as
        continued there (``fit.mark_continued``).
        """
        parts = []
        if view.show_sheet:
            parts.append((replace(view, nights=[], back=None), "sheet.html.j2", "the character sheet"))
        if view.back:
            parts.append((replace(view, nights=[], show_sheet=False), "sheet.html.j2", "the back page"))
        for night in view.nights:
            parts.append((replace(view, nights=[night], back=None, show_sheet=False), "nightsheet.html.j2",
                          f"the night sheet '{night.title.replace(WORD_JOINER, '')}'"))
        firsts: list[Any] = [None] * len(parts)
        if len(parts) > 1:
            document = self._laid_out(replace(view, scale=SHRINK_STEPS[0]), "sheet.html.j2", base_dir, warnings,
                                      system_fonts)
            if len(document.pages) == len(parts):
                return Parts([document])
            firsts = split_parts(document, len(parts))
        docs, scales, fitted, printed = [], [], [], []
        for (part, template, what), first in zip(parts, firsts):
            if first is not None and len(first.pages) == 1:
                docs.append(first)
                scales.append(SHRINK_STEPS[0])
                printed.append((part, template))
                continue

            def lay_out(scale: float, part=part, template=template):
                # without the page footer: `_numbered` gives the chosen layout its footers
                bare = {"footer": None, "art_notice": None} if part.footer else {}
                return self._laid_out(replace(part, scale=scale, **bare), template, base_dir, warnings, system_fonts)

            document, fit, said = fit_part(lay_out, part.paper, what, first=first, steps=steps_for(part.font_scale))
            warnings.extend(said)
            if part.show_sheet and len(document.pages) > 1:  # a team going on over a page says so there
                def marked_layout(marked, scale: float = fit.scale):
                    return lay_out(scale, part=marked)

                part, document = mark_continued(marked_layout, part, with_page_starts)
            docs.append(document)
            printed.append((part, template))
            scales.append(fit.scale)
            fitted.append(fit)
        numbered = self._numbered(printed, docs, scales, base_dir, system_fonts,
                                  [first for first in firsts if first is not None])
        return Parts(numbered, fitted)

    def _numbered(self, parts: list, docs: list, scales: list[float], base_dir, system_fonts: bool,
                  from_whole: Sequence = ()) -> list:
        """Parts laid out one by one each count their pages from 1 (or, fitted, have no footer):
        where the view has a footer, each gets the footers of its pages numbered as pages of the
        whole output, laid out over empty pages (``footers.with_margin_boxes``; page breaks do not
        depend on the footer); a part taken from the layout of the whole (`from_whole`) is laid out
        again alone, at the text size it was fitted to (`scales`), since a part alone prints a
        little more (a night page's language-tag notes)."""
        if getattr(parts[0][0], "footer", None) is None:
            return docs
        total, offset, out = sum(len(d.pages) for d in docs), 0, []
        for (part, template), doc, scale in zip(parts, docs, scales):
            numbered = replace(part, scale=scale,
                               footer=replace(part.footer, offset=offset, total=total, pages=len(doc.pages)))
            again = None
            if not any(doc is whole for whole in from_whole):  # empty pages: only the footers are laid out
                again = with_margin_boxes(doc, self._laid_out(numbered, "footers.html.j2", base_dir, [], system_fonts))
            if again is None:
                again = self._laid_out(numbered, template, base_dir, [], system_fonts)
            out.append(again if len(again.pages) == len(doc.pages) else doc)
            offset += len(doc.pages)
        return out

    # -- one output -----------------------------------------------------------------------

    def render(self, view, fmt: str = "pdf", base_dir: Path | None = None) -> Rendered:
        """A sheet view's output: the HTML, or its parts laid out (`documents`) as PDF or PNG pages."""
        warnings: list[str] = []
        with captured_weasyprint_warnings(warnings):
            view, missing = self._prepare(view, base_dir, warnings, fmt)
            if fmt == "html":
                return self._html_output(view, "sheet.html.j2", warnings)
            parts = self.documents(view, base_dir, warnings, system_fonts=missing)
            return output(parts.docs, fmt, warnings, self.dpi, parts.fitted)

    def render_document(self, view, template: str, fmt: str = "pdf", base_dir: Path | None = None,
                        balance: bool = False, cut: Callable[[Any, dict], Any] | None = None) -> Rendered:
        """HTML, PDF or PNG pages of a view laid out as one document (almanacs, game sheets), with
        what `render` does for sheets: glyph check, safe icons, Korean words kept whole. With
        `balance`, a last page under a quarter used is saved by smaller text where it can be.
        `cut(view, starts)`: the view with its rows anchored and its teams cut where a page goes on
        with them (an almanac's character sheet of more than a page), so that their headings there
        say so (`fit.mark_continued`)."""
        warnings: list[str] = []
        with captured_weasyprint_warnings(warnings):
            view, missing = self._prepare(view, base_dir, warnings, fmt)
            if fmt == "html":
                return self._html_output(view, template, warnings)
            document = self._laid_out(view, template, base_dir, warnings, missing)
            if cut is not None and len(document.pages) > 1:
                view, document = mark_continued(
                    lambda marked: self._laid_out(marked, template, base_dir, [], missing), view, cut)
            if balance:
                document = save_last_page(
                    lambda scale: self._laid_out(replace(view, scale=scale), template, base_dir, [], missing),
                    document, view.paper)
            return output([document], fmt, warnings, self.dpi)

    def page_count(self, view, template: str, base_dir: Path | None = None) -> int:
        """How many pages `view` takes, laid out as `render_document` would (no output written)."""
        warnings: list[str] = []
        with captured_weasyprint_warnings(warnings):
            view, missing = self._prepare(view, base_dir, warnings)
            return len(self._laid_out(view, template, base_dir, warnings, missing).pages)

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
        self.pictures.resolve(icons, base_dir, warnings)
        if any(icon.official for icon in icons):  # official art on the pages: the community-content notice
            laid_out.art_notice = keep_words(laid_out.labels.get("art_notice") or "") or None
        return laid_out, system_fonts

    def _html_output(self, view, template: str, warnings: list[str]) -> Rendered:
        html = self.html(view, template, embed_fonts=True)
        return Rendered(files=[(".html", html.encode("utf-8"))], pages=0, warnings=unique(warnings))
