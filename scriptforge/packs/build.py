"""Data packs: official data files turned into the project's own data layout, and what changed
between two versions of them.

A pack is a folder laid out like data/ (characters.yaml, night.yaml, jinxes.yaml,
<lang>/characters/<id>.yaml, <lang>/night.yaml, <lang>/reminders.yaml, <lang>/jinxes.yaml) plus a
pack.yaml manifest (name, and the sha256 of each source file). Every file is checked by the same
schemas as data/. The database loads the built-in data and then each pack on top (see
`scriptforge.database._LayeredLoader` for the merge rules).

Packs are made on the user's machine from files the user has; none ships with scriptforge.
"""

from dataclasses import dataclass, field
import difflib
from functools import cache
import hashlib
import json
import os
from pathlib import Path
import re
import shutil
import tempfile
from typing import Any

from scriptforge.datafiles import read_yaml, schema_path, validate
from scriptforge.errors import DataError, InputError
from scriptforge.fileio import dump_yaml, locked, writing
from scriptforge.languages import codes, official
from scriptforge.ids import NIGHT_STEPS, name_key, normalize_id, place, token_id
from scriptforge.model import NIGHT, NIGHT_REMINDER_FIELDS, NIGHT_TABLE, NIGHTS
from scriptforge.userfiles import decode, parse_json, read_bytes
from scriptforge.rules.brackets import read_brackets, selection_marks
from scriptforge.findings import short

FORMAT = 1
KINDS = ("roles", "nightsheet", "jinxes", "translation")
ENV = "SCRIPTFORGE_PACKS"
MANIFEST = "pack.yaml"
OFFICIAL = "official"  # the pack `pack update` installs and every command loads by default
STEP_NAMES_EN = {"dusk": "Dusk", "minioninfo": "Minion Info", "demoninfo": "Demon Info", "dawn": "Dawn"}
_HEADER = "# scriptforge data pack, made by `scriptforge pack import` from the files listed in pack.yaml.\n"


# -- where packs live ---------------------------------------------------------------------------


def packs_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("scriptforge")) / "packs"


def resolve_pack(value: str | Path) -> Path:
    """A pack folder given as a path, or the name of a pack in the user's packs folder."""
    path = Path(value)
    if path.is_dir():
        if not (path / "pack.yaml").is_file():
            raise InputError("not a data pack (no pack.yaml in this folder)", where=str(path))
        return path
    named = packs_dir() / str(value)
    if os.sep not in str(value) and (named / "pack.yaml").is_file():
        return named
    raise InputError(f"no pack folder or installed pack named '{value}' (see 'scriptforge pack list')")


def active_packs(chosen=(), defaults: bool = True) -> list[Path]:
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
        first = [installed] if (installed / "pack.yaml").is_file() else []
    else:
        first = [p for p in env.split(os.pathsep) if p.strip()]
    from scriptforge.translations import user_layer

    mine = user_layer() if defaults else None  # the user's own translations, above every pack
    return [resolve_pack(p) for p in (*first, *chosen)] + ([mine] if mine else [])


def list_packs(folder: Path | None = None) -> list[dict]:
    """The installed packs (folders with a pack.yaml) in the user's packs folder, by name."""
    folder = folder or packs_dir()
    rows = []
    for path in sorted(folder.glob("[!.]*/pack.yaml")) if folder.is_dir() else ():
        try:
            manifest = read_yaml(path)
        except DataError:
            manifest = {}
        manifest = manifest if isinstance(manifest, dict) else {}
        rows.append({"name": manifest.get("name", path.parent.name), "path": str(path.parent),
                     "characters": manifest.get("characters"), "jinxes": manifest.get("jinxes"),
                     "languages": manifest.get("languages", []),
                     "sources": [s.get("file") for s in manifest.get("sources", []) if isinstance(s, dict)]})
    return rows


# -- reading official files ---------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    path: Path
    kind: str
    data: Any  # the parsed JSON, checked against the kind's schema
    sha256: str
    lang: str | None = None
    url: str | None = None  # where `pack update` fetched it from


