"""Homebrew characters written once, as YAML with both languages (examples/homebrew/<id>.yaml).

A file holds the facts (`id`, `team`, the structured `setup` effect or a `[...]` bracket in the
ability, night placement as a number or `{after: <id>}`, reminder tokens) and per language the
texts the database keeps per language (name, ability, flavor, almanac sections, night reminders,
reminder labels, jinx texts). `read_homebrew` checks it with homebrew.schema.json and turns it
into a `model.Character`; `with_homebrew` adds a folder of them to a Database; `script_object`
writes one as a full character object of the official script format.
"""

from dataclasses import dataclass, replace
from pathlib import Path

from scriptforge.db.database import Database
from scriptforge.io.datafiles import line_of, validate
from scriptforge.io.errors import DataError, InputError, ScriptforgeError
from scriptforge.model.records import LIST_FIELDS, NIGHT_REMINDER_FIELDS, NIGHTS, TEXT_FIELDS, Character, Jinx, SetupEffect, Texts
from scriptforge.model.character_json import character_object
from scriptforge.rules.brackets import read_brackets
from scriptforge.io.userfiles import first_long_text, read_yaml

_TEXT_FIELDS = (*TEXT_FIELDS, "aliases")


@dataclass(frozen=True)
class Homebrew:
    """One homebrew file, read: the character plus what the database keeps beside characters."""

    character: Character
    labels: dict[str, dict[str, str]]  # lang -> token id -> label
    jinxes: tuple[Jinx, ...]
    path: Path


def is_homebrew_file(name) -> bool:
    """True when a command-line argument names a homebrew YAML file rather than a character."""
    return str(name).lower().endswith((".yaml", ".yml")) and Path(name).is_file()


def read_homebrew(path, db: Database) -> Homebrew:
    """Read and check one homebrew file; the first problem is raised as a DataError (file:line)."""
    homebrew, problems = check_homebrew(path, db)
    if problems:
        raise problems[0]
    assert homebrew is not None  # no problems: the file loaded
    return homebrew


def check_homebrew(path, db: Database) -> tuple[Homebrew | None, list[ScriptforgeError]]:
    """Read one homebrew file and return every problem found (schema first, then consistency).

    A file that cannot be read at all (missing, not YAML, refused by the guard) is one InputError.
    """
    path = Path(path)
    try:
        data = read_yaml(path)
        long = first_long_text(data)
        if long is not None:
            raise InputError(f"field '{'.'.join(map(str, long[0]))}': {long[1]}",
                             where=f"{path}:{line_of(path, long[0])}")
        validate(data, "homebrew", path, record_id=data.get("id") if isinstance(data, dict) else None)
    except ScriptforgeError as exc:
        return None, [exc]
    reader = _Reader(path, data, db)
    homebrew = reader.read()
    return homebrew, [*reader.problems]


def check_files(paths, db: Database) -> list[dict]:
    """`homebrew check`: per file its id, languages, problems and warnings (folders: all their YAML files).

    Schema, night placement, bracket-vs-setup, and the database's translation checks (scriptforge.l10n)
    run on the database with the character added: what they find about it is reported here.
    """
    files = [f for p in map(Path, paths) for f in (homebrew_files(p) if p.is_dir() else [p])]
    baseline = None
    results = []
    for path in files:
        homebrew, problems = check_homebrew(path, db)
        warnings: list[DataError] = []
        if homebrew is not None:
            if baseline is None:
                baseline = {(f.code, f.lang, f.message) for f in _l10n_findings(db)}
            for f in _l10n_findings(add_homebrew(db, [homebrew])):
                if f.character == homebrew.character.id or (f.character is None
                                                            and (f.code, f.lang, f.message) not in baseline):
                    (problems if f.severity == "error" else warnings).append(_l10n_problem(homebrew, f))
        ch = homebrew.character if homebrew else None
        results.append({"file": str(path), "id": ch.id if ch else None, "languages": list(ch.texts) if ch else [],
                        "unreadable": any(isinstance(p, InputError) for p in problems),
                        "problems": [str(p) for p in problems], "warnings": [str(w) for w in warnings]})
    return results


