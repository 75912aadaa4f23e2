"""Installing packs: `scriptforge pack import` (files the user has, as a pack of any name) and
`scriptforge pack update` (the official data, fetched or read from a folder, as the pack
`official`, replacing the one installed: the languages asked for join those installed, or replace
them with `--only`).

The English facts and texts are TPI's toolmaker files (roles.json, nightsheet.json, jinxes.json,
published under release.botc.app/resources/data/); translations are `game/<lang>.json` of TPI's
translation repository. Every file is fetched and checked before anything is written; the
install is one rename (`store.write_pack`), so a failure leaves the installed pack as it was.
The network is used here only, and only when asked.
"""

from collections.abc import Iterable
from dataclasses import dataclass
import datetime
from pathlib import Path
from typing import Any, Callable, NamedTuple
import urllib.parse

from scriptforge.db.loading import check_database, load_database
from scriptforge.io.errors import DataError, InputError
from scriptforge.io.fileio import locked
from scriptforge.packs.icons import ICONS_URL, IconUpdate, carried_over, update_icons
from scriptforge.model.languages import codes, default, get as get_language, official
from scriptforge.io.userfiles import MAX_BYTES as USER_FILE_BYTES, decode, parse_json, read_bytes
from scriptforge.packs.build import PackBuild, Source, build_pack, parse_source, read_source
from scriptforge.packs.diff import PackDiff, diff_packs
from scriptforge.db.pack_sources import drop_stale
from scriptforge.db.pack_store import MANIFEST, OFFICIAL, packs_dir, read_manifest, read_pack, write_pack

OFFICIAL_URL = "https://release.botc.app/resources/data/"
TRANSLATIONS_URL = "https://raw.githubusercontent.com/ThePandemoniumInstitute/botc-translations/main/"
ENGLISH_FILES = ("roles.json", "nightsheet.json", "jinxes.json")
TIMEOUT = 20.0
STALE_KEEP, STALE_ENGLISH = "keep", "english"  # `pack update --stale`
MAX_BYTES = USER_FILE_BYTES  # the official files are ~100 kB; anything this big is not one of them


class LanguageSet(NamedTuple):
    """The languages of the installed pack before an update and of the pack that replaces it."""

    before: tuple[str, ...]
    after: tuple[str, ...]

    @property
    def added(self) -> tuple[str, ...]:
        """Languages the update brought (none on a first install: everything is new then)."""
        return tuple(c for c in self.after if self.before and c not in self.before)

    @property
    def removed(self) -> tuple[str, ...]:
        return tuple(c for c in self.before if c not in self.after)


@dataclass
class UpdateResult:
    """What `pack update` did: where the pack was installed, the pack built, its
    languages before and after, and what changed."""

    path: Path
    build: PackBuild
    languages: LanguageSet
    diff: PackDiff | None = None  # what changed against the pack installed before; None on a first install
    icons: IconUpdate | None = None  # the character icons in the pack (`--icons`, or kept from before)
    skipped: tuple[str, ...] = ()  # warnings: official files that hold nothing yet (`{}`), left out


def loads_on(data_dir: Path | None = None, packs: Iterable[Path] = ()) -> Callable[[Path], DataError | None]:
    """`write_pack`'s check: the first problem of loading the written pack on `data_dir` and `packs`."""
    def check(folder: Path) -> DataError | None:
        problems = check_database(data_dir, [*packs, folder])[1]
        return problems[0] if problems else None

    return check


def translation_file(lang: str) -> str:
    """The official translation file of registry language `lang` (game/zh_Hans.json for zh-Hans)."""
    return f"game/{get_language(lang).translation_file}.json"


def interface_file(lang: str) -> str:
    """The official script tool's interface file of registry language `lang` (script/zh_Hans.json)."""
    return f"script/{get_language(lang).translation_file}.json"


def fetch(url: str, timeout: float = TIMEOUT) -> bytes:
    """The body of `url` (at most MAX_BYTES, within `timeout` seconds); InputError naming the URL
    (exit code 2) on any failure."""
    # deferred: start-up time
    from scriptforge.io.fetch import FetchFailed, fetch_url

    try:
        return fetch_url(url, max_bytes=MAX_BYTES, timeout=timeout)[0]
    except FetchFailed as exc:
        raise InputError(f"download failed: {exc}", where=url) from None


