"""The .po files as translators' tools expect them: what msgfmt rejects is refused with the line
and changes nothing; what we export passes `msgfmt -c --check-format`."""

import shutil
import subprocess
from pathlib import Path

from click.testing import CliRunner
import pytest

from scriptforge.cli import main
from scriptforge.l10n import pofile
from scriptforge.l10n.po import export_po
from tests.conftest import needs_program

MSGFMT = shutil.which("msgfmt")


def _snapshot(root: Path) -> dict:
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _msgfmt_rejects(path: Path) -> bool:
    return subprocess.run([MSGFMT, "-c", "-o", "/dev/null", str(path)], capture_output=True).returncode != 0


HEADER = 'msgid ""\nmsgstr ""\n"Language: ko\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
GOOD = 'msgctxt "imp.name"\nmsgid "Imp"\nmsgstr "임프"\n'
BROKEN = {
    "opening quote missing": ('msgctxt "imp.ability"\nmsgid "x"\nmsgstr 오늘 밤"\n', 3),
    "closing quote missing": ('msgctxt "imp.ability"\nmsgid "x"\nmsgstr "오늘 밤\n', 3),
    "unknown keyword": ('msgctxt "imp.ability"\nmsgtxt "x"\nmsgstr "y"\n', 2),
    "invalid escape": ('msgctxt "imp.ability"\nmsgid "x"\nmsgstr "a\\q"\n', 3),
    "msgstr without msgid": ('msgctxt "imp.ability"\nmsgstr "y"\n', 2),
    "duplicate entry": (GOOD, 2),  # the file's first entry again
    "msgctxt after msgid": ('msgid "x"\nmsgctxt "imp.ability"\nmsgstr "y"\n', 2),
    "flag inside an entry": ('msgctxt "imp.ability"\nmsgid "x"\n#, fuzzy\nmsgstr "y"\n', 3),
    "comment between msgctxt and msgid": ('msgctxt "imp.ability"\n#. note\nmsgid "x"\nmsgstr "y"\n', 2),
    "stray #| line": ('#| garbage\nmsgctxt "imp.ability"\nmsgid "x"\nmsgstr "y"\n', 1),
    "#| string with no previous msgid": ('#| "x"\nmsgctxt "imp.ability"\nmsgid "x"\nmsgstr "y"\n', 1),
    "#| msgid with no string": ('#| msgid\nmsgctxt "imp.ability"\nmsgid "x"\nmsgstr "y"\n', 1),
    "previous msgctxt alone": ('#| msgctxt "a"\nmsgctxt "imp.ability"\nmsgid "x"\nmsgstr "y"\n', 2),
    "previous msgid with no entry": ('#, fuzzy\n#| msgid "x"\n', 2),
    "obsolete msgid with no msgstr": ('#~ msgid "a"\n', 1),
    "obsolete line that is no .po line": ('#~ garbage\n', 1),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_po_file_msgfmt_rejects_is_refused_at_its_line_and_changes_nothing(case, data_copy, tmp_path):
    body, line = BROKEN[case]
    po = tmp_path / "broken.po"
    po.write_text(HEADER + GOOD + "\n" + body, encoding="utf-8")
    offset = (HEADER + GOOD + "\n").count("\n")
    if MSGFMT:
        assert _msgfmt_rejects(po), f"msgfmt accepts the '{case}' case"
    before = _snapshot(data_copy)
    result = CliRunner().invoke(main, ["l10n", "import", str(po)], env={"SCRIPTFORGE_DATA": str(data_copy)})
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and f"broken.po:{offset + line}:" in lines[0] and "malformed .po file" in lines[0]
    assert _snapshot(data_copy) == before


def test_a_po_file_that_is_not_utf8_names_its_line(tmp_path):
    with pytest.raises(pofile.PoSyntaxError) as caught:
        pofile.read((HEADER + GOOD + 'msgctxt "imp.flavor"\nmsgid "x"\nmsgstr "').encode() + "오늘".encode("cp949")
                    + b'"\n')
    assert caught.value.line == 11


def test_the_reader_and_the_writer_round_trip_every_string():
    texts = ["a \"quoted\" \\ back", "two\nlines\n", "tab\there", "{braces} and %s", "끝\n둘째 줄"]
    entries = [pofile.Entry(t, t[::-1], f"k.{i}", [f"note {i}"], ("fuzzy",) if i % 2 else ()) for i, t in enumerate(texts)]
    header, again = pofile.read(pofile.write({"Language": "ko"}, entries, "comment"))
    assert header == {"Language": "ko"}
    assert [(e.msgctxt, e.msgid, e.msgstr, e.fuzzy, e.comments) for e in again] == \
        [(e.msgctxt, e.msgid, e.msgstr, e.fuzzy, e.comments) for e in entries]


@needs_program("msgfmt")
@pytest.mark.parametrize("lang", ["ko", "en", "de"])
def test_exported_catalogues_pass_msgfmt_check(lang, db, tmp_path):
    po = tmp_path / f"{lang}.po"
    po.write_bytes(export_po(db, lang))
    result = subprocess.run([MSGFMT, "-c", "--check-format", "-o", "/dev/null", str(po)], capture_output=True,
                            text=True)
    assert result.returncode == 0 and "error" not in result.stderr, result.stderr
    header, entries = pofile.read(po.read_bytes())
    assert header["Language"] == lang and header["Plural-Forms"].startswith("nplurals=")
    assert not any(flag.endswith("-format") for entry in entries for flag in entry.flags)


def test_a_byte_order_mark_is_refused_as_msgfmt_refuses_it(tmp_path):
    po = tmp_path / "bom.po"
    po.write_text("\ufeff" + HEADER + GOOD, encoding="utf-8")
    if MSGFMT:
        assert _msgfmt_rejects(po)
    with pytest.raises(pofile.PoSyntaxError, match="byte order mark") as caught:
        pofile.read(po.read_bytes())
    assert caught.value.line == 1
