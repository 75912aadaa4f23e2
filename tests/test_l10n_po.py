"""The .po exchange: export, import, round trip, refusals."""

from pathlib import Path

from babel.messages.pofile import read_po

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.l10n.po import export_po
from tests.test_l10n import _drop_texts, _edit

FIXTURES = Path(__file__).parent / "fixtures"


def _snapshot(root: Path) -> dict:
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _env(data_dir):
    return {"SCRIPTFORGE_DATA": str(data_dir)}


def _catalog(db, lang):
    return read_po(__import__("io").BytesIO(export_po(db, lang)))


def test_export_layout(db, data_copy):
    catalog = _catalog(db, "ko")
    assert str(catalog.locale) == "ko"
    by_context = {m.context: m for m in catalog if m.id}
    imp = by_context["imp.ability"]
    assert imp.id == db.characters["imp"].texts["en"].ability
    assert imp.string == db.characters["imp"].texts["ko"].ability
    assert by_context["imp.how_to_run.2"].id == db.characters["imp"].texts["en"].how_to_run[1]
    assert by_context["widow.name"].string == "미망인"
    assert {"jinx.widow-damsel", "reminder.safe", "step.dusk.name", "ui.teams.minion.name",
            "imp.other_night_reminder"} <= set(by_context)
    assert export_po(db, "ko") == export_po(db, "ko")  # same input, same bytes
    # the shipped data is complete and not stale: every entry translated and none fuzzy, except
    # items of a list the source language has more of (the seeds' English Imp how-to-run has 4
    # paragraphs, the Korean 2), which the export marks with both counts
    for lang in ("ko", "en"):
        entries = [m for m in _catalog(db, lang) if m.id]
        assert [m.context for m in entries if m.fuzzy] == [], lang
        untranslated = [m for m in entries if not m.string]
        assert all(any(" items, " in c for c in m.auto_comments) for m in untranslated), lang

    # a missing text (a field, a list item, a whole character) is exported with an empty msgstr
    _edit(data_copy / "ko/characters/imp.yaml", lambda d: d.pop("flavor"))
    _edit(data_copy / "ko/characters/monk.yaml", lambda d: d["how_to_run"].pop())
    _drop_texts(data_copy, "ko", "widow")
    copy = load_database(data_copy)
    by_context = {m.context: m for m in _catalog(copy, "ko") if m.id}
    flavor = by_context["imp.flavor"]
    assert (flavor.id, flavor.string) == (copy.characters["imp"].texts["en"].flavor, "")
    en_monk, ko_monk = (db.characters["monk"].texts[lang].how_to_run for lang in ("en", "ko"))
    n = len(en_monk)
    assert len(ko_monk) == n > 1
    last = by_context[f"monk.how_to_run.{n}"]
    assert (last.id, last.string) == (en_monk[-1], "")
    assert f"en has {n} items, ko {n - 1}" in last.auto_comments
    assert by_context["monk.how_to_run.1"].string == ko_monk[0]
    assert (by_context["widow.name"].id, by_context["widow.name"].string) == ("Widow", "")
    assert by_context["widow.ability"].string == ""
    assert by_context["widow.first_night_reminder"].string == ""
    assert not by_context["widow.name"].fuzzy


def test_round_trip_leaves_data_byte_for_byte_unchanged(runner, data_copy, tmp_path):
    before = _snapshot(data_copy)
    for lang in ("ko", "en"):
        po = tmp_path / f"{lang}.po"
        result = runner.invoke(main, ["l10n", "export", "--lang", lang, "-o", str(po)], env=_env(data_copy))
        assert result.exit_code == 0, result.output
        result = runner.invoke(main, ["l10n", "import", str(po)], env=_env(data_copy))
        assert result.exit_code == 0, result.output
        assert "0 file(s) written" in result.output
    assert _snapshot(data_copy) == before


def test_import_writes_translations_with_provenance(runner, data_copy, tmp_path):
    _drop_texts(data_copy, "en", "baron")  # a character with no English texts yet
    db = load_database(data_copy)
    assert "en" not in db.characters["baron"].texts
    po = tmp_path / "en.po"
    text = export_po(db, "en").decode()
    baron = db.characters["baron"].texts["ko"]
    for key, value in (("baron.name", "Baron"), ("baron.ability", "There are extra Outsiders in play. [+2 Outsiders]"),
                       ("baron.how_to_run.1", "Add two Outsiders.")):
        marker = f'msgctxt "{key}"\n'
        start = text.index(marker)
        end = text.index('msgstr ""\n', start)
        text = text[:end] + f'msgstr "{value}"\n' + text[end + len('msgstr ""\n'):]
    po.write_text(text, encoding="utf-8")
    result = runner.invoke(main, ["l10n", "import", str(po)], env=_env(data_copy))
    assert result.exit_code == 0, result.output
    db = load_database(data_copy)
    en = db.characters["baron"].texts["en"]
    assert (en.name, en.how_to_run) == ("Baron", ("Add two Outsiders.",))
    assert set(k for k in db.provenance["en"] if k.startswith("baron.")) == {"baron.name", "baron.ability",
                                                                             "baron.how_to_run"}
    assert baron.name == "남작"
    check = runner.invoke(main, ["l10n", "check", "--select", "stale", "--select", "setup-bracket"],
                          env=_env(data_copy))
    assert check.exit_code == 0, check.output


def test_malformed_or_unknown_entries_change_nothing(runner, data_copy, tmp_path):
    _drop_texts(data_copy, "en", "baron")  # a character with no English texts yet
    before = _snapshot(data_copy)
    result = runner.invoke(main, ["l10n", "import", str(FIXTURES / "broken.po")], env=_env(data_copy))
    assert result.exit_code == 2
    assert "broken.po:8:" in result.output and len(result.output.strip().splitlines()) == 1
    bad = tmp_path / "unknown.po"
    bad.write_text('msgid ""\nmsgstr ""\n"Language: ko\\n"\n\n'
                   'msgctxt "imp.name"\nmsgid "Imp"\nmsgstr "임프님"\n\n'
                   'msgctxt "impp.ability"\nmsgid "x"\nmsgstr "y"\n', encoding="utf-8")
    result = runner.invoke(main, ["l10n", "import", str(bad)], env=_env(data_copy))
    assert result.exit_code == 2
    assert "unknown.po:10:" in result.output and "unknown character 'impp'" in result.output
    bad.write_text('msgid ""\nmsgstr ""\n"Language: ko\\n"\n\n'
                   'msgctxt "imp.colour"\nmsgid "Imp"\nmsgstr "임프"\n', encoding="utf-8")
    result = runner.invoke(main, ["l10n", "import", str(bad)], env=_env(data_copy))
    assert result.exit_code == 2 and "unknown.po:6:" in result.output and "unknown field" in result.output
    # a character without English texts cannot get a flavor alone
    bad.write_text('msgid ""\nmsgstr ""\n"Language: en\\n"\n\n'
                   'msgctxt "baron.flavor"\nmsgid "x"\nmsgstr "Some flavor."\n', encoding="utf-8")
    result = runner.invoke(main, ["l10n", "import", str(bad)], env=_env(data_copy))
    assert result.exit_code == 2 and "name and ability" in result.output
    assert _snapshot(data_copy) == before