def recognise(data) -> str | None:
    """Which official file `data` is, by its content (never by its file name)."""
    if isinstance(data, list) and data and all(isinstance(x, dict) for x in data):
        if all("jinx" in x for x in data):
            return "jinxes"
        if all("team" in x or "ability" in x for x in data if x.get("id") != "_meta") and \
                not any(x.get("id") == "_meta" for x in data):
            return "roles"
    if isinstance(data, dict):
        if all(n.official in data for n in NIGHT_TABLE):
            return "nightsheet"
        if isinstance(data.get("roles"), dict):
            return "translation"
    return None


@cache
def _input_validator(kind: str):
    from jsonschema import Draft7Validator

    return Draft7Validator(json.loads(schema_path(f"pack_{kind}").read_text(encoding="utf-8")))




def read_source(path: Path, lang: str | None = None) -> Source:
    """Read one official data file, recognise it and check it; InputError naming file and place."""
    path = Path(path)
    return parse_source(read_bytes(path), path, lang)


def parse_source(raw: bytes, path: Path, lang: str | None = None, url: str | None = None) -> Source:
    """Recognise and check the bytes of one official data file (through the user-file guard);
    errors name `url` (else `path`)."""
    where = url or str(path)
    data = parse_json(decode(raw, where), where)
    kind = recognise(data)
    if kind is None:
        raise InputError("not an official data file scriptforge knows (a roles file, a night sheet, "
                         "a jinx file or a translation file)", where=where)
    check_source(data, kind, where)
    if kind == "translation":
        if lang is None:
            raise InputError("a translation file needs --lang (the language of its texts)", where=where)
        if lang not in codes():
            raise InputError(f"language '{lang}' is not one of {', '.join(codes())}", where=where)
    return Source(path, kind, data, hashlib.sha256(raw).hexdigest(), lang if kind == "translation" else None, url)


def check_source(data: Any, kind: str, where: str | Path) -> None:
    """InputError naming the JSON pointer of the first place where `data` is no `kind` file."""
    error = next(iter(sorted(_input_validator(kind).iter_errors(data), key=lambda e: list(e.absolute_path))), None)
    if error is not None:
        steps = list(error.absolute_path)
        record = data[steps[0]] if steps and isinstance(data, list) else None
        named = f" (record '{record['id']}')" if isinstance(record, dict) and isinstance(record.get("id"), str) else ""
        raise InputError(f"{kind} file, {place(steps)}{named}: {short(error.message, 120)}", where=str(where))


# -- building a pack ----------------------------------------------------------------------------


@dataclass
class PackBuild:
    name: str
    files: dict[str, Any]  # path inside the pack -> data (YAML documents)
    warnings: list[str] = field(default_factory=list)  # things the user should look at
    notes: list[str] = field(default_factory=list)  # things worth knowing, also kept in pack.yaml
    stale: dict[str, list[str]] = field(default_factory=dict)  # lang -> translations older than their English
    blobs: dict[str, bytes] = field(default_factory=dict)  # other files, written as they are (icons/)


_SCHEMAS = {"characters.yaml": "characters", "night.yaml": "night", "jinxes.yaml": "jinxes", "pack.yaml": "pack"}
_LANG_SCHEMAS = {"night.yaml": "night_texts", "reminders.yaml": "reminders", "jinxes.yaml": "jinx_texts",
                 "sources.yaml": "pack_sources"}


def schema_of(rel: str) -> str:
    parts = rel.split("/")
    if len(parts) == 1:
        return _SCHEMAS[rel]
    return "texts" if parts[1] == "characters" else _LANG_SCHEMAS[parts[-1]]


