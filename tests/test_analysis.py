"""The one analysis per script, the one finding type, `explain` and `--select/--ignore`."""

import copy
import json
import shutil

import yaml

from scriptforge.scripts import analysis as analysis_module
from scriptforge.scripts.analysis import analyse
from scriptforge.cli import main
from scriptforge.render.almanac import almanac_view
from scriptforge.render.pdf import Renderer
from scriptforge.render.views import make_view
from scriptforge.scripts.script import read_script
from tests.conftest import EXAMPLES

FANG_GU = EXAMPLES / "fang-gu-zealot.json"
FTPD = EXAMPLES / "faith-trust-and-pixie-dust.json"


def test_each_rule_runs_once_per_script(db, monkeypatch):
    """A sheet with back page and nights plus the almanac of the same analysis: one night order,
    one sheet order, one setup table, one jinx lookup."""
    calls = {"night": 0, "order": 0, "setup": 0, "jinxes": 0}

    def counted(name, function):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)
        return wrapper

    import scriptforge.rules.setup as setup_module  # imported by the analysis where the table is asked for

    for module, name, attr in ((analysis_module, "night", "night_order"), (analysis_module, "order", "sheet_order"),
                               (setup_module, "setup", "setup_table"), (analysis_module, "jinxes", "script_jinxes")):
        monkeypatch.setattr(module, attr, counted(name, getattr(module, attr)))
    analysis = analyse(read_script(FTPD, db), db)
    make_view(analysis, "ko", "a4", back=True, night=True)
    almanac_view(analysis, "ko")
    assert analysis.findings
    assert calls == {"night": 1, "order": 1, "setup": 1, "jinxes": 1}


def test_the_renderer_leaves_the_callers_view_alone(db, tmp_path):
    """Icons are resolved (the --icons picture, inlined as data: URLs) in the renderer's own copy."""
    icons = tmp_path / "icons"
    icons.mkdir()
    shutil.copy(EXAMPLES.parent / "docs" / "sheet-ko.png", icons / "imp.png")
    script = tmp_path / "s.json"
    script.write_text(json.dumps(["imp", "washerwoman", "baron"]), encoding="utf-8")
    view = make_view(analyse(read_script(script, db), db), "en", "a4", night=True)
    before = copy.deepcopy(view)
    rendered = Renderer(icons_dir=icons).render(view, "html", tmp_path)
    assert view == before
    assert all(icon.url is None for icon in view.icons())
    assert b"data:image/png;base64," in rendered.files[0][1]


def test_a_homebrew_image_is_part_of_the_model(db, tmp_path):
    """The script's own `image` comes with the script (a URL from the script's folder); the view
    takes it from there and reads no file."""
    script = tmp_path / "hb.json"
    script.write_text(json.dumps([{"id": "fixer", "name": "Fixer", "team": "townsfolk", "image": "fixer.png",
                                   "ability": "Each night, choose a player."}, "imp"]), encoding="utf-8")
    parsed = read_script(script, db)
    assert parsed.images == {"fixer": (tmp_path / "fixer.png").resolve().as_uri()}
    view = make_view(analyse(parsed, db), "en", "a4")
    assert {icon.character: icon.url for icon in view.icons()}["fixer"] == parsed.images["fixer"]


def test_explain_prints_the_documented_entry(runner):
    result = runner.invoke(main, ["explain", "jinx-without-djinn"])
    assert result.exit_code == 0
    assert result.output.startswith("jinx-without-djinn (info; docs/findings.md)")
    assert "Djinn" in result.output.split("\n", 2)[2]
    l10n = runner.invoke(main, ["explain", "stale"])
    assert l10n.exit_code == 0 and "docs/l10n-checks.md" in l10n.output and "l10n confirm" in l10n.output
    listed = runner.invoke(main, ["explain", "--list"]).output
    for code in ("unknown-character", "data-reference", "name-misspelt"):
        assert code in listed
    unknown = runner.invoke(main, ["explain", "setup-shortfal"])
    assert unknown.exit_code == 1
    assert unknown.output.strip().startswith("Error: no finding code 'setup-shortfal'; did you mean")
    assert "setup-shortfall" in unknown.output and "Traceback" not in unknown.output


def test_select_and_ignore_codes_and_prefixes(runner, tmp_path):
    # fang-gu-zealot with two Outsiders: the Baron cannot be in play at some counts (setup-shortfall)
    data = [e for e in json.loads(FANG_GU.read_text(encoding="utf-8")) if e not in ("mutant", "barber", "zealot")]
    short = tmp_path / "fang-gu-short.json"
    short.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    plain = json.loads(runner.invoke(main, ["validate", str(short), "--format", "json"]).output)
    codes = {f["code"] for f in plain["findings"]}
    assert {"setup-shortfall", "team-counts", "character-override"} <= codes
    ignored = runner.invoke(main, ["validate", str(short), "--ignore", "setup,team-counts"])
    assert ignored.exit_code == 0
    assert "setup-shortfall" not in ignored.output and "team-counts" not in ignored.output
    assert "character-override" in ignored.output
    selected = json.loads(runner.invoke(main, ["validate", str(short), "--select", "setup",
                                               "--format", "json"]).output)
    assert {f["code"] for f in selected["findings"]} <= {"setup-shortfall", "setup-forced-choice"}
    assert "setup-shortfall" in {f["code"] for f in selected["findings"]}
    bad = runner.invoke(main, ["validate", str(FANG_GU), "--select", "jinx-without-genie"])
    assert bad.exit_code == 1 and "unknown finding code(s): jinx-without-genie" in bad.output


def test_editing_commands_take_the_selection(runner, tmp_path):
    script = tmp_path / "s.json"
    runner.invoke(main, ["new", str(script), "--name", "S", "imp", "chef", "noble", "clockmaker", "grandmother",
                         "librarian", "pixie", "empath", "recluse", "mutant", "poisoner", "witch"])
    shown = runner.invoke(main, ["add", str(script), "baron"])  # two Outsiders: no Baron at some counts
    assert shown.exit_code == 0 and "[setup-" in shown.output
    quiet = runner.invoke(main, ["add", str(script), "fanggu", "--ignore", "setup"])
    assert quiet.exit_code == 0, quiet.output
    assert "[setup-" not in quiet.output


def test_db_check_reports_data_findings_with_codes(runner, data_copy):
    ko = data_copy / "ko" / "characters" / "imp.yaml"
    record = yaml.safe_load(ko.read_text(encoding="utf-8"))
    (data_copy / "ko" / "characters" / "nobody.yaml").write_text(
        yaml.safe_dump({**record, "id": "nobody"}, allow_unicode=True), encoding="utf-8")
    result = runner.invoke(main, ["db", "check", "--format", "json"], env={"SCRIPTFORGE_DATA": str(data_copy)})
    assert result.exit_code == 1
    findings = json.loads(result.output)["findings"]
    assert [f["code"] for f in findings] == ["data-reference"]
    assert "nobody" in findings[0]["message"] and "nobody.yaml" in findings[0]["message"]