def _l10n_findings(db: Database) -> list:
    try:
        # deferred: start-up time
        from scriptforge.l10n.checks import run_checks
    except ImportError:  # the translation checks are optional for homebrew files
        return []
    return run_checks(db)


def _l10n_problem(homebrew: Homebrew, f) -> DataError:
    steps = ["texts", f.lang, f.field] if f.field in _TEXT_FIELDS else ["texts", f.lang]
    where = f"{homebrew.path}:{line_of(homebrew.path, steps)}"
    return DataError(f"record '{homebrew.character.id}', field 'texts.{f.lang}.{f.field}': [{f.code}] {f.message}",
                     where=where)


def homebrew_files(folder) -> list[Path]:
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("not a folder of homebrew YAML files", where=str(folder))
    return sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())


def with_homebrew(db: Database, folder) -> Database:
    """A new Database with the homebrew characters of `folder` added (or replacing same ids)."""
    return add_homebrew(db, [read_homebrew(p, db) for p in homebrew_files(folder)])


def add_homebrew(db: Database, homebrews) -> Database:
    characters = dict(db.characters)
    labels = {lang: dict(table) for lang, table in db.reminder_labels.items()}
    jinxes = list(db.jinxes)
    for hb in homebrews:
        characters[hb.character.id] = hb.character
        for lang, table in hb.labels.items():
            for token, label in table.items():
                old = labels.setdefault(lang, {}).get(token)
                if old is not None and old != label and token not in _own_tokens(db, hb.character.id):
                    raise DataError(f"record '{hb.character.id}', field 'reminders': token '{token}' already has "
                                    f"the {lang} label '{old}' in the database; give the token another id",
                                    where=str(hb.path))
                labels[lang][token] = label
        mine = {frozenset(j.characters) for j in hb.jinxes}
        jinxes = [j for j in jinxes if frozenset(j.characters) not in mine] + list(hb.jinxes)
    return replace(db, characters=characters, reminder_labels=labels, jinxes=tuple(jinxes))


def _own_tokens(db: Database, char_id: str) -> set[str]:
    ch = db.characters.get(char_id)
    return set(ch.reminders + ch.reminders_global) if ch else set()


def script_object(hb: Homebrew, lang: str) -> dict:
    """The character as a full object of the official script format, with the texts in `lang`."""
    ch = hb.character
    texts = ch.texts.get(lang)
    if texts is None:
        have = ", ".join(ch.texts) or "none"
        raise InputError(f"record '{ch.id}': no '{lang}' texts to embed (the file has: {have})", where=str(hb.path))
    return character_object(
        ch.id, ch.team, texts, night=ch.night,
        reminders={night: texts.night_reminder(night) for night in NIGHTS},
        labels=[hb.labels.get(lang, {}).get(t, t) for t in ch.reminders],
        global_labels=[hb.labels.get(lang, {}).get(t, t) for t in ch.reminders_global],
        setup=ch.setup is not None,
        jinxes=[{"id": j.characters[1], "reason": j.texts[lang]} for j in hb.jinxes if lang in j.texts])


