"""Every kind of text a .po file carries imports into the user's translation layer and reaches
`show` and a printed sheet: names, abilities, flavor, night reminders, night steps, reminder
labels, jinxes and interface words, with the built-in data alone and with the official pack
(../shared's English files plus the session's Korean test translation) below it."""

import io
import json
from pathlib import Path
import re

from click.testing import CliRunner
from pypdf import PdfReader
import pytest

from scriptforge.cli import main

# msgctxt -> the new Korean text (test words, each with a marker no shipped text has)
EDITS = {
    "name": ("imp.name", "시험임프"),
    "ability": ("imp.ability", "매일 밤*, 플레이어 1명을 고릅니다: 그는 사망합니다. 시험능력문장"),
    "flavor": ("imp.flavor", "시험풍미문장입니다."),
    "first night reminder": ("widow.first_night_reminder", "미망인을 깨웁니다. 시험첫밤안내"),
    "other night reminder": ("imp.other_night_reminder", "임프를 깨웁니다. 시험다른밤안내"),
    "night step name": ("step.dusk.name", "시험황혼"),
    "night step text": ("step.dusk.first_night", "모두 눈을 감았는지 봅니다. 시험황혼안내"),
    "reminder label": ("reminder.dead", "시험사망"),
    "jinx": ("jinx.widow-damsel", "미망인이 있으면 아가씨는 중독됩니다. 시험징크스"),
    "interface word": ("ui.teams.minion.plural", "시험하수인들"),
}
SCRIPT = [{"id": "_meta", "name": "PO"}, "clockmaker", "chef", "librarian", "empath", "monk", "soldier", "mayor", "drunk", "damsel", "widow", "poisoner", "imp"]


def _po(edits) -> str:
    head = ('msgid ""\nmsgstr ""\n"Language: ko\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
            '"Plural-Forms: nplurals=1; plural=0;\\n"\n\n')
    return head + "".join(f"msgctxt {json.dumps(key)}\nmsgid \"x\"\nmsgstr {json.dumps(text, ensure_ascii=False)}\n\n"
                          for key, text in edits)


def _pdf_text(path: Path) -> str:
    return re.sub(r"\s+", "", "".join(page.extract_text() for page in PdfReader(io.BytesIO(path.read_bytes())).pages))


def _shown(pack: list[str], kind: str) -> str:
    """Where `show` (or `night` for the night steps) prints the text of `kind`, as one string."""
    runner = CliRunner()
    char = "widow" if kind in ("first night reminder", "jinx") else "imp"
    if kind.startswith("night step"):
        script = Path("po-script.json").resolve()
        result = runner.invoke(main, [*pack, "night", str(script), "--lang", "ko", "--format", "json"])
        return result.output
    if kind == "interface word":
        return runner.invoke(main, [*pack, "list", "--team", "minion", "--lang", "ko"]).output
    result = runner.invoke(main, [*pack, "show", char, "--lang", "ko", "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.dumps(json.loads(result.output), ensure_ascii=False)


@pytest.fixture(params=[False, True], ids=["built-in", "official-pack"])
def pack(request, tmp_path, monkeypatch) -> list[str]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    Path("po-script.json").write_text(json.dumps(SCRIPT), encoding="utf-8")
    if not request.param:
        return []
    _, target, _ = request.getfixturevalue("official_ko")
    return ["--pack", str(target)]


@pytest.mark.parametrize("kind", list(EDITS))
def test_a_po_edit_of_each_field_kind_imports_and_shows(kind, pack, tmp_path):
    key, text = EDITS[kind]
    marker = text.split()[-1]
    runner = CliRunner()
    assert marker not in _shown(pack, kind)
    po = tmp_path / "one.po"
    po.write_text(_po([(key, text)]), encoding="utf-8")
    result = runner.invoke(main, [*pack, "l10n", "import", str(po)])
    assert result.exit_code == 0, result.output
    assert "1 text(s) imported into ko" in result.output
    assert (tmp_path / "home" / "scriptforge" / "translations" / "ko").is_dir()
    assert marker in _shown(pack, kind)
    # one text of a file imported: every other text of that file still comes from below
    if kind == "night step text":
        night = json.loads(_shown(pack, kind))
        assert any("demoninfo" in json.dumps(step) for step in night["first_night"])
    check = runner.invoke(main, [*pack, "db", "check"])
    assert check.exit_code == 0, check.output


def test_every_field_kind_reaches_the_printed_sheets(pack, tmp_path):
    runner = CliRunner()
    po = tmp_path / "all.po"
    po.write_text(_po(EDITS.values()), encoding="utf-8")
    result = runner.invoke(main, [*pack, "l10n", "import", str(po)])
    assert result.exit_code == 0, result.output
    assert f"{len(EDITS)} text(s) imported into ko" in result.output
    script = tmp_path / "po-script.json"
    pages = {}
    for command in ("build", "nightsheet", "tokens", "almanac"):
        out = tmp_path / f"{command}.pdf"
        result = runner.invoke(main, [*pack, command, str(script), "--lang", "ko", "-o", str(out)])
        assert result.exit_code == 0, f"{command}: {result.output}"
        pages[command] = _pdf_text(out)
    where = {"name": "build", "ability": "build", "jinx": "build", "interface word": "build",
             "flavor": "almanac", "first night reminder": "nightsheet", "other night reminder": "nightsheet",
             "night step name": "nightsheet", "night step text": "nightsheet", "reminder label": "tokens"}
    assert set(where) == set(EDITS)
    for kind, command in where.items():
        marker = EDITS[kind][1].split()[-1]
        assert marker in pages[command], f"{kind} not on the {command} PDF"
