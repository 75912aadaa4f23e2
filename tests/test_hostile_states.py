"""States one mistake or one damaged byte could leave a user in (issue 41, items 2-4): each test
reproduces one class and checks the clean result — one line, the documented exit code, no
traceback, no hang, and every later command still working. What could block or grow on the code
before the fixes runs in a child process with a timeout and a memory limit, so a regression fails
the test instead of hanging the suite; benchmarks/bench_hostile.py measures the same classes."""

import json
import os
from pathlib import Path
import subprocess
import sys

import pytest

from scriptforge.cli import main

FIVE = ["monk", "chef", "empath", "baron", "imp"]


def script(path: Path, *extra) -> Path:
    path.write_text(json.dumps([{"id": "_meta", "name": "Hostile"}, *FIVE, *extra]), encoding="utf-8")
    return path


def cli(*args, timeout=60, env=None, cwd=None, memory=1 << 30, stdout=subprocess.PIPE):
    """scriptforge in a child process, at most `timeout` seconds and `memory` bytes of address space."""
    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([sys.executable, "-m", "scriptforge", *map(str, args)], stdout=stdout,
                          stderr=subprocess.PIPE, timeout=timeout, stdin=subprocess.DEVNULL,
                          env={**os.environ, **(env or {})}, cwd=cwd, preexec_fn=limit)


# -- item 4: terminal manners -------------------------------------------------------------------

@pytest.mark.parametrize("args, named", [
    (["build", "--nope", "x.json"], "scriptforge build"),
    (["nosuch"], "scriptforge"),
    (["l10n", "import"], "scriptforge l10n import"),
    (["validate", "--format", "xml", "x.json"], "scriptforge validate"),
    (["show", "imp", "--lang", "zz"], "scriptforge show"),
    (["pack", "update", "--bogus"], "scriptforge pack update"),
])
def test_a_usage_error_is_one_line_naming_the_command(runner, args, named):
    result = runner.invoke(main, args, prog_name="scriptforge")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(f"Error: {named}: ")
    assert f"'{named} --help'" in result.stderr


def test_a_group_without_a_command_still_shows_its_help(runner):
    result = runner.invoke(main, ["l10n"])
    assert result.exit_code == 2
    assert "Commands:" in result.stderr + result.stdout


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path):
    files = [script(tmp_path / f"s{i}.json", {"id": "nosuch"}) for i in range(400)]
    args = [sys.executable, "-m", "scriptforge", "validate", *map(str, files)]
    writer = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert writer.stdout is not None and writer.stderr is not None
    first = writer.stdout.readline()
    writer.stdout.close()  # as `head -1` does
    stderr = writer.stderr.read()
    assert writer.wait(timeout=60) == 0, stderr
    assert first
    assert b"Error" not in stderr and b"Traceback" not in stderr and b"Exception ignored" not in stderr


# -- item 2: writers that cannot leave a broken state -------------------------------------------

def _community_script(path: Path, db) -> list:
    data = [{"id": "_meta", "name": "Hostile"},
            {"id": "ko_KR_chef", "name": db.get("chef").name("ko"), "team": "townsfolk",
             "ability": db.get("chef").text("ko").ability}, "imp", "baron", "saint"]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return data


@pytest.mark.parametrize("how", ["same path", "symlink", "hard link"])
def test_migrate_output_onto_its_input_is_refused_and_the_input_kept(runner, tmp_path, db, how):
    source = tmp_path / "ko.json"
    data = _community_script(source, db)
    out = source
    if how != "same path":
        out = tmp_path / "out.json"
        (out.symlink_to if how == "symlink" else out.hardlink_to)(source)
    result = runner.invoke(main, ["migrate", str(source), "-o", str(out)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert [line for line in result.stderr.splitlines() if line.startswith("Error: ")] == [result.stderr.splitlines()[-1]]
    assert "writing there would replace it" in result.stderr
    assert json.loads(source.read_text(encoding="utf-8")) == data
    elsewhere = runner.invoke(main, ["migrate", str(source), "-o", str(tmp_path / "new.json")])
    assert elsewhere.exit_code == 0, elsewhere.output
    assert json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))[1] == "chef"


