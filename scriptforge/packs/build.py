"""Turning the official data files into a pack's files: recognising and checking each file
(roles.json, nightsheet.json, jinxes.json, a translation file game/<code>.json), then the pack's
characters, night lists, jinxes and every text of every language, each left-out part one warning
saying what and why. Nothing here writes a file: `scriptforge.db.pack_store` does.

Packs are made on the user's machine from files the user has; none ships with scriptforge.
"""

from dataclasses import dataclass, field
from functools import cache
import hashlib
import json
from pathlib import Path
import re
from typing import Any

from scriptforge.io.datafiles import read_yaml, schema_path
from scriptforge.io.errors import InputError, place
from scriptforge.model.languages import codes, official
from scriptforge.model.ids import NIGHT_STEPS, name_key, normalize_id, token_id
from scriptforge.model.records import NIGHT, NIGHT_TABLE, NIGHTS
from scriptforge.db.pack_sources import record_sources
from scriptforge.db.pack_store import NAME_PATTERN, Manifest, SourceFile
from scriptforge.io.userfiles import decode, parse_json, read_bytes
from scriptforge.rules.brackets import read_brackets, selection_marks
from scriptforge.model.findings import short
from scriptforge.io.paths import DATA_DIR

KINDS = ("roles", "nightsheet", "jinxes", "translation", "interface")
LANG_KINDS = ("translation", "interface")  # the kinds of file that hold one language's texts
STEP_NAMES_EN = {"dusk": "Dusk", "minioninfo": "Minion Info", "demoninfo": "Demon Info", "dawn": "Dawn"}


# -- reading official files ---------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    """One official file read for a pack: its path, its kind (roles, nightsheet, jinxes or
    translation), its data, its sha256 and where it came from."""

    path: Path
    kind: str
    data: Any  # the parsed JSON, checked against the kind's schema
    sha256: str
    lang: str | None = None
    url: str | None = None  # where `pack update` fetched it from

    def record(self) -> SourceFile:
        """The entry pack.yaml keeps of this file."""
        return SourceFile(self.path.name, self.kind, self.sha256, self.lang, self.url)


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
        if "roles" not in data and any(isinstance(data.get(k), dict) for k in INTERFACE_GROUPS):
            return "interface"
    return None


@cache
def _input_validator(kind: str):
    # deferred: start-up time
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
                         "a jinx file, a translation file or a script tool interface file)", where=where)
    check_source(data, kind, where)
    if kind in LANG_KINDS:
        if lang is None:
            raise InputError(f"a {kind} file needs --lang (the language of its texts)", where=where)
        if lang not in codes():
            raise InputError(f"language '{lang}' is not one of {', '.join(codes())}", where=where)
    return Source(path, kind, data, hashlib.sha256(raw).hexdigest(), lang if kind in LANG_KINDS else None, url)


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
    """A pack made, not yet written: its manifest and files, and what the user should know."""

    manifest: Manifest
    files: dict[str, Any]  # path inside the pack -> data (YAML documents), pack.yaml aside
    warnings: list[str] = field(default_factory=list)  # things the user should look at
    notes: list[str] = field(default_factory=list)  # things worth knowing, also kept in pack.yaml
    stale: dict[str, list[str]] = field(default_factory=dict)  # lang -> translations older than their English
    blobs: dict[str, bytes] = field(default_factory=dict)  # other files, written as they are (icons/)


def build_pack(sources: list[Source], name: str, base_db=None, check_ids: bool = True,
               updated: str = "", previous: dict[str, Any] | None = None) -> PackBuild:
    """The pack's files from already-read sources; `base_db` (the built-in data) is used to resolve
    names in brackets and ids the pack does not define. `check_ids=False` keeps jinxes between
    characters neither defines (for comparing jinx files on their own). `previous` (the files of
    the pack this one replaces) carries over the English each unchanged translation was made from
    (`scriptforge.db.pack_sources`)."""
    if not NAME_PATTERN.fullmatch(name or ""):
        raise InputError(f"pack name '{name}' must be letters, digits, '.', '_' or '-' (at most 64)")
    by_kind: dict[tuple[str, str | None], Source] = {}
    for src in sources:
        key = (src.kind, src.lang)
        if key in by_kind:
            raise InputError(f"two {src.kind} files given ({by_kind[key].path} and {src.path}); give one",
                             where=str(src.path))
        by_kind[key] = src
    out = PackBuild(Manifest(name), {})
    base_ids = set(base_db.characters) if base_db else set()
    roles = by_kind.get(("roles", None))
    records: dict[str, dict] = {}
    labels_en: dict[str, str] = {}
    if roles:
        records = _characters(roles, out, labels_en, base_db)
    known = set(records) | base_ids
    night = by_kind.get(("nightsheet", None))
    if night:
        out.files["night.yaml"] = _night_lists(night)
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
        pairs = _jinxes(jinx, known if check_ids else None, out)
    for (kind, lang), src in sorted(by_kind.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        if kind == "translation" and lang:
            _translation(src, lang, out, records, pairs, wakes, base_db)
        elif kind == "interface" and lang:
            _add_interface_words(out, lang, interface_words(src, out.warnings))
    out.stale = record_sources(out.files, previous)
    chars = out.files.get("characters.yaml", {}).get("characters", [])
    out.manifest = Manifest(
        name=name,
        sources=tuple(s.record() for s in sorted(by_kind.values(), key=lambda s: (KINDS.index(s.kind), s.lang or ""))),
        languages=tuple(sorted({rel.split("/")[0] for rel in out.files if "/" in rel})),
        characters=len(chars), jinxes=len(pairs), updated=updated, notes=(*out.warnings, *out.notes))
    return out


def _night_lists(night: Source) -> dict[str, list[str]]:
    """night.yaml: each night's ids in order; a repeated id or one without letters is refused."""
    lists = {n.key: [normalize_id(i) for i in night.data[n.official]] for n in NIGHT_TABLE}
    for night_key, ids in lists.items():
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup or "" in ids:
            raise InputError(f"nightsheet file, /{NIGHT[night_key].official}: "
                             f"{'repeats ' + ', '.join(dup) if dup else 'an id without letters'}",
                             where=str(night.path))
    return lists


