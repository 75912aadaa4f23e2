"""Every language of the registry on every command, with and without a pack holding several
translations in the official layout (FACTS.md 8: game/<code>.json with roles, reminders keyed by
the English label's official key, jinxes keyed "<id>-<id>"), and the terminal tables in display
columns. The translations below are test texts written for this project."""

import io
import json
from pathlib import Path
import re
import shutil
import traceback

from click.testing import CliRunner
from pypdf import PdfReader
import pytest
import yaml

from scriptforge.model import languages
from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.io.terminal import display_width
from tests.conftest import EXAMPLES, korean_translation, official_english_copy, require_font, shared_path

EXAMPLE = EXAMPLES / "faith-trust-and-pixie-dust.json"

GERMAN = {
    "roles": {
        "clockmaker": {"name": "Uhrmacherin", "ability": "Du beginnst das Spiel und erfährst, wie viele Schritte "
                                                        "der Dämon von seinem nächsten Schergen entfernt ist.",
                       "first": "Zeige der Uhrmacherin die Zahl der Schritte."},
        "dreamer": {"name": "Träumer", "ability": "Jede Nacht wählst du einen Spieler: Du erfährst einen guten und "
                                                  "einen bösen Charakter, einer davon ist seiner."},
        "dusk": {"name": "Abenddämmerung"},
    },
    "reminders": {"noability": "Keine Fähigkeit", "dead": "Tot"},
    "jinxes": {},
    "editions": {"tb": {"name": "Ärger im Anmarsch"}},
}
CHINESE = {
    "roles": {
        "clockmaker": {"name": "钟表匠", "ability": "在你的首个夜晚，你会得知恶魔与离它最近的爪牙之间的距离。"},
        "dreamer": {"name": "筑梦师", "ability": "每个夜晚，你要选择一名玩家：你会得知一个善良角色和一个邪恶角色，其中一个是该玩家的角色。"},
    },
    "reminders": {"noability": "失去能力"},
    "jinxes": {},
}
FRENCH = {
    "roles": {"clockmaker": {"name": "Horlogère", "ability": "Vous apprenez au cœur de la première nuit à "
                                                            "combien de pas le Démon se trouve de son Sbire."}},
    "reminders": {},
    "jinxes": {},
}
FILES = {"de": GERMAN, "zh_Hans": CHINESE, "fr": FRENCH}

# the multi-language pack is installed once (a module fixture) for all the tests: one worker runs them all
pytestmark = pytest.mark.xdist_group("every_language")


