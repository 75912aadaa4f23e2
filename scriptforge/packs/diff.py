"""What changed between two versions of the official data, as records: characters added and
removed, facts and English texts changed, night-order moves, jinxes added, retired and reworded,
and which of our translations those changes make stale. Words for it: `scriptforge.text.packs`."""

from dataclasses import dataclass, field
import difflib
from pathlib import Path
from typing import Any, NamedTuple

from scriptforge.io.errors import InputError
from scriptforge.model.ids import text_hash
from scriptforge.model.languages import official
from scriptforge.model.records import NIGHT_REMINDER_FIELDS, NIGHTS
from scriptforge.packs.build import build_pack, read_source
from scriptforge.db.pack_store import MANIFEST, read_pack

_TEXT_FIELDS = ("name", "ability", "flavor")
_FACT_FIELDS = ("team", "edition", "setup")
_TOKEN_FIELDS = ("reminders", "reminders_global")
MOVED, ADDED, REMOVED = "moved", "added", "removed"  # NightMove.change
#: StaleTranslation.reason, by whether the English a translation was made from is recorded
REASONS = {True: "translated from an older English text", False: "no record of the English text it was translated from"}


class CharacterEntry(NamedTuple):
    """A character added or removed."""

    id: str
    name: str
    team: str


class FieldChange(NamedTuple):
    """One field of a character that changed (a fact, an English text, the reminder labels)."""

    id: str
    field: str
    old: Any
    new: Any


class NightMove(NamedTuple):
    """A character whose place among the others on one night's list changed (1-based places)."""

    id: str
    change: str  # MOVED, ADDED (now wakes) or REMOVED (no longer wakes)
    old: int | None = None
    new: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "change": self.change, **({"old": self.old} if self.old is not None else {}),
                **({"new": self.new} if self.new is not None else {})}


class Jinx(NamedTuple):
    """A jinx added or retired, with its English text."""

    characters: tuple[str, str]
    text: str | None


class JinxChange(NamedTuple):
    """A jinx whose English text changed."""

    characters: tuple[str, str]
    old: str | None
    new: str | None


class StaleTranslation(NamedTuple):
    """One of our translations (a text unit in a language) whose English changed."""

    unit: str
    lang: str
    recorded: bool  # whether the English it was made from is recorded (`translated_from`)

    @property
    def reason(self) -> str:
        return REASONS[self.recorded]


@dataclass(frozen=True)
class JinxDiff:
    """How the jinxes changed from one version of the official data to another: added, removed and reworded ones."""

    added: tuple[Jinx, ...] = ()
    removed: tuple[Jinx, ...] = ()
    changed: tuple[JinxChange, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)


@dataclass(frozen=True)
class PackDiff:
    """What changed from one version of the official data to another."""

    added: tuple[CharacterEntry, ...] = ()
    removed: tuple[CharacterEntry, ...] = ()
    changed: tuple[FieldChange, ...] = ()
    night: dict[str, tuple[NightMove, ...]] = field(default_factory=dict)  # night key -> moves
    jinxes: JinxDiff = JinxDiff()
    stale: tuple[StaleTranslation, ...] = ()

    @property
    def is_empty(self) -> bool:
        """Nothing of the data changed (stale translations are a consequence, not a change)."""
        return not (self.added or self.removed or self.changed or self.night or self.jinxes)

    def as_json(self) -> dict[str, Any]:
        """`pack diff --format json`."""
        return {
            "added": [c._asdict() for c in self.added],
            "removed": [c._asdict() for c in self.removed],
            "changed": [c._asdict() for c in self.changed],
            "night": {key: [m.as_json() for m in moves] for key, moves in self.night.items()},
            "jinxes": {"added": [{"characters": list(j.characters), "text": j.text} for j in self.jinxes.added],
                       "removed": [{"characters": list(j.characters), "text": j.text} for j in self.jinxes.removed],
                       "changed": [{"characters": list(j.characters), "old": j.old, "new": j.new}
                                   for j in self.jinxes.changed]},
            "stale": [{**s._asdict(), "reason": s.reason} for s in self.stale],
        }


def pack_files(path: Path, lang: str | None = None) -> dict[str, Any]:
    """The files of a pack (a pack folder), or of the pack the official files would make
    (a folder of official JSON files, or one file), as data keyed by path inside the pack."""
    path = Path(path)
    if path.is_dir() and (path / MANIFEST).is_file():
        return read_pack(path).files
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