def build_pack(sources: list[Source], name: str, base_db=None, check_ids: bool = True,
               updated: str | None = None, previous: dict | None = None) -> PackBuild:
    """The pack's files from already-read sources; `base_db` (the built-in data) is used to resolve
    names in brackets and ids the pack does not define. `check_ids=False` keeps jinxes between
    characters neither defines (for comparing jinx files on their own). `previous` (the files of
    the pack this one replaces) carries over the English each unchanged translation was made from
    (`scriptforge.pack_sources`)."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}", name or ""):
        raise InputError(f"pack name '{name}' must be letters, digits, '.', '_' or '-' (at most 64)")
    by_kind: dict[tuple, Source] = {}
    for src in sources:
        key = (src.kind, src.lang)
        if key in by_kind:
            raise InputError(f"two {src.kind} files given ({by_kind[key].path} and {src.path}); give one",
                             where=str(src.path))
        by_kind[key] = src
    out = PackBuild(name, {})
    base_ids = set(base_db.characters) if base_db else set()
    roles = by_kind.get(("roles", None))
    records: dict[str, dict] = {}
    labels_en: dict[str, str] = {}
    if roles:
        records = _characters(roles, out, labels_en, base_db)
    known = set(records) | base_ids
    night = by_kind.get(("nightsheet", None))
    if night:
        lists = {n.key: [normalize_id(i) for i in night.data[n.official]] for n in NIGHT_TABLE}
        for night_key, ids in lists.items():
            dup = sorted({i for i in ids if ids.count(i) > 1})
            if dup or "" in ids:
                raise InputError(f"nightsheet file, /{NIGHT[night_key].official}: "
                                 f"{'repeats ' + ', '.join(dup) if dup else 'an id without letters'}",
                                 where=str(night.path))
        out.files["night.yaml"] = lists
    wakes = out.files.get("night.yaml") or (
        {n: list(base_db.night_order(n)) if base_db else [] for n in NIGHTS})
    if roles:
        _night_texts(roles, official(), {i: tuple(r.get(n.official_reminder) for n in NIGHT_TABLE)
                                   for i, r in ((normalize_id(r["id"]), r) for r in roles.data)},
                     wakes, out, base_db, set(records))
        if labels_en:
            out.files[f"{official()}/reminders.yaml"] = labels_en
    pairs: list[list[str]] = []
    jinx = by_kind.get(("jinxes", None))
    if jinx:
        texts = {}
        for i, entry in enumerate(jinx.data):
            a = normalize_id(entry["id"])
            for k, other in enumerate(entry["jinx"]):
                b = normalize_id(other["id"])
                if check_ids and (a not in known or b not in known):
                    missing = a if a not in known else b
                    out.warnings.append(f"{jinx.path.name}: /{i}/jinx/{k}: jinx {a}-{b} left out: "
                                        f"no character '{missing}'")
                    continue
                if any({a, b} == set(p) for p in pairs):
                    continue
                pairs.append([a, b])
                texts[f"{a}-{b}"] = other["reason"]
        out.files["jinxes.yaml"] = {"jinxes": pairs}
        if texts:
            out.files[f"{official()}/jinxes.yaml"] = texts
    for (kind, lang), src in sorted(by_kind.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        if kind == "translation":
            _translation(src, lang, out, records, pairs, wakes, base_db)
    from scriptforge.pack_sources import record_sources

    out.stale = record_sources(out.files, previous)
    chars = out.files.get("characters.yaml", {}).get("characters", [])
    manifest = {
        "name": name,
        "format": FORMAT,
        "sources": [{"file": s.path.name, "kind": s.kind, **({"lang": s.lang} if s.lang else {}), "sha256": s.sha256,
                     **({"url": s.url} if s.url else {})}
                    for s in sorted(by_kind.values(), key=lambda s: (KINDS.index(s.kind), s.lang or ""))],
        "languages": sorted({rel.split("/")[0] for rel in out.files if "/" in rel}),
        "characters": len(chars),
        "jinxes": len(pairs),
        **({"updated": updated} if updated else {}),
    }
    if out.notes or out.warnings:
        manifest["notes"] = [*out.warnings, *out.notes]
    out.files["pack.yaml"] = manifest
    return out


def _characters(roles: Source, out: PackBuild, labels: dict, base_db) -> dict[str, dict]:
    records: dict[str, dict] = {}
    names = {name_key(r["name"]): normalize_id(r["id"]) for r in roles.data}

    def resolve(text):
        found = names.get(name_key(text))
        if found:
            return found
        hits = base_db.find(text) if base_db else []
        return hits[0].id if len(hits) == 1 else None

    for i, role in enumerate(roles.data):
        char_id = normalize_id(role["id"])
        if not char_id or not char_id[0].isalpha():
            raise InputError(f"roles file, /{i}/id: '{role['id']}' is not a character id", where=str(roles.path))
        if char_id in records:
            raise InputError(f"roles file, /{i}/id (record '{char_id}'): duplicate id", where=str(roles.path))
        edition = re.sub(r"[^a-z]", "", role.get("edition", "").lower()) or "custom"
        rec: dict = {"id": char_id, "team": role["team"], "edition": edition}
        for key, src in (("reminders", "reminders"), ("reminders_global", "remindersGlobal")):
            tokens = []
            for label in role.get(src, ()):
                token = token_id(label)
                labels.setdefault(token, label)
                tokens.append(token)
            if tokens:
                rec[key] = tokens
        setup = _setup_record(role, char_id, resolve, base_db)
        if setup:
            rec["setup"] = setup
        for clause in setup.get("unmodelled", ()):
            if clause == NO_BRACKET:
                out.notes.append(f"{char_id}: setup is true but the ability has no [...] bracket; recorded as "
                                 f"not modelled")
            else:
                out.warnings.append(f"{roles.path.name}: /{i}/ability (record '{char_id}'): setup wording "
                                    f"'{clause}' is not understood; its effect is not counted")
        records[char_id] = rec
        texts = {"name": role["name"], "ability": role["ability"]}
        if role.get("flavor"):
            texts["flavor"] = role["flavor"]
        out.files[f"{official()}/characters/{char_id}.yaml"] = texts
    out.files["characters.yaml"] = {"characters": list(records.values())}
    return records


NO_BRACKET = "setup: true without a [...] bracket"


@cache
def _shipped_setup_facts() -> dict:
    from scriptforge.paths import DATA_DIR

    return (read_yaml(DATA_DIR / "setup.yaml") or {}).get("without_bracket", {})


def _setup_record(role: dict, char_id: str, resolve, base_db) -> dict:
    """The structured setup effect of one roles.json record: its bracket read, plus the facts
    data/setup.yaml gives for official characters whose bracket does not say them; a setup flag
    nothing explains is recorded as unmodelled (validate reports it)."""
    reading = read_brackets(role["ability"], [role["name"]], resolve)
    setup = reading.effect.as_dict() if reading.effect is not None else {}
    facts = base_db.setup_without_bracket if base_db else _shipped_setup_facts()
    if char_id in facts:
        setup.update(facts[char_id])
    elif role.get("setup") and not reading.brackets:
        setup["unmodelled"] = [NO_BRACKET]
    marks = selection_marks(role.get("special"))
    if marks:
        setup["selection"] = list(marks)
    return setup


def _steps(lang: str, base_db, given: dict | None = None) -> dict:
    """The four night steps' texts in `lang`: those a translation file gives, else the names we have."""
    steps = {}
    for step in NIGHT_STEPS:
        name = (base_db.steps[step].names.get(lang) if base_db and step in base_db.steps else None)
        steps[step] = {"name": name or STEP_NAMES_EN[step], **(given or {}).get(step, {})}
    return steps


