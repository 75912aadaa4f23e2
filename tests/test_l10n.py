"""Translator tools: provenance, status, checks (one injected defect per check), diff, confirm."""

import json
from pathlib import Path
import re
import subprocess
import sys

import pytest

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.l10n.checks import REGISTRY, run_checks
from scriptforge.l10n.provenance import YamlDoc, confirm, plan_confirm, status
from scriptforge.model.ids import text_hash

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"


def _keys(findings):
    return {(f.code, f.lang, f.character, f.field) for f in findings}


def _edit(path: Path, change) -> None:
    doc = YamlDoc.read(path)
    change(doc.data)
    path.write_text(doc.dumps(), encoding="utf-8")


def _replace(key, old, new):
    def change(data):
        assert old in data[key], (old, data[key])
        data[key] = data[key].replace(old, new, 1)
    return change


def _replace_at(keys, old, new):
    """Replace `old` in the text at a path of keys (a list index picks an item)."""
    def change(data):
        *parents, last = keys
        for key in parents:
            data = data[key]
        assert old in data[last], (old, data[last])
        data[last] = data[last].replace(old, new, 1)
    return change


def _rename_glossary_term(data_dir, term, new):
    def glossary(data):
        [entry] = [t for t in data["terms"] if t["term"] == term]
        entry["term"] = new
    _edit(data_dir / "ko/glossary.yaml", glossary)


def _set_name(data, name):
    data["name"] = name


def _rename_goon(data_dir):
    _edit(data_dir / "ko/characters/goon.yaml", lambda d: _set_name(d, "마녀"))

    def glossary(data):
        for term in data["terms"]:
            if term.get("character") == "goon":
                term["term"] = "마녀"
    _edit(data_dir / "ko/glossary.yaml", glossary)


def _strip_provenance(data_dir: Path) -> None:
    """Remove every translated_from block: the data as if no translation recorded its source."""
    for lang in ("en", "ko"):
        folder = data_dir / lang
        for path in (*sorted((folder / "characters").glob("*.yaml")), folder / "night.yaml",
                     folder / "reminders.yaml", folder / "jinxes.yaml", folder / "ui.yaml"):
            _edit(path, lambda d: d.pop("translated_from", None))


def _drop_texts(data_dir: Path, lang: str, char_id: str) -> None:
    """Remove every `lang` text of a character (its text file and night reminders, with their hashes)."""
    (data_dir / lang / "characters" / f"{char_id}.yaml").unlink()

    def night(data):
        for key in ("first_night", "other_nights"):
            data[key].pop(char_id, None)
            hashes = (data.get("translated_from") or {}).get("hashes", {})
            hashes.pop(f"{key}.{char_id}", None)
    _edit(data_dir / lang / "night.yaml", night)


def _edit_after_translation(data_dir):
    db = load_database(data_dir)
    confirm(db, plan_confirm(db, "ko", ["imp.ability"]))
    assert not run_checks(load_database(data_dir), select=["stale"])
    _edit(data_dir / "en/characters/imp.yaml", _replace("ability", "they die", "they die at once"))


