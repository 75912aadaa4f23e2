"""Where data packs live on disk and what a pack is there: its manifest, its files, written whole
in one rename and checked against the sha256 its manifest records before it is used.

A pack is a folder laid out like data/ (characters.yaml, night.yaml, jinxes.yaml,
<lang>/characters/<id>.yaml, <lang>/night.yaml, <lang>/reminders.yaml, <lang>/jinxes.yaml,
<lang>/sources.yaml) plus pack.yaml, the manifest (`Manifest`). Every file is checked by the same
schemas as data/ when it is written and when it is read. The database loads the built-in data
and then each pack on top (`scriptforge.db.loading._LayeredLoader`).
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
import datetime
import hashlib
import os
from pathlib import Path
import re
from typing import Any, NamedTuple

from scriptforge.io.datafiles import read_yaml, validate
from scriptforge.io.errors import DataError, InputError
from scriptforge.io.fileio import dump_yaml, writing
from scriptforge.io.userfiles import MAX_BYTES

FORMAT = 1
ENV = "SCRIPTFORGE_PACKS"
MANIFEST = "pack.yaml"
OFFICIAL = "official"  # the pack `pack update` installs and every command loads by default
HEADER = "# scriptforge data pack, made by `scriptforge pack import` from the files listed in pack.yaml.\n"
MAX_NOTES = 200  # notes kept in pack.yaml; a translation with 33,000 unknown keys made it 4 MiB
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")

_SCHEMAS = {"characters.yaml": "characters", "night.yaml": "night", "jinxes.yaml": "jinxes", MANIFEST: "pack"}
_LANG_SCHEMAS = {"night.yaml": "night_texts", "reminders.yaml": "reminders", "jinxes.yaml": "jinx_texts",
                 "sources.yaml": "pack_sources", "interface.yaml": "interface"}


# -- the records ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SourceFile:
    """One official file a pack was made from (an entry of pack.yaml's `sources`)."""

    file: str  # its name
    kind: str  # roles, nightsheet, jinxes or translation
    sha256: str
    lang: str | None = None  # a translation's language
    url: str | None = None  # where `pack update` got it

    def as_yaml(self) -> dict[str, str]:
        return {"file": self.file, "kind": self.kind, **({"lang": self.lang} if self.lang else {}),
                "sha256": self.sha256, **({"url": self.url} if self.url else {})}


@dataclass(frozen=True)
class Manifest:
    """pack.yaml. Written in this field order; `files` (the sha256 of every other file of the pack,
    by its path inside the pack) is filled in when the pack is written."""

    name: str
    sources: tuple[SourceFile, ...] = ()
    languages: tuple[str, ...] = ()
    characters: int | None = None
    jinxes: int | None = None
    updated: str = ""  # the date of `pack update`, ISO; "" for `pack import`
    notes: tuple[str, ...] = ()
    files: Mapping[str, str] = field(default_factory=dict)
    format: int = FORMAT

    def as_yaml(self) -> dict[str, Any]:
        return {"name": self.name, "format": self.format, "sources": [s.as_yaml() for s in self.sources],
                "languages": list(self.languages), "characters": self.characters, "jinxes": self.jinxes,
                **({"updated": self.updated} if self.updated else {}),
                **({"notes": list(self.notes)} if self.notes else {}),
                **({"files": dict(self.files)} if self.files else {})}

    @classmethod
    def from_yaml(cls, data: Any, folder: Path) -> "Manifest":
        """The manifest as read, taking only values of the right type (a pack from an older or
        damaged scriptforge still lists and loads under its folder's name)."""
        data = data if isinstance(data, dict) else {}

        def strings(value: Any) -> tuple[str, ...]:
            return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()

        def count(value: Any) -> int | None:
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        sources = tuple(SourceFile(str(s.get("file")), str(s.get("kind")), str(s.get("sha256")),
                                   s.get("lang") if isinstance(s.get("lang"), str) else None,
                                   s.get("url") if isinstance(s.get("url"), str) else None)
                        for s in data.get("sources") or () if isinstance(s, dict) and isinstance(s.get("file"), str))
        name, updated, files = data.get("name"), data.get("updated"), data.get("files")
        return cls(name=name if isinstance(name, str) and name else Path(folder).name, sources=sources,
                   languages=strings(data.get("languages")), characters=count(data.get("characters")),
                   jinxes=count(data.get("jinxes")),
                   updated=str(updated) if isinstance(updated, (str, int, datetime.date)) else "",
                   notes=strings(data.get("notes")),
                   files={k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}
                   if isinstance(files, dict) else {})


class InstalledPack(NamedTuple):
    """A pack in the user's packs folder (`pack list`)."""

    path: Path
    manifest: Manifest


class PackContents(NamedTuple):
    """A pack's data: its manifest and every other file as data, by path inside the pack."""

    manifest: Manifest
    files: dict[str, Any]


# -- where packs live -----------------------------------------------------------------------------


def packs_dir() -> Path:
    # deferred: start-up time
    import platformdirs  # here, not at the top: most commands never ask where packs live

    return Path(platformdirs.user_data_dir("scriptforge")) / "packs"


def resolve_pack(value: str | Path) -> Path:
    """A pack folder given as a path, or the name of a pack in the user's packs folder."""
    path = Path(value)
    if path.is_dir():
        if not (path / MANIFEST).is_file():
            raise InputError("not a data pack (no pack.yaml in this folder)", where=str(path))
        return path
    named = packs_dir() / str(value)
    if os.sep not in str(value) and (named / MANIFEST).is_file():
        return named
    raise InputError(f"no pack folder or installed pack named '{value}' (see 'scriptforge pack list')")


def active_packs(chosen: Iterable[str | Path] = (), defaults: bool = True) -> list[Path]:
    """The packs to load, in order: the installed `official` pack (what `pack update` installs) or,
    when $SCRIPTFORGE_PACKS is set (even empty), the packs it lists (os.pathsep-separated); then
    `chosen`. `defaults=False` (`--no-packs`) loads only `chosen`."""
    env = os.environ.get(ENV)
    if not defaults:
        first: list[str | Path] = []
    elif env is None:
        installed = packs_dir() / OFFICIAL
        if installed.is_symlink() and not installed.exists():
            raise DataError(f"the installed pack '{OFFICIAL}' is damaged (its link points to a folder that is "
                            f"gone); run 'scriptforge pack update' to repair it, or use --no-packs",
                            where=str(installed))
        first = [installed] if (installed / MANIFEST).is_file() else []
    else:
        first = [p for p in env.split(os.pathsep) if p.strip()]
    # deferred: start-up time
    from scriptforge.db.translations import user_layer

    mine = user_layer() if defaults else None  # the user's own translations, above every pack
    return [resolve_pack(p) for p in (*first, *chosen)] + ([mine] if mine else [])


def read_manifest(folder: Path) -> Manifest:
    """A pack's manifest, leniently (`Manifest.from_yaml`): an unreadable one is the folder's name."""
    try:
        data = read_yaml(Path(folder) / MANIFEST)
    except DataError:
        data = None
    return Manifest.from_yaml(data, folder)


def list_packs(folder: Path | None = None) -> list[InstalledPack]:
    """The installed packs (folders with a pack.yaml) in the user's packs folder, by name."""
    folder = folder or packs_dir()
    found = sorted(folder.glob(f"[!.]*/{MANIFEST}")) if folder.is_dir() else []
    return [InstalledPack(path.parent, read_manifest(path.parent)) for path in found]


# -- a pack's files -------------------------------------------------------------------------------


def schema_of(rel: str) -> str:
    """The schema of the pack file at `rel` (its path inside the pack)."""
    parts = rel.split("/")
    schema = _SCHEMAS.get(rel) if len(parts) == 1 else "texts" if parts[1] == "characters" \
        else _LANG_SCHEMAS.get(parts[-1])
    if schema is None:  # a file added by hand: never a reason for a traceback
        raise DataError("not a file a data pack holds (added by hand?); remove it, or run 'scriptforge pack "
                        "update' (or pack import) to make the pack anew", where=rel)
    return schema


def read_pack(path: Path) -> PackContents:
    """Every YAML file of the pack at `path`, each checked against its schema."""
    path = Path(path)
    files = {}
    for file in sorted(path.rglob("*.yaml")):
        rel = file.relative_to(path).as_posix()
        if rel == MANIFEST:
            continue
        data = read_yaml(file)
        validate(data, schema_of(rel), file)
        files[rel] = data
    return PackContents(read_manifest(path), files)


def render_files(files: Mapping[str, Any], manifest: Manifest) -> dict[str, bytes]:
    """The pack's files as bytes, each checked against its schema and by the writer's own check
    (`fileio.dump_yaml`: nothing the reader would refuse) first; the manifest records the sha256
    of every other file (`files`). A file that fails is a DataError, and nothing is made."""
    out = {}
    for rel in sorted(files, key=lambda r: (r.count("/"), r)):
        out[rel] = _render(files[rel], rel, manifest.name)
    digests = {rel: hashlib.sha256(data).hexdigest() for rel, data in out.items()}
    notes = manifest.notes
    if len(notes) > MAX_NOTES:
        notes = (*notes[:MAX_NOTES], f"{len(notes) - MAX_NOTES:,} more notes, left out of pack.yaml (the command "
                                     "that made the pack printed them all)")
    return {MANIFEST: _render(replace(manifest, files=digests, notes=notes).as_yaml(), MANIFEST, manifest.name),
            **out}


def _render(data: Any, rel: str, name: str) -> bytes:
    """One pack file's bytes, after its schema and the writer's check."""
    where = Path(name) / rel
    validate(data, schema_of(rel), where)
    try:
        out = (HEADER + dump_yaml(data, fast=True)).encode("utf-8")
    except ValueError as exc:  # a value the reader would refuse (a NUL, a lone surrogate, NaN)
        raise DataError(str(exc), where=str(where)) from None
    if len(out) > MAX_BYTES:  # the reader would refuse it, and every later command with it
        raise DataError(f"would be {len(out) / (1024 * 1024):.1f} MiB, over the {MAX_BYTES // (1024 * 1024)} MiB "
                        "any data file is read within; nothing was written", where=str(where))
    return out


def damaged_pack(folder: Path) -> DataError | None:
    """A pack whose files do not match the sha256 its pack.yaml records (cut short, changed or
    missing), else None. Read on a cache miss only: the cached database is keyed by these bytes."""
    try:
        data = read_yaml(folder / MANIFEST)
    except DataError as exc:
        return exc
    if isinstance(data, dict) and data.get("partial_texts") is True:
        return None  # the user's own translation layer (scriptforge.db.translations), edited in place
    recorded = data.get("files") if isinstance(data, dict) else None
    if not isinstance(recorded, dict) or not recorded:  # emptied or cut short: the check must not go with it
        return DataError("damaged data pack: pack.yaml records no sha256 of the pack's files (emptied or cut "
                         "short); run 'scriptforge pack update' (or pack import) to repair it", where=str(folder))
    unlisted = sorted(rel for file in folder.rglob("*.yaml")
                      if (rel := file.relative_to(folder).as_posix()) != MANIFEST and rel not in recorded)
    if unlisted:
        return DataError(f"damaged data pack: {unlisted[0]} is not among the files pack.yaml records (pack.yaml "
                         f"cut short, or a file added by hand); run 'scriptforge pack update' (or pack import) to "
                         f"repair it", where=str(folder))
    for rel, digest in recorded.items():
        try:
            actual = hashlib.sha256((folder / rel).read_bytes()).hexdigest()
        except OSError as exc:
            return DataError(f"damaged data pack: {rel} cannot be read ({exc.strerror or exc}); run "
                             f"'scriptforge pack update' (or pack import) to repair it", where=str(folder))
        if actual != digest:
            return DataError(f"damaged data pack: {rel} does not match the sha256 recorded in pack.yaml (cut "
                             f"short or changed); run 'scriptforge pack update' (or pack import) to repair it",
                             where=str(folder))
    return None


# -- installing a pack: all or nothing, in one rename ----------------------------------------------


def write_pack(files: Mapping[str, Any], manifest: Manifest, target: Path,
               blobs: Mapping[str, bytes] | None = None,
               check: Callable[[Path], DataError | None] | None = None) -> Path:
    """Install the pack at `target` all or nothing, in one rename: the YAML `files` (checked and
    rendered by `render_files` before anything is written) and `blobs`, other files written as
    they are (the icons, `scriptforge.packs.icons`).

    `target` is a symbolic link to a version folder beside it (`.NAME.<stamp>`): the new version
    is written whole into its own folder, then a new link replaces the old one with one
    `os.replace`, so a reader sees the old pack or the new one, never a mix. `check(folder)`
    loads the written version folder before the link moves: a problem is raised and the installed
    pack stays as it was, so no update can leave a pack that fails every later command. What a killed run
    left behind (version folders no link points to, half-made links) is deleted first.
    """
    target = Path(target)
    rendered = render_files(files, manifest)
    with writing(target):
        return _install({**(blobs or {}), **rendered}, target, check)


def _install(files: dict[str, bytes], target: Path, check: Callable[[Path], DataError | None] | None) -> Path:
    # deferred: start-up time
    import tempfile  # here, not at the top: every command loads this module through the database

    if not target.is_symlink() and target.exists() and not (target / MANIFEST).is_file() \
            and any(target.iterdir()):
        raise InputError("exists and is not a data pack; choose another --out or --name", where=str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(target)
    version = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".pack"))
    link = target.parent / f".{target.name}.{os.getpid()}.link"
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(version, 0o777 & ~umask)  # mkdtemp makes it private; a pack is as readable as any data
        folders = {version}
        for rel, data in files.items():
            path = version / rel
            if path.parent not in folders:  # one mkdir per folder, not per file (~370 files, 4 folders)
                path.parent.mkdir(parents=True, exist_ok=True)
                folders.add(path.parent)
            path.write_bytes(data)
        problem = (damaged_pack(version) or check(version)) if check else damaged_pack(version)
        if problem is not None:
            raise DataError(f"the new pack would not load, so the installed one is kept: {problem}",
                            where=str(target))
        if target.exists() and not target.is_symlink():  # a pack folder from before links: moved aside once
            os.replace(target, target.parent / f".{target.name}.{os.getpid()}.old")
        link.unlink(missing_ok=True)
        os.symlink(version.name, link)
        os.replace(link, target)
    except BaseException:
        # deferred: start-up time
        import shutil  # here, not at the top (it loads zlib, bz2 and lzma): only a failed install needs it

        link.unlink(missing_ok=True)
        shutil.rmtree(version, ignore_errors=True)
        raise
    _remove_leftovers(target)
    return target


def _remove_leftovers(target: Path) -> None:
    """Version folders, links and old folders of `target` that the link does not point to.

    Only the names `write_pack` makes: not the lock file `.NAME.lock` held meanwhile, nor the
    version folders of a pack whose name starts with NAME and a dot.
    """
    current = os.readlink(target) if target.is_symlink() else None
    ours = re.compile(rf"\.{re.escape(target.name)}\.([a-z0-9_]+\.pack|\d+\.link|\d+\.old)")
    for entry in target.parent.glob(f".{target.name}.*"):
        if entry.name == current or not ours.fullmatch(entry.name):
            continue
        if entry.is_symlink() or entry.is_file():
            entry.unlink(missing_ok=True)
        else:
            # deferred: start-up time
            import shutil  # here, not at the top: only a killed run's leftovers need it

            shutil.rmtree(entry, ignore_errors=True)