@pytest.fixture(scope="module")
def official_dir(tmp_path_factory, db):
    """A folder in the official layout: the English files from ../shared, game/ko.json (the
    session's Korean test translation) and small German, Chinese and French files."""
    official = shared_path("reference", "official")
    folder = official_english_copy(tmp_path_factory.mktemp("official-multi"))
    (folder / "game").mkdir()
    roles = json.loads((official / "roles.json").read_text(encoding="utf-8"))
    jinxes = json.loads((official / "jinxes.json").read_text(encoding="utf-8"))
    files = {"ko": korean_translation(db, roles, jinxes), **FILES}
    for code, data in files.items():
        (folder / "game" / f"{code}.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return folder


def _languages(home: Path) -> list[str]:
    manifest = yaml.safe_load((home / "scriptforge" / "packs" / "official" / "pack.yaml").read_text(encoding="utf-8"))
    return sorted(set(manifest["languages"]) - {"en"})  # English, the official language, is always there


def _pdf_text(path: Path) -> str:
    reader = PdfReader(io.BytesIO(path.read_bytes()))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


@pytest.fixture(scope="module")
def multi_home(official_dir, tmp_path_factory):
    """A user data folder whose official pack holds ko, de and zh-Hans (asked for by the official
    file codes), then fr added by a second update."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(home))
        runner = CliRunner()
        first = runner.invoke(main, ["pack", "update", "--from", str(official_dir),
                                     "--lang", "ko", "--lang", "de", "--lang", "zh_Hans"])
        assert first.exit_code == 0, first.output
        assert _languages(home) == ["de", "ko", "zh-Hans"]
        second = runner.invoke(main, ["pack", "update", "--from", str(official_dir), "--lang", "fr"])
        assert second.exit_code == 0, second.output
        assert "languages added: fr" in second.output
        assert _languages(home) == ["de", "fr", "ko", "zh-Hans"]
    return home


@pytest.fixture
def home(multi_home, tmp_path, monkeypatch) -> Path:
    """A user data folder of its own with the multi-language pack installed (tests that write to it)."""
    home = tmp_path / "home"
    shutil.copytree(multi_home, home, symlinks=True)
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def test_pack_update_adds_languages_and_only_replaces_them(home, official_dir, tmp_path):
    again = CliRunner().invoke(main, ["pack", "update", "--from", str(official_dir)])  # no --lang: keeps all four
    assert again.exit_code == 0 and _languages(home) == ["de", "fr", "ko", "zh-Hans"]
    only = CliRunner().invoke(main, ["pack", "update", "--from", str(official_dir), "--only", "--lang", "ko"])
    assert only.exit_code == 0 and _languages(home) == ["ko"]
    assert all(code in only.output.split("languages removed:")[1].splitlines()[0] for code in ("de", "zh-Hans", "fr"))


def test_a_missing_file_of_an_installed_language_is_one_line(home, official_dir, tmp_path):
    folder = tmp_path / "files"
    shutil.copytree(official_dir, folder)
    (folder / "game" / "de.json").unlink()
    result = CliRunner().invoke(main, ["pack", "update", "--from", str(folder)])
    assert result.exit_code == 2
    error = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error) == 1 and "de.json" in error[0] and "holds de" in error[0] and "--only" in error[0]
    assert _languages(home) == ["de", "fr", "ko", "zh-Hans"]


def _commands(code: str, out: Path) -> list[list[str]]:
    script = str(EXAMPLE)
    single = [["list"], ["show", "clockmaker"], ["show", "clockmaker", "--format", "json"], ["search", "demon"],
              ["setup", script], ["jinxes", script], ["night", script], ["order", script],
              ["export", script, "-o", str(out / f"e-{code}.json")], ["l10n", "check"],
              ["l10n", "export", "-o", str(out / f"x-{code}.po")],
              ["list", "--game", "salem"], ["show", "--game", "werewolf", "seer"]]
    pages = [["build", script, "--back", "--night", "-o", str(out / f"b-{code}.html")],
             ["nightsheet", script, "--system-fonts", "-o", str(out / f"n-{code}.html")],
             ["almanac", script, "--no-system-fonts", "-o", str(out / f"a-{code}.html")],
             ["tokens", script, "--system-fonts", "-o", str(out / f"t-{code}.html")],
             ["watch", script, "--renders", "1", "--no-system-fonts", "-o", str(out / f"w-{code}.html")],
             ["build", "--game", "salem", "--system-fonts", "-o", str(out / f"g-{code}.html")]]
    other = "ko" if code == "en" else "en"  # l10n diff and status name their languages otherwise
    l10n = [["l10n", "diff", "clockmaker", "--from", other, "--to", code],
            ["l10n", "diff", "clockmaker", "--to", code, "--format", "json"]] + ([["l10n", "status"]] if code == "en" else [])
    return [[*c, "--lang", code] for c in single + pages] + [[*c, "--lang", f"{code}+en" if code != "en" else "ko+en"]
                                                             for c in pages[:1]] + l10n


def _no_traceback(args: list[str]) -> None:
    result = CliRunner().invoke(main, args)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{' '.join(args)}: " + "".join(traceback.format_exception(result.exception)))
    # exit 1 is an answer, not a failure, for search ("nothing matches") and l10n check ("findings")
    allowed = (0, 1) if args[0] == "search" or args[:2] == ["l10n", "check"] else (0,)
    assert result.exit_code in allowed, f"{' '.join(args)}: exit {result.exit_code}: {result.output[-300:]}"


@pytest.mark.parametrize("with_pack", [False, True], ids=["built-in", "pack"])
def test_every_command_in_every_registry_language(with_pack, multi_home, tmp_path, monkeypatch):
    if with_pack:
        monkeypatch.setenv("XDG_DATA_HOME", str(multi_home))
    for code in languages.codes():
        for args in _commands(code, tmp_path):
            _no_traceback(args)
    if not with_pack:
        return
    from scriptforge.render.typefaces import font_coverage

    for code in languages.codes():  # a PDF with the bundled fonts only: printed, or refused in one line
        result = CliRunner().invoke(main, ["tokens", str(EXAMPLE), "--only", "clockmaker", "--lang", code,
                                           "--no-system-fonts", "-o", str(tmp_path / f"f-{code}.pdf")])
        assert not result.exception or isinstance(result.exception, SystemExit), (code, result.exception)
        if languages.unprintable_letters(code, font_coverage()):
            [line] = [l for l in result.output.splitlines() if l.startswith("Error:")]
            assert result.exit_code == 2 and f"--lang {code}: the bundled fonts cannot set" in line, result.output
            assert any(package in line for package in languages.font_packages(code)), line
        else:
            assert result.exit_code == 0, (code, result.output)


def test_german_french_and_chinese_sheets_print_in_their_language(multi_home, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(multi_home))
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "Mehrsprachig"}, "clockmaker", "dreamer", "chef",
                                  "recluse", "imp"]), encoding="utf-8")
    german = tmp_path / "de.pdf"
    _no_traceback(["build", str(script), "--lang", "de", "--night", "-o", str(german)])
    text = _pdf_text(german)
    assert "Uhrmacherin" in text and "Träumer" in text
    assert "BÜRGER" in text.upper() and "Dämonen".upper() in text.upper()  # German headings
    french = tmp_path / "fr.pdf"
    _no_traceback(["build", str(script), "--lang", "fr", "-o", str(french)])
    assert "Horlogère" in _pdf_text(french) and "cœur" in _pdf_text(french)  # œ is in the bundled fonts
    require_font("zh-Hans")
    chinese = tmp_path / "zh.pdf"
    _no_traceback(["build", str(script), "--lang", "zh-Hans", "-o", str(chinese)])
    assert "钟表匠" in _pdf_text(chinese) and "镇民" in _pdf_text(chinese)


def test_the_bundled_fonts_set_every_latin_greek_and_cyrillic_language():
    from scriptforge.render.typefaces import font_coverage

    for lang in languages.registry().languages.values():
        if set(lang.writing_systems) <= {"Latn", "Grek", "Cyrl"}:
            assert languages.unprintable_letters(lang.code, font_coverage()) == "", lang.code
    for letters in ("ąćęłńśźż", "ğışç", "șțăâî", "œæ", "ёжщ", "αβγω", "ệươđ"):
        assert all(ord(c) in font_coverage() for c in letters), letters


def test_the_korean_setup_table_lines_up_in_display_columns():
    result = CliRunner().invoke(main, ["setup", str(EXAMPLE), "--lang", "ko"])
    assert result.exit_code == 0
    lines = [line for line in result.output.splitlines() if line.strip()][:8]
    header, rows = lines[0], lines[1:]

    def starts(line: str) -> list[int]:  # display column where each cell after the first begins
        cells = re.finditer(r"\S+(?: \S+)*", line)  # cells are apart by two spaces or more
        return [display_width(line[:cell.start()]) for cell in cells][1:]

    team_columns = starts(header)
    assert len(team_columns) == 4
    for row in rows:
        assert starts(row)[:4] == team_columns, row
    assert display_width("주민 Townsfolk") == 4 + 1 + 9


def test_output_the_terminal_cannot_encode_is_replaced_with_one_hint():
    runner = CliRunner(charset="ascii")
    result = runner.invoke(main, ["show", "clockmaker", "--lang", "ko"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0 and "?" in result.output
    assert result.output.count("PYTHONIOENCODING=utf-8") == 1


def test_official_file_codes_are_accepted_as_languages(db):
    assert languages.resolve("zh_Hans") == "zh-Hans" and languages.resolve("zh") == "zh-Hans"
    assert languages.resolve("pt_BR") == "pt-BR" and languages.resolve("ko+en") == "ko+en"
    assert languages.resolve("xx") is None and languages.resolve("ko+ko") is None
    from scriptforge.packs.install import translation_file

    assert translation_file("zh-Hans") == "game/zh_Hans.json" and translation_file("de") == "game/de.json"
    assert load_database().languages == db.languages


def _set_msgstr(po: str, context: str, text: str) -> str:
    pattern = re.compile(rf'(msgctxt "{re.escape(context)}"\nmsgid "(?:[^"\\]|\\.)*"\nmsgstr )"(?:[^"\\]|\\.)*"')
    assert pattern.search(po), context
    return pattern.sub(lambda m: m.group(1) + json.dumps(text, ensure_ascii=False), po, count=1)


def test_a_po_round_trip_with_the_pack_installed_lands_in_the_user_layer(home, tmp_path):
    runner = CliRunner()
    po = tmp_path / "ko.po"
    assert runner.invoke(main, ["l10n", "export", "--lang", "ko", "-o", str(po)]).exit_code == 0
    text = po.read_text(encoding="utf-8")
    text = _set_msgstr(text, "steward.ability", "게임 시작 시, 선한 플레이어 1명을 알게 됩니다. (고친 문장)")  # pack only
    text = _set_msgstr(text, "clockmaker.name", "시계 장인")  # a built-in character
    po.write_text(text, encoding="utf-8")
    first = runner.invoke(main, ["l10n", "import", str(po)])
    assert first.exit_code == 0, first.output
    assert "2 text(s) imported into ko" in first.output
    layer = home / "scriptforge" / "translations"
    assert (layer / "ko" / "characters" / "steward.yaml").is_file()
    shown = json.loads(runner.invoke(main, ["show", "steward", "--lang", "ko", "--format", "json"]).output)
    assert shown["texts"]["ko"]["ability"].endswith("(고친 문장)")
    assert shown["text_layers"]["ko"]["ability"] == "translations" and shown["text_layers"]["ko"]["name"] == "official"
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "Round trip"}, "clockmaker", "steward", "imp"]),
                      encoding="utf-8")
    sheet = tmp_path / "s.pdf"
    _no_traceback(["build", str(script), "--lang", "ko", "-o", str(sheet)])
    pdf = _pdf_text(sheet)
    assert "시계 장인" in pdf and "(고친 문장)" in pdf
    before = {p: p.read_bytes() for p in layer.rglob("*") if p.is_file()}
    second = runner.invoke(main, ["l10n", "import", str(po)])
    assert second.exit_code == 0 and "0 text(s) imported" in second.output
    broken = tmp_path / "broken.po"
    broken.write_text(text.replace('msgstr "시계 장인"', 'msgstr 시계 장인"'), encoding="utf-8")
    third = runner.invoke(main, ["l10n", "import", str(broken)])
    line = text[: text.index('msgstr "시계 장인"')].count("\n") + 1
    assert third.exit_code == 2 and f"broken.po:{line}:" in third.output
    assert {p: p.read_bytes() for p in layer.rglob("*") if p.is_file()} == before
    # the installed package's data is never written
    assert not any(p.stat().st_mtime > po.stat().st_mtime for p in (Path(__file__).parents[1] / "data").rglob("*.yaml"))


def test_l10n_status_and_diff_name_the_layer_of_each_text(home, tmp_path):
    runner = CliRunner()
    po = tmp_path / "ko.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: ko\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgctxt "steward.ability"\nmsgid "x"\nmsgstr "고친 집사 능력입니다."\n', encoding="utf-8")
    assert runner.invoke(main, ["l10n", "import", str(po)]).exit_code == 0
    table = json.loads(runner.invoke(main, ["l10n", "status", "--game", "botc", "--format", "json"]).output)
    ability = table["ko"]["ability"]["layers"]
    assert ability["translations"] == 1 and ability["official"] > 100 and ability["scriptforge"] > 0
    assert sum(ability.values()) == table["ko"]["ability"]["translated"]
    assert set(table["en"]["ability"]["layers"]) <= {"official", "scriptforge"}
    assert table["de"]["name"]["layers"] == {"official": 2}  # the two German roles of the test file
    text = runner.invoke(main, ["l10n", "status", "--game", "botc"]).output
    summary = text.split("texts per layer")[1]
    ko = next(line for line in summary.splitlines() if line.startswith("  ko: "))
    assert ko.index("translations (your own) ") < ko.index("official (pack) ") < ko.index("scriptforge (built-in) ")
    rows = {r["field"]: r for r in json.loads(runner.invoke(main, ["l10n", "diff", "steward", "--to", "ko",
                                                                   "--format", "json"]).output)}
    assert rows["ability"]["layers"] == {"en": "official", "ko": "translations"}
    assert rows["name"]["layers"] == {"en": "official", "ko": "official"}
    diff = runner.invoke(main, ["l10n", "diff", "steward", "clockmaker", "--to", "ko"]).output
    assert "    ko (translations): 고친 집사 능력입니다." in diff and "    en (official): " in diff
    # l10n check: your own text is checked as yours (a pack gives steward.ability too) and says its layer
    check = json.loads(runner.invoke(main, ["l10n", "check", "--lang", "ko", "--game", "botc", "--format",
                                            "json"]).output)
    mine = [f for f in check["findings"] if (f["character"], f["field"]) == ("steward", "ability")]
    assert mine and all(f["data"]["layer"] == "translations" and "official" not in f["data"] for f in mine)
    assert any(f["code"] == "stale" and f["severity"] == "error" for f in mine)  # its msgid was not the English
    clockmaker = diff.split("== clockmaker")[1]  # the pack gives its name, the built-in data its overview
    assert "    ko (official): 시계공\n" in clockmaker and "    ko (scriptforge): \"당신은" in clockmaker


def test_a_script_tool_interface_file_that_is_not_one_is_refused(home, official_dir, tmp_path):
    folder = tmp_path / "files"
    shutil.copytree(official_dir, folder)
    (folder / "script").mkdir()
    (folder / "script" / "de.json").write_text("{}", encoding="utf-8")
    before = (home / "scriptforge" / "packs" / "official" / "pack.yaml").read_bytes()
    result = CliRunner().invoke(main, ["pack", "update", "--from", str(folder)])
    assert result.exit_code == 2
    [error] = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert "script/de.json" in error and "interface file" in error
    assert (home / "scriptforge" / "packs" / "official" / "pack.yaml").read_bytes() == before
    plain = CliRunner().invoke(main, ["pack", "update", "--from", str(official_dir)])  # no script/: our own words
    assert plain.exit_code == 0 and "Error" not in plain.output
