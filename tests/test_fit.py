"""Shrink to fit in at most three layouts: the scale the step-by-step search would pick, from a
prediction made on the first layout."""

import functools

from scriptforge.scripts.analysis import analyse
from scriptforge.render.fit import MAX_LAYOUTS, SHRINK_STEPS, choose_scale, steps_for
from scriptforge.render.pdf import Renderer
from scriptforge.render.views import make_view
from scriptforge.scripts.script import script_from_data

# Measured on corpus scripts (en, A4): each page's used height at every step, per part.
MEASURED = {
    "2-page sheet": {1.0: [0.963, 0.118], 0.94: [0.989, 0.012], 0.88: [0.93], 0.82: [0.864], 0.76: [0.802],
                     0.7: [0.741]},
    "72-character sheet": {1.0: [0.997, 0.226], 0.94: [0.95, 0.181], 0.88: [0.981, 0.069], 0.82: [0.977],
                           0.76: [0.903], 0.7: [0.827]},
    "back page with a tall night table": {1.0: [0.163, 0.984, 0.291], 0.94: [0.153, 0.989, 0.209],
                                          0.88: [0.144, 0.987, 0.135], 0.82: [0.134, 0.99, 0.055],
                                          0.76: [0.125, 0.97], 0.7: [0.115, 0.893]},
    "124-character sheet": {1.0: [0.995, 0.811], 0.94: [0.996, 0.673], 0.88: [0.985, 0.536], 0.82: [0.977, 0.43],
                            0.76: [0.997, 0.306], 0.7: [0.976, 0.215]},
    "224-character sheet": {1.0: [0.983, 0.972, 0.972, 0.993, 0.99, 0.088],
                            0.94: [0.974, 0.969, 0.99, 0.984, 0.721], 0.88: [0.979, 0.991, 0.976, 0.976, 0.34],
                            0.82: [0.986, 0.979, 0.998, 0.947], 0.76: [0.987, 0.981, 0.996, 0.641],
                            0.7: [0.989, 0.98, 0.978, 0.361]},
    "224-character other nights": {1.0: [0.965, 0.995, 0.997, 0.824], 0.94: [0.95, 0.979, 0.967, 0.563],
                                   0.88: [0.983, 0.992, 0.977, 0.224], 0.82: [0.974, 0.982, 0.956],
                                   0.76: [0.991, 0.993, 0.642], 0.7: [0.974, 0.995, 0.426]},
}


def step_by_step(pages_at) -> float:
    """What laying the part out at every step finds: the first that fits on one page, else the
    largest that takes as few pages as the smallest step."""
    fitting = [s for s in SHRINK_STEPS if pages_at(s) <= 1]
    if fitting:
        return fitting[0]
    return next(s for s in SHRINK_STEPS if pages_at(s) == pages_at(SHRINK_STEPS[-1]))


def test_the_predicted_scale_is_the_searched_one_in_at_most_three_layouts():
    for name, table in MEASURED.items():
        calls = []

        def lay(scale, table=table):
            calls.append(scale)
            return table[scale]

        scale, layouts = choose_scale(lay)
        assert scale == step_by_step(lambda s: len(table[s])), name
        assert layouts == len(calls) <= MAX_LAYOUTS and len(set(calls)) == len(calls) and calls[0] == 1.0, name
    assert MEASURED["124-character sheet"] and choose_scale(lambda s: MEASURED["124-character sheet"][s]) == (1.0, 1)


def test_a_part_that_fits_is_laid_out_once_and_none_ever_more_than_three_times():
    assert choose_scale(lambda s: [0.8]) == (1.0, 1)
    for height in [1.0 + i / 20 for i in range(1, 80)]:  # a part of 1.05 to 4.95 pages at 100 %
        calls = []

        def lay(scale, height=height):
            calls.append(scale)
            total = height * scale ** 1.25
            return [0.97] * int(total / 0.97) + [total % 0.97]

        scale, layouts = choose_scale(lay)
        assert layouts == len(calls) <= MAX_LAYOUTS and len(set(calls)) == len(calls)
        assert len(lay(scale)) == min(len(lay(s)) for s in SHRINK_STEPS)  # never more pages than needed


