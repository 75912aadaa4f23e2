"""Every language speaks its official words: the official script tool's interface files
(`script/<code>.json`, layout in ../shared/reference/official/script-ui-keys.md) give the sheet
and night sheet headings of every language, ours first for ko and en; a heading in another
language is marked; layers merge per key; our shipped words agree with the official ones.

The files under tests/fixtures/official-l10n/ are in exactly the official layouts
(`game/<code>.json`, `script/<code>.json`) with test words written for this project."""

import html
import io
import json
from pathlib import Path
import re
import shutil

from click.testing import CliRunner
from pypdf import PdfReader
import pytest
import yaml

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.db.pack_store import packs_dir
from scriptforge.model.languages import resolve
from tests.conftest import ROOT, official_english_copy

FIXTURES = ROOT / "tests" / "fixtures" / "official-l10n"
CODES = ("ko", "de", "fr", "ja", "zh_Hans")
SCRIPT = [{"id": "_meta", "name": "Probe", "author": "Tess"}, "chef", "empath", "clockmaker", "dreamer",
          "recluse", "damsel", "poisoner", "widow", "imp"]
PLAYER_TEAMS = ("townsfolk", "outsider", "minion", "demon")
#: English words of our own en/ui.yaml that a page in another language must not print
ENGLISH = yaml.safe_load((ROOT / "data" / "en" / "ui.yaml").read_text(encoding="utf-8"))


def interface(code: str) -> dict:
    return json.loads((FIXTURES / "script" / f"{code}.json").read_text(encoding="utf-8"))


def headings(code: str) -> list[str]:
    """The headings a sheet and night sheet of SCRIPT print, as the fixture's interface file says them."""
    words = interface(code)
    teams = [words["keyword"][team].partition("|")[2] for team in PLAYER_TEAMS]
    return [*teams, words["keyword"]["first-night"], words["keyword"]["other-nights"],
            words["print"]["not-first-night"], words["djinn-rules"]]


def english_headings() -> list[str]:
    labels = ENGLISH["labels"]
    return [*(ENGLISH["teams"][t]["plural"] for t in PLAYER_TEAMS), labels["first_night"], labels["other_nights"],
            labels["not_first_night"], labels["jinxes"], labels["djinn_note"], labels["teensyville"],
            labels["footer_builtin"], "official data"]


@pytest.fixture(scope="module")
def official_dir(tmp_path_factory):
    """The English official files from ../shared and the fixture game/ and script/ files."""
    folder = official_english_copy(tmp_path_factory.mktemp("official-l10n"))
    shutil.copytree(FIXTURES / "game", folder / "game")
    shutil.copytree(FIXTURES / "script", folder / "script")
    return folder


