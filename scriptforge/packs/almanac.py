"""Reading almanac text documents (the formats of the seed files) into character texts.

Three layouts are understood, told apart by their content:

* a titled almanac, paragraphs separated by blank lines: title, a line
  "<kind> · <author> · <count>", then per character: team, name, ability, flavor,
  overview, and optional "How to Run" / "Examples & Notes" sections, one item a line;
* a compact almanac, one line each, with "- " bullets in the sections;
* an almanac without name lines: an optional author's note, then per character team,
  ability, flavor and overview; the name is the character named right after the quoted
  ability in the overview.

Every text but flavor is passed through the language's glossary, so variant spellings become
the established terms (only the entries whose variants are wrong in that kind of text); flavor
is the author's prose and is kept as written.
"""

from dataclasses import dataclass, field
from pathlib import Path
import re
from typing import NoReturn

from scriptforge.io.datafiles import validate
from scriptforge.io.errors import InputError
from scriptforge.io.fileio import dump_json, dump_yaml, locked, refuse_to_overwrite, write_files
from scriptforge.io.userfiles import check_option, read_text, read_yaml
from scriptforge.model.glossary import apply_glossary
from scriptforge.model.languages import official
from scriptforge.model.records import NIGHTS, PAGE_FIELDS, Texts
from scriptforge.model.ids import name_key, normalize_id
from scriptforge.model.findings import short
from scriptforge.model.character_json import character_object

TEAM_WORDS = {
    "townsfolk": "townsfolk", "outsider": "outsider", "outsiders": "outsider", "minion": "minion",
    "minions": "minion", "demon": "demon", "demons": "demon", "traveller": "traveller",
    "traveler": "traveller", "travellers": "traveller", "fabled": "fabled", "loric": "loric",
    "마을주민": "townsfolk", "마을 주민": "townsfolk", "주민": "townsfolk", "외지인": "outsider",
    "이방인": "outsider", "하수인": "minion", "악마": "demon", "여행자": "traveller",
    "전설": "fabled", "전설적인 캐릭터": "fabled", "설화": "loric", "설화적인 캐릭터": "loric",
}
SECTIONS = {
    "how to run": "how_to_run", "진행 방법": "how_to_run",
    "examples & notes": "examples", "examples and notes": "examples", "예시 · 메모": "examples",
    "예시와 메모": "examples", "예시 및 참고": "examples",
}
_SENTENCE_END = re.compile(r"[.!?。)\]다요”\"]$")


@dataclass
class Entry:
    """One character of an almanac document as read: its id, its team, the
    line its team is on and its texts by field."""

    id: str
    team: str
    line: int
    texts: dict = field(default_factory=dict)


@dataclass
class Almanac:
    """An almanac document as read: its file, its language, its character entries,
    and the title, author and description it gives."""

    path: Path
    lang: str
    entries: list[Entry]
    title: str | None = None
    author: str | None = None
    description: str | None = None


def read_almanac(path: Path, lang: str, terms: list[dict]) -> Almanac:
    """Parse an almanac file; any problem is an InputError naming the file and line."""
    raw = read_text(path)
    lines = [(n, line.strip()) for n, line in enumerate(raw.splitlines(), start=1) if line.strip()]
    return _Parser(Path(path), lang, terms, lines).parse()


MAX_ID_LENGTH = 50  # as the schemas allow a character id