DEFECTS = {
    "missing flavor": (lambda d: _edit(d / "ko/characters/imp.yaml", lambda x: x.pop("flavor")),
                       {("missing", "ko", "imp", "flavor")}),
    "lost night star": (lambda d: _edit(d / "ko/characters/monk.yaml", _replace("ability", "매일 밤*", "매일 밤")),
                        {("night-marker", "ko", "monk", "ability")}),
    "baron bracket": (lambda d: _edit(d / "ko/characters/baron.yaml", _replace("ability", "[외지인 +2명]", "[외지인 +1명]")),
                      {("setup-bracket", "ko", "baron", "ability"), ("number-parity", "en", "baron", "ability")}),
    "preacher variant": (lambda d: _edit(d / "ko/characters/preacher.yaml",
                                         _replace("overview", "전도사는 하수인들의", "설교자는 하수인들의")),
                         {("term-variant", "ko", "preacher", "overview")}),
    "sailor dusk": (lambda d: _edit(d / "ko/characters/sailor.yaml", _replace("ability", "황혼까지", "해질녘까지")),
                    {("term-variant", "ko", "sailor", "ability")}),
    "widow misspelt (ko)": (lambda d: _edit(d / "ko/jinxes.yaml", _replace("widow-damsel", "미망인이", "미망임이")),
                            {("name-misspelt", "ko", None, "jinx.widow-damsel")}),
    "widow misspelt (en)": (lambda d: _edit(d / "en/jinxes.yaml", _replace("widow-damsel", "while a Widow", "while a Widdow")),
                            {("name-misspelt", "en", None, "jinx.widow-damsel")}),
    "two characters named alike": (_rename_goon, {("name-collision", "ko", "goon", "name")}),
    "english ability edited after translation": (_edit_after_translation, {("stale", "ko", "imp", "ability")}),
    "double space": (lambda d: _edit(d / "en/characters/imp.yaml", _replace("flavor", "sharp and", "sharp  and")),
                     {("whitespace", "en", "imp", "flavor")}),
    "unbalanced bracket": (lambda d: _edit(d / "ko/characters/monk.yaml", _replace("ability", "(당신을", "당신을")),
                           {("unbalanced", "ko", "monk", "ability")}),
    "untranslated": (lambda d: _edit(d / "ko/reminders.yaml", lambda x: x.__setitem__("safe", "Safe")),
                     # the Korean night texts name the token by its label, which no longer matches
                     {("untranslated", "ko", None, "reminder.safe"),
                      ("label-parity", "en", "monk", "other_night_reminder"),
                      ("label-parity", "en", "innkeeper", "other_night_reminder")}),
    "name differs from glossary": (lambda d: _edit(d / "ko/characters/imp.yaml", lambda x: _set_name(x, "임프 악마")),
                                   {("name-glossary", "ko", "imp", "name")}),
    # official interface words (a pack's <lang>/interface.yaml, here beside our own) naming the
    # first night otherwise than our ui.yaml
    "shipped word not the official one": (
        lambda d: (d / "ko" / "interface.yaml").write_text("labels:\n  first_night: 첫 번째 밤\n", encoding="utf-8"),
        {("official-word", "ko", None, "ui.labels.first_night")}),
}


# Each variant kind and each parity break, injected all into one copy of the data (one database
# load instead of one each): every one must fire exactly its own check, on its own text.
TERM_AND_PARITY_DEFECTS = {
    "team name variant in a jinx": (lambda d: _edit(d / "ko/jinxes.yaml", _replace("bountyhunter-philosopher", "주민 1명", "마을주민 1명")),
                                    {("term-variant", "ko", None, "jinx.bountyhunter-philosopher")}),
    # the official game texts use 살아있는 too: a variant only in our own almanac prose
    "alive variant in an overview": (lambda d: _edit(d / "ko/characters/empath.yaml", _replace(
        "overview", "가장 가까운 생존한 플레이어", "가장 가까운 살아 있는 플레이어")),
        {("term-variant", "ko", "empath", "overview")}),
    "nominate variant in an overview": (lambda d: _edit(d / "ko/characters/witch.yaml", _replace("overview", "지목하면", "지명하면")),
                                        {("term-variant", "ko", "witch", "overview")}),
    "reminder token named the old way": (lambda d: _edit(d / "ko/characters/imp.yaml", _replace_at(
        ["how_to_run", 0], "사망 기록 토큰", "죽음 기록 토큰")), {("term-variant", "ko", "imp", "how_to_run")}),
    "team name variant in the UI": (lambda d: _edit(d / "ko/ui.yaml", _replace_at(["teams", "townsfolk", "name"], "주민", "마을주민")),
                                    {("term-variant", "ko", None, "ui.teams.townsfolk.name")}),
    "british spelling (en)": (lambda d: _edit(d / "en/characters/empath.yaml", _replace("overview", "neighbors", "neighbours")),
                              {("term-variant", "en", "empath", "overview")}),
    "a how-to-run item dropped": (lambda d: _edit(d / "ko/characters/imp.yaml", lambda x: x["how_to_run"].pop()),
                                  {("item-count", "ko", "imp", "how_to_run")}),
    "a number changed": (lambda d: _edit(d / "ko/characters/witch.yaml", _replace("ability", "3명만", "4명만")),
                         {("number-parity", "ko", "witch", "ability"), ("number-parity", "en", "witch", "ability")}),
    "a bracket only in english": (lambda d: _edit(d / "en/jinxes.yaml", _replace("widow-damsel", "poisoned", "poisoned [no ability]")),
                                  {("bracket-parity", "ko", None, "jinx.widow-damsel")}),
    "a reminder token left out": (lambda d: _edit(d / "ko/night.yaml", _replace_at(
        ["other_nights", "monk"], "'안전' 기록 토큰을", "기록 토큰을")), {("label-parity", "en", "monk", "other_night_reminder")}),
    "an imperative night reminder": (lambda d: _edit(d / "ko/night.yaml", _replace_at(
        ["other_nights", "monk"], "수도사를 재웁니다.", "수도사를 재우세요.")), {("night-register", "ko", "monk", "other_night_reminder")}),
    "reminder token named unlike its label": (lambda d: _rename_glossary_term(d, "사망 기록 토큰", "망자 기록 토큰"),
                                              {("name-glossary", "ko", None, "reminder.dead")}),
}


