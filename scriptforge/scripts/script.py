"""Reading a script in the official JSON format into a `Script`.

Every id spelling is matched (`lil_monsta`, `Lil' Monsta`, `fang_gu`, `ko_KR_imp`, Korean names),
full character objects become characters for this script (homebrew) or override an official
character's texts (translated scripts), and every problem met on the way is kept as a finding.
Only input that is not a script at all (bad JSON, not an array, empty) raises an InputError.
"""

from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
import re
from typing import Any

from scriptforge.db.database import Database
from scriptforge.io.errors import InputError, ScriptforgeError, UnknownCharactersError
from scriptforge.model.languages import detect
from scriptforge.model.records import NIGHT_TABLE, OFFICIAL_TEXT_KEYS, TEAMS, Character, Jinx, SetupEffect, Texts
from scriptforge.io.userfiles import parse_json, read_text
from scriptforge.model.ids import normalize_id, without_locale
from scriptforge.db.official import PACK_UPDATE, official_facts
from scriptforge.rules.brackets import read_brackets, selection_marks, with_marks
from scriptforge.model.findings import Finding, finding, short

_TEXT_KEYS = {official: ours for ours, official in OFFICIAL_TEXT_KEYS.items()}  # official key -> our field


@dataclass(frozen=True)
class Script:
    """A script as read: characters in the author's order, with what was wrong while reading."""

    source: str  # file path as given, or "-" for stdin, or "<data>"
    meta: dict[str, Any]
    characters: tuple[Character, ...]
    problems: tuple[Finding, ...] = ()
    document: Any = None  # the parsed JSON document, for the schema verdict (script_schema)
    paths: dict[str, str] = field(default_factory=dict)  # character id -> JSON pointer of its entry
    images: dict[str, str] = field(default_factory=dict)  # character id -> its `image`, as a URL
    jinxes: tuple[Jinx, ...] = ()  # jinxes carried by full character objects
    overridden: frozenset[str] = frozenset()  # official ids whose texts/facts this script overrides
    database_order: tuple[str, ...] = ()  # the database's official ids in sheet order (for sheet_order)
    logo: str | None = None  # `_meta.logo` as a URL (a relative path is taken from the script's folder)
    homebrew_sources: dict[str, Path] = field(default_factory=dict)  # id -> the YAML file it was embedded from

    @property
    def rules(self) -> tuple[str, ...]:
        """The script's own rules (`_meta.bootlegger`), as written: every non-empty string."""
        rules = self.meta.get("bootlegger")
        if isinstance(rules, str):
            rules = [rules]
        if not isinstance(rules, list):
            return ()
        return tuple(r.strip() for r in rules if isinstance(r, str) and r.strip())

    @property
    def hide_title(self) -> bool:
        """`_meta.hideTitle`: the logo stands for the title (where a logo is printed)."""
        return self.meta.get("hideTitle") is True

    @property
    def name(self) -> str:
        name = self.meta.get("name")
        if isinstance(name, str) and name.strip():
            return name
        if self.source in ("-", "<data>"):
            return "script"
        return Path(self.source).stem

    @property
    def author(self) -> str | None:
        author = self.meta.get("author")
        return author if isinstance(author, str) and author else None

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.characters)

    def has(self, char_id: str) -> bool:
        return any(c.id == char_id for c in self.characters)

    def get(self, char_id: str) -> Character | None:
        return next((c for c in self.characters if c.id == char_id), None)

    def find(self, name: str) -> Character | None:
        """The character on this script that `name` denotes: id, normalised id, or a name."""
        key = normalize_id(name)
        ids, names = self._keys
        found = ids.get(key)
        return found if found is not None or not key else names.get(key)

    @cached_property
    def _keys(self) -> tuple[dict[str, Character], dict[str, Character]]:
        """(normalised id -> character, normalised name in any language -> character), each the
        first on the script: `find` is asked for every jinx and night entry of a script."""
        ids: dict[str, Character] = {}
        names: dict[str, Character] = {}
        for ch in self.characters:
            ids.setdefault(normalize_id(ch.id), ch)
        for ch in self.characters:
            for text in ch.texts.values():
                names.setdefault(normalize_id(text.name), ch)
        return ids, names