def _night_texts(src: Source, lang: str, reminders: dict, wakes: dict, out: PackBuild, base_db, has_text: set,
                 steps: dict | None = None):
    night: dict = {"steps": _steps(lang, base_db, steps), **{n: {} for n in NIGHTS}}
    for char_id, pair in reminders.items():
        for key, text in zip(NIGHTS, pair):
            if not text:
                continue
            if char_id not in wakes[key]:
                out.warnings.append(f"{src.path.name}: '{char_id}' has a {key.replace('_', ' ')} reminder but is "
                                    f"not on that night's list; the reminder is left out")
            elif char_id not in has_text:
                out.warnings.append(f"{src.path.name}: '{char_id}' has a night reminder but no {lang} name and "
                                    f"ability; the reminder is left out")
            else:
                night[key][char_id] = text
    if any(night[n] for n in NIGHTS) or steps:
        out.files[f"{lang}/night.yaml"] = night


_TRANSLATION_KEYS = ("roles", "reminders", "jinxes")
#: Parts of an official translation file that are read elsewhere or not needed: no warning.
_TRANSLATION_OTHER = ("editions",)
_ROLE_KEYS = {"name": "name", "ability": "ability", "flavor": "flavor", **{n.translation: n.key for n in NIGHT_TABLE}}