@pytest.fixture(scope="module")
def l10n_home(official_dir, tmp_path_factory):
    """A user data folder whose official pack holds the five fixture languages."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(home))
        args = ["pack", "update", "--from", str(official_dir)]
        for code in CODES:
            args += ["--lang", code]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
    return home


@pytest.fixture
def home(l10n_home, tmp_path, monkeypatch) -> Path:
    home = tmp_path / "home"
    shutil.copytree(l10n_home, home, symlinks=True)
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def _pdf_text(path: Path) -> str:
    reader = PdfReader(io.BytesIO(path.read_bytes()))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def _html_text(path: Path) -> str:
    body = re.sub(r"<style.*?</style>", " ", path.read_text(encoding="utf-8"), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def _build(tmp_path: Path, code: str, fmt: str) -> tuple[str, str]:
    script = tmp_path / "probe.json"
    script.write_text(json.dumps(SCRIPT), encoding="utf-8")
    out = tmp_path / f"probe-{code}.{fmt}"
    result = CliRunner().invoke(main, ["build", str(script), "--lang", code, "--night", "--format", fmt, "-o", str(out)])
    assert result.exit_code == 0, result.output
    return (_pdf_text(out) if fmt == "pdf" else _html_text(out)), result.output


def _assert_official_headings(text: str, code: str, output: str) -> None:
    folded = text.casefold()
    for word in headings(code):
        assert word.casefold() in folded, (code, word)
    for word in english_headings():
        assert word.casefold() not in folded, (code, word)
    assert "printed in another language" not in output, output


@pytest.mark.parametrize("code", ["de", "fr"])
def test_german_and_french_sheets_print_the_official_headings(home, tmp_path, code):
    text, output = _build(tmp_path, code, "pdf")
    _assert_official_headings(text, code, output)


@pytest.mark.parametrize("code", ["ja", "zh_Hans"])
def test_japanese_and_chinese_sheets_print_the_official_headings(home, tmp_path, code):
    lang = resolve(code) or code
    text, output = _build(tmp_path, lang, "html")  # the HTML needs no font
    _assert_official_headings(text, code, output)
    from scriptforge.render.typefaces import system_fonts_cover

    if not system_fonts_cover(interface(code)["keyword"]["first-night"]):
        pytest.skip(f"no system font sets {lang} here, so its PDF cannot be checked (Debian: fonts-noto-cjk); "
                    "the HTML was")
    text, output = _build(tmp_path, lang, "pdf")
    _assert_official_headings(text, code, output)


def test_korean_keeps_its_own_words_first(home, tmp_path):
    db = load_database(packs=[packs_dir() / "official"])
    assert db.official_ui["ko"]["labels"]["first_night"] == interface("ko")["keyword"]["first-night"]
    ours = yaml.safe_load((ROOT / "data" / "ko" / "ui.yaml").read_text(encoding="utf-8"))
    assert db.word("ko", "labels", "first_night") == ours["labels"]["first_night"] != interface("ko")["keyword"]["first-night"]
    assert db.word("ko", "editions", "tb") == ours["editions"]["tb"]  # game/ko.json's edition names: ours first too
    assert db.official_ui["ko"]["editions"]["tb"] != ours["editions"]["tb"]


def test_an_english_heading_on_another_page_is_marked_with_a_warning(home, tmp_path):
    """Italian with an interface file of two words: the other headings print in English, tagged EN."""
    small = tmp_path / "it.json"
    small.write_text(json.dumps({"keyword": {"townsfolk": "Cittadino|Cittadini", "first-night": "Prima notte"}}),
                     encoding="utf-8")
    game = tmp_path / "game-it.json"
    game.write_text((FIXTURES / "game" / "fr.json").read_text(encoding="utf-8"), encoding="utf-8")
    made = CliRunner().invoke(main, ["pack", "import", str(game), str(small), "--lang", "it", "--name", "italian"])
    assert made.exit_code == 0, made.output
    script = tmp_path / "probe.json"
    script.write_text(json.dumps(SCRIPT), encoding="utf-8")
    out = tmp_path / "it.html"
    result = CliRunner().invoke(main, ["build", str(script), "--pack", "italian", "--lang", "it", "--night",
                                       "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "Cittadini</h2>" in page and "Prima notte</h1>" in page  # the official words, unmarked
    assert 'Minions<span class="lang-tag">EN</span>' in page
    assert 'Other Nights<span class="lang-tag">EN</span>' in page
    warning = [line for line in result.output.splitlines() if "printed in another language" in line]
    assert warning and "'Minions'" in warning[0] and "'Cittadini'" not in warning[0]


def test_our_shipped_words_agree_with_the_official_ones(db):
    """The official German and Japanese team words and night titles (issue 38's measurements)."""
    assert db.word("de", "teams", "townsfolk", "plural") == "Bürger"
    assert db.word("de", "labels", "other_nights") == "Weitere Nächte"
    assert db.word("ja", "teams", "townsfolk", "name") == "村人"
    assert db.word("ja", "labels", "other_nights") == "他の夜"
    for path in (ROOT / "data" / "interface").glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert "Dorfbewohner" not in text and "町人" not in text and "その他の夜" not in text, path.name


def test_the_official_word_check_finds_each_conflict(home, tmp_path):
    result = CliRunner().invoke(main, ["l10n", "check", "--select", "official-word", "--format", "json"])
    found = json.loads(result.output)
    findings = found["findings"] if isinstance(found, dict) else found
    by_lang: dict[str, list] = {}
    for f in findings:
        by_lang.setdefault(f["lang"], []).append(f)
    # the fixture's German, French, Japanese and Chinese terms are the ones we ship
    assert not {"de", "fr", "ja", "zh-Hans"} & set(by_lang), by_lang
    # Korean: ours differ on the first night and are printed first, so it is only info
    assert [(f["field"], f["severity"]) for f in by_lang["ko"]] == [("ui.labels.first_night", "info")]
    # an official German word we do not ship is an error naming both words and our file
    other = tmp_path / "de.json"
    words = interface("de")
    words["keyword"]["townsfolk"] = "Einwohner|Einwohner"
    other.write_text(json.dumps(words, ensure_ascii=False), encoding="utf-8")
    made = CliRunner().invoke(main, ["pack", "import", str(other), "--lang", "de", "--name", "german-words"])
    assert made.exit_code == 0, made.output
    result = CliRunner().invoke(main, ["l10n", "check", "--pack", "german-words", "--lang", "de",
                                       "--select", "official-word"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if "official interface file" in line]
    assert len(lines) == 2 and all("data/interface/de.yaml" in line and "'Bürger'" in line and "'Einwohner'" in line
                                   for line in lines)


# -- layers merge per key -----------------------------------------------------------------------


def _po(lang: str, entries: dict[str, tuple[str, str]]) -> str:
    head = f'msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    return head + "".join(f'\nmsgctxt "{key}"\nmsgid "{src}"\nmsgstr "{text}"\n'
                          for key, (src, text) in entries.items())


def test_a_one_word_interface_import_keeps_every_other_word(home, tmp_path):
    before = load_database(packs=[packs_dir() / "official"])
    po = tmp_path / "de.po"
    po.write_text(_po("de", {"ui.labels.setup": ("Setup", "Vorbereitung")}), encoding="utf-8")
    result = CliRunner().invoke(main, ["l10n", "import", str(po)])
    assert result.exit_code == 0, result.output
    layer = home / "scriptforge" / "translations"
    written = yaml.safe_load((layer / "de" / "ui.yaml").read_text(encoding="utf-8"))
    assert {k: v for k, v in written.items() if k != "translated_from"} == {"labels": {"setup": "Vorbereitung"}}
    after = load_database(packs=[packs_dir() / "official", layer])
    assert after.word("de", "labels", "setup") == "Vorbereitung"
    for path in (("teams", "townsfolk", "plural"), ("labels", "first_night"), ("labels", "other_nights"),
                 ("labels", "footer_built"), ("labels", "jinxes")):
        assert after.word_lang("de", *path) == before.word_lang("de", *path), path
        assert after.word_lang("de", *path)[1] == "de", path
    assert after.labels("de").keys() == before.labels("de").keys()


def test_one_text_in_each_kind_of_file_keeps_the_rest_of_its_layer(home, tmp_path):
    """A layer on top giving one text per kind of file (character texts, night texts, interface
    words, glossary): every other text of the layers below is still there."""
    below = load_database(packs=[packs_dir() / "official"])
    top = tmp_path / "top"
    (top / "de" / "characters").mkdir(parents=True)
    (top / "ko").mkdir()
    (top / "pack.yaml").write_text("name: top\nformat: 1\npartial_texts: true\n", encoding="utf-8")
    (top / "de" / "characters" / "chef.yaml").write_text("ability: Neue Testfähigkeit.\n", encoding="utf-8")
    (top / "de" / "night.yaml").write_text("first_night:\n  chef: Neuer Testhinweis.\n", encoding="utf-8")
    (top / "de" / "ui.yaml").write_text("labels:\n  setup: Vorbereitung\n", encoding="utf-8")
    (top / "ko" / "glossary.yaml").write_text("terms:\n- term: 요리왕\n  character: chef\n  en: Chef\n", encoding="utf-8")
    db = load_database(packs=[packs_dir() / "official", top])
    chef, old = db.get("chef").texts["de"], below.get("chef").texts["de"]
    assert chef.ability == "Neue Testfähigkeit." and chef.name == old.name
    assert chef.first_night_reminder == "Neuer Testhinweis."
    assert db.get("empath").texts["de"].first_night_reminder == below.get("empath").texts["de"].first_night_reminder
    assert db.get("empath").texts["de"].other_night_reminder == below.get("empath").texts["de"].other_night_reminder
    assert db.word("de", "labels", "setup") == "Vorbereitung"
    assert db.word("de", "labels", "first_night") == below.word("de", "labels", "first_night") == "Erste Nacht"
    terms = {t.get("character") or t["term"]: t for t in db.glossary["ko"]}
    assert terms["chef"]["term"] == "요리왕"
    assert len(db.glossary["ko"]) == len(below.glossary["ko"])
    assert db.resolve("요리왕").id == "chef"


# -- texts in another language are marked everywhere ----------------------------------------------


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_show_lists_every_jinx_and_marks_those_in_english(home):
    """The Widow has Korean texts and one Korean jinx of several (the fixture's game/ko.json)."""
    db = load_database(packs=[packs_dir() / "official"])
    jinxes = db.jinxes_of("widow")
    korean = [j for j in jinxes if "ko" in j.texts]
    assert len(korean) == 1 and len(jinxes) > 2
    text = _run("show", "widow", "--lang", "ko")
    lines = [line for line in text.splitlines() if line.startswith(db.word("ko", "labels", "jinxes") + " × ")]
    assert len(lines) == len(jinxes)
    assert [line for line in lines if not line.endswith("[EN]")] == [
        f"{db.word('ko', 'labels', 'jinxes')} × {db.get('damsel').name('ko')}: {korean[0].texts['ko']}"]
    assert text.rstrip().splitlines()[-1] == db.fallback_note("ko", "en")
    assert text.splitlines()[0].startswith("미망인 (widow)")  # its Korean name, unmarked
    record = json.loads(_run("show", "widow", "--lang", "ko", "--format", "json"))
    record = record[0] if isinstance(record, list) else record
    assert {f"jinx.{j.key}" for j in jinxes if j not in korean} <= set(record["fallbacks"]["ko"])
    assert f"jinx.{korean[0].key}" not in record["fallbacks"]["ko"]
    # a character with no Korean texts at all shows the English ones, every one tagged
    english = _run("show", "mathematician", "--lang", "ko")
    assert f"[ko] {db.get('mathematician').name('en')} [EN]" in english
    assert f"{db.get('mathematician').text('en').ability} [EN]" in english


def test_night_jinxes_setup_and_list_mark_what_is_not_in_the_language(home, tmp_path):
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "t"}, "alchemist", "chef", "widow", "damsel", "imp",
                                  "recluse", "baron"]), encoding="utf-8")
    night = _run("night", str(script), "--lang", "de")
    alchemist = next(line for line in night.splitlines() if "Alchemist" in line)
    assert alchemist.count("[EN]") == 2  # its name and its reminder
    chef = next(line for line in night.splitlines() if "Köchin" in line)
    assert "[EN]" not in chef
    steps = json.loads(_run("night", str(script), "--lang", "de", "--format", "json"))["steps"]
    assert steps["alchemist"]["fallback"] == {"name": "en", "first_night": "en"}
    assert "fallback" not in steps["chef"] and "fallback" not in steps["dusk"]

    jinxes = _run("jinxes", str(script), "--lang", "ko")
    korean = next(line for line in jinxes.splitlines() if line.startswith("미망인 × 아가씨"))
    assert "[EN]" not in korean
    assert any(line.startswith("Alchemist [EN] × 미망인: ") and line.endswith("[EN]") for line in jinxes.splitlines())
    records = json.loads(_run("jinxes", str(script), "--lang", "ko", "--format", "json"))["jinxes"]
    assert {tuple(r["characters"]): r.get("fallback") for r in records}[("widow", "damsel")] is None
    assert all(r.get("fallback") == "en" for r in records if "alchemist" in r["characters"])

    setup = _run("setup", str(script), "--lang", "de")
    assert "Baron [EN]" in setup and setup.rstrip().endswith(load_database(packs=[packs_dir() / "official"])
                                                             .fallback_note("de", "en"))

    rows = {r["id"]: r for r in json.loads(_run("list", "--lang", "de", "--format", "json"))}
    assert rows["alchemist"]["fallback"] == "en" and "fallback" not in rows["chef"]