def read_script(source: str | Path, db: Database) -> Script:
    """Read a script from a file path or "-" (stdin); InputError (exit code 2) if it is no script."""
    return parse_script(read_text(source), db, str(source))


MAX_ENTRIES = 10_000  # entries of one script; the largest real one has 224 characters (10,000 validate in ~0.5 s)


def parse_script(text: str, db: Database, source: str = "<data>") -> Script:
    """Parse script JSON text; InputError if it is not valid JSON (or refused by the guard), not an array or empty."""
    return script_from_data(parse_json(text, source), db, source)


def script_from_data(data: object, db: Database, source: str = "<data>") -> Script:
    """Build a Script from already-parsed JSON (the library entry point for tools and tests)."""
    if not isinstance(data, list):
        kind = {dict: "an object", str: "a string", bool: "a boolean", type(None): "null"}.get(type(data), "a number")
        raise InputError(f"not a script: the top level must be a JSON array of characters, found {kind}",
                         where=source)
    if not data:
        raise InputError("the script is empty: it lists no characters", where=source)
    if len(data) > MAX_ENTRIES:
        raise InputError(f"the script has {len(data):,} entries, more than the {MAX_ENTRIES:,} scriptforge reads "
                         f"(the largest real script has a few hundred)", where=source)
    return _Reader(db, source).read(data)


def _remembered(db: Database, kind: str) -> dict[Any, Any]:
    """A memo kept with the database (which never changes once loaded), for answers that depend
    only on it: corpora repeat the same ids, names and misspellings in file after file. Emptied
    when it holds 10,000 answers, so a stream of distinct names cannot grow it without bound."""
    memo: dict[Any, Any] = db.__dict__.setdefault(f"_script_{kind}", {})
    if len(memo) > 10000:
        memo.clear()
    return memo


def _find(db: Database, name: str) -> tuple[Character, ...]:
    """db.find, remembered per database."""
    memo = _remembered(db, "find")
    found = memo.get(name)
    if found is None:
        found = memo[name] = tuple(db.find(name))
    return found


def _suggest(db: Database, name: str) -> list[str]:
    """db.suggest, remembered per database: corpora repeat the same unknown ids many times."""
    if len(name) > 100:
        return []
    memo = _remembered(db, "suggest")
    if name not in memo:
        memo[name] = db.suggest(name)
    return list(memo[name])


def _official_order(db: Database) -> tuple[str, ...]:
    """The database's official ids in sheet order (what `sheet_order` places them by)."""
    memo = _remembered(db, "order")
    if "order" not in memo:
        memo["order"] = tuple(cid for cid, ch in db.characters.items() if not ch.homebrew)
    order: tuple[str, ...] = memo["order"]
    return order


def _unknown(db: Database, name: str, path: str) -> tuple[Finding, list[str]]:
    """The unknown-character finding, and the official ids not loaded that the name denotes or
    is close to (for the reader's one `official-not-loaded` warning). An official character that
    is not loaded says so and names `scriptforge pack update`; anything else gets "did you mean"
    from the loaded characters only."""
    facts = official_facts()
    key = normalize_id(without_locale(name))
    if key in facts.teams:
        return finding("unknown-character", f"'{short(name)}' is an official {facts.teams[key]} that is not loaded; "
                                            f"run `{PACK_UPDATE}` to get the official data",
                       path, id=name, suggestions=[], character=key), [key]
    hint = _suggest(db, name)
    missing = [i for i in facts.close(key) if i not in db.characters] if len(key) <= 100 else []
    message = f"unknown character '{short(name)}'" + (f"; did you mean {', '.join(hint)}?" if hint else "")
    return finding("unknown-character", message, path, id=name, suggestions=hint), missing