@pytest.fixture(scope="module")
def baseline():
    return _keys(run_checks(load_database()))


@pytest.mark.parametrize("defect", list(DEFECTS))
def test_each_defect_fires_exactly_its_check(defect, data_copy, baseline):
    inject, expected = DEFECTS[defect]
    inject(data_copy)
    new = _keys(run_checks(load_database(data_copy))) - baseline
    # Editing a text that another language was translated from rightly makes that translation
    # stale too (the Korean Baron is the source of the English one); apart from that, exactly
    # the injected defect's check fires.
    echoes = {("stale", other, char, field) for code, lang, char, field in expected
              for other in ("en", "ko") if other != lang and code != "stale"}
    assert new - echoes == expected


def test_each_variant_kind_and_parity_break_fires_exactly_its_check(data_copy, baseline):
    expected = set()
    for inject, keys in TERM_AND_PARITY_DEFECTS.values():
        inject(data_copy)
        expected |= keys
    new = _keys(run_checks(load_database(data_copy))) - baseline
    # an edited source makes its translation stale, in whichever language the edit was
    echoes = {("stale", lang, char, field) for _, _, char, field in expected for lang in ("en", "ko")}
    assert new - echoes == expected


def test_a_variant_in_flavor_is_an_ordinary_word(data_copy, baseline):
    """이방인 ("a stranger") in the Seamstress's flavor is no team name; in her overview it would be."""
    assert "이방인" in load_database().get("seamstress").texts["ko"].flavor
    _edit(data_copy / "ko/characters/seamstress.yaml", _replace("flavor", "이방인이", "이방인이 마을주민을"))
    assert _keys(run_checks(load_database(data_copy), select=["term-variant"])) <= baseline
    _edit(data_copy / "ko/characters/seamstress.yaml", _replace("overview", "재봉사는", "이방인 재봉사는"))
    assert _keys(run_checks(load_database(data_copy), select=["term-variant"])) == {
        ("term-variant", "ko", "seamstress", "overview")}


def test_every_check_has_an_injected_defect():
    fired = {code for _, keys in (*DEFECTS.values(), *TERM_AND_PARITY_DEFECTS.values()) for code, *_ in keys}
    assert fired == set(REGISTRY)


def test_shipped_data_has_no_finding(db):
    assert [f.as_dict() for f in run_checks(db)] == []


