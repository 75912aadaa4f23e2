"""The pack on disk: a pack written by an earlier scriptforge loads and is rebuilt byte for byte,
its manifest reads into its record, and a file that would not validate is never written."""

import os
from pathlib import Path
import shutil

import pytest

from scriptforge.db.loading import load_database
from scriptforge.io.errors import DataError
from scriptforge.packs.build import build_pack, read_source
from scriptforge.db.pack_store import Manifest, SourceFile, damaged_pack, read_pack, write_pack

# Made by main at 08bc604 (before packs became a package): build_pack(sources, "geese", None,
# updated="2026-12-02") and write_pack, from the files in sources/ (test_packs.py's small roles,
# night sheet and jinx files, and a made-up Korean translation).
FORMAT1 = Path(__file__).parent / "fixtures" / "pack-format1"


def format1_sources():
    folder = FORMAT1 / "sources"
    return [*(read_source(folder / name) for name in ("roles.json", "nightsheet.json", "jinxes.json")),
            read_source(folder / "ko.json", "ko")]


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_pack_written_before_loads_reads_and_rebuilds_byte_for_byte(tmp_path):
    old = tmp_path / "old"
    shutil.copytree(FORMAT1 / "pack", old)
    assert damaged_pack(old) is None  # every file matches the sha256 its manifest recorded
    db = load_database(packs=[old])
    assert db.get("quietgeese").source == "geese"
    assert db.get("quietgeese").text("ko").name == "조용한 거위"
    assert db.reminder_label("noability", "ko") == "능력 없음"
    assert db.packs == (("geese", "2026-12-02"),)

    contents = read_pack(old)
    manifest = contents.manifest
    assert (manifest.name, manifest.languages, manifest.characters, manifest.jinxes, manifest.updated) == \
        ("geese", ("en", "ko"), 4, 1, "2026-12-02")
    assert [(s.file, s.kind, s.lang) for s in manifest.sources] == \
        [("roles.json", "roles", None), ("nightsheet.json", "nightsheet", None), ("jinxes.json", "jinxes", None),
         ("ko.json", "translation", "ko")]
    assert manifest.notes[0].startswith("roles.json: /2/ability (record 'loudgoose')")
    assert set(manifest.files) == set(contents.files) and "pack.yaml" not in contents.files
    assert contents.files["ko/sources.yaml"]["texts"]["imp.ability"]["text"] == "Each night*, kill someone."

    build = build_pack(format1_sources(), "geese", None, updated="2026-12-02")
    assert build.files == contents.files
    new = write_pack(build.files, build.manifest, tmp_path / "new" / "geese", build.blobs)
    assert tree(new.resolve()) == tree(old)


def test_manifest_record_writes_the_manifest_as_before():
    manifest = Manifest(name="p", sources=(SourceFile("roles.json", "roles", "0" * 64, url="https://x/roles.json"),),
                        languages=("en",), characters=2, jinxes=0)
    assert list(manifest.as_yaml()) == ["name", "format", "sources", "languages", "characters", "jinxes"]
    assert manifest.as_yaml()["sources"] == [{"file": "roles.json", "kind": "roles", "sha256": "0" * 64,
                                              "url": "https://x/roles.json"}]
    # a damaged or partial manifest still names its pack, by the folder
    assert Manifest.from_yaml({"name": 3, "languages": ["ko", 1], "characters": "many"}, Path("/x/mine")) == \
        Manifest(name="mine", languages=("ko",))


@pytest.mark.parametrize("rel, bad, message", [
    ("characters.yaml", lambda data: data["characters"][0].update(team="wizard"), "characters.yaml"),
    ("ko/characters/imp.yaml", lambda data: data.update(ability="Kill\0someone."), "a NUL character"),
    ("ko/night.yaml", lambda data: data["other_nights"].update(imp=7), "ko/night.yaml"),
])
def test_a_pack_file_that_would_not_validate_is_refused_and_nothing_is_written(tmp_path, rel, bad, message):
    target = tmp_path / "packs" / "geese"
    build = build_pack(format1_sources(), "geese", None, updated="2026-12-02")
    write_pack(build.files, build.manifest, target)
    before = (os.readlink(target), tree(target.resolve()), sorted(p.name for p in target.parent.iterdir()))
    bad(build.files[rel])
    with pytest.raises(DataError, match=message):
        write_pack(build.files, build.manifest, target)
    # the installed pack is untouched, and no version folder or link of the refused one is left
    assert (os.readlink(target), tree(target.resolve()), sorted(p.name for p in target.parent.iterdir())) == before
