"""`pack update`: the official files from a local HTTP server or a folder, installed in one step,
loaded by default; failures leave the installed pack alone; a translation file loses nothing."""

from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
import json
import os
from pathlib import Path
import threading

import pytest

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.model.ids import normalize_id


@contextmanager
def serve(folder: Path, broken: dict[str, str] | None = None):
    """An HTTP server on 127.0.0.1 for `folder`; `broken` maps a path to 'garbage' or 'hang'."""
    broken = broken or {}
    release = threading.Event()

    class Handler(SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(folder), **kwargs)

        def do_GET(self):
            mode = broken.get(self.path.lstrip("/"))
            if mode == "hang":
                release.wait(5)
                return
            if mode == "garbage":
                body = b"<html>this is not the file you want</html>"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            super().do_GET()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        release.set()
        server.shutdown()
        server.server_close()


def installed(data_home: Path) -> dict[str, bytes]:
    pack = data_home / "scriptforge" / "packs" / "official"
    return {str(p.relative_to(pack)): p.read_bytes() for p in pack.rglob("*") if p.is_file()}


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    home = tmp_path / "data-home"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    monkeypatch.delenv("SCRIPTFORGE_PACKS", raising=False)
    return home


def test_update_over_http_installs_then_reports_no_changes_and_loads_by_default(official_ko, data_home, runner):
    folder, _, _ = official_ko
    with serve(folder) as base:
        args = ["pack", "update", "--url", base, "--translations-url", base]
        first = runner.invoke(main, args)
        assert first.exit_code == 0, first.output
        assert f"fetching {base}roles.json" in first.stderr and f"fetching {base}game/ko.json" in first.stderr
        assert "pack 'official': 181 characters, 131 jinxes, languages en, ko" in first.stdout
        manifest = (data_home / "scriptforge" / "packs" / "official" / "pack.yaml").read_text(encoding="utf-8")
        assert f"url: {base}jinxes.json" in manifest and "updated: " in manifest and "sha256: " in manifest
        again = runner.invoke(main, args)
    assert again.exit_code == 0 and again.stdout.splitlines()[-1] == "no changes", again.output
    packs = data_home / "scriptforge" / "packs"
    assert sorted(p.name for p in packs.iterdir()) == sorted([os.readlink(packs / "official"), "official"])
    # loaded by every command from now on; --no-packs and an empty SCRIPTFORGE_PACKS turn it off
    assert "Kazali" in runner.invoke(main, ["show", "kazali", "--lang", "en"]).output
    assert runner.invoke(main, ["--no-packs", "show", "kazali"]).exit_code == 1
    assert runner.invoke(main, ["show", "kazali"], env={"SCRIPTFORGE_PACKS": ""}).exit_code == 1


@pytest.mark.parametrize("broken, message", [
    ({"missing": "roles.json"}, r"roles\.json: download failed: HTTP 404"),
    ({"garbage": "nightsheet.json"}, r"nightsheet\.json:1: not valid JSON"),
    ({"hang": "game/ko.json"}, r"game/ko\.json: download failed: no answer within 0\.3 s"),
])
def test_failed_update_leaves_the_installed_pack_alone(official_ko, data_home, runner, tmp_path, broken, message):
    import re
    import shutil

    folder, pack, _ = official_ko
    shutil.copytree(pack.resolve(), data_home / "scriptforge" / "packs" / "official")  # as if installed
    before = installed(data_home)
    served = tmp_path / "served"
    shutil.copytree(folder, served)
    mode, name = next(iter(broken.items()))
    if mode == "missing":
        (served / name).unlink()
    with serve(served, {name: mode} if mode != "missing" else None) as base:
        result = runner.invoke(main, ["pack", "update", "--url", base, "--translations-url", base, "--timeout", "0.3"])
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and re.search(f"Error: {re.escape(base)}{message}", errors[0]), result.stderr
    assert installed(data_home) == before


def test_update_from_a_folder_and_leftovers_of_a_killed_run(official_ko, data_home, runner, tmp_path):
    folder, _, _ = official_ko
    packs = data_home / "scriptforge" / "packs"
    packs.mkdir(parents=True)
    (packs / ".official.killed.pack").mkdir()  # what a run killed mid-write leaves
    (packs / ".official.killed.pack" / "characters.yaml").write_text("half")
    os.symlink(".official.killed.pack", packs / ".official.99.link")
    result = runner.invoke(main, ["pack", "update", "--from", str(folder), "--lang", "ko"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in packs.iterdir()) == sorted([os.readlink(packs / "official"), "official"])
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(main, ["pack", "update", "--from", str(empty)])
    assert result.exit_code == 2 and f"{empty / 'roles.json'}: file not found" in result.stderr


def test_translation_import_loses_nothing(official_ko):
    folder, pack, update = official_ko
    translation = json.loads((folder / "game" / "ko.json").read_text(encoding="utf-8"))
    assert [w for w in update.build.warnings if "setup wording" not in w] == []
    db = load_database(packs=[pack])
    steps = {"dusk", "minioninfo", "demoninfo", "dawn"}
    fields = {"name": "name", "ability": "ability", "flavor": "flavor",
              "first": "first_night_reminder", "other": "other_night_reminder"}
    kept = 0
    for char_id, entry in translation["roles"].items():
        for key, text in entry.items():
            if not text:
                continue
            if char_id in steps:
                step = db.steps[char_id]
                got = {"name": step.names, "first": step.first_night, "other": step.other_nights}[key].get("ko")
            else:
                got = getattr(db.get(char_id).texts["ko"], fields[key])
            assert got == text, (char_id, key)
            kept += 1
    for token, label in translation["reminders"].items():  # keyed as the official files key them
        assert db.reminder_labels["ko"][token] == label, token
        kept += 1
    for key, text in translation["jinxes"].items():
        a, b = key.split("-")
        jinx = next(j for j in db.jinxes if set(j.characters) == {a, b})
        assert jinx.texts["ko"] == text, key
        kept += 1
    assert len(translation["jinxes"]) == 131 and kept > 900


def test_what_a_translation_cannot_keep_is_said(official_ko, tmp_path, db):
    from scriptforge.packs.install import import_pack

    folder, _, _ = official_ko
    odd = {"roles": {"nosuchrole": {"name": "없음", "ability": "없음"}, "imp": {"name": "임프", "ability": "x", "icon": "y"}},
           "reminders": {"imp": ["사망", "남는 표식"]},
           "jinxes": {"imp-nosuchrole": "짝 없는 징크스"},
           "ui": {"title": "제목"}}
    (tmp_path / "odd.json").write_text(json.dumps(odd, ensure_ascii=False), encoding="utf-8")
    _, build = import_pack([tmp_path / "odd.json"], lang="ko", out=tmp_path / "odd-pack", base_db=db)
    said = "\n".join(build.warnings)
    for what in ("/roles/nosuchrole: no character 'nosuchrole'", "/roles/imp/icon: not a text",
                 "/reminders/imp/1: 'imp' has 1 reminder token(s); label '남는 표식' is left out",
                 "/jinxes/imp-nosuchrole: no jinx imp-nosuchrole", "/ui: not a part of a translation file"):
        assert what in said, said
    assert normalize_id("imp") in load_database(packs=[tmp_path / "odd-pack"]).characters