def _translation(src: Source, lang: str, out: PackBuild, records: dict, pairs: list, wakes: dict, base_db):
    """A translation file's texts, all of them: characters' texts and night reminders, the four night
    steps (`dusk`, `minioninfo`, `demoninfo`, `dawn` among the roles), reminder labels, jinx texts
    (matched in either order to a pair of the jinx file, the built-in data or a loaded pack).
    Whatever cannot be kept is one warning saying what and why."""
    name = src.path.name
    known = set(records) | (set(base_db.characters) if base_db else set())
    for key in src.data:
        if key not in (*_TRANSLATION_KEYS, *_TRANSLATION_OTHER):
            out.warnings.append(f"{name}: /{key}: not a part of a translation file scriptforge reads "
                                f"({', '.join(_TRANSLATION_KEYS)}); left out")
    with_text = set()
    night: dict[str, tuple] = {}
    steps: dict[str, dict] = {}
    for raw_id, entry in src.data["roles"].items():
        char_id = normalize_id(raw_id)
        for extra in sorted(set(entry) - set(_ROLE_KEYS)):
            out.warnings.append(f"{name}: /roles/{raw_id}/{extra}: not a text scriptforge reads; left out")
        if char_id in NIGHT_STEPS:
            steps[char_id] = {_ROLE_KEYS[k]: v for k, v in entry.items() if k in _ROLE_KEYS and v}
            for k in ("ability", "flavor"):
                if entry.get(k):
                    out.warnings.append(f"{name}: /roles/{raw_id}/{k}: a night step has no {k}; left out")
                    steps[char_id].pop(k, None)
            continue
        if char_id not in known:
            out.warnings.append(f"{name}: /roles/{raw_id}: no character '{char_id}' in the official files, the "
                                f"built-in data or a loaded pack; left out")
            continue
        texts = {k: entry[k] for k in ("name", "ability", "flavor") if entry.get(k)}
        if "name" in texts and "ability" in texts:
            out.files[f"{lang}/characters/{char_id}.yaml"] = texts
            with_text.add(char_id)
        elif texts:
            out.warnings.append(f"{name}: /roles/{raw_id}: a name and an ability are both needed; "
                                f"the texts are left out")
        night[char_id] = tuple(entry.get(n.translation) for n in NIGHT_TABLE)
    if base_db:
        with_text |= {c.id for c in base_db.characters.values() if lang in c.texts}
    _night_texts(src, lang, night, wakes, out, base_db, with_text, steps)
    labels = _translated_labels(src, records, base_db, out)
    if labels:
        out.files[f"{lang}/reminders.yaml"] = labels
    jinx_texts = _translated_jinxes(src, pairs, base_db, out)
    if jinx_texts:
        out.files[f"{lang}/jinxes.yaml"] = jinx_texts


def _translated_labels(src: Source, records: dict, base_db, out: PackBuild) -> dict[str, str]:
    """Reminder labels: `"English label": label`, `character: [labels in token order]` or
    `character: {"English label": label}`."""
    tokens = {rec["id"]: [*rec.get("reminders", ()), *rec.get("reminders_global", ())] for rec in records.values()}
    if base_db:
        for ch in base_db.characters.values():
            tokens.setdefault(ch.id, [*ch.reminders, *ch.reminders_global])
    labels: dict[str, str] = {}
    every = {t for own in tokens.values() for t in own}

    def keep(token: str, label: str, where: str) -> None:
        if token not in every:
            out.warnings.append(f"{src.path.name}: {where}: no reminder token '{token}' on any character; "
                                f"the label '{label}' is left out")
            return
        if labels.setdefault(token, label) != label:
            out.warnings.append(f"{src.path.name}: {where}: token '{token}' already has the label "
                                f"'{labels[token]}'; '{label}' is left out")

    for key, value in src.data.get("reminders", {}).items():
        where = f"/reminders/{key}"
        if isinstance(value, str):
            keep(token_id(key), value, where)
        elif isinstance(value, dict):
            for english, label in value.items():
                keep(token_id(english), label, f"{where}/{english}")
        else:  # a character's labels, in the order of its reminder tokens
            own = tokens.get(normalize_id(key))
            if own is None:
                out.warnings.append(f"{src.path.name}: {where}: no character '{normalize_id(key)}'; "
                                    f"its {len(value)} label(s) are left out")
                continue
            for i, label in enumerate(value):
                if i < len(own):
                    keep(own[i], label, f"{where}/{i}")
                else:
                    out.warnings.append(f"{src.path.name}: {where}/{i}: '{normalize_id(key)}' has "
                                        f"{len(own)} reminder token(s); label '{label}' is left out")
    return labels