def _jinxes(jinx: Source, known: set[str] | None, out: PackBuild) -> list[list[str]]:
    """jinxes.yaml's pairs and their English texts, each pair once; with `known`, a pair with a
    character outside it is left out with a warning."""
    pairs: list[list[str]] = []
    texts = {}
    for i, entry in enumerate(jinx.data):
        a = normalize_id(entry["id"])
        for k, other in enumerate(entry["jinx"]):
            b = normalize_id(other["id"])
            if known is not None and (a not in known or b not in known):
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
    return pairs


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
    if marks and "selection" not in facts.get(char_id, {}):  # marks our data gives win (the Pope's)
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


def _official_name(char_id: str, out: PackBuild, base_db) -> str | None:
    """A character's name in the official language: the roles file's, else the loaded data's."""
    english = out.files.get(f"{official()}/characters/{char_id}.yaml")
    if english:
        return english["name"]
    ch = base_db.characters.get(char_id) if base_db else None
    texts = ch.texts.get(official()) if ch else None
    return texts.name if texts else None


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
        if "ability" in texts and "name" not in texts and _official_name(char_id, out, base_db):
            # a name the official file leaves out is the one the app shows: the English (God of Ug)
            texts = {"name": _official_name(char_id, out, base_db), **texts}
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
    editions = {normalize_id(k): v["name"] for k, v in (src.data.get("editions") or {}).items()
                if isinstance(v, dict) and isinstance(v.get("name"), str) and v["name"].strip() and normalize_id(k)}
    if editions:
        _add_interface_words(out, lang, {"editions": editions})


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


# -- the official script tool's interface words (script/<code>.json) ---------------------------

#: The groups of script/<code>.json (official/script-ui-keys.md): a file with one of them as an
#: object is an interface file.
INTERFACE_GROUPS = ("keyword", "print", "analysis", "edition", "settings", "interactions", "export", "tour",
                    "ctxmenu", "toast")
_TEAM_WORDS = ("townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric")
#: key path in script/<code>.json -> where its word goes in our ui.yaml layout; a `|` pair
#: (singular|plural) gives its plural where the path ends in `plural`
INTERFACE_KEYS: dict[str, tuple[str, ...]] = {
    "keyword.player": ("labels", "players", "plural"),
    "keyword.first-night": ("labels", "first_night"),
    "keyword.other-nights": ("labels", "other_nights"),
    "print.not-first-night": ("labels", "not_first_night"),
    "by-author-isolated": ("labels", "by"),
    "by-author": ("labels", "byline"),
    "bootlegger-rules": ("labels", "script_rules"),
    "djinn-rules": ("labels", "jinxes"),
    "edition.homebrew": ("editions", "homebrew"),
    "edition.experimental": ("editions", "carousel"),
    "settings.script-type-teensyville": ("labels", "teensyville"),
}
#: the placeholders each of our words may hold (str.format fills them in)
_PLACEHOLDERS = {("labels", "byline"): {"{author}"}}


def interface_words(src: Source, warnings: list[str]) -> dict[str, Any]:
    """The words of an official interface file (script/<code>.json) that our pages use, in our
    ui.yaml layout: team names (singular and plural), night titles, the footnote, the byline,
    section headings, edition labels. A word whose placeholders we cannot fill is one warning."""
    def at(path: str) -> Any:
        node: Any = src.data
        for step in path.split("."):
            node = node.get(step) if isinstance(node, dict) else None
        return node.strip() if isinstance(node, str) and node.strip() else None

    words: dict[str, Any] = {}
    for team in _TEAM_WORDS:
        value = at(f"keyword.{team}")
        if value:
            singular, _, plural = value.partition("|")
            if singular.strip():
                words.setdefault("teams", {})[team] = {"name": singular.strip(), "plural": (plural or singular).strip()}
    for key, target in INTERFACE_KEYS.items():
        value = at(key)
        if not value:
            continue
        if target[-1] == "plural":
            value, target = (value.partition("|")[2] or value).strip(), target[:-1]
        extra = set(re.findall(r"\{[^}]*\}", value)) - _PLACEHOLDERS.get((target[0], target[1]), set())
        if extra or re.sub(r"\{[^}]*\}", "", value).count("{") or "}" in re.sub(r"\{[^}]*\}", "", value):
            warnings.append(f"{src.path.name}: /{key.replace('.', '/')}: placeholder(s) "
                            f"{', '.join(sorted(extra)) or 'unbalanced'} cannot be filled here; left out")
            continue
        words.setdefault(target[0], {})[target[1]] = value
        if target == ("editions", "homebrew"):
            words.setdefault("labels", {})["homebrew"] = value
    if not words:
        warnings.append(f"{src.path.name}: no word a printed page uses (team names, night titles, headings)")
    return words


def _add_interface_words(out: PackBuild, lang: str, words: dict[str, Any]) -> None:
    """Merge `words` into the pack's <lang>/interface.yaml (script file and game file editions)."""
    if not words:
        return
    table = out.files.setdefault(f"{lang}/interface.yaml", {})
    for group, entries in words.items():
        table.setdefault(group, {}).update(entries)