def test_a_long_sheet_is_fitted_in_three_layouts_per_part(db, tmp_path):
    """Every built-in character on one script: more than a page; each part that does not fit is
    laid out at most three times, at the scale the step-by-step search finds."""
    ids = [c for c, ch in db.characters.items() if ch.team in ("townsfolk", "outsider", "minion", "demon")]
    analysis = analyse(script_from_data([{"id": "_meta", "name": "Everything"}, *ids], db, "every.json"), db)
    renderer = Renderer()
    warnings: list[str] = []
    view = make_view(analysis, "en", "a4", night=True)
    parts = renderer.documents(view, tmp_path, warnings)
    assert parts.fitted and all(fit.layouts <= MAX_LAYOUTS for fit in parts.fitted)
    sheet = next(fit for fit in parts.fitted if fit.part == "the character sheet")
    assert any(w.startswith("the character sheet") for w in warnings)

    @functools.cache  # step_by_step asks for a scale's page count more than once: each is laid out once
    def pages_at(scale, part=make_view(analysis, "en", "a4")):
        part.scale = scale
        return len(renderer.layout(renderer.html(part), tmp_path, []).pages)

    assert sheet.scale == step_by_step(pages_at) and len(parts.docs[0].pages) == sheet.pages


def _state(renderer) -> dict:
    """Everything a Renderer and its parts hold, as comparable copies (containers copied)."""
    import copy

    parts = {"renderer": renderer, **{name: value for name, value in vars(renderer).items()
                                       if hasattr(value, "__dict__")}}
    return {(part, name): copy.copy(value) if isinstance(value, (list, dict, set)) else value
            for part, holder in parts.items() for name, value in vars(holder).items()}


def test_rendering_twice_gives_the_same_bytes_and_changes_neither_view_nor_renderer(db, tmp_path):
    """A sheet that is fitted (large text: the sheet is set smaller): the scale comes back in the
    result; the view the caller passes and what the renderer holds are as they were."""
    import copy

    from scriptforge.render.options import PrintOptions
    from scriptforge.scripts.script import read_script

    from .conftest import EXAMPLES

    script = EXAMPLES / "faith-trust-and-pixie-dust.json"
    view = make_view(analyse(read_script(script, db), db), "en", "a4", night=True,
                     options=PrintOptions(font_size="large"))
    before = copy.deepcopy(view)
    renderer = Renderer()
    first = renderer.render(view, "pdf", script.parent)
    state = _state(renderer)
    second = renderer.render(view, "pdf", script.parent)
    assert view == before
    assert _state(renderer) == state and not hasattr(renderer, "fitted")
    assert first.files == second.files and first.warnings == second.warnings
    assert [(f.part, f.scale) for f in first.fitted] == [(f.part, f.scale) for f in second.fitted]
    (fitted,) = first.fitted
    assert fitted.part == "the character sheet" and fitted.scale < 1 and fitted.scale in steps_for(1.15)
    assert any(f"text set at {round(fitted.scale * 100)}%" in w for w in first.warnings)