# -- item 3: bounded everything -----------------------------------------------------------------

def test_a_png_page_over_the_pixel_budget_is_one_line_and_writes_nothing(tmp_path):
    source = script(tmp_path / "s.json")
    result = cli("build", source, "--format", "png", "--dpi", "1200", "-o", tmp_path / "out.png", memory=1 << 30)
    stderr = result.stderr.decode()
    assert result.returncode == 2, stderr
    assert stderr.splitlines() == [stderr.strip()] and "--dpi 1200" in stderr and "at most --dpi 643" in stderr
    assert not list(tmp_path.glob("out*"))
    most = cli("build", source, "--format", "png", "--dpi", "643", "-o", tmp_path / "out.png", memory=1 << 30)
    assert most.returncode == 0, most.stderr.decode()
    assert (tmp_path / "out.png").read_bytes().startswith(b"\x89PNG")


def _official_folder(folder: Path, translations: dict) -> Path:
    """A --from folder of the small official-format files of tests/test_packs.py, with `translations`
    ({file name: JSON text}) under game/."""
    from tests.test_packs import JINXES, NIGHT, ROLES

    (folder / "game").mkdir(parents=True)
    for name, content in (("roles.json", ROLES), ("nightsheet.json", NIGHT), ("jinxes.json", JINXES)):
        (folder / name).write_text(json.dumps(content), encoding="utf-8")
    for name, text in translations.items():
        (folder / "game" / name).write_text(text, encoding="utf-8")
    return folder


def _home(tmp_path: Path) -> dict:
    return {"XDG_DATA_HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache")}


def test_an_empty_official_translation_is_a_warning_and_the_rest_installs(tmp_path):
    ko = {"roles": {"quietgeese": {"name": "조용한 거위", "ability": "아무것도 듣지 못합니다."}}}
    folder = _official_folder(tmp_path / "src", {"pt_BR.json": "{}", "el.json": "{ }\n",
                                                 "ko.json": json.dumps(ko, ensure_ascii=False)})
    env = _home(tmp_path)
    result = cli("pack", "update", "--from", folder, "--lang", "pt-BR", "--lang", "el", "--lang", "ko", env=env)
    stderr = result.stderr.decode()
    assert result.returncode == 0, stderr
    assert "pt_BR.json: the official pt-BR translation holds no texts yet" in stderr
    assert "el.json: the official el translation holds no texts yet" in stderr
    shown = cli("show", "quietgeese", "--lang", "ko", env=env)
    assert shown.returncode == 0 and "조용한 거위" in shown.stdout.decode()


def test_a_translation_with_40000_unknown_keys_leaves_a_pack_every_command_reads(tmp_path):
    env = _home(tmp_path)
    folder = _official_folder(tmp_path / "src", {})
    assert cli("pack", "update", "--from", folder, "--lang", "en", env=env).returncode == 0
    installed = tmp_path / "home" / "scriptforge" / "packs" / "official"
    before = os.readlink(installed)
    # a translation with 40,000 keys scriptforge does not know: each one a warning
    keys = {f"unknown{i:05d}-{'x' * 60}": "text" for i in range(40_000)}
    (folder / "game" / "ko.json").write_text(json.dumps({"roles": {}, **keys}), encoding="utf-8")
    result = cli("pack", "update", "--from", folder, "--lang", "ko", env=env, timeout=300)
    assert result.returncode == 0, result.stderr.decode()[-500:]
    assert "Traceback" not in result.stderr.decode()
    manifest = (installed / "pack.yaml").read_bytes()
    assert os.readlink(installed) != before and len(manifest) < 1024 * 1024
    assert b"more notes, left out of pack.yaml" in manifest
    for args in (["show", "imp"], ["db", "check"], ["pack", "list"]):
        later = cli(*args, env=env)
        assert later.returncode == 0, (args, later.stderr.decode())