def _not_loaded(missing: dict[str, list[str]]) -> Finding:
    """One warning for the official characters a script names, or comes close to, that are not loaded."""
    named = [f"{', '.join(ids)} (for '{short(name, 30)}')" if normalize_id(without_locale(name)) not in ids
             else ids[0] for name, ids in missing.items()]
    return finding("official-not-loaded", f"official characters that are not loaded: {'; '.join(named[:8])}"
                                          f"{'…' if len(named) > 8 else ''}; run `{PACK_UPDATE}` to get the "
                                          f"official data", None,
                   characters=sorted({i for ids in missing.values() for i in ids}), names=list(missing))


#: The `_meta` key where `add` notes the YAML file each embedded homebrew character came from
#: (id -> a path from the script's folder); the official schema lets `_meta` hold keys of its own.
SOURCES_KEY = "homebrewSources"


#: The reading problems that leave a character the script names out of it: every command that
#: reads a script refuses them (`refuse_unknown`), `validate` reports them as errors.
LEFT_OUT = ("unknown-character", "ambiguous-character", "unknown-team", "incomplete-character")


def refuse_unknown(script: Script, skip_unknown: bool = False) -> list[str]:
    """Every command that reads a script calls this before using it: a character the script names
    but scriptforge cannot use (unknown, ambiguous, a team that is none of the seven, no name or
    ability) would silently be missing from the output. An object with no team or the team
    `token` is no character (a token or a note): it is left out with a warning, as the warnings
    returned say; so is an embedded homebrew character read from its YAML file instead.
    Raises UnknownCharactersError (exit 1), one line per entry; with `skip_unknown` the script is
    used without them and the warning naming what was left out is returned instead."""
    sourced = [p.message for p in script.problems if p.code in ("homebrew-differs", "homebrew-source-missing")]
    teamless = [p for p in script.problems if p.code == "no-team"]
    listed = ", ".join(f"{p.path} '{short(str(p.data.get('id')), 40)}'" for p in teamless[:8])
    notes = [f"left out {len(teamless)} object(s) with no team or the team 'token' (not characters): "
             f"{listed}{'…' if len(teamless) > 8 else ''}"] if teamless else []
    notes = sourced + notes
    dropped = [p for p in script.problems if p.code in LEFT_OUT]
    if not dropped:
        return notes
    if not skip_unknown:
        lines = [f"{script.source}: {p.path}: {p.message}" for p in dropped]
        lines.append(f"{script.source}: {len(dropped)} character(s) cannot be used; --skip-unknown leaves "
                     f"{'it' if len(dropped) == 1 else 'them'} out and goes on")
        raise UnknownCharactersError("\n".join(lines))
    names = ", ".join(f"{p.path} '{short(str(p.data.get('id', p.data.get('name'))), 40)}'" for p in dropped)
    return [*notes, f"--skip-unknown: left out {len(dropped)} character(s) the script names: {names}"]