def _translated_jinxes(src: Source, pairs: list, base_db, out: PackBuild) -> dict[str, str]:
    ours = {frozenset(p): "-".join(p) for p in pairs}
    if base_db:
        for j in base_db.jinxes:
            ours.setdefault(frozenset(j.characters), j.key)
    jinx_texts = {}
    for key, text in src.data.get("jinxes", {}).items():
        a, _, b = key.partition("-")
        pair = ours.get(frozenset((normalize_id(a), normalize_id(b))))
        if pair:
            jinx_texts[pair] = text
        else:
            out.warnings.append(f"{src.path.name}: /jinxes/{key}: no jinx {normalize_id(a)}-{normalize_id(b)} in "
                                f"the jinx file, the built-in data or a loaded pack; left out (import the "
                                f"official jinxes.json with it)")
    return jinx_texts


def render_files(build: PackBuild) -> dict[str, bytes]:
    """The pack's files as bytes, each checked against its schema first; pack.yaml records the
    sha256 of every other file (`files`), which the database checks before it uses the pack."""
    out = {}
    for rel in sorted(build.files, key=lambda r: (r.count("/"), r)):
        if rel == MANIFEST:
            continue
        data = build.files[rel]
        validate(data, schema_of(rel), Path(build.name) / rel)
        out[rel] = (_HEADER + _dump_yaml(data)).encode("utf-8")
    manifest = {**build.files[MANIFEST], "files": {rel: hashlib.sha256(data).hexdigest() for rel, data in out.items()}}
    validate(manifest, schema_of(MANIFEST), Path(build.name) / MANIFEST)
    return {MANIFEST: (_HEADER + _dump_yaml(manifest)).encode("utf-8"), **out}


