"""Character art: `pack update --icons` from a loopback server (made-up pictures in the official
host's layout; the project ships no official art), the sheets, night pages and jinx rows using
them, the community-content notice, and remote images of scripts cached in the user cache."""

import io
import json
import os
from pathlib import Path
import shutil
import time

import pytest

from scriptforge.scripts.analysis import analyse
from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.packs.icons import MANIFEST, SIZE
from scriptforge.render.pdf import Renderer
from scriptforge.render.views import make_view
from scriptforge.scripts.script import read_script
from tests.conftest import official_english_copy, shared_path
from tests.icon_art import icon_art, write_official_icons
from tests.test_pack_update import serve

SCRIPT = ("reference", "official", "wc25", "stowedaway", "script.json")

# the mirror of made-up icons is written once (a module fixture) for all the tests: one worker runs them all
pytestmark = pytest.mark.xdist_group("icons")


def placed_images(pdf: bytes) -> list[int]:
    """How many pictures each page of `pdf` draws (pypdfium2's page objects of type image)."""
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    document = pypdfium2.PdfDocument(pdf)
    try:
        return [sum(1 for _ in document[i].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE]))
                for i in range(len(document))]
    finally:
        document.close()


@pytest.fixture(scope="module")
def mirror(tmp_path_factory):
    """A folder laid out like the official host: the data files, and made-up icons of the
    characters of one World Cup script (and of the Djinn) under icons/<edition>/."""
    official = shared_path("reference", "official")
    script = json.loads(shared_path(*SCRIPT).read_text(encoding="utf-8"))
    ids = {item for item in script if isinstance(item, str)} | {"djinn", "scapegoat"}
    folder = official_english_copy(tmp_path_factory.mktemp("mirror"))
    roles = json.loads((official / "roles.json").read_text(encoding="utf-8"))
    write_official_icons(folder, roles, only=ids)
    return folder, ids


def update(runner, base, *more):
    return runner.invoke(main, ["pack", "update", "--url", base, "--lang", "en", "--icons",
                                "--icons-url", base + "icons/", *more])


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    home = tmp_path / "data-home"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    monkeypatch.delenv("SCRIPTFORGE_PACKS", raising=False)
    return home


def pack_dir(home: Path) -> Path:
    return home / "scriptforge" / "packs" / "official"


def test_pack_update_icons_installs_checked_normalised_icons_and_refetches_only_changes(mirror, data_home, runner):
    from PIL import Image

    folder, ids = mirror
    with serve(folder) as base:
        first = update(runner, base)
        assert first.exit_code == 0, first.output
        pack = pack_dir(data_home)
        manifest = json.loads((pack / MANIFEST).read_text(encoding="utf-8"))["icons"]
        assert set(manifest) == ids
        # The Traveller has both halves; a Demon its own (evil) picture; the Djinn its one picture.
        assert [s["url"] for s in manifest["scapegoat"]["sources"]] == \
            [f"{base}icons/tb/scapegoat_g.webp", f"{base}icons/tb/scapegoat_e.webp"]
        assert manifest["imp"]["sources"][0]["url"] == f"{base}icons/tb/imp_e.webp"
        assert manifest["djinn"]["sources"][0]["url"] == f"{base}icons/fabled/djinn.webp"
        for entry in manifest.values():
            assert len(entry["sources"][0]["sha256"]) == 64
        # Every other official character has no icon on this mirror: one line each (at most ten, then a count).
        missing = [line for line in first.stderr.splitlines() if "icon not installed" in line]
        assert len(missing) == 10 and "no icon at" in missing[0]
        assert f"{181 - len(ids) - 10} more icons not installed" in first.stderr
        assert f"icons: {len(ids)} in the pack ({len(ids)} fetched, 0 unchanged, {181 - len(ids)} failed)" \
            in first.stdout
        # Normalised: the same square, the picture reaching the same margin whatever the art's own.
        boxes = set()
        for char_id in ("imp", "grandmother", "poisoner"):
            image = Image.open(pack / "icons" / f"{char_id}.png")
            assert image.size == (SIZE, SIZE) and image.mode == "RGBA"
            box = image.getchannel("A").point(lambda a: 255 if a > 16 else 0).getbbox()
            boxes.add(min(box[0], box[1], SIZE - box[2], SIZE - box[3]))
        assert len(boxes) == 1

        again = update(runner, base)
        assert again.exit_code == 0, again.output
        assert f"({0} fetched, {len(ids)} unchanged" in again.stdout  # conditional GETs answered 304
        stored = (pack / "icons" / "imp.png").read_bytes()
        (folder / "icons" / "tb" / "imp_e.webp").write_bytes(icon_art("imp", "g"))
        later = time.time() + 5
        os.utime(folder / "icons" / "tb" / "imp_e.webp", (later, later))
        third = update(runner, base)
        assert "(1 fetched," in third.stdout
        assert (pack / "icons" / "imp.png").read_bytes() != stored

        plain = runner.invoke(main, ["pack", "update", "--url", base, "--lang", "en"])  # no --icons: kept
        assert plain.exit_code == 0 and (pack / "icons" / "imp.png").is_file()
        assert f"icons: {len(ids)} in the pack (0 fetched, {len(ids)} unchanged)" in plain.stdout


