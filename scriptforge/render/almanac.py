"""The almanac of a script: a cover with the character sheet, a table of contents, a page per
character (every text the database has, then what scriptforge knows: night order, reminder
tokens, setup, jinxes) and a closing page with the night order and the player-count table.

The view model is plain dataclasses built here from the sheet view (``views.make_view``) and the
rules engine; the template ``almanac.html.j2`` only loops over it. Rendering goes through the
shared ``Renderer`` (fonts, safe URL fetcher, fixed PDF bytes): one HTML document, so the table
of contents can use ``target-counter()`` and every page gets the script name and its number.

Language: the texts come from the chosen language (``ko+en``: Korean texts, English names beside
the Korean ones). A section nobody wrote in that language is taken from the other language and
marked with ``labels.fallback_language``; ``AlmanacView.fallback`` names the characters that
needed it.
"""

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from scriptforge.scripts.analysis import Analysis
from scriptforge.model.describe import effect_text, quote_ability
from scriptforge.model.languages import default, split_pair, translation_source
from scriptforge.model.records import LIST_FIELDS, NIGHTS, PAGE_FIELDS, Character, pick_text
from scriptforge.render.views import TEAM_COLOURS, Footer, Icon, PrintOptions, SheetView, labels_for, make_view, \
    with_page_starts

TEXT_SECTIONS = PAGE_FIELDS[1:]  # the seeds' order (the name heads the page)
_LIST_SECTIONS = LIST_FIELDS


@dataclass
class Section:
    """One text section of an almanac character page (ability, flavor, overview, how
    to run, examples): its title and paragraphs."""

    key: str  # ability | flavor | overview | how_to_run | examples
    title: str
    paragraphs: list[str]
    fallback: bool = False  # taken from the other language
    lang: str = ""  # the language of these paragraphs (for the HTML lang attribute)

    @property
    def is_list(self) -> bool:
        return self.key in _LIST_SECTIONS


@dataclass
class Fact:
    """One row of the "what scriptforge knows" table."""

    key: str  # first_night | other_nights | reminders | setup | jinx
    label: str
    text: str
    detail: str | None = None  # a night position, a jinxed character's name
    fallback: bool = False
    icon: Icon | None = None


@dataclass
class CharacterPage:
    """Everything one character's almanac page shows: its names, team, icon and
    edition, its text sections and its facts table."""

    id: str
    anchor: str
    team: str
    team_title: str
    colour: str
    name: str
    icon: Icon
    second_name: str | None
    edition: str | None
    sections: list[Section]
    facts: list[Fact]
    fallback: bool  # at least one text is in the other language
    homebrew: bool = False


@dataclass
class ContentsEntry:
    """A line of the almanac's table of contents: a part or a character, and the anchor it links to."""

    anchor: str
    title: str
    second: str | None = None
    team: str | None = None
    colour: str | None = None
    level: int = 1  # 0: a part (sheet, closing pages), 1: a character


@dataclass
class AlmanacView:
    """Everything the almanac template shows: the character sheet (cover) and its
    back page, the contents and the character pages."""

    lang: str  # ko | en | ko+en
    html_lang: str
    paper: str
    title: str
    author: str | None
    byline: str | None
    description: str | None
    labels: dict
    sheet: SheetView  # the character sheet (cover) and the back page: nights, setup table (closing page)
    contents: list[ContentsEntry] = field(default_factory=list)
    characters: list[CharacterPage] = field(default_factory=list)
    fallback: list[str] = field(default_factory=list)  # names of characters printed partly in another language
    other_lang: str = ""  # the language most fallbacks come from
    scale: float = 1.0
    sheet_scale: float = 1.0  # the character sheet's text size, smaller where it would not fit its page
    sheet_only: bool = False  # lay out the character sheet alone (to find sheet_scale)
    pages_only: bool = False  # the character pages alone, without cover, sheet and closing pages (a game kit)
    art_notice: str | None = None  # set by the renderer when official art is on the pages: the footer notice

    @property
    def footer(self) -> Footer | None:
        return self.sheet.footer

    @property
    def page_ids(self) -> set[str]:
        """The characters with a page here (the closing night order refers to their pages only)."""
        return {page.id for page in self.characters}

    @property
    def font_scale(self) -> float:
        return self.sheet.font_scale

    @property
    def page_classes(self) -> str:
        return self.sheet.page_classes

    @property
    def name_column(self):
        """The cover's character sheet sets the name column (see views.sheet_name_column)."""
        return self.sheet.name_column

    def icons(self) -> list[Icon]:
        """Every icon object on the pages: the sheet's (logo, rows, jinx rows, night lists) and the
        character pages'."""
        out = list(self.sheet.icons())
        out += [p.icon for p in self.characters]
        out += [f.icon for p in self.characters for f in p.facts if f.icon]
        return out

    def all_text(self) -> str:
        """Every piece of text printed, for the font coverage check."""
        parts = [self.sheet.all_text(), self.title, self.author or "", self.description or ""]
        parts += [str(v) for v in self.labels.values() if isinstance(v, str)]
        for page in self.characters:
            parts += [page.name, page.second_name or "", page.team_title]
            for section in page.sections:
                parts += [section.title, *section.paragraphs]
            for fact in page.facts:
                parts += [fact.label, fact.text, fact.detail or ""]
        return "".join(parts)