def _dump_yaml(data) -> str:
    """`fileio.dump_yaml` with libyaml's emitter where there is one: the same bytes (checked on the
    whole official pack), 4x faster over a pack's ~370 files."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", None)
    if dumper is None:
        return dump_yaml(data)
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, width=100000)


def write_pack(build: PackBuild, target: Path) -> Path:
    """Install the pack at `target` all or nothing, in one rename.

    `target` is a symbolic link to a version folder beside it (`.NAME.<stamp>`): the new version
    is written whole into its own folder, then a new link replaces the old one with one
    `os.replace`, so a reader sees the old pack or the new one, never a mix. What a killed run
    left behind (version folders no link points to, half-made links) is deleted first.
    """
    target = Path(target)
    files = render_files(build)
    with writing(target):
        return _install({**build.blobs, **files}, target)  # blobs: the icons (scriptforge.icons)


def _install(files: dict[str, bytes], target: Path) -> Path:
    if not target.is_symlink() and target.exists() and not (target / "pack.yaml").is_file() \
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
        for rel, data in files.items():
            path = version / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        if target.exists() and not target.is_symlink():  # a pack folder from before links: moved aside once
            os.replace(target, target.parent / f".{target.name}.{os.getpid()}.old")
        link.unlink(missing_ok=True)
        os.symlink(version.name, link)
        os.replace(link, target)
    except BaseException:
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
            shutil.rmtree(entry, ignore_errors=True)


def import_pack(paths, *, name: str | None = None, out: Path | None = None, lang: str | None = None,
                base_db=None, data_dir: Path | None = None, packs=()) -> tuple[Path, PackBuild]:
    """`scriptforge pack import`: read, recognise and check the files, build the pack, write it.

    Names and jinx pairs the files do not define are looked up in `base_db`, else in the data
    (`data_dir`) with `packs` loaded, except the pack being replaced: a pack never depends on its
    own older version."""
    sources = [read_source(Path(p), lang) for p in paths]
    if not sources:
        raise InputError("no files given")
    if name is None:
        name = Path(out).name if out else OFFICIAL
    target = Path(out) if out else packs_dir() / name
    if base_db is None:
        from scriptforge.database import load_database

        base_db = load_database(data_dir, [p for p in packs if Path(p).resolve() != target.resolve()])
    build = build_pack(sources, name, base_db)
    with locked(target, follow_symlinks=False):  # the link itself: each version folder is another file
        try:
            return write_pack(build, target), build
        except DataError as exc:  # a value the input schemas let through but the pack's do not
            raise InputError(f"the pack these files make fails its own schema ({exc}); fix the value in the "
                             "input", where=", ".join(str(s.path) for s in sources)) from None


# -- comparing two versions of the official data ------------------------------------------------


def pack_files(path: Path, lang: str | None = None) -> dict[str, object]:
    """The files of a pack (a pack folder), or of the pack the official files would make
    (a folder of official JSON files, or one file), as data keyed by path inside the pack."""
    path = Path(path)
    if path.is_dir() and (path / "pack.yaml").is_file():
        out = {}
        for file in sorted(path.rglob("*.yaml")):
            rel = file.relative_to(path).as_posix()
            data = read_yaml(file)
            if rel != "pack.yaml":
                validate(data, schema_of(rel), file)
            out[rel] = data
        return out
    if path.is_dir():
        sources = []
        for file in sorted(path.glob("*.json")):
            try:
                sources.append(read_source(file, lang))
            except InputError:
                continue  # a folder may hold other JSON files (a script schema, scripts)
        if not sources:
            raise InputError("holds neither a data pack (pack.yaml) nor official data files", where=str(path))
    else:
        sources = [read_source(path, lang)]
    return build_pack(sources, "compared", check_ids=False).files


_TEXT_FIELDS = ("name", "ability", "flavor")


def _view(files: dict) -> dict:
    """What a diff compares: facts, English texts, night lists, jinxes."""
    chars = {r["id"]: r for r in files.get("characters.yaml", {}).get("characters", [])}
    texts = {rel.split("/")[-1][:-5]: data for rel, data in files.items() if rel.startswith(f"{official()}/characters/")}
    night_texts = files.get(f"{official()}/night.yaml") or {}
    for night_name, key in NIGHT_REMINDER_FIELDS.items():
        for char_id, text in night_texts.get(night_name, {}).items():
            texts.setdefault(char_id, {})[key] = text
    labels = files.get(f"{official()}/reminders.yaml") or {}
    jinx_texts = files.get(f"{official()}/jinxes.yaml") or {}
    jinxes = {frozenset(p): (tuple(p), jinx_texts.get("-".join(p))) for p in files.get("jinxes.yaml", {}).get("jinxes", [])}
    night = files.get("night.yaml")
    return {"characters": chars, "texts": texts, "labels": labels, "jinxes": jinxes, "night": night}


def _moves(old: list, new: list) -> list[dict]:
    both = set(old) & set(new)
    a = [i for i in old if i in both]
    b = [i for i in new if i in both]
    kept = set()
    for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        kept.update(a[block.a:block.a + block.size])
    out = [{"id": i, "change": "moved", "old": old.index(i) + 1, "new": new.index(i) + 1}
           for i in new if i in both and i not in kept]
    out += [{"id": i, "change": "added", "new": new.index(i) + 1} for i in new if i not in both]
    out += [{"id": i, "change": "removed", "old": old.index(i) + 1} for i in old if i not in both]
    return out


def diff_packs(old_files: dict, new_files: dict, our_db=None) -> dict:
    """What changed from OLD to NEW; `our_db` (the built-in data) says which of our translations
    of changed English texts are stale."""
    old, new = _view(old_files), _view(new_files)
    oc, nc = old["characters"], new["characters"]

    def name(char_id, view):
        return view["texts"].get(char_id, {}).get("name", char_id)

    report: dict = {
        "added": [{"id": i, "name": name(i, new), "team": nc[i]["team"]} for i in nc if i not in oc],
        "removed": [{"id": i, "name": name(i, old), "team": oc[i]["team"]} for i in oc if i not in nc],
        "changed": [],
        "night": {},
        "jinxes": {"added": [], "removed": [], "changed": []},
        "stale": [],
    }
    changed_units: list[tuple[str, object]] = []  # (unit key, new English text)
    for char_id in (i for i in nc if i in oc):
        for key in ("team", "edition", "setup"):
            if oc[char_id].get(key) != nc[char_id].get(key):
                report["changed"].append({"id": char_id, "field": key, "old": oc[char_id].get(key),
                                          "new": nc[char_id].get(key)})
        for key in ("reminders", "reminders_global"):
            was = [old["labels"].get(t, t) for t in oc[char_id].get(key, ())]
            now = [new["labels"].get(t, t) for t in nc[char_id].get(key, ())]
            if was != now:
                report["changed"].append({"id": char_id, "field": key, "old": was, "new": now})
    for char_id in (i for i in new["texts"] if i in old["texts"]):
        for key in (*_TEXT_FIELDS, *NIGHT_REMINDER_FIELDS.values()):
            was, now = old["texts"][char_id].get(key), new["texts"][char_id].get(key)
            if was != now:
                report["changed"].append({"id": char_id, "field": key, "old": was, "new": now})
                if now is not None:
                    changed_units.append((f"{char_id}.{key}", now))
    for token in sorted(set(old["labels"]) & set(new["labels"])):
        if old["labels"][token] != new["labels"][token]:
            changed_units.append((f"reminder.{token}", new["labels"][token]))
    if old["night"] is not None and new["night"] is not None:
        for key in NIGHTS:
            moves = _moves(old["night"][key], new["night"][key])
            if moves:
                report["night"][key] = moves
    oj, nj = old["jinxes"], new["jinxes"]
    report["jinxes"]["added"] = [{"characters": list(nj[k][0]), "text": nj[k][1]} for k in nj if k not in oj]
    report["jinxes"]["removed"] = [{"characters": list(oj[k][0]), "text": oj[k][1]} for k in oj if k not in nj]
    for k in (k for k in nj if k in oj):
        if oj[k][1] != nj[k][1]:
            report["jinxes"]["changed"].append({"characters": list(nj[k][0]), "old": oj[k][1], "new": nj[k][1]})
            if nj[k][1]:
                changed_units.append((k, nj[k][1]))
    if our_db is not None:
        report["stale"] = _stale(our_db, changed_units)
    return report


def _stale(db, units) -> list[dict]:
    """Our translations (every language but English) of the English texts that changed."""
    from scriptforge.ids import text_hash

    out = []
    by_pair = {frozenset(j.characters): j for j in db.jinxes}
    for key, text in units:
        if isinstance(key, frozenset):
            jinx = by_pair.get(key)
            if jinx is None:
                continue
            key, ours = f"jinx.{jinx.key}", jinx.texts
        elif key.startswith("reminder."):
            token = key.split(".", 1)[1]
            ours = {lang: db.reminder_labels.get(lang, {}).get(token) for lang in db.languages}
        else:
            char_id, fld = key.split(".", 1)
            ch = db.characters.get(char_id)
            ours = {lang: getattr(t, fld, None) for lang, t in (ch.texts.items() if ch else ())}
        for lang in db.languages:
            if lang == official() or not ours.get(lang):
                continue
            recorded = db.provenance.get(lang, {}).get(key)
            if recorded and recorded[0] == official() and recorded[1] == text_hash(text):
                continue  # already translated from this very text
            out.append({"unit": key, "lang": lang, "recorded": bool(recorded),
                        "reason": "translated from an older English text" if recorded else
                                  "no record of the English text it was translated from"})
    return out


def diff_is_empty(report: dict) -> bool:
    return not (report["added"] or report["removed"] or report["changed"] or report["night"]
                or any(report["jinxes"].values()))


def diff_text(report: dict) -> str:
    if diff_is_empty(report):
        return "no changes"
    lines = []
    for key, label in (("added", "new character"), ("removed", "removed character")):
        for c in report[key]:
            lines.append(f"{label}: {c['id']} ({c['name']}, {c['team']})")
    for c in report["changed"]:
        lines.append(f"changed {c['id']}.{c['field']}: {_short(c['old'])} -> {_short(c['new'])}")
    for night, moves in report["night"].items():
        label = night.replace("_", " ")
        for m in moves:
            if m["change"] == "moved":
                lines.append(f"{label}: {m['id']} moved from {m['old']} to {m['new']}")
            elif m["change"] == "added":
                lines.append(f"{label}: {m['id']} now wakes at {m['new']}")
            else:
                lines.append(f"{label}: {m['id']} no longer wakes (was {m['old']})")
    for key, label in (("added", "new jinx"), ("removed", "retired jinx"), ("changed", "changed jinx")):
        for j in report["jinxes"][key]:
            lines.append(f"{label}: {' & '.join(j['characters'])}")
    for s in report["stale"]:
        lines.append(f"stale translation: {s['lang']} {s['unit']} ({s['reason']})")
    return "\n".join(lines)


def _short(value, limit: int = 70) -> str:
    from scriptforge.markup import to_text

    return short(json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else to_text(value) or "", limit)