def test_the_pack_store_refuses_a_file_over_the_read_limit_before_writing(tmp_path):
    from scriptforge.db.pack_store import Manifest, SourceFile, write_pack
    from scriptforge.io.errors import DataError

    target = tmp_path / "packs" / "big"
    characters = {"characters": [{"id": f"c{i}", "team": "townsfolk", "edition": "custom"} for i in range(3)]}
    manifest = Manifest(name="big", sources=(SourceFile("roles.json", "roles", "0" * 64),), characters=3, jinxes=0)
    write_pack({"characters.yaml": characters}, manifest, target)
    before = os.readlink(target)
    huge = {"characters.yaml": characters, "en/characters/c0.yaml": {"name": "C", "ability": "x" * (5 << 20)}}
    with pytest.raises(DataError, match="over the 4 MiB any data file is read within"):
        write_pack(huge, manifest, target)
    assert os.readlink(target) == before and sorted(p.name for p in target.parent.iterdir()) == sorted(["big", before])


@pytest.mark.parametrize("damage", ["empty", "files cut", "a file added"])
def test_the_pack_integrity_record_cannot_be_switched_off(tmp_path, damage):
    env = _home(tmp_path)
    folder = _official_folder(tmp_path / "src", {})
    assert cli("pack", "update", "--from", folder, "--lang", "en", env=env).returncode == 0
    installed = (tmp_path / "home" / "scriptforge" / "packs" / "official").resolve()
    manifest = installed / "pack.yaml"
    if damage == "empty":
        manifest.write_text("", encoding="utf-8")
    elif damage == "files cut":
        manifest.write_text(manifest.read_text(encoding="utf-8").split("\nfiles:")[0] + "\n", encoding="utf-8")
    else:
        (installed / "en" / "extra.yaml").write_text("a: 1\n", encoding="utf-8")
    (installed / "characters.yaml").write_text("characters: []\n", encoding="utf-8")  # and a text changed
    broken = cli("show", "imp", env=env)
    stderr = broken.stderr.decode()
    assert broken.returncode == 1 and stderr.count("\n") == 1 and "damaged data pack" in stderr, stderr
    assert "pack update" in stderr
    assert cli("pack", "update", "--from", folder, "--lang", "en", env=env).returncode == 0
    assert cli("show", "imp", env=env).returncode == 0


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_l10n_confirm_writes_the_user_layer_only_and_all_works_with_a_pack(tmp_path):
    from scriptforge.io.paths import DATA_DIR

    ko = {"roles": {"quietgeese": {"name": "조용한 거위", "ability": "아무것도 듣지 못합니다."}}}
    folder = _official_folder(tmp_path / "src", {"ko.json": json.dumps(ko, ensure_ascii=False)})
    env = {**_home(tmp_path), "SCRIPTFORGE_DATA": ""}
    assert cli("pack", "update", "--from", folder, "--lang", "ko", env=env).returncode == 0
    shipped = _tree(DATA_DIR)
    one = cli("l10n", "confirm", "imp", "ability", "--lang", "ko", env=env)
    assert one.returncode == 0, one.stderr.decode()
    layer = tmp_path / "home" / "scriptforge" / "translations"
    record = (layer / "ko" / "characters" / "imp.yaml").read_text(encoding="utf-8")
    assert "translated_from:" in record and "ability:" in record
    every = cli("l10n", "confirm", "--all", env=env)
    assert every.returncode == 0, every.stderr.decode()
    written = [Path(line) for line in every.stdout.decode().splitlines()[:-1]]
    assert written and all(layer in path.parents for path in written)
    again = cli("l10n", "confirm", "--all", env=env)
    assert again.returncode == 0 and again.stdout.decode().endswith("; 0 file(s) written\n")
    assert _tree(DATA_DIR) == shipped  # the installed package's data folder is never written
    for args in (["l10n", "status"], ["show", "quietgeese", "--lang", "ko"], ["db", "check"]):
        later = cli(*args, env=env)
        assert later.returncode == 0, (args, later.stderr.decode())


# -- watch: no loops, no endless waits, no spurious errors ---------------------------------------

def _watch(script: Path, out: Path, icons: Path | None = None):
    from scriptforge.db.loading import load_database
    from scriptforge.render.outputs import output_target
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.options import PrintSettings
    from scriptforge.render.watch import Watch

    return Watch(script, load_database, Renderer(icons_dir=icons),
                 lambda path, name: output_target(path, str(out), "html", False),
                 {"settings": PrintSettings(lang="en", fmt="html")}, icons=icons)