# -- pieces ----------------------------------------------------------------------------------


def _sections(ch: Character, lang: str, labels: dict) -> list[Section]:
    """Every text section the database has for `ch`, in the seeds' order; a section missing in
    `lang` comes from the next language along the fallbacks (marked). Nothing for a section
    nobody wrote."""
    out = []
    for key in TEXT_SECTIONS:
        value, used = ch.field(key, lang)
        if not value or used is None:
            continue
        paragraphs = [str(v) for v in value] if isinstance(value, tuple) else [str(value)]
        if key == "overview":
            ability, _ = ch.field("ability", used)
            paragraphs[0] = quote_ability(paragraphs[0], str(ability or ""))
        out.append(Section(key, labels.get(key, key), paragraphs, used != lang, used))
    return out


def _reminder_tokens(ch: Character, db, lang: str) -> str | None:
    tokens = (*ch.reminders, *ch.reminders_global)
    if not tokens:
        return None
    counts = Counter(tokens)
    out = []
    for token in dict.fromkeys(tokens):
        label = pick_text({l: t[token] for l, t in db.reminder_labels.items() if token in t}, lang) \
            or token  # a homebrew token is its own label
        out.append(f"{label} ×{counts[token]}" if counts[token] > 1 else label)
    return " · ".join(out)


def _facts(ch: Character, db, lang: str, labels: dict, order, sheet: SheetView, views: dict) -> list[Fact]:
    facts = []
    for night in NIGHTS:
        ids = order.order(night)
        if ch.id in ids:
            text, used = ch.night_reminder(night, lang)
            facts.append(Fact(night, labels.get(night, night), text or "", f"#{ids.index(ch.id) + 1}",
                              used not in (None, lang)))
        else:
            facts.append(Fact(night, labels.get(night, night), labels["does_not_wake"]))
    tokens = _reminder_tokens(ch, db, lang)
    if tokens:
        facts.append(Fact("reminders", labels["reminders"], tokens))
    names = {i: v.name for i, v in views.items()}
    setup = effect_text(ch, db, lang, names)
    if setup:
        facts.append(Fact("setup", labels["setup"], setup))
    for jinx in sheet.jinxes:
        if ch.id in (jinx.first.id, jinx.second.id):
            other = jinx.second if jinx.first.id == ch.id else jinx.first
            facts.append(Fact("jinx", labels["jinxes"], jinx.text, other.name, icon=other.icon))
    return facts


# -- the whole almanac -----------------------------------------------------------------------