class _Reader:
    def __init__(self, path: Path, data: dict, db: Database):
        self.path, self.data, self.db = path, data, db
        self.id = data["id"]
        self.problems: list[DataError] = []

    def problem(self, message: str, steps=()) -> None:
        self.problems.append(DataError(f"record '{self.id}', {message}", where=f"{self.path}:{line_of(self.path, list(steps))}"))

    def read(self) -> Homebrew:
        data = self.data
        texts = {lang: self._texts(lang, t) for lang, t in data["texts"].items()}
        night = {n: v for n in NIGHTS if (v := self._night(n)) is not None}
        setup = self._setup(texts)
        labels: dict[str, dict[str, str]] = {}
        tokens: dict[str, list[str]] = {}
        for key in ("reminders", "reminders_global"):
            tokens[key] = []
            for i, token in enumerate(data.get(key, ())):
                tokens[key].append(token["id"])
                for lang, label in token["texts"].items():
                    labels.setdefault(lang, {})[token["id"]] = label
                for lang in sorted(set(texts) - set(token["texts"])):
                    self.problem(f"field '{key}.texts': token '{token['id']}' has no {lang} label", [key, i, "texts"])
        jinxes = []
        for i, jinx in enumerate(data.get("jinxes", ())):
            found = self.db.find(jinx["with"])
            if len(found) != 1:
                self.problem(f"field 'jinxes.with': '{jinx['with']}' is not a character of the database",
                             ["jinxes", i, "with"])
                continue
            jinxes.append(Jinx(characters=(self.id, found[0].id), texts=dict(jinx["texts"])))
        self._night_texts(texts, night)
        character = Character(
            id=self.id, team=data["team"], edition=data.get("edition", "homebrew"), texts=texts,
            reminders=tuple(tokens["reminders"]), reminders_global=tuple(tokens["reminders_global"]),
            setup=setup, homebrew=True, night=night, source=str(self.path))
        return Homebrew(character, labels, tuple(jinxes), self.path)

    def _texts(self, lang: str, t: dict) -> Texts:
        fields = {k: t[k] for k in _TEXT_FIELDS if k in t}
        for key in ("aliases", *LIST_FIELDS):
            if key in fields:
                fields[key] = tuple(fields[key])
        return Texts(**fields)

    def _night(self, night: str) -> float | None:
        value = self.data.get(night)
        if value is None or value == 0:
            return None
        if isinstance(value, dict):
            after = value["after"]
            position = self.db.night_position(after, night)
            if position is None or (after in self.db.characters and self.db.characters[after].homebrew):
                self.problem(f"field '{night}.after': '{after}' is not on the official "
                             f"{night.replace('_', ' ')} sheet", [night, "after"])
                return None
            return position + 0.5
        return value

    def _night_texts(self, texts: dict[str, Texts], night: dict) -> None:
        """A character that wakes has a reminder for that night in each language, and only then."""
        for lang, t in texts.items():
            for key in NIGHTS:
                reminder = t.night_reminder(key)
                field = NIGHT_REMINDER_FIELDS[key]
                if key in night and not reminder:
                    self.problem(f"field 'texts.{lang}.{field}': the character wakes then but has no "
                                 f"{lang} reminder", ["texts", lang])
                elif reminder and key not in night:
                    self.problem(f"field 'texts.{lang}.{field}': a reminder, but '{key}' does not place "
                                 f"the character in the night order", ["texts", lang, field])

    def _setup(self, texts: dict[str, Texts]) -> SetupEffect | None:
        """The structured effect; each language's [...] bracket must say the same."""
        for key, value in (self.data.get("setup") or {}).items():
            # JSON Schema's "integer" lets 1.0 through; the counts are whole numbers
            if any(isinstance(v, float) for v in (value if isinstance(value, list) else [value])):
                self.problem(f"field 'setup.{key}': {value} is not a whole number", ["setup", key])
                return None
        given = SetupEffect.from_data(self.data["setup"]) if "setup" in self.data else None
        found = None
        for lang, t in texts.items():
            reading = read_brackets(t.ability, [t.name for t in texts.values()], self._resolve)
            steps = ["texts", lang, "ability"]
            for clause in reading.unknown:
                self.problem(f"field 'texts.{lang}.ability': setup wording '{clause}' is not understood", steps)
            effect = reading.effect if not reading.unknown else None  # the unknown clauses are reported above
            if given is None and found is None:
                found = effect
            expected = given if given is not None else found
            if effect is None and expected is not None and not reading.unknown:
                self.problem(f"field 'texts.{lang}.ability': the {lang} ability has no [...] bracket for the "
                             f"setup effect {expected.as_dict()}", steps)
            elif effect is not None and (expected is None or effect.as_dict() != expected.as_dict()):
                self.problem(f"field 'texts.{lang}.ability': the bracket {' '.join(reading.brackets)} means "
                             f"{effect.as_dict()}, but the setup effect is {expected.as_dict() if expected else 'none'}",
                             steps)
        return given if given is not None else found

    def _resolve(self, name: str) -> str | None:
        found = self.db.find(name)
        return found[0].id if len(found) == 1 else None