def _wanted(langs: tuple[str, ...]) -> list[tuple[str, str | None]]:
    """(file inside the base, language of a translation file) for every file to get."""
    return [*((name, None) for name in ENGLISH_FILES),
            *((translation_file(lang), lang) for lang in dict.fromkeys(langs) if lang != official())]


def get_sources(*, langs: tuple[str, ...], from_dir: Path | None = None, url: str = OFFICIAL_URL,
                translations_url: str = TRANSLATIONS_URL, timeout: float = TIMEOUT,
                progress: Callable[[str], None] = lambda line: None, installed: tuple[str, ...] = (),
                skipped: list[str] | None = None) -> list[Source]:
    """Every official file, read from `from_dir` or fetched, and checked; nothing is written. A
    translation file that holds nothing (`{}`: the official pt-BR, pt-PT and el files in 2026) is
    left out with a line in `skipped`, not a failure: its language simply has no official texts."""
    sources = []
    for name, lang in _wanted(langs):
        if from_dir is not None:
            path = Path(from_dir) / name
            if not path.exists():
                if lang in installed:
                    raise InputError(f"file not found: the installed pack holds {lang}, and an update keeps "
                                     f"every installed language (put its file there, or pass --only with the "
                                     f"languages to keep)", where=str(path))
                raise InputError("file not found (--from needs roles.json, nightsheet.json, jinxes.json "
                                 "and game/<lang>.json for each --lang but en)", where=str(path))
            raw = read_bytes(path, MAX_BYTES)  # a regular file, at most MAX_BYTES
            location = path.resolve().as_uri()
            progress(f"read {path} ({len(raw):,} bytes)")
        else:
            base = translations_url if lang else url
            location = urllib.parse.urljoin(base if base.endswith("/") else base + "/", name)
            progress(f"fetching {location}")
            raw = fetch(location, timeout)
        if lang and _empty(raw, location):
            if skipped is not None:
                skipped.append(f"{location}: the official {lang} translation holds no texts yet ({{}}); "
                               f"{lang} is left out of the pack")
            continue
        source = parse_source(raw, Path(name), lang, url=location)
        expected = "translation" if lang else name.removesuffix(".json")
        if source.kind != expected:
            raise InputError(f"expected a {expected} file, found a {source.kind} file", where=location)
        sources.append(source)
    for lang in dict.fromkeys(langs):
        if lang != official():
            found = _interface_source(lang, from_dir, translations_url, timeout, progress)
            if found is not None:
                sources.append(found)
    return sources


def _empty(raw: bytes, where: str) -> bool:
    """Whether an official file is an empty JSON object (anything unreadable is parse_source's to report)."""
    if len(raw) > 64:
        return False
    try:
        return parse_json(decode(raw, where), where) == {}
    except InputError:
        return False


def _interface_source(lang: str, from_dir: Path | None, translations_url: str, timeout: float,
                      progress: Callable[[str], None]) -> Source | None:
    """The official script tool's interface file of `lang` (script/<code>.json), read and checked;
    None where there is none (a folder without it, a language the official tool does not have):
    the sheet headings then come from scriptforge's own words, marked where they are English."""
    name = interface_file(lang)
    if from_dir is not None:
        path = Path(from_dir) / name
        if not path.exists():
            progress(f"no {path}: {lang} headings use scriptforge's own interface words")
            return None
        raw, location = read_bytes(path, MAX_BYTES), path.resolve().as_uri()
        progress(f"read {path} ({len(raw):,} bytes)")
    else:
        base = translations_url if translations_url.endswith("/") else translations_url + "/"
        location = urllib.parse.urljoin(base, name)
        progress(f"fetching {location}")
        try:
            raw = fetch(location, timeout)
        except InputError as exc:
            progress(f"{exc}: {lang} headings use scriptforge's own interface words")
            return None
    source = parse_source(raw, Path(name), lang, url=location)
    if source.kind != "interface":
        raise InputError(f"expected the script tool's interface file, found a {source.kind} file", where=location)
    return source


def installed_languages(target: Path) -> tuple[str, ...]:
    """The languages of the pack installed at `target` (none where there is none, or it is damaged)."""
    if not (target / MANIFEST).is_file():
        return ()
    try:
        manifest = read_manifest(target)
    except (InputError, OSError):
        return ()
    return tuple(code for code in manifest.languages if code in codes())


def wanted_languages(langs: tuple[str, ...], installed: tuple[str, ...], only: bool) -> tuple[str, ...]:
    """The languages the new pack holds: those asked for added to those installed (`only`: those
    asked for alone); with neither, the default sheet language."""
    wanted = langs if only else (*installed, *langs)
    return tuple(dict.fromkeys(wanted)) or (default("sheet"),)