def _run(watch, renders: int, lines: list[str]):
    import threading

    thread = threading.Thread(target=watch.run, args=(lines.append,), kwargs={"renders": renders, "poll": 0.01},
                              daemon=True)
    thread.start()
    return thread


def _renders(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("Error:") or " wrote " in line]


def _until(condition, seconds: float = 60) -> None:
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_watch_refuses_a_missing_script_at_once(tmp_path):
    result = cli("watch", tmp_path / "nosuch.json", "-o", tmp_path / "out.html", timeout=30)
    stderr = result.stderr.decode()
    assert result.returncode == 2 and stderr == f"Error: {tmp_path / 'nosuch.json'}: file not found " \
        "(watch needs a script to print; make it first, e.g. 'scriptforge new')\n"
    assert b"watching" not in result.stdout


def test_watch_does_not_render_again_for_its_own_output_in_a_watched_folder(tmp_path):
    import time

    icons = tmp_path / "icons"
    icons.mkdir()
    source = script(tmp_path / "s.json")
    lines: list[str] = []
    thread = _run(_watch(source, icons / "sheet.html", icons), 2, lines)
    _until(lambda: len(_renders(lines)) == 1)
    time.sleep(1.5)  # on the code before, the output in icons/ started a render every poll
    assert len(_renders(lines)) == 1, lines
    script(source, "mayor")
    thread.join(60)
    assert not thread.is_alive() and len(_renders(lines)) == 2 and "Error" not in " ".join(lines)


def test_a_save_in_two_steps_is_not_called_broken(tmp_path):
    import time

    source = script(tmp_path / "s.json")
    lines: list[str] = []
    thread = _run(_watch(source, tmp_path / "sheet.html"), 2, lines)
    _until(lambda: len(_renders(lines)) == 1)
    with open(source, "w", encoding="utf-8") as handle:  # an editor that truncates, then writes
        handle.write('[{"id": "_meta", "name": "Hostile"}, "imp", ')
    time.sleep(0.1)
    script(source, "mayor")
    thread.join(60)
    assert not thread.is_alive() and len(_renders(lines)) == 2
    assert not [line for line in lines if line.startswith("Error:")], lines


def test_a_homebrew_text_over_the_length_cap_is_one_line_naming_its_line(runner, tmp_path):
    from tests.conftest import EXAMPLES

    text = (EXAMPLES / "homebrew" / "pilgrim.yaml").read_text(encoding="utf-8")
    long = tmp_path / "pilgrim.yaml"
    long.write_text(text.replace("flavor: This is a dream.", "flavor: " + "a" * 300_000 + " This is a dream."),
                    encoding="utf-8")
    result = cli("homebrew", "check", long, timeout=60)
    stderr = result.stderr.decode()
    assert result.returncode == 2 and "Traceback" not in stderr, stderr
    line = text.splitlines().index(next(x for x in text.splitlines() if "flavor: This is a dream." in x)) + 1
    flavor = next(x for x in long.read_text(encoding="utf-8").splitlines() if "This is a dream." in x and "a" * 9 in x)
    length = len(flavor.split("flavor: ", 1)[1])
    assert f"{long}:{line}: field 'texts.en.flavor': the text is {length:,} characters long; at most 10,000" in stderr


def test_a_po_text_over_the_length_cap_changes_nothing_and_l10n_check_stays_quick(tmp_path, data_copy):
    po = tmp_path / "ko.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: ko\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  f'msgctxt "imp.flavor"\nmsgid "Flavor"\nmsgstr "{"가" * 300_000}"\n', encoding="utf-8")
    env = {"SCRIPTFORGE_DATA": str(data_copy)}
    before = _tree(data_copy)
    result = cli("l10n", "import", po, env=env, timeout=60)
    stderr = result.stderr.decode()
    assert result.returncode == 2 and stderr.count("\n") == 1, stderr
    assert f"{po}:7: entry 'imp.flavor': " in stderr and "300,000 characters long; at most 10,000" in stderr
    assert _tree(data_copy) == before
    assert cli("l10n", "check", "--lang", "ko", env=env, timeout=60).returncode in (0, 1)