class _View(NamedTuple):
    """What a diff compares of a pack's files: facts, English texts, night lists, jinxes."""

    characters: dict[str, dict[str, Any]]  # id -> characters.yaml record
    texts: dict[str, dict[str, Any]]  # id -> English texts, night reminders included
    labels: dict[str, str]  # token -> English label
    jinxes: dict[frozenset[str], tuple[tuple[str, str], str | None]]  # pair -> (pair as written, text)
    night: dict[str, list[str]] | None

    @classmethod
    def of(cls, files: dict[str, Any]) -> "_View":
        source = official()
        chars = {r["id"]: r for r in files.get("characters.yaml", {}).get("characters", [])}
        texts = {rel.split("/")[-1][:-5]: dict(data) for rel, data in files.items()
                 if rel.startswith(f"{source}/characters/")}
        night_texts = files.get(f"{source}/night.yaml") or {}
        for night_name, key in NIGHT_REMINDER_FIELDS.items():
            for char_id, text in night_texts.get(night_name, {}).items():
                texts.setdefault(char_id, {})[key] = text
        jinx_texts = files.get(f"{source}/jinxes.yaml") or {}
        jinxes = {frozenset(p): ((p[0], p[1]), jinx_texts.get("-".join(p)))
                  for p in files.get("jinxes.yaml", {}).get("jinxes", [])}
        return cls(chars, texts, files.get(f"{source}/reminders.yaml") or {}, jinxes, files.get("night.yaml"))

    def name(self, char_id: str) -> str:
        return self.texts.get(char_id, {}).get("name", char_id)


def _moves(old: list[str], new: list[str]) -> tuple[NightMove, ...]:
    both = set(old) & set(new)
    a = [i for i in old if i in both]
    b = [i for i in new if i in both]
    kept = set()
    for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        kept.update(a[block.a:block.a + block.size])
    return (*(NightMove(i, MOVED, old.index(i) + 1, new.index(i) + 1) for i in new if i in both and i not in kept),
            *(NightMove(i, ADDED, new=new.index(i) + 1) for i in new if i not in both),
            *(NightMove(i, REMOVED, old=old.index(i) + 1) for i in old if i not in both))


def diff_packs(old_files: dict[str, Any], new_files: dict[str, Any], our_db: Any = None) -> PackDiff:
    """What changed from OLD to NEW (the files of two packs); `our_db` (the built-in data) says
    which of our translations of changed English texts are stale."""
    old, new = _View.of(old_files), _View.of(new_files)
    oc, nc = old.characters, new.characters
    changed: list[FieldChange] = []
    changed_units: list[tuple[str | frozenset[str], str]] = []  # (unit key, new English text)
    for char_id in (i for i in nc if i in oc):
        for key in _FACT_FIELDS:
            if oc[char_id].get(key) != nc[char_id].get(key):
                changed.append(FieldChange(char_id, key, oc[char_id].get(key), nc[char_id].get(key)))
        for key in _TOKEN_FIELDS:
            labels_was = [old.labels.get(t, t) for t in oc[char_id].get(key, ())]
            labels_now = [new.labels.get(t, t) for t in nc[char_id].get(key, ())]
            if labels_was != labels_now:
                changed.append(FieldChange(char_id, key, labels_was, labels_now))
    for char_id in (i for i in new.texts if i in old.texts):
        for key in (*_TEXT_FIELDS, *NIGHT_REMINDER_FIELDS.values()):
            was, now = old.texts[char_id].get(key), new.texts[char_id].get(key)
            if was != now:
                changed.append(FieldChange(char_id, key, was, now))
                if now is not None:
                    changed_units.append((f"{char_id}.{key}", now))
    for token in sorted(set(old.labels) & set(new.labels)):
        if old.labels[token] != new.labels[token]:
            changed_units.append((f"reminder.{token}", new.labels[token]))
    night: dict[str, tuple[NightMove, ...]] = {}
    if old.night is not None and new.night is not None:
        for key in NIGHTS:
            moves = _moves(old.night[key], new.night[key])
            if moves:
                night[key] = moves
    oj, nj = old.jinxes, new.jinxes
    jinx_changes = []
    for k in (k for k in nj if k in oj):
        if oj[k][1] != nj[k][1]:
            text = nj[k][1]
            jinx_changes.append(JinxChange(nj[k][0], oj[k][1], text))
            if text:
                changed_units.append((k, text))
    return PackDiff(
        added=tuple(CharacterEntry(i, new.name(i), nc[i]["team"]) for i in nc if i not in oc),
        removed=tuple(CharacterEntry(i, old.name(i), oc[i]["team"]) for i in oc if i not in nc),
        changed=tuple(changed), night=night,
        jinxes=JinxDiff(added=tuple(Jinx(*nj[k]) for k in nj if k not in oj),
                        removed=tuple(Jinx(*oj[k]) for k in oj if k not in nj), changed=tuple(jinx_changes)),
        stale=_stale(our_db, changed_units) if our_db is not None else ())


def _stale(db: Any, units: list[tuple[str | frozenset[str], str]]) -> tuple[StaleTranslation, ...]:
    """Our translations (every language but English) of the English texts that changed."""
    out = []
    source = official()
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
            if lang == source or not ours.get(lang):
                continue
            recorded = db.provenance.get(lang, {}).get(key)
            if recorded and recorded[0] == source and recorded[1] == text_hash(text):
                continue  # already translated from this very text
            out.append(StaleTranslation(key, lang, bool(recorded)))
    return tuple(out)
