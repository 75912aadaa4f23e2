"""`scriptforge watch`: a saved script (or homebrew file) becomes a new PDF; a broken save is
reported and the watch goes on."""

import json
import os
import shutil
import threading
import time

from pypdf import PdfReader

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.render.options import PrintSettings
from scriptforge.render.outputs import output_target
from scriptforge.render.pdf import Renderer
from scriptforge.render.watch import Watch
from tests.conftest import EXAMPLES

CHARACTERS = ["imp", "baron", "chef", "empath", "drunk", "monk", "pilgrim"]


def _text(pdf) -> str:
    return " ".join(page.extract_text() for page in PdfReader(pdf).pages)


def _save(path, text: str) -> None:
    """As an editor saves: the new text whole, in one rename (a reader never sees half of it)."""
    temporary = path.with_name(path.name + ".saving")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def _wait_for(lines: list[str], count: int, thread: threading.Thread) -> None:
    """Until `count` renders have printed their first line (or the watch ended)."""
    deadline = time.monotonic() + 60
    while sum(line.startswith("Error:") or " wrote " in line for line in list(lines)) < count:
        assert thread.is_alive() and time.monotonic() < deadline, lines
        time.sleep(0.02)


def test_a_saved_script_or_homebrew_file_becomes_a_new_pdf(tmp_path):
    homebrew = tmp_path / "homebrew"
    homebrew.mkdir()
    shutil.copy(EXAMPLES / "homebrew" / "pilgrim.yaml", homebrew)
    script = tmp_path / "mine.json"
    script.write_text(json.dumps(CHARACTERS), encoding="utf-8")
    out = tmp_path / "mine.pdf"
    lines: list[str] = []
    watch = Watch(script, load_database, Renderer(), lambda path, name: output_target(path, str(out), "pdf", False),
                  {"settings": PrintSettings(lang="en", fmt="pdf"), "night": True}, homebrew=homebrew)
    thread = threading.Thread(target=watch.run, args=(lines.append,), kwargs={"renders": 4, "poll": 0.01})
    thread.start()
    try:
        _wait_for(lines, 1, thread)
        assert "Pilgrim" in _text(out) and "Mayor" not in _text(out)
        _save(script, '["imp", ')  # a save half-way through typing
        _wait_for(lines, 2, thread)
        assert lines[-1].startswith(f"Error: {script}:1: not valid JSON")
        _save(script, json.dumps(CHARACTERS + ["mayor"]))
        _wait_for(lines, 3, thread)
        assert "Mayor" in _text(out)
        pilgrim = homebrew / "pilgrim.yaml"
        _save(pilgrim, pilgrim.read_text(encoding="utf-8").replace("name: Pilgrim", "name: Wanderer"))
        _wait_for(lines, 4, thread)
    finally:
        thread.join(120)
    assert not thread.is_alive(), lines
    assert "Wanderer" in _text(out)
    written = [line for line in lines if "wrote" in line]
    assert len(written) == 3 and all(line.startswith(f"{script}: wrote {out} (3 pages) in ") for line in written)
    assert [line for line in lines if line.startswith("  teams: ")][-1].startswith("  teams: 5 ")  # with the Mayor
    assert sorted(p.name for p in tmp_path.iterdir()) == ["homebrew", "mine.json", "mine.pdf"]  # no temporary left


def test_watch_on_the_command_line(runner, tmp_path):
    script = tmp_path / "mine.json"
    script.write_text(json.dumps(CHARACTERS[:-1] + ["goon"]), encoding="utf-8")
    result = runner.invoke(main, ["watch", str(script), "-o", str(tmp_path / "sheet.pdf"), "--lang", "en", "--renders", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == [f"watching {script} (Ctrl-C to stop)",
                                              f"{script}: wrote {tmp_path / 'sheet.pdf'} (1 page) in "
                                              f"{result.stdout.split(' in ')[1].split()[0]} s"]
    assert "Goon" in _text(tmp_path / "sheet.pdf")
    refused = runner.invoke(main, ["watch", str(script), "-o", "-", "--renders", "1"])
    assert refused.exit_code == 2 and refused.stderr.startswith("Error: watch writes a file")


def test_an_edit_of_an_embedded_homebrew_characters_yaml_reaches_the_next_render(runner, tmp_path):
    """`add s.json pilgrim.yaml` records where the Pilgrim came from: an edit of the YAML after it
    is printed at the next render, and the watch says the embedded copy differs."""
    yaml_file = tmp_path / "pilgrim.yaml"
    shutil.copy(EXAMPLES / "homebrew" / "pilgrim.yaml", yaml_file)
    script = tmp_path / "mine.json"
    created = runner.invoke(main, ["new", str(script), "--name", "Mine", *CHARACTERS[:-1]])
    assert created.exit_code == 0, created.output
    added = runner.invoke(main, ["add", str(script), str(yaml_file), "--lang", "en"])
    assert added.exit_code == 0, added.output
    assert json.loads(script.read_text(encoding="utf-8"))[0]["homebrewSources"] == {"pilgrim": "pilgrim.yaml"}
    out = tmp_path / "mine.pdf"
    lines: list[str] = []
    watch = Watch(script, load_database, Renderer(), lambda path, name: output_target(path, str(out), "pdf", False),
                  {"settings": PrintSettings(lang="en", fmt="pdf")})
    thread = threading.Thread(target=watch.run, args=(lines.append,), kwargs={"renders": 2, "poll": 0.01})
    thread.start()
    try:
        _wait_for(lines, 1, thread)
        assert "Pilgrim" in _text(out) and "Wayfarer" not in _text(out)
        _save(yaml_file, yaml_file.read_text(encoding="utf-8").replace("name: Pilgrim", "name: Wayfarer", 1))
        _wait_for(lines, 2, thread)
    finally:
        thread.join(timeout=60)
    assert "Wayfarer" in _text(out)
    assert any("differs from pilgrim.yaml (name): the YAML file is used" in line for line in lines)
