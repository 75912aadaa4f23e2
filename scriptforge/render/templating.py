"""Views → HTML: the Jinja environment and sheet.css.

- Templates are compiled once per process and kept compiled in the user cache
  (``_CachedBytecode``: a damaged entry is compiled again, never fatal).
- sheet.css (with the team colours of ``colours.css.j2``) is read once per `Templates` and, for
  PDF and PNG, parsed once by WeasyPrint (`stylesheet`, passed as a user stylesheet, so any
  ``<style>`` of a template still overrides it); the HTML output inlines it.
- Filters: ``marks`` (the official texts' ``:reminder:`` and ``*TOKEN*`` as typography) and
  ``css_string`` (``views.css_string``, the one CSS string quoter).
"""

import functools
from pathlib import Path

import jinja2
import markupsafe

from scriptforge.model.records import TEAM_COLOURS
from scriptforge.io import cache
from scriptforge.io.paths import FONTS_DIR, TEMPLATES_DIR
from scriptforge.render.pages import PAPER
from scriptforge.render.typefaces import font_stack
from scriptforge.render.views import BADGE_COLOURS, WORD_JOINER, css_string
from scriptforge.render.weasy import parsed_css


class _CachedBytecode(jinja2.BytecodeCache):
    """Compiled templates kept in the user cache (`io.cache`: checked, this Python's bytecode
    only); a missing or damaged entry is compiled again, never fatal."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = cache.read("jinja", bucket.key, code=True)
        if data is None:
            return
        try:
            bucket.bytecode_from_string(data)
        except Exception:  # noqa: BLE001 — checksummed, so only another Jinja's format: compiled again
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        cache.write("jinja", bucket.key, bucket.bytecode_to_string(), code=True)


class Templates:
    """The templates and sheet.css, loaded once; `html` makes a view's HTML."""

    def __init__(self) -> None:
        # deferred: start-up time
        from scriptforge.model.markup import to_html

        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            bytecode_cache=_CachedBytecode(),
        )
        self.env.filters["marks"] = to_html
        self.env.filters["css_string"] = css_string
        self.env.globals["BADGE_COLOURS"] = BADGE_COLOURS
        self.css = (TEMPLATES_DIR / "sheet.css").read_text(encoding="utf-8") + self.env.get_template(
            "colours.css.j2").render(teams=TEAM_COLOURS, badges=BADGE_COLOURS)

    def html(self, view, template: str, *, font_faces: list[dict], standalone: bool) -> str:
        """The HTML of `view` through `template`, with `font_faces` as ``@font-face`` rules;
        `standalone`: the self-contained HTML output (sheet.css inlined, no WORD JOINERs: browsers
        honour ``word-break: keep-all`` themselves, and the text stays plain to search and copy)."""
        paper = PAPER[view.paper]
        css = markupsafe.Markup(self.css if standalone else "")
        html = self.env.get_template(template).render(
            view=view, css=css, font_faces=font_faces, page_size=paper.size, page_margin=paper.margin_css,
            almanac_margin=paper.almanac_css, font_stack=markupsafe.Markup(font_stack(view.html_lang)),
            standalone=standalone)
        return html.replace(WORD_JOINER, "") if standalone else html

    @property
    def stylesheet(self):
        """sheet.css parsed (`_parsed_sheet_css`)."""
        return _parsed_sheet_css(self.css)


@functools.cache
def _parsed_sheet_css(css: str):
    """sheet.css parsed once per process, whichever `Templates` asks (it has no @font-face, so it
    serves every FontConfiguration): a command makes one Renderer, but a process running many
    commands (the test suite) would parse it for each, ~30 ms of a 180 ms sheet."""
    return parsed_css(css, base_url=base_url(None))


def base_url(base_dir: Path | None) -> str:
    """The base URL of a document whose relative URLs point into `base_dir` (the fonts folder
    where there is none)."""
    return Path(base_dir or FONTS_DIR).resolve().as_uri() + "/"