def update_pack(*, langs: tuple[str, ...] = (), only: bool = False, from_dir: Path | None = None,
                url: str = OFFICIAL_URL, translations_url: str = TRANSLATIONS_URL, timeout: float = TIMEOUT,
                target: Path | None = None, progress: Callable[[str], None] = lambda line: None,
                stale: str = STALE_KEEP, icons: bool = False, icons_url: str = ICONS_URL,
                icon_bar=None) -> UpdateResult:
    """Get and check every file, build the pack `official` on the built-in data, install it in one
    rename, and say what changed against the pack that was installed before. The languages asked
    for join those installed (`only`: they replace them).

    `stale`: what becomes of an official translation whose English changed since it was made:
    `keep` (the default: it prints, marked as an old translation; the official app shows the same
    text, and a reworded rule is usually still close) or `english` (it is left out of the pack, so
    the English prints instead, marked as a fallback). With `icons`, the character icons too
    (`scriptforge.packs.icons`: from `icons_url`, or `from_dir/icons/`; `icon_bar(total)` is the progress
    bar); without, the installed pack's icons are kept."""
    target = Path(target) if target else packs_dir() / OFFICIAL
    installed = installed_languages(target)
    langs = wanted_languages(langs, installed, only)
    skipped: list[str] = []
    sources = get_sources(langs=langs, from_dir=from_dir, url=url, translations_url=translations_url,
                          timeout=timeout, progress=progress, installed=installed, skipped=skipped)
    base_db = load_database()  # the built-in data only: the new pack replaces the old one, not layers on it
    roles = next(s.data for s in sources if s.kind == "roles")
    with locked(target, follow_symlinks=False):  # the link: each version folder is another file
        installed_pack = target if (target / MANIFEST).is_file() else None
        try:
            old = read_pack(target).files if installed_pack else None
        except DataError:
            old = None  # a damaged installed pack: replaced, with nothing to compare against
        build = build_pack(sources, OFFICIAL, base_db, updated=datetime.date.today().isoformat(), previous=old)
        if stale == STALE_ENGLISH:
            drop_stale(build.files, build.stale)
        if icons:
            icon_update = update_icons(roles, installed=installed_pack, from_dir=from_dir, url=icons_url,
                                       timeout=timeout, bar=icon_bar)
        else:
            icon_update = carried_over(installed_pack, (r["id"] for r in roles))
        build.blobs.update(icon_update.files)
        path = write_pack(build.files, build.manifest, target, build.blobs, check=loads_on())
    diff = diff_packs(old, build.files, base_db) if old is not None else None
    return UpdateResult(path=path, build=build, languages=LanguageSet(installed, build.manifest.languages), diff=diff,
                        icons=icon_update if icons or icon_update.count else None, skipped=tuple(skipped))


def import_pack(paths: Iterable[str | Path], *, name: str | None = None, out: Path | None = None,
                lang: str | None = None, base_db: Any = None, data_dir: Path | None = None,
                packs: Iterable[str | Path] = ()) -> tuple[Path, PackBuild]:
    """`scriptforge pack import`: read, recognise and check the files, build the pack, write it
    (replacing a pack of that name in one rename).

    Names and jinx pairs the files do not define are looked up in `base_db`, else in the data
    (`data_dir`) with `packs` loaded, except the pack being replaced: a pack never depends on its
    own older version."""
    packs = list(packs)
    sources = [read_source(Path(p), lang) for p in paths]
    if not sources:
        raise InputError("no files given")
    if name is None:
        name = Path(out).name if out else OFFICIAL
    target = Path(out) if out else packs_dir() / name
    if base_db is None:
        base_db = load_database(data_dir, [p for p in packs if Path(p).resolve() != target.resolve()])
    build = build_pack(sources, name, base_db)
    with locked(target, follow_symlinks=False):  # the link itself: each version folder is another file
        try:
            return write_pack(build.files, build.manifest, target, build.blobs,
                              check=loads_on(data_dir, [Path(p) for p in packs if Path(p).resolve() != target.resolve()])), build
        except DataError as exc:  # a value the input schemas let through but the pack's do not
            raise InputError(f"the pack these files make fails its own schema ({exc}); fix the value in the "
                             "input", where=", ".join(str(s.path) for s in sources)) from None