class _Reader:
    def __init__(self, db: Database, source: str):
        self.db = db
        self.source = source
        self.problems: list[Finding] = []
        self.characters: list[Character] = []
        self.paths: dict[str, str] = {}
        self.images: dict[str, str] = {}
        self.jinxes: list[Jinx] = []
        self.overridden: set[str] = set()
        self.meta: dict[str, Any] | None = None
        self._repeats: dict[str, int] = {}  # id -> index of its duplicate-character finding
        self._found: dict[str, Character] = {}  # spelling -> character, for repeated string entries
        self._missing: dict[str, list[str]] = {}  # unknown name -> official ids not loaded it denotes or is close to
        self.sources: dict[str, Path] = {}  # homebrew id -> the YAML file it was embedded from
        self._source_names: dict[str, str] = {}  # the same, as `_meta` names it

    def read(self, data: list[Any]) -> Script:
        self.sources = self._homebrew_sources(data)
        for index, item in enumerate(data):
            path = f"/{index}"
            if isinstance(item, str):
                self._official(item, path)
            elif isinstance(item, dict):
                self._object(item, path)
            else:
                self.problems.append(finding(
                    "invalid-entry", f"entry {index} is {short(item, 40)}, not a character id or object",
                    path, index=index))
        if self._missing:
            self.problems.append(_not_loaded(self._missing))
        return Script(source=self.source, meta=self.meta or {}, characters=tuple(self.characters),
                      problems=tuple(self.problems), document=data, paths=self.paths,
                      images=self.images, jinxes=tuple(self.jinxes),
                      overridden=frozenset(self.overridden),
                      database_order=_official_order(self.db),
                      logo=self._url((self.meta or {}).get("logo")),
                      homebrew_sources=self.sources)

    # -- entries ------------------------------------------------------------------------

    def _add(self, ch: Character, path: str) -> bool:
        if ch.id in self.paths:
            self._duplicate(ch.id, path)
            return False
        self.characters.append(ch)
        self.paths[ch.id] = path
        return True

    def _duplicate(self, char_id: str, path: str) -> None:
        """Every repeat of an id is one finding (its first repeat's place), however many there are:
        a script with thousands of copies gets one line, in time linear in the entries."""
        first = self.paths[char_id]
        at = self._repeats.get(char_id)
        if at is None:
            self._repeats[char_id] = len(self.problems)
            self.problems.append(finding(
                "duplicate-character", f"'{char_id}' is listed more than once (first at {first})",
                path, id=char_id, first=first, repeats=1, copies=[path]))
            return
        old = self.problems[at]
        copies = old.data["copies"]
        copies.append(path)  # in place: thousands of copies stay linear
        self.problems[at] = finding(
            "duplicate-character", f"'{char_id}' is listed more than once (first at {first}), {len(copies) + 1} "
                                   f"times in all; the copies are left out",
            old.path, id=char_id, first=first, repeats=len(copies), copies=copies)

    def _lookup(self, name: str, path: str) -> Character | None:
        found = _find(self.db, name) if name.strip() else ()
        if len(found) == 1:
            return found[0]
        if found:
            self.problems.append(finding(
                "ambiguous-character", f"'{short(name)}' names several characters: "
                                       f"{', '.join(c.id for c in found)}", path,
                name=name, candidates=[c.id for c in found]))
            return None
        unknown, missing = _unknown(self.db, name, path)
        self.problems.append(unknown)
        if missing:
            self._missing[name] = missing
        return None

    def _official(self, name: str, path: str) -> None:
        if name == "_meta":
            return
        if name in self._found:  # the same spelling again: no second lookup
            self._add(self._found[name], path)
            return
        ch = self._lookup(name, path)
        if ch:
            self._found[name] = ch
            self._add(ch, path)

    def _object(self, item: dict[str, Any], path: str) -> None:
        char_id = item.get("id")
        if not isinstance(char_id, str):
            self.problems.append(finding("invalid-entry", "object without a string 'id'", path))
            return
        if char_id == "_meta":
            if self.meta is None:
                self.meta = item
                self.paths["_meta"] = path
            else:
                self.problems.append(finding("duplicate-meta", "a second _meta object is ignored", path))
            return
        if "name" not in item and "team" not in item and "ability" not in item:
            self._official(char_id, path)  # {"id": "washerwoman"}: the deprecated short form
            return
        item, other_texts = self._from_source(char_id, item, path)
        found = _find(self.db, char_id) if char_id.strip() else ()
        base = found[0] if len(found) == 1 else None
        ch = self._override(base, item, path) if base else self._homebrew(char_id, item, path)
        if ch and other_texts:
            ch = replace(ch, texts={**other_texts, **ch.texts})
        if ch and self._add(ch, path):
            self._jinxes(ch.id, item, path)
            self._image(ch.id, item)

    def _homebrew_sources(self, data: list[Any]) -> dict[str, Path]:
        """`_meta`'s record of the YAML file each embedded homebrew character came from (`add`),
        as paths from the script's folder; none for a script not read from a file."""
        meta = next((e for e in data if isinstance(e, dict) and e.get("id") == "_meta"), None)
        sources = meta.get(SOURCES_KEY) if meta else None
        if not isinstance(sources, dict) or self.source in ("-", "<data>"):
            return {}
        folder = Path(self.source).parent
        self._source_names = {char_id: where for char_id, where in sources.items()
                              if isinstance(char_id, str) and isinstance(where, str) and where.strip()}
        return {char_id: folder / where for char_id, where in self._source_names.items()}

    def _from_source(self, char_id: str, item: dict[str, Any], path: str) -> tuple[dict[str, Any], dict[str, Texts]]:
        """The object a homebrew character's YAML file makes now, in the embedded copy's language,
        with the file's texts in its other languages: one source for the character. Where the
        copy differs from it (the YAML was edited after `add`), a `homebrew-differs` finding says
        the YAML is used; where the file cannot be read, the copy is used and a finding says why."""
        source = self.sources.get(char_id)
        if source is None:
            return item, {}
        # deferred: start-up time (only a script with a recorded homebrew source reads YAML)
        from scriptforge.scripts.homebrew import read_homebrew, script_object

        where = self._source_names[char_id]
        try:
            hb = read_homebrew(source, self.db)
        except ScriptforgeError as exc:
            self.problems.append(finding(
                "homebrew-source-missing", f"'{short(char_id)}': its YAML file {where} cannot be read, so the copy "
                                           f"embedded in the script is used: {exc}", path, id=char_id, file=where))
            return item, {}
        texts = hb.character.texts
        lang = self._lang(self._strings(item))
        lang = lang if lang in texts else next(iter(texts))
        fresh = script_object(hb, lang)
        if fresh != item:
            changed = sorted(k for k in set(fresh) | set(item) if fresh.get(k) != item.get(k))
            self.problems.append(finding(
                "homebrew-differs", f"'{short(char_id)}': the copy embedded in the script differs from {where} "
                                    f"({', '.join(changed)}): the YAML file is used; `scriptforge add SCRIPT {where} "
                                    f"--lang {lang}` embeds it again", path, id=char_id, file=where, lang=lang,
                fields=changed))
        return fresh, {code: t for code, t in texts.items() if code != lang}

    def _strings(self, item: dict[str, Any]) -> dict[str, str]:
        return {key: item[key] for key in _TEXT_KEYS if isinstance(item.get(key), str)}

    def _lang(self, strings: dict[str, Any]) -> str:
        return detect(" ".join(strings.values()), self.db.languages)

    def _setup(self, ch_id: str, ability: str, names: list[str], path: str) -> SetupEffect | None:
        reading = read_brackets(ability, names, self._resolve_name)
        for clause in reading.unknown:
            self.problems.append(finding(
                "setup-bracket-unknown", f"'{ch_id}': setup wording '{short(clause)}' is not understood; "
                                        f"its effect is not counted", path + "/ability",
                character=ch_id, clause=clause, brackets=list(reading.brackets)))
        return reading.effect

    def _resolve_name(self, name: str) -> str | None:
        found = _find(self.db, name)
        return found[0].id if len(found) == 1 else None

    def _night(self, item: dict[str, Any]) -> dict[str, float]:
        night = {}
        for key, night_key in ((n.official, n.key) for n in NIGHT_TABLE):
            value = item.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 and value == value \
                    and value != float("inf"):
                night[night_key] = value
        return night

    def _labels(self, item: dict[str, Any], key: str) -> tuple[str, ...]:
        value = item.get(key)
        return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()

    def _override(self, base: Character, item: dict[str, Any], path: str) -> Character | None:
        # An empty text is no text of the script's own: the official one stays.
        strings = {key: text for key, text in self._strings(item).items() if text.strip()}
        lang = self._lang(strings)
        old = base.texts.get(lang)
        fields: dict[str, Any] = {_TEXT_KEYS[k]: v for k, v in strings.items()}
        texts = dict(base.texts)
        if old:
            texts[lang] = replace(old, **fields)
        elif "name" in fields and "ability" in fields:
            texts[lang] = Texts(**fields)
        changes: dict[str, Any] = {"texts": texts, "source": self.source}
        team = self._team(item, base.id, path) if "team" in item else base.team
        if team is None:
            return None
        if team != base.team:
            changes["team"] = team
            if not base.homebrew:
                self.problems.append(_team_changed(base, team, path))
        if base.homebrew:
            night = self._night(item)
            if night or "firstNight" in item or "otherNight" in item:
                changes["night"] = night
        ability = strings.get("ability")
        effect = base.setup
        if ability and "[" in ability and base.setup is None:
            effect = self._setup(base.id, ability, [t.name for t in texts.values()], path)
        effect = with_marks(effect, selection_marks(item.get("special")))
        if effect is not base.setup:
            changes["setup"] = effect
        self.overridden.add(base.id)
        self.problems.append(finding(
            "character-override", f"'{base.id}': the script's own {lang} texts are used for this script",
            path, id=base.id, lang=lang, fields=sorted(fields)))
        return replace(base, **changes)

    def _team(self, item: dict[str, Any], char_id: str, path: str) -> str | None:
        """The team of a character object: one of TEAMS; `traveler` (the spelling other tools
        write, and the official one before 2025) is read as `traveller`, with an info finding.
        Any other value (or none) is an `unknown-team` error and the character cannot be used."""
        team = item.get("team")
        if team == "traveler":
            self.problems.append(finding(
                "team-spelling", f"'{short(char_id)}': team 'traveler' is read as 'traveller'", path + "/team",
                id=char_id, team=team))
            return "traveller"
        if isinstance(team, str) and team in TEAMS:
            return team
        if "team" not in item or team == "token":
            what = "it has no team" if "team" not in item else "its team is 'token'"
            self.problems.append(finding(
                "no-team", f"'{short(char_id)}' is left out: {what}, so it is no character of the script "
                           f"(a token or a note)", path + ("/team" if "team" in item else ""), id=char_id, team=team))
            return None
        what = f"team {short(team, 30)} is not one of {', '.join(TEAMS)}" if "team" in item else "it has no team"
        self.problems.append(finding(
            "unknown-team", f"character '{short(char_id)}' cannot be used: {what}", path + ("/team" if "team" in item else ""),
            id=char_id, team=team if isinstance(team, (str, int, float, bool)) or team is None else short(team, 30)))
        return None

    def _homebrew(self, char_id: str, item: dict[str, Any], path: str) -> Character | None:
        strings = self._strings(item)
        missing = [k for k in ("name", "ability") if k not in strings]
        if missing:
            self.problems.append(finding(
                "incomplete-character", f"homebrew character '{short(char_id)}' cannot be used: "
                                        f"no string {' or '.join(missing)}", path, id=char_id, missing=missing))
            return None
        team = self._team(item, char_id, path)
        if team is None:
            return None
        lang = self._lang(strings)
        fields: dict[str, Any] = {_TEXT_KEYS[k]: v for k, v in strings.items()}
        texts = {lang: Texts(**fields)}
        renamed = self._renamed(char_id, strings, lang)
        if renamed is not None:
            texts = _renamed_texts(renamed, strings, lang)
            self.problems.append(finding(
                "character-renamed", f"'{short(char_id)}' is the official {renamed.name(lang)} under its own id: "
                                     f"its translations are used where the script keeps the official text",
                path, id=char_id, official=renamed.id, languages=sorted(texts)))
        edition = item.get("edition")
        return Character(
            id=char_id,
            team=team,
            edition=edition if isinstance(edition, str) and edition else "homebrew",
            texts=texts,
            reminders=self._labels(item, "reminders"),
            reminders_global=self._labels(item, "remindersGlobal"),
            setup=with_marks(self._setup(char_id, strings["ability"], [strings["name"]], path),
                             selection_marks(item.get("special"))),
            homebrew=True,
            night=self._night(item),
            source=self.source,
        )

    def _renamed(self, char_id: str, strings: dict[str, str], lang: str) -> Character | None:
        """The official character a homebrew object is under its own id, or None: its id ends in
        the official id after a `-` or `_` (`witchhunt-witch`, `stowedaway-bonecollector`) and its
        ability is the official one in its language, a `[...]` bracket added at the end allowed."""
        head, sep, tail = char_id.rpartition("-") if "-" in char_id else char_id.rpartition("_")
        base = self.db.characters.get(normalize_id(tail)) if sep and head else None
        if base is None or base.homebrew or lang not in base.texts:
            return None
        return base if _added_bracket(strings["ability"], base.texts[lang].ability) is not None else None

    def _image(self, char_id: str, item: dict[str, Any]) -> None:
        """The object's `image` (the first, when a list) as a URL (see `_url`)."""
        value = item.get("image")
        if isinstance(value, list):
            value = value[0] if value else None
        url = self._url(value)
        if url:
            self.images[char_id] = url

    def _url(self, value: object) -> str | None:
        """An image reference as a URL: a relative path is taken from the script's folder. Whether
        it may be read is the renderer's fetcher's decision."""
        if not isinstance(value, str) or not value.strip():
            return None
        value = value.strip()
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", value):
            return value
        if self.source in ("-", "<data>"):
            return None
        try:
            return (Path(self.source).resolve().parent / value).resolve().as_uri()
        except (OSError, ValueError):
            return None

    def _jinxes(self, char_id: str, item: dict[str, Any], path: str) -> None:
        jinxes = item.get("jinxes")
        if not isinstance(jinxes, list):
            return
        for entry in jinxes:
            if isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("reason"), str):
                lang = detect(entry["reason"], self.db.languages)
                self.jinxes.append(Jinx(characters=(char_id, entry["id"]), texts={lang: entry["reason"]}))