def test_shipped_data_is_complete(runner):
    """Every text in both languages, none stale: `l10n status` and `l10n check` say so."""
    result = runner.invoke(main, ["l10n", "status", "--format", "json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)
    for lang in ("en", "ko"):
        assert sum(cell["missing"] for cell in table[lang].values()) == 0, (lang, table[lang])
        assert sum(cell["stale"] for cell in table[lang].values()) == 0, (lang, table[lang])
        assert table[lang]["ability"]["translated"] == len(load_database().characters)
    assert {g: c["translated"] for g, c in table["en"].items()} == \
        {g: c["translated"] for g, c in table["ko"].items()}
    text = runner.invoke(main, ["l10n", "status"]).output
    assert "complete: nothing missing or stale" in text
    check = runner.invoke(main, ["l10n", "check"])
    assert check.exit_code == 0, check.output
    assert check.output.strip() == "ok (0 error(s), 0 warning(s))"


def test_variant_glued_to_a_syllable_is_not_a_variant(data_copy, baseline):
    # 플레이어부터 contains 어부 (a variant of 낚시꾼) glued to 이: not a finding
    _edit(data_copy / "ko/characters/imp.yaml", _replace("flavor", "믿으십시오.", "믿으십시오. 플레이어부터."))
    assert _keys(run_checks(load_database(data_copy))) - baseline == set()


def test_docs_and_registry_agree():
    text = (ROOT / "docs" / "l10n-checks.md").read_text(encoding="utf-8")
    documented = dict(re.findall(r"^## (\S+)\n\nSeverity: (\w+)\.", text, flags=re.M))
    assert documented == {code: c.severity for code, c in REGISTRY.items()}
    for c in REGISTRY.values():
        assert c.summary and "\n" not in c.summary


def test_provenance_is_loaded_and_stale_is_detected(data_copy):
    # start from texts that record no source, so exactly what `confirm` writes is loaded back
    _strip_provenance(data_copy)
    db = load_database(data_copy)
    assert db.provenance == {"en": {}, "ko": {}}
    written = confirm(db, plan_confirm(db, "ko", ["imp.ability", "imp.how_to_run", "imp.other_night_reminder",
                                                  "reminder.safe", "jinx.widow-damsel", "step.dusk.name",
                                                  "ui.teams.minion.name"]))
    assert len(written) == 5
    db = load_database(data_copy)
    imp = db.characters["imp"]
    assert db.provenance["ko"]["imp.ability"] == ("en", text_hash(imp.texts["en"].ability))
    assert db.provenance["ko"]["imp.how_to_run"] == ("en", text_hash("\n".join(imp.texts["en"].how_to_run)))
    assert set(db.provenance["ko"]) == {"imp.ability", "imp.how_to_run", "imp.other_night_reminder",
                                        "reminder.safe", "jinx.widow-damsel", "step.dusk.name",
                                        "ui.teams.minion.name"}
    block = YamlDoc.read(data_copy / "ko/characters/imp.yaml").data["translated_from"]
    assert block == {"lang": "en", "hashes": {"ability": text_hash(imp.texts["en"].ability),
                                              "how_to_run": text_hash("\n".join(imp.texts["en"].how_to_run))},
                     "texts": {"ability": imp.texts["en"].ability, "how_to_run": list(imp.texts["en"].how_to_run)}}
    assert db.source_texts["ko"]["imp.how_to_run"] == imp.texts["en"].how_to_run  # the source beside its hash
    assert status(db)["ko"]["ability"]["stale"] == 0
    _edit(data_copy / "en/night.yaml", lambda d: d["other_nights"].__setitem__("imp", "Wake the Imp."))
    _edit(data_copy / "en/ui.yaml", lambda d: d["teams"]["minion"].__setitem__("name", "Minion!"))
    table = status(load_database(data_copy))
    assert table["ko"]["other_night_reminder"]["stale"] == 1 and table["ko"]["ui"]["stale"] == 1


@pytest.mark.parametrize("stripped", [False, True], ids=["shipped", "no-provenance"])
def test_confirm_all_stamps_translations_without_cycles(data_copy, stripped):
    if stripped:
        _strip_provenance(data_copy)
    db = load_database(data_copy)
    shipped = {lang: dict(db.provenance[lang]) for lang in ("en", "ko")}
    confirm(db, plan_confirm(db))
    db = load_database(data_copy)
    both = [k for k in db.provenance["en"] if k in db.provenance["ko"]]
    assert both == []
    # every text present in both languages now records exactly one direction
    from scriptforge.l10n.units import all_units
    for unit in all_units(db):
        if len(unit.texts) == 2:
            assert (unit.key in db.provenance["en"]) != (unit.key in db.provenance["ko"]), unit.key
    # imp is an original in both languages: stamped into English from Korean first
    assert db.provenance["en"]["imp.ability"][0] == "ko"
    if stripped:
        assert db.provenance["ko"] == {}
    else:
        # recorded directions are kept: the Korean UI words stay translations of the English
        assert db.provenance["ko"]["ui.teams.minion.name"][0] == "en"
        assert "ui.teams.minion.name" not in db.provenance["en"]
        for lang in ("en", "ko"):
            assert shipped[lang].items() <= db.provenance[lang].items()
    assert not run_checks(db, select=["stale"])
    # a second --all changes nothing
    before = {p: p.read_bytes() for p in data_copy.rglob("*.yaml")}
    confirm(db, plan_confirm(db))
    assert before == {p: p.read_bytes() for p in data_copy.rglob("*.yaml")}


# -- CLI ------------------------------------------------------------------------------------------


def _env(data_dir):
    return {"SCRIPTFORGE_DATA": str(data_dir)}


def test_cli_status(runner):
    result = runner.invoke(main, ["l10n", "status", "--format", "json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)
    assert set(table) == {"en", "ko"}
    assert table["en"]["ability"]["translated"] + table["en"]["ability"]["missing"] == len(load_database().characters)
    text = runner.invoke(main, ["l10n", "status"]).output
    assert "reminder_labels" in text and "glossary" in text
    # without packs every text comes from the built-in data
    assert table["ko"]["ability"]["layers"] == {"scriptforge": table["ko"]["ability"]["translated"]}
    assert "glossary" in table["ko"] and "layers" not in table["ko"]["glossary"]
    assert text.splitlines()[-1].startswith("  ko: scriptforge (built-in) ")


def test_cli_check_exit_codes_and_json(runner, data_copy):
    ok = runner.invoke(main, ["l10n", "check"], env=_env(data_copy))
    assert ok.exit_code == 0, ok.output
    _edit(data_copy / "ko/characters/sailor.yaml", _replace("ability", "황혼까지", "해질녘까지"))
    bad = runner.invoke(main, ["l10n", "check", "--lang", "ko", "--format", "json"],
                        env=_env(data_copy))
    assert bad.exit_code == 1
    report = json.loads(bad.output)
    assert report["ok"] is False
    [finding] = report["findings"]
    assert finding["code"] == "term-variant" and finding["character"] == "sailor"
    assert finding["field"] == "ability" and "'황혼'" in finding["message"]
    # the English Sailor is a translation of the Korean one: --lang en reports only that it is
    # now stale, and nothing once stale is ignored
    en = runner.invoke(main, ["l10n", "check", "--lang", "en", "--format", "json"], env=_env(data_copy))
    assert en.exit_code == 1
    [echo] = json.loads(en.output)["findings"]
    assert (echo["code"], echo["lang"], echo["character"], echo["field"]) == ("stale", "en", "sailor", "ability")
    assert echo["data"] == {"source": "ko"}
    assert runner.invoke(main, ["l10n", "check", "--lang", "en", "--ignore", "stale"],
                         env=_env(data_copy)).exit_code == 0
    unknown = runner.invoke(main, ["l10n", "check", "--ignore", "nonsense"])
    assert unknown.exit_code == 1 and "unknown finding code" in unknown.output


def test_cli_confirm(runner, data_copy):
    result = runner.invoke(main, ["l10n", "confirm", "임프", "ability", "--lang", "ko"], env=_env(data_copy))
    assert result.exit_code == 0, result.output
    _edit(data_copy / "en/characters/imp.yaml", _replace("ability", "they die", "they die at once"))
    stale = runner.invoke(main, ["l10n", "check", "--select", "stale"], env=_env(data_copy))
    assert stale.exit_code == 1 and "l10n confirm imp ability --lang ko" in stale.output
    diff = runner.invoke(main, ["l10n", "diff", "imp"], env=_env(data_copy))
    assert "ability  [STALE]" in diff.output
    again = runner.invoke(main, ["l10n", "confirm", "imp", "ability"], env=_env(data_copy))
    assert again.exit_code == 0, again.output
    assert runner.invoke(main, ["l10n", "check", "--select", "stale"], env=_env(data_copy)).exit_code == 0
    assert runner.invoke(main, ["l10n", "confirm", "imp", "colour", "--lang", "ko"]).exit_code == 1
    everything = runner.invoke(main, ["l10n", "confirm", "--all"], env=_env(data_copy))
    assert everything.exit_code == 0 and "confirmed" in everything.output


def test_cli_diff(runner, data_copy):
    result = runner.invoke(main, ["l10n", "diff", "--from", "en", "--to", "ko", "widow", "imp"])
    assert result.exit_code == 0, result.output
    assert "== widow" in result.output and "ko: 미망인" in result.output and "ko: 임프" in result.output
    assert "[MISSING]" not in result.output and "[STALE]" not in result.output
    _drop_texts(data_copy, "ko", "widow")
    result = runner.invoke(main, ["l10n", "diff", "--from", "en", "--to", "ko", "widow", "imp"],
                           env=_env(data_copy))
    assert result.exit_code == 0, result.output
    assert "== widow\n  name  [MISSING]\n    en: Widow\n    ko: —\n" in result.output
    assert "ko: 임프" in result.output
    rows = json.loads(runner.invoke(main, ["l10n", "diff", "imp", "--format", "json"]).output)
    assert {r["field"] for r in rows} >= {"name", "ability", "how_to_run"}
    assert all(r["state"] == "translated" for r in rows)


def test_cli_diff_against_official_file(runner, data_copy):
    path = FIXTURES / "official-ko.json"
    result = runner.invoke(main, ["l10n", "diff", "--to", "ko", "--against", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = {(r["id"], r["field"]): r for r in json.loads(result.output)}
    assert ("imp", "name") not in rows and ("imp", "ability") not in rows  # the same
    assert rows[("monk", "ability")]["kind"] == "wording"
    assert rows[("widow", "name")] == {"id": "widow", "field": "name", "ours": "미망인", "theirs": "과부",
                                       "kind": "term"}  # 과부 is the glossary's variant of 미망인
    assert rows[("legion", None)]["kind"] == "unknown-character"
    assert rows[("widow-damsel", "jinx")]["kind"] == "wording"
    assert rows[("bountyhunter-philosopher", "jinx")]["kind"] == "term"
    assert rows[("chef", "ability")]["kind"] == "spacing"
    assert rows[("imp", "other_night_reminder")]["kind"] == "wording"
    assert rows[("step.dusk", "first_night")]["kind"] == "wording"
    assert rows[("reminder.safe", "label")]["theirs"] == "보호"
    assert ("reminder.dead", "label") not in rows and ("step.dusk", "name") not in rows
    kinds = [r["kind"] for r in json.loads(result.output)]
    assert kinds == sorted(kinds, key=["missing", "wording", "term", "spacing", "unknown-character"].index)
    text = runner.invoke(main, ["l10n", "diff", "--against", str(path)]).output
    assert "monk.ability" in text and "theirs: 과부" in text
    assert text.index("== wording") < text.index("== term only") < text.index("== spacing and punctuation only")
    assert text.rstrip().endswith("difference(s): 6 wording, 2 term only, 1 spacing and punctuation only, "
                                  "1 not in our database")
    bad = runner.invoke(main, ["l10n", "diff", "--against", str(FIXTURES / "broken.po")])
    assert bad.exit_code == 2 and "broken.po:" in bad.output
    # a character without Korean texts: its names and abilities are missing in ours
    _drop_texts(data_copy, "ko", "widow")
    result = runner.invoke(main, ["l10n", "diff", "--to", "ko", "--against", str(path), "--format", "json"],
                           env=_env(data_copy))
    assert result.exit_code == 0, result.output
    rows = {(r["id"], r["field"]): r for r in json.loads(result.output)}
    assert rows[("widow", "name")] == {"id": "widow", "field": "name", "ours": None, "theirs": "과부",
                                       "kind": "missing"}
    text = runner.invoke(main, ["l10n", "diff", "--against", str(path)], env=_env(data_copy)).output
    assert text.startswith("== missing in ours (2)\nwidow.name\n  ours:   —\n  theirs: 과부\n")


def test_reference_commands_do_not_import_l10n_or_babel():
    code = ("import sys; from click.testing import CliRunner; from scriptforge.cli import main; "
            "r = CliRunner().invoke(main, ['show', 'imp']); assert r.exit_code == 0, r.output; "
            "print(sorted(m for m in sys.modules if m.startswith(('babel', 'scriptforge.l10n'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("example", ["faith-trust-and-pixie-dust.json", "fang-gu-zealot.json", "english-almanac-25.json"])
def test_night_and_jinxes_print_only_the_language_asked_for(runner, example):
    script = str(ROOT / "examples" / example)
    night = runner.invoke(main, ["night", script, "--players", "9", "--lang", "ko"])
    jinxes = runner.invoke(main, ["jinxes", script, "--lang", "ko"])
    assert night.exit_code == 0 and jinxes.exit_code == 0, night.output + jinxes.output
    headings = [line for line in night.output.splitlines() if line and not line.startswith(" ")]
    assert headings == ["첫날 밤", "다른 밤"]
    assert not re.search(r"[A-Za-z]", night.output + jinxes.output)
    last = jinxes.output.splitlines()[-1]
    assert last in ("이 스크립트에는 징크스가 없습니다.",
                    "이 스크립트에는 진이 없지만, 위 징크스는 그대로 이 스크립트의 규칙입니다 (공식 스크립트와 같음).") \
        or "×" in last
    english = runner.invoke(main, ["night", script, "--lang", "en"]).output
    assert english.startswith("First Night\n")