class _Parser:
    def __init__(self, path: Path, lang: str, terms: list[dict], lines: list[tuple[int, str]]):
        self.path, self.lang, self.terms, self.lines = path, lang, terms, lines
        self.names = {}
        for term in terms:
            if term.get("character"):
                for spelling in (term["term"], *term.get("variants", ())):
                    self.names[name_key(spelling)] = term["character"]
        self.ko_name_pattern = self._name_pattern()

    def fail(self, line: int, message: str) -> NoReturn:
        raise InputError(message, where=f"{self.path}:{line}")

    def parse(self) -> Almanac:
        starts = [i for i, (_, text) in enumerate(self.lines) if text.casefold() in TEAM_WORDS]
        if not starts:
            self.fail(self.lines[0][0] if self.lines else 1, "no team line (e.g. 'Townsfolk' or '마을주민') found; "
                                                             "is this an almanac?")
        almanac = Almanac(self.path, self.lang, [])
        self._preamble(almanac, self.lines[: starts[0]])
        chunks = [self.lines[a:b] for a, b in zip(starts, starts[1:] + [len(self.lines)])]
        named = self._has_names(chunks[0])
        seen: dict[str, int] = {}
        for chunk in chunks:
            entry = self._entry(chunk, named)
            if entry.id in seen:
                self.fail(entry.line, f"character '{entry.id}' appears twice (first at line {seen[entry.id]})")
            seen[entry.id] = entry.line
            almanac.entries.append(entry)
        return almanac

    def _preamble(self, almanac: Almanac, lines):
        if not lines:
            return
        byline = [text for _, text in lines if " · " in text]
        if byline:
            almanac.title = lines[0][1]
            parts = [p.strip() for p in byline[0].split(" · ")]
            almanac.author = parts[1] if len(parts) > 1 else None
        else:
            almanac.description = "\n\n".join(self._clean(text, "overview") for _, text in lines)

    def _has_names(self, chunk) -> bool:
        if len(chunk) < 2:
            return True
        candidate = chunk[1][1]
        return len(candidate) <= 30 and not _SENTENCE_END.search(candidate)

    def _entry(self, chunk, named: bool) -> Entry:
        (team_line, team_word), body = chunk[0], chunk[1:]
        team = TEAM_WORDS[team_word.casefold()]
        plain: list[tuple[int, str]] = []  # (line, text)
        sections: dict[str, list[str]] = {}
        current, section = None, ""
        for n, text in body:
            key = SECTIONS.get(text.casefold())
            if key:
                if key in sections:
                    self.fail(n, f"section '{text}' appears twice in one character")
                current, section = sections.setdefault(key, []), key
                continue
            if current is None:
                plain.append((n, text))
            else:
                current.append(self._clean(text.removeprefix("- ").removeprefix("• "), section))
        for key, items in sections.items():
            if not items:
                self.fail(team_line, f"empty section '{key}' in the character starting here")
        need = 4 if named else 3
        if len(plain) < need:
            what = "name, ability, flavor and overview" if named else "ability, flavor and overview"
            self.fail(team_line, f"character is incomplete: expected {what} after the team line")
        if named:
            (name_line, heading), plain = plain[0], plain[1:]
            char_id, name = self._resolve(heading, name_line)
        else:
            char_id, name = self._identify(plain[2][1], plain[2][0])
        texts: dict[str, str | list[str]] = {
            "name": name,
            "ability": self._clean(plain[0][1], "ability"),
            "flavor": plain[1][1],
            "overview": "\n\n".join(self._clean(t, "overview") for _, t in plain[2:]),
        }
        texts.update(sections)
        return Entry(char_id, team, team_line, texts)

    def _clean(self, text: str, kind: str) -> str:
        return apply_glossary(text, self.terms, kind)[0]

    def _resolve(self, heading: str, line: int) -> tuple[str, str]:
        char_id = self.names.get(name_key(heading))
        if char_id is None:
            if self.lang != official():  # official names are ids; others need the glossary
                self.fail(line, f"unknown character name '{heading}': add it to the {self.lang} glossary")
            char_id = normalize_id(heading)
            if not char_id or len(char_id) > MAX_ID_LENGTH:
                self.fail(line, f"'{short(heading, 40)}' cannot be a character name: its id would be "
                                f"{len(char_id)} characters long (at most {MAX_ID_LENGTH})")
        return char_id, self._canonical_name(char_id, heading)

    def _canonical_name(self, char_id: str, fallback: str) -> str:
        for term in self.terms:
            if term.get("character") == char_id:
                return term["term"]
        return fallback

    def _name_pattern(self):
        spellings = sorted({s for t in self.terms if t.get("character") for s in (t["term"], *t.get("variants", ()))},
                           key=len, reverse=True)
        if not spellings:
            return None
        names = "|".join(re.escape(s) for s in spellings)
        return re.compile(rf"[\"”]\s*({names})(?:들)?(?=[은는이가의]|\s)")

    def _identify(self, overview: str, line: int) -> tuple[str, str]:
        """The character an overview is about: the first name after the quoted ability."""
        match = self.ko_name_pattern.search(overview) if self.ko_name_pattern else None
        if not match:
            self.fail(line, "cannot tell which character this overview is about (no known name after the "
                            "quoted ability)")
        char_id = self.names[name_key(match.group(1))]
        return char_id, self._canonical_name(char_id, match.group(1))


