"""Facts said once: the sizes the Python measures names with are the ones the CSS sets, the team
colours come from the model into the CSS, and every spelling of a night comes from one table."""

import re

from scriptforge.model.records import NIGHT_TABLE, TEAM_COLOURS, TEAMS, Texts
from scriptforge.io.paths import TEMPLATES_DIR
from scriptforge.render import measure
from scriptforge.render.game_views import GAME_NAME_CELL_REM
from scriptforge.render.views import NAME_CELL_REM


def _rem(css: str, selector: str, prop: str) -> float:
    """The `prop` value (in rem) of the rule whose selector list is exactly `selector`."""
    for rule in re.finditer(r"([^{}]+)\{([^}]*)\}", css):
        if rule.group(1).strip() == selector:
            found = re.search(rf"(?:^|;)\s*{re.escape(prop)}\s*:\s*([0-9.]+)rem", rule.group(2))
            if found:
                return float(found.group(1))
    raise AssertionError(f"no rule '{selector}' setting {prop} in rem")


def test_the_name_column_is_measured_with_the_css_sizes():
    sheet = (TEMPLATES_DIR / "sheet.css").read_text(encoding="utf-8")
    games = (TEMPLATES_DIR / "game_styles.html.j2").read_text(encoding="utf-8")
    assert _rem(sheet, ".name", "font-size") == measure.NAME_FONT_REM
    assert _rem(sheet, ".second-name", "font-size") == measure.SECOND_NAME_FONT_REM
    assert _rem(sheet, ".name-cell", "padding-right") == measure.CELL_PADDING_REM
    assert _rem(sheet, ".night .name-cell", "width") == NAME_CELL_REM
    assert _rem(games, ".roles .name-cell", "width") == GAME_NAME_CELL_REM
    assert _rem(games, ".steps .name-cell", "width") == GAME_NAME_CELL_REM


def test_team_colours_reach_the_css_from_the_model():
    from scriptforge.render.pdf import Renderer

    assert set(TEAM_COLOURS) == set(TEAMS)
    css = Renderer().templates.css
    assert not re.search("|".join(TEAM_COLOURS.values()), (TEMPLATES_DIR / "sheet.css").read_text(encoding="utf-8"))
    for team, colour in TEAM_COLOURS.items():
        assert f".c-{team} {{ background-color: {colour}; }}" in css
        assert f".team-{team} .team-title, .team-{team} .name-cell {{ color: {colour}; }}" in css


def test_every_night_spelling_comes_from_the_table():
    for night in NIGHT_TABLE:
        assert night.reminder_field in Texts.__dataclass_fields__
        texts = Texts("n", "a", **{night.reminder_field: "wake"})
        assert texts.night_reminder(night.key) == "wake"