def test_fitted_parts_get_the_footers_a_layout_with_them_gives(db, tmp_path, monkeypatch):
    """The fitting lays pages out without footers and moves the footers, laid out over empty pages,
    onto the chosen layout (footers.with_margin_boxes): the PDF is the one laying each part out again
    with its numbered footer gives. Parts taken from the layout of the whole are laid out again
    (alone, a night page carries its language-tag notes)."""
    import scriptforge.render.pdf as pdf
    from scriptforge.render.writing import pdf_bytes

    ids = [c for c, ch in db.characters.items() if ch.team in ("townsfolk", "outsider", "minion", "demon")][:40]
    owl = {"id": "owl", "name": "Night Owl", "team": "townsfolk", "ability": "Each night, hoot.", "firstNight": 30,
           "otherNight": 30}  # no Korean text: printed in English, tagged EN, its note on each night page
    forty = analyse(script_from_data([{"id": "_meta", "name": "Forty", "author": "Tester"}, *ids, owl], db,
                                     "forty.json"), db)

    def pdf_of(lang, **patches):
        with monkeypatch.context() as patched:
            for name, value in patches.items():
                patched.setattr(pdf, name, value)
            renderer = Renderer()
            parts = renderer.documents(make_view(forty, lang, "a4", night=True, back=True), tmp_path, [])
            return pdf_bytes(parts.docs), parts.fitted

    for lang in ("en", "ko"):
        moved, fitted = pdf_of(lang)
        assert fitted  # the sheet did not fit at full size; the back page and the nights did
        assert pdf_of(lang, with_margin_boxes=lambda document, donor: None)[0] == moved  # all laid out again


def test_a_korean_night_sheet_that_is_fitted_is_named_in_plain_words(db):
    """The warning names the night as printed, without the invisible word joiners that keep Korean
    words whole on the page (they made '첫\u2060날 밤' of a terminal line)."""
    from scriptforge.render.options import PrintOptions

    ids = [c for c, ch in db.characters.items() if ch.team in ("townsfolk", "outsider", "minion", "demon")][:70]
    seventy = analyse(script_from_data([{"id": "_meta", "name": "Seventy"}, *ids], db, "seventy.json"), db)
    view = make_view(seventy, "ko", "a4", night=True, options=PrintOptions(font_size="large"))
    warnings = Renderer().render(view, "pdf", None).warnings
    nights = [w for w in warnings if w.startswith("the night sheet '")]
    assert nights and not any("\u2060" in w for w in warnings), warnings


def _commonest_size(pdf: bytes) -> float:
    """The font size most of the first page's letters are set at (pt)."""
    from collections import Counter

    import pypdfium2
    import pypdfium2.raw as raw

    document = pypdfium2.PdfDocument(pdf)
    text = document[0].get_textpage()
    content = text.get_text_range()
    sizes = Counter(round(raw.FPDFText_GetFontSize(text.raw, i), 2) for i in range(text.count_chars())
                    if content[i:i + 1].isalnum())
    document.close()
    return sizes.most_common(1)[0][0]


def test_a_larger_font_size_never_prints_smaller_in_any_layout(db):
    from itertools import product

    from scriptforge.render.views import FONT_SIZES, PrintOptions

    teams = ["townsfolk"] * 16 + ["outsider"] * 5 + ["minion"] * 5 + ["demon"] * 4
    ability = ("Each night, choose a player: learn whether they are the Demon, unless you are drunk or poisoned, "
               "in which case you learn a number the Storyteller chooses.")
    data = [{"id": "_meta", "name": "Crowded"}] + [
        {"id": f"hb{i}", "name": f"Homebrew {chr(65 + i)}", "team": team, "ability": ability}
        for i, team in enumerate(teams)]
    analysis = analyse(script_from_data(data, db), db)
    renderer = Renderer()
    sizes = sorted(FONT_SIZES, key=FONT_SIZES.get)
    shrunk = False
    for columns, compact in product((1, 2), (False, True)):
        printed = []
        for size in sizes:
            options = PrintOptions(columns=columns, compact=compact, font_size=size)
            rendered = renderer.render(make_view(analysis, "en", "a4", options=options), "pdf")
            printed.append(_commonest_size(rendered.files[0][1]))
            shrunk |= printed[-1] < 9.0 * FONT_SIZES[size] * 0.99
        assert printed == sorted(printed), (columns, compact, dict(zip(sizes, printed)))
    assert shrunk  # the script is crowded enough that the fitting had to choose
