"""Languages are data: a language the registry knows gets sheets from a pack's texts with no code
change; one the bundled fonts cannot set is refused in one line; script text languages are told
by writing system."""

import io
import json
from pathlib import Path
import re

from click.testing import CliRunner
from pypdf import PdfReader
import pytest

from scriptforge.model import languages
from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.io.paths import SCHEMAS_DIR
from scriptforge.packs.install import import_pack
from scriptforge.scripts.script import read_script
from tests.conftest import shared_path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "faith-trust-and-pixie-dust.json"

# A small German translation in the official translation layout, written for this test.
GERMAN = {
    "roles": {
        "clockmaker": {"name": "Uhrmacherin", "ability": "Zu Beginn weißt du, wie viele Schritte der Dämon "
                                                         "vom nächsten Günstling entfernt ist.",
                       "first": "Zeige der Uhrmacherin die Zahl der Schritte."},
        "dreamer": {"name": "Träumer", "ability": "Jede Nacht wählst du einen Spieler: Du erfährst einen "
                                                  "guten und einen bösen Charakter, einer davon ist seiner."},
        "pixie": {"name": "Fee", "ability": "Zu Beginn erfährst du einen Dorfbewohner im Spiel. Bist du "
                                            "verrückt danach, bekommst du seine Fähigkeit, wenn er stirbt."},
    },
}


@pytest.fixture(scope="module")
def german_pack(tmp_path_factory):
    official = shared_path("reference", "official")
    folder = tmp_path_factory.mktemp("packs")
    translation = folder / "de.json"
    translation.write_text(json.dumps(GERMAN, ensure_ascii=False), encoding="utf-8")
    path, _ = import_pack([official / "roles.json", official / "nightsheet.json", translation],
                          name="official-de", out=folder / "official-de", lang="de", base_db=load_database())
    return path


def _pdf_text(path: Path) -> str:
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in PdfReader(io.BytesIO(path.read_bytes())).pages))


def test_build_lang_de_prints_the_german_texts_and_english_fallbacks(german_pack, tmp_path):
    out = tmp_path / "sheet.pdf"
    result = CliRunner().invoke(main, ["build", str(EXAMPLE), "--lang", "de", "--pack", str(german_pack),
                                       "--night", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = _pdf_text(out)
    assert "Uhrmacherin" in text and "Träumer" in text and "Fee" in text
    assert "wie viele Schritte der Dämon" in text
    assert "Zeige der Uhrmacherin die Zahl der Schritte." in text  # the German night reminder
    # what the translation leaves out comes from the official (English) texts, with the warning
    assert "Grandmother" in text and "Sailor" in text and "Großmutter" not in text
    warning = next(line for line in result.output.splitlines() if "no 'de' text" in line)
    assert "Grandmother" in warning and "Uhrmacherin" not in warning


def test_database_loads_the_pack_language_with_fallbacks(german_pack):
    db = load_database(packs=[german_pack])
    assert db.languages == ("en", "ko", "de")
    clockmaker, sailor = db.characters["clockmaker"], db.characters["sailor"]
    assert clockmaker.texts_for("de")[1] == "de" and clockmaker.name("de") == "Uhrmacherin"
    # a German text with no flavor takes it from English, the official original
    assert clockmaker.field("flavor", "de")[1] == "en"
    assert sailor.texts_for("de") == (sailor.texts["en"], "en")
    # German interface words are our own (data/interface/de.yaml); a word they lack is English
    assert db.labels("de")["setup"] == "Aufbau"
    assert db.labels("de")["tokens_title"] == db.labels("en")["tokens_title"]


@pytest.mark.parametrize("code, name, package", [("ja", "Japanese", "fonts-noto-cjk"), ("th", "Thai", "fonts-thai-tlwg")])
def test_a_language_no_font_can_set_is_refused_in_one_line_naming_the_package(code, name, package, tmp_path,
                                                                              monkeypatch):
    from scriptforge.render import typefaces

    monkeypatch.setattr(typefaces, "system_fonts_cover", lambda letters: False)  # a machine without such fonts
    result = CliRunner().invoke(main, ["build", str(EXAMPLE), "--lang", code, "-o", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and f"--lang {code}: neither the bundled fonts nor a system font can set {name}" in lines[0]
    assert f"install {package}" in lines[0]
    assert not (tmp_path / "x.pdf").exists()
    result = CliRunner().invoke(main, ["almanac", str(EXAMPLE), "--lang", f"ko+{code}", "-o", str(tmp_path / "a.pdf")])
    assert result.exit_code == 2 and "nor a system font" in result.output
    # HTML is set by the browser's fonts: never refused
    result = CliRunner().invoke(main, ["build", str(EXAMPLE), "--lang", code, "-o", str(tmp_path / "x.html")])
    assert result.exit_code == 0 and (tmp_path / "x.html").is_file()


def test_lang_choices_are_the_registry_on_every_command():
    runner = CliRunner()
    for args in (["show", "imp"], ["list"], ["night", str(EXAMPLE)], ["build", str(EXAMPLE)]):
        result = runner.invoke(main, [*args, "--lang", "xx"])
        assert result.exit_code == 2 and "'xx' is not one of en, ko, de" in result.output
    assert runner.invoke(main, ["list", "--lang", "ko+en"]).exit_code == 2  # one language only
    both = runner.invoke(main, ["show", "imp", "--lang", "ko+en", "--format", "json"])
    assert list(json.loads(both.output)["texts"]) == ["ko", "en"]


def test_writing_systems_tell_a_homebrew_object_s_language(db, tmp_path):
    assert languages.writing_systems("수도사 Monk") == {"Hang", "Latn"}
    assert languages.detect("매일 밤, 플레이어 1명을 고릅니다.", db.languages) == "ko"
    assert languages.detect("Each night, choose a player.", db.languages) == "en"
    assert languages.detect("Jede Nacht wählst du.", ("en", "ko", "de")) == "en"  # Latin: registry order
    assert languages.detect("あいう", ("en", "ko", "ja")) == "ja"
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"id": "gardener", "name": "정원사", "team": "townsfolk",
                                   "ability": "당신은 정원을 가꿉니다."}], ensure_ascii=False), encoding="utf-8")
    assert set(read_script(script, db).characters[0].texts) == {"ko"}