def test_a_bad_icon_is_one_line_and_the_pack_is_installed(mirror, tmp_path, data_home, runner):
    from PIL import Image

    folder, _ = mirror
    local = tmp_path / "local"
    shutil.copytree(folder, local)
    (local / "icons" / "tb" / "imp_e.webp").write_bytes(b"<html>not a picture</html>")
    bomb = io.BytesIO()
    Image.new("1", (6000, 6000)).save(bomb, format="PNG")  # 36 million pixels in a few kB
    (local / "icons" / "tb" / "poisoner_e.webp").write_bytes(bomb.getvalue())
    from scriptforge.packs.install import update_pack

    result = update_pack(langs=("en",), from_dir=local, icons=True, target=pack_dir(data_home))
    assert result.icons is not None
    lines = [line for line in result.icons.failed if "imp_e.webp" in line or "poisoner_e.webp" in line]
    assert len(lines) == 2
    assert any("not a WebP, PNG or JPEG image" in line for line in lines)
    assert any("6000x6000 pixels" in line for line in lines)
    manifest = json.loads((pack_dir(data_home) / MANIFEST).read_text(encoding="utf-8"))["icons"]
    assert "imp" not in manifest and "poisoner" not in manifest and "grandmother" in manifest
    assert (pack_dir(data_home) / "characters.yaml").is_file()


def test_a_fifo_named_like_an_icon_is_one_line_not_a_hang(mirror, tmp_path, data_home):
    import subprocess
    import sys

    folder, _ = mirror
    local = tmp_path / "local"
    shutil.copytree(folder, local)
    (local / "icons" / "tb" / "imp_e.webp").unlink()
    os.mkfifo(local / "icons" / "tb" / "imp_e.webp")
    code = ("import json, sys; from scriptforge.packs.install import update_pack\n"
            "result = update_pack(langs=('en',), from_dir=sys.argv[1], icons=True, target=sys.argv[2])\n"
            "print(json.dumps([line for line in result.icons.failed if 'imp_e' in line]))")
    result = subprocess.run([sys.executable, "-c", code, str(local), str(pack_dir(data_home))], capture_output=True,
                            timeout=120, stdin=subprocess.DEVNULL)  # a regression hangs here, not the suite
    assert result.returncode == 0, result.stderr.decode()
    [line] = json.loads(result.stdout)
    assert line.endswith("imp_e.webp: is a FIFO (named pipe), not a file")
    manifest = json.loads((pack_dir(data_home) / MANIFEST).read_text(encoding="utf-8"))["icons"]
    assert "imp" not in manifest and "grandmother" in manifest


def test_a_wc25_sheet_shows_an_image_for_every_official_character(mirror, data_home, runner, tmp_path):
    folder, _ = mirror
    with serve(folder) as base:
        assert update(runner, base).exit_code == 0
    db = load_database(packs=[pack_dir(data_home)])
    view = make_view(analyse(read_script(shared_path(*SCRIPT), db), db), "en", "a4", night=True)
    sheet = sum(not c.homebrew for t in (*view.teams, *view.extra_teams) for c in t.characters)
    sheet += sum((not j.first.homebrew) + (not j.second.homebrew) for j in view.jinxes)
    nights = [sum(s.team != "step" and s.id in db.characters for s in n.steps) for n in view.nights]
    assert view.jinxes and sheet > 25 and all(nights)

    out = tmp_path / "sheet.pdf"
    result = runner.invoke(main, ["build", str(shared_path(*SCRIPT)), "--night", "--lang", "en", "-o", str(out)])
    assert result.exit_code == 0, result.output
    pdf = out.read_bytes()
    assert placed_images(pdf) == [sheet, *nights]  # not a monogram among them
    # Official art on the page: the notice, in the page's language.
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    text = document[0].get_textpage().get_text_range()
    document.close()
    en = db.labels("en")["art_notice"]
    assert en.split(".")[0] in " ".join(text.split())
    ko = runner.invoke(main, ["build", str(shared_path(*SCRIPT)), "--lang", "ko", "-o", str(tmp_path / "ko.pdf")])
    document = pypdfium2.PdfDocument((tmp_path / "ko.pdf").read_bytes())
    korean = document[0].get_textpage().get_text_range()
    document.close()
    assert ko.exit_code == 0 and db.labels("ko")["art_notice"].split(" ")[0] in korean
    html = runner.invoke(main, ["build", str(shared_path(*SCRIPT)), "--lang", "en", "--format", "html", "-o", "-"])
    assert html.exit_code == 0 and f'<p class="art-notice">{en}</p>' in html.stdout  # browsers show no page footer
    # The remote pictures (the four homebrew characters' and the script's logo): one warning for all.
    assert result.stderr.count("not fetched") == 1 and "5 images not fetched: use --allow-network" in result.stderr