def almanac_view(analysis: Analysis, lang: str = default("sheet"), paper: str = "a4",
                 options: PrintOptions = PrintOptions(), pages: "list[str] | None" = None) -> AlmanacView:
    """The almanac of the analysed script in `lang` (ko, en or ko+en) on `paper` (a4 or letter),
    its character sheet and closing page laid out as `options` say; with `pages`, only those
    characters' pages (the cover's sheet still shows the whole script)."""
    script, db, order = analysis.script, analysis.db, analysis.night
    text_lang, _ = split_pair(lang)
    sheet = make_view(analysis, lang, paper, back=True, options=options)
    labels = dict(labels_for(db, lang))
    views = {c.id: c for t in (*sheet.teams, *sheet.extra_teams) for c in t.characters}
    team_titles = {t: db.team_name(t, text_lang) for t in TEAM_COLOURS}
    editions = db.word_table(text_lang, "editions")

    chosen = [ch for ch in analysis.characters if pages is None or ch.id in pages]
    pages_out, fallback = [], []
    for ch in chosen:
        card = views[ch.id]
        sections = _sections(ch, text_lang, labels)
        facts = _facts(ch, db, text_lang, labels, order, sheet, views)
        used_other = any(s.fallback for s in sections) or any(f.fallback for f in facts)
        if used_other:
            fallback.append(card.name)
        pages_out.append(CharacterPage(
            id=ch.id, anchor=f"character-{ch.id}", team=ch.team, team_title=team_titles.get(ch.team, ch.team),
            colour=TEAM_COLOURS.get(ch.team, "#555555"), name=card.name, icon=card.icon,
            second_name=card.second_name, edition=_edition(editions.get(ch.edition, ch.edition), team_titles.get(ch.team)),
            sections=sections,
            facts=facts, fallback=used_other, homebrew=ch.homebrew))

    contents = [ContentsEntry("sheet", sheet.title or labels["script"], level=0)]
    contents += [ContentsEntry(p.anchor, p.name, p.second_name, p.team, p.colour) for p in pages_out]
    contents.append(ContentsEntry("closing", labels["night_order"], level=0))

    description = script.meta.get("description") if isinstance(script.meta, dict) else None
    return AlmanacView(
        lang=lang, html_lang=text_lang, paper=paper, title=sheet.title, author=sheet.author,
        byline=sheet.byline, description=description.strip() if isinstance(description, str) and description.strip()
        else None, labels=labels, sheet=sheet, contents=contents, characters=pages_out, fallback=fallback,
        other_lang=translation_source(text_lang, db.languages) or text_lang)


def _edition(edition: str, team_title: str | None) -> str | None:
    """The edition's name, or None where it only repeats the team (the Fabled)."""
    return None if edition == team_title else edition


def fallback_warning(view: AlmanacView) -> str | None:
    """One line naming the characters printed (partly) in the other language, or None."""
    if not view.fallback:
        return None
    return (f"{len(view.fallback)} character(s) have texts missing in '{view.html_lang}' and are printed "
            f"partly or wholly in '{view.other_lang}' (marked): {', '.join(view.fallback)}")


# -- rendering -------------------------------------------------------------------------------


def render_almanac(view: AlmanacView, renderer, fmt: str = "pdf", base_dir: Path | None = None):
    """A ``Rendered`` (``scriptforge.render.writing``) of the almanac: one PDF, or one HTML file.
    The character sheet is set smaller where it would not fit on one page, as `build` does."""
    warnings: list[str] = []
    fits = True
    if fmt != "html":
        scale, warnings, fits = fit_sheet(view, renderer, base_dir)
        view = replace(view, sheet_scale=scale)
    rendered = renderer.render_document(view, "almanac.html.j2", fmt, base_dir, cut=None if fits else _cut_sheet)
    rendered.warnings[:0] = warnings
    return rendered


def _cut_sheet(view: AlmanacView, starts: dict[str, tuple[int, ...]]) -> AlmanacView:
    """`view` with its character sheet's teams cut where a page goes on with them."""
    return replace(view, sheet=with_page_starts(view.sheet, starts))


def fit_sheet(view: AlmanacView, renderer, base_dir: Path | None) -> tuple[float, list[str], bool]:
    """(the first of the renderer's SHRINK_STEPS at which the character sheet, laid out alone,
    takes one page; the warning that says so, none at 100 %; whether it fits on one page at all)."""
    # deferred: start-up time
    from scriptforge.render.fit import SHRINK_STEPS

    for scale in SHRINK_STEPS:
        alone = replace(view, sheet_only=True, sheet_scale=scale)
        if renderer.page_count(alone, "almanac.html.j2", base_dir) <= 1:
            return scale, [f"the character sheet: text set at {round(scale * 100)}% to fit on 1 page"] if scale < 1 else [], True
    return SHRINK_STEPS[-1], [f"the character sheet does not fit on 1 page even at "
                              f"{round(SHRINK_STEPS[-1] * 100)}% text size"], False