def _team_changed(base: Character, team: str, path: str) -> Finding:
    """`team-changed`: a script object gives an official character another team."""
    return finding("team-changed", f"'{base.id}' is an official {base.team}; this script makes it a {team}: "
                                   f"sheet and almanac list it there, and setup counts it as a {team}, "
                                   f"not as a {base.team}", path + "/team",
                   id=base.id, official_team=base.team, team=team)


def _added_bracket(ability: str, official: str) -> str | None:
    """What a renamed character's `ability` adds to the `official` one: "" (the same text), the
    `[...]` bracket it appends, or None where it says something else."""
    own, base = " ".join(ability.split()), " ".join(official.split())
    if own == base:
        return ""
    rest = own[len(base):].strip() if own.startswith(base) else ""
    return rest if rest.startswith("[") and rest.endswith("]") else None


def _renamed_texts(base: Character, strings: dict[str, str], lang: str) -> dict[str, Texts]:
    """The texts of a homebrew object that is the official `base` under its own id (`strings`:
    its official-format texts, in `lang`): in `lang` its own; in every other language of `base`,
    the official translation of each field whose text the object keeps as the official one (an
    appended bracket kept as written), its own name where that is not the official name, and no
    text for the other fields it changed (so they come from `lang`, marked as such, along the
    fallbacks).
    The texts the script format cannot carry (overview, how to run, examples) are the official ones."""
    official = base.texts[lang]
    extra = _added_bracket(strings["ability"], official.ability) or ""
    own = {field: strings.get(key) for field, key in OFFICIAL_TEXT_KEYS.items()}
    kept = {field: (value or None) == (getattr(official, field) or None) for field, value in own.items()}
    out: dict[str, Texts] = {}
    for code, texts in base.texts.items():
        shared: dict[str, Any] = {"overview": texts.overview, "how_to_run": texts.how_to_run,
                                  "examples": texts.examples}
        if code == lang:
            mine: dict[str, Any] = {f: v for f, v in own.items() if v}
            out[code] = Texts(**mine, **shared)
            continue
        values: dict[str, Any] = {f: getattr(texts, f) if kept[f] else own[f] if f == "name" else None for f in own}
        values["ability"] = (f"{texts.ability} {extra}" if extra else texts.ability)
        out[code] = Texts(**{f: v for f, v in values.items() if v}, **shared,
                          translated_from=texts.translated_from)
    return out