def test_without_icons_the_output_is_the_same_bytes(mirror, data_home, runner, tmp_path):
    """A pack without icons changes nothing on the page: no picture, no notice, the same PDF."""
    folder, _ = mirror
    runner.invoke(main, ["pack", "update", "--from", str(folder), "--lang", "en"])
    pack = pack_dir(data_home)
    assert not (pack / "icons").exists()
    db = load_database(packs=[pack])
    script = read_script(shared_path(*SCRIPT), db)
    view = make_view(analyse(script, db), "en", "a4", back=True, night=True)
    base_dir = shared_path(*SCRIPT).parent
    plain = Renderer().render(view, "pdf", base_dir)
    with_pack = Renderer(packs=[pack]).render(view, "pdf", base_dir)
    assert plain.files == with_pack.files
    assert sum(placed_images(plain.files[0][1])) == 0
    html = Renderer(packs=[pack]).render(view, "html", None).files[0][1].decode("utf-8")
    assert db.labels("en")["art_notice"] not in html and "<img" not in html


def red_png() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (40, 40), (200, 20, 20)).save(buffer, format="PNG")
    return buffer.getvalue()


def test_remote_images_are_cached_and_used_without_the_network(tmp_path, runner, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    served = tmp_path / "served"
    served.mkdir()
    for name in ("a.png", "b.png", "c.png"):
        (served / name).write_bytes(red_png())
    with serve(served) as base:
        script = [{"id": "_meta", "name": "Remote"}, "imp", "poisoner", "chef", "empath", "baron"]
        script += [{"id": f"home{n}", "name": f"Home {n}", "team": "townsfolk", "ability": "You start knowing.",
                    "image": f"{base}{n}.png"} for n in "abc"]
        path = tmp_path / "remote.json"
        path.write_text(json.dumps(script), encoding="utf-8")
        offline = runner.invoke(main, ["build", str(path), "--lang", "en", "-o", str(tmp_path / "off.pdf")])
        assert offline.exit_code == 0, offline.output
        assert offline.stderr.count("Warning") == 1 and "3 images not fetched: use --allow-network" in offline.stderr
        assert placed_images((tmp_path / "off.pdf").read_bytes()) == [0]
        online = runner.invoke(main, ["build", str(path), "--lang", "en", "--allow-network", "-o", str(tmp_path / "on.pdf")])
        assert online.exit_code == 0 and "Warning" not in online.stderr
    assert placed_images((tmp_path / "on.pdf").read_bytes()) == [3]
    # The server is gone: the cache serves the pictures, with or without --allow-network.
    later = runner.invoke(main, ["build", str(path), "--lang", "en", "-o", str(tmp_path / "later.pdf")])
    assert later.exit_code == 0 and "Warning" not in later.stderr
    assert (tmp_path / "later.pdf").read_bytes() == (tmp_path / "on.pdf").read_bytes()
    assert len(list((tmp_path / "cache" / "scriptforge" / "images").iterdir())) == 3


def test_a_server_that_does_not_answer_is_not_asked_for_every_icon():
    from scriptforge.packs.icons import GIVE_UP, update_icons

    roles = json.loads(shared_path("reference", "official", "roles.json").read_text(encoding="utf-8"))
    result = update_icons(roles, url="http://127.0.0.1:9/", timeout=2)  # nothing listens on port 9
    assert result.count == 0 and result.fetched == 0
    assert any(f"the server failed {GIVE_UP} times in a row" in line for line in result.failed)
    assert len(result.failed) < 40


def test_a_damaged_image_entry_is_not_used(tmp_path, monkeypatch):
    from scriptforge.io import cache, imagecache
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    imagecache.store("http://a.test/3.png", red_png(), "image/png")
    assert imagecache.lookup("http://a.test/3.png").data == red_png()
    entry = cache.entry_path("images", imagecache._key("http://a.test/3.png"))
    entry.write_bytes(entry.read_bytes()[:-1] + b"x")
    assert imagecache.lookup("http://a.test/3.png") is None