def test_a_character_s_writing_system_is_the_one_whose_range_holds_it():
    """The bisection over sorted ranges gives what testing every range gives, at and next to
    every range's ends (the ranges must not overlap for it, so that is checked too)."""
    systems = languages.registry().writing_systems.values()
    spans = sorted((lo, hi) for ws in systems for lo, hi in ws.ranges)
    assert all(hi < next_lo for (_, hi), (next_lo, _) in zip(spans, spans[1:]))
    for point in {p for lo, hi in spans for p in (lo - 1, lo, lo + 1, hi - 1, hi, hi + 1)}:
        char = chr(point)
        assert languages.system_of(char) == next((ws.code for ws in systems if char in ws), None), hex(point)
    assert languages.writing_systems("cat, Кот, 猫, ねこ, แมว: 1 2 3") == {"Cyrl", "Latn", "Hani", "Kana", "Thai"}
    assert languages.uses("Kim 김", "Hang") and not languages.uses("Kim", "Hang")


def test_fallback_follows_the_recorded_source_language(db):
    chain = languages.fallback_chain("de", "ko")
    assert chain[:3] == ("de", "ko", "en") and set(chain) == set(languages.codes())
    # Korean texts translated from English fall back to English, whatever the registry order
    translated = next(c for c in db.characters.values() if c.texts["ko"].translated_from == "en")
    assert translated.languages_for("ko")[:2] == ("ko", "en")
    assert db.characters["pilgrim"].original_language() == "ko"


def test_the_registry_matches_its_schema_and_the_fonts():
    from jsonschema import Draft7Validator

    schema = json.loads((SCHEMAS_DIR / "languages.schema.json").read_text())
    Draft7Validator(schema).validate(json.loads(languages.REGISTRY_PATH.read_text(encoding="utf-8")))
    registry = languages.registry()
    assert registry.official in registry.languages
    for lang in registry.languages.values():
        assert set(lang.writing_systems) <= set(registry.writing_systems) and set(lang.fallback) <= set(registry.languages)
        assert all(any(c in registry.writing_systems[w] for w in lang.writing_systems) for c in lang.letters if c.isalpha())


def test_a_language_without_texts_falls_back_per_character_and_says_which(db):
    runner = CliRunner()
    listing = runner.invoke(main, ["list", "--lang", "de"]).output
    # the Clockmaker's English is a translation of the seed's Korean: the original comes first
    # (the mark is in German: our own interface words for German, data/interface/de.yaml)
    assert "clockmaker    시계공  [Text auf Koreanisch (noch nicht auf Deutsch)]" in listing
    assert "  [Text auf Englisch (noch nicht auf Deutsch)]" in listing
    # a game without German texts prints from its English ones (its language's fallback)
    german, english = (runner.invoke(main, ["list", "--game", "salem", "--lang", code]) for code in ("de", "en"))
    assert german.exit_code == 0 and german.output == english.output