TEXT_FIELDS = (PAGE_FIELDS[0], "aliases", *PAGE_FIELDS[1:])


def merged_texts(almanac: Almanac, out_dir: Path) -> dict[Path, dict]:
    """The character files an import writes: existing fields kept, the almanac's replaced."""
    out = {}
    for entry in almanac.entries:
        path = Path(out_dir) / "characters" / f"{entry.id}.yaml"
        current = (read_yaml(path) or {}) if path.exists() else {}
        if not isinstance(current, dict):
            raise InputError("is not a character's texts (a YAML mapping); fix or remove it to import here",
                             where=str(path))
        current.update(entry.texts)
        out[path] = {k: current[k] for k in TEXT_FIELDS if k in current}
    return out


def write_almanac(almanac: Almanac, out_dir: Path, script: tuple[Path, list] | None = None) -> list[Path]:
    """Write the almanac's character files into `out_dir` (and the `script` (path, data), if
    given), all or nothing: everything is checked before anything is written, and a write that
    is killed half-way is finished by the next import or database load (fileio.write_files, with
    the journal and the lock in `out_dir`'s parent: a data folder when `out_dir` is data/<lang>)."""
    root = Path(out_dir).resolve().parent
    targets = [Path(out_dir) / "characters" / f"{entry.id}.yaml" for entry in almanac.entries]
    refuse_to_overwrite([script[0]] if script else [], [almanac.path], edits=targets)
    with locked(root):
        files = merged_texts(almanac, out_dir)
        for path, texts in files.items():
            validate(texts, "texts", path, record_id=path.stem)
        data = {path: dump_yaml(texts).encode("utf-8") for path, texts in files.items()}
        if script:
            data[script[0]] = dump_json(script[1]).encode("utf-8")
        write_files(data, root)
    return list(files)


def script_from_almanac(almanac: Almanac, db, name: str | None = None) -> list:
    """The almanac's characters as a script in the official format.

    Official characters are plain ids; a homebrew character becomes a full object in the
    almanac's language, with its night numbers and storyteller reminders from the database.
    """
    check_option("--name", name)
    meta = {"id": "_meta"}
    for key, value in (("name", name or almanac.title), ("author", almanac.author), ("description", almanac.description)):
        if value:
            meta[key] = value
    script: list = [meta] if len(meta) > 1 else []
    for entry in almanac.entries:
        ch = db.characters.get(entry.id)
        if ch is None or not ch.homebrew:
            script.append(entry.id)
            continue
        texts = ch.text(almanac.lang)
        obj = character_object(
            entry.id, entry.team, Texts(name=entry.texts["name"], ability=entry.texts["ability"],
                                        flavor=entry.texts.get("flavor")),
            night=ch.night, reminders={n: texts.night_reminder(n) if texts else None for n in NIGHTS},
            labels=[db.reminder_label(r, almanac.lang) for r in ch.reminders], setup=ch.setup is not None)
        script.append(obj)
    return script
