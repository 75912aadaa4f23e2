"""Fuzzy entries carry the source a translation was made from (`#| msgid`), so a translator sees
what changed: for our own data (the source text is kept beside its hash) and for a pack's official
translations (`<lang>/sources.yaml`). msgfmt accepts the files; our reader and polib read it back."""

import json
import shutil
import subprocess

import polib
import yaml

from scriptforge.cli import main
from scriptforge.l10n import pofile
from scriptforge.db.pack_store import packs_dir
from tests.conftest import install_official, needs_program, official_json

MSGFMT = shutil.which("msgfmt")


def _edit(path, change) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _check_with_msgfmt(po) -> None:
    if not MSGFMT:
        return  # the test's other checks still run; test_po_strict says why msgfmt's are skipped
    result = subprocess.run([MSGFMT, "-c", "--check-format", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    assert result.returncode == 0 and "error" not in result.stderr, result.stderr


def _entries(po) -> dict:
    return {e.msgctxt: e for e in pofile.read(po.read_bytes())[1]}


def test_a_stale_built_in_translation_is_fuzzy_with_its_old_english(runner, data_copy, tmp_path):
    env = {"SCRIPTFORGE_DATA": str(data_copy)}
    english = data_copy / "en" / "characters" / "soldier.yaml"
    old = yaml.safe_load(english.read_text(encoding="utf-8"))
    # the Korean Soldier is a translation of the English one: the English is reworded afterwards
    _edit(english, lambda d: d.update(ability="You are safe from the Demon, always.",
                                      how_to_run=[d["how_to_run"][0], d["how_to_run"][1] + " Really."]))
    po = tmp_path / "ko.po"
    assert runner.invoke(main, ["l10n", "export", "--lang", "ko", "-o", str(po)], env=env).exit_code == 0
    entries = _entries(po)
    ability = entries["soldier.ability"]
    assert ability.fuzzy and ability.previous == old["ability"] and ability.msgid == "You are safe from the Demon, always."
    assert f'#| msgid "{old["ability"]}"\nmsgctxt "soldier.ability"' in po.read_text(encoding="utf-8")
    # of a list, the item that changed is fuzzy with its old text; the unchanged one is not
    second, first = entries["soldier.how_to_run.2"], entries["soldier.how_to_run.1"]
    assert second.fuzzy and second.previous == old["how_to_run"][1]
    assert not first.fuzzy and first.previous is None
    assert not entries["imp.ability"].fuzzy and entries["imp.ability"].previous is None
    _check_with_msgfmt(po)
    by_polib = {e.msgctxt: e for e in polib.pofile(str(po))}
    assert by_polib["soldier.ability"].previous_msgid == old["ability"] and "fuzzy" in by_polib["soldier.ability"].flags
    assert by_polib["soldier.how_to_run.2"].previous_msgid == old["how_to_run"][1]

    # the translator updates the Korean in polib and clears the fuzzy flag: no longer stale, and
    # the new English is what the data now keeps beside its hash
    catalogue = polib.pofile(str(po))
    entry = next(e for e in catalogue if e.msgctxt == "soldier.ability")
    entry.msgstr, entry.previous_msgid = "당신은 언제나 악마로부터 안전합니다.", None
    entry.flags.remove("fuzzy")
    catalogue.save(str(po))
    result = runner.invoke(main, ["l10n", "import", str(po)], env=env)
    assert result.exit_code == 0 and "1 text(s) imported into ko" in result.output, result.output
    korean = yaml.safe_load((data_copy / "ko" / "characters" / "soldier.yaml").read_text(encoding="utf-8"))
    assert korean["ability"] == "당신은 언제나 악마로부터 안전합니다."
    assert korean["translated_from"]["texts"]["ability"] == "You are safe from the Demon, always."
    again = tmp_path / "again.po"
    assert runner.invoke(main, ["l10n", "export", "--lang", "ko", "-o", str(again)], env=env).exit_code == 0
    assert not _entries(again)["soldier.ability"].fuzzy


def test_a_hash_recorded_without_its_text_is_still_fuzzy(runner, data_copy, tmp_path):
    korean = data_copy / "ko" / "characters" / "soldier.yaml"
    _edit(korean, lambda d: d["translated_from"].pop("texts"))  # data written before texts were kept
    _edit(data_copy / "en" / "characters" / "soldier.yaml", lambda d: d.update(ability="Safe, always."))
    po = tmp_path / "ko.po"
    assert runner.invoke(main, ["l10n", "export", "--lang", "ko", "-o", str(po)],
                         env={"SCRIPTFORGE_DATA": str(data_copy)}).exit_code == 0
    entry = _entries(po)["soldier.ability"]
    assert entry.fuzzy and entry.previous is None


def test_a_stale_official_translation_is_fuzzy_with_the_english_it_was_made_from(official_ko, tmp_path, runner,
                                                                                 monkeypatch):
    folder, _, _ = official_ko
    translation = json.loads((folder / "game" / "ko.json").read_text(encoding="utf-8"))
    roles = official_json("roles.json")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    target = packs_dir() / "official"
    install_official(tmp_path / "v1", target, translation)
    reworded = [dict(r, ability=r["ability"] + " (reworded)") if r["id"] == "fortuneteller" else r for r in roles]
    assert install_official(tmp_path / "v2", target, translation, roles=reworded).build.stale == \
        {"ko": ["fortuneteller.ability"]}
    po = tmp_path / "ko.po"
    result = runner.invoke(main, ["l10n", "export", "--lang", "ko", "-o", str(po)])
    assert result.exit_code == 0, result.output
    was = next(r for r in roles if r["id"] == "fortuneteller")["ability"]
    entry = _entries(po)["fortuneteller.ability"]
    assert entry.fuzzy and entry.previous == was and entry.msgid == was + " (reworded)"
    assert entry.msgstr == translation["roles"]["fortuneteller"]["ability"]
    assert [e.msgctxt for e in _entries(po).values() if e.fuzzy] == ["fortuneteller.ability"]
    _check_with_msgfmt(po)
    assert {e.msgctxt: e for e in polib.pofile(str(po))}["fortuneteller.ability"].previous_msgid == was


@needs_program("msgfmt")
def test_msgfmt_reads_the_previous_source_as_a_previous_source(tmp_path):
    # a multi-line previous source and one with quotes: written as msgfmt reads them
    entries = [pofile.Entry("New\ntext", "새", "a.b", flags=("fuzzy",), previous="Old\n\"quoted\" text"),
               pofile.Entry("Other", "다른", "a.c", flags=("fuzzy",), previous="")]
    po = tmp_path / "p.po"
    po.write_bytes(pofile.write({"Language": "ko", "Content-Type": "text/plain; charset=UTF-8"}, entries))
    _check_with_msgfmt(po)
    again = pofile.read(po.read_bytes())[1]
    assert [e.previous for e in again] == ["Old\n\"quoted\" text", ""]
    assert [e.previous_msgid for e in polib.pofile(str(po))] == ["Old\n\"quoted\" text", ""]


def test_a_kept_source_text_is_checked_on_load(runner, data_copy):
    _edit(data_copy / "ko" / "characters" / "soldier.yaml", lambda d: d["translated_from"]["texts"].update(ability=5))
    result = runner.invoke(main, ["db", "check"], env={"SCRIPTFORGE_DATA": str(data_copy)})
    assert result.exit_code != 0
    assert "soldier.yaml" in result.output and "translated_from" in result.output, result.output
