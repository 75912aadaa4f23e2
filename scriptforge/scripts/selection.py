"""Which of a script's characters a print is for: `--only`, `--new-only`, `--known` and a game's bag.

`tokens`, `almanac`, `build --back/--night` and `kit` take the same choice (`CharacterChoice`):

- ``only``: teams or characters (ids, names, aliases), the rest left out;
- ``new_only``: only the characters the table has not met. New means **not in the boxed
  editions** (tb, bmr, snv: the box every group owns) unless the storyteller keeps a list of the
  characters the table already knows (``known``: a script JSON or a text file, one id or name a
  line, ``#`` comments) — then new means **not on that list**. The box is the default because it
  needs no file and is what most tables have played; a group that plays community scripts knows
  more than the box, and only the storyteller can say what.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from scriptforge.io.errors import InputError
from scriptforge.io.userfiles import parse_json, read_text
from scriptforge.model.ids import normalize_id
from scriptforge.model.records import TEAMS, Character

#: The editions of the boxed game, in the box's order (the `edition` ids of the official data).
BOXED_EDITIONS = ("tb", "bmr", "snv")


@dataclass(frozen=True)
class CharacterChoice:
    """`--only` (teams, ids or names, comma-separated or repeated), `--new-only` and `--known FILE`."""

    only: tuple[str, ...] = ()
    new_only: bool = False
    known: Path | None = None

    def __bool__(self) -> bool:
        return bool(self.only or self.new_only)


def is_boxed(ch: Character) -> bool:
    return not ch.homebrew and ch.edition in BOXED_EDITIONS


def known_ids(path: Path, db) -> frozenset[str]:
    """The characters a `--known` file names: a script (a JSON list of ids or objects with an
    "id") or a text file with one id or name a line (``#`` starts a comment); a line naming no
    character is refused with its line number."""
    text = read_text(path)
    if text.lstrip().startswith("["):
        items = parse_json(text, str(path))
        names = [(str(item.get("id", "")) if isinstance(item, dict) else str(item), f"{path}: item {index}")
                 for index, item in enumerate(items if isinstance(items, list) else [], 1)]
        names = [(name, place) for name, place in names if name and name != "_meta"]
    else:
        names = [(line.split("#", 1)[0].strip(), f"{path}:{number}") for number, line in enumerate(text.splitlines(), 1)]
        names = [(name, place) for name, place in names if name]
    out: set[str] = set()
    for name, place in names:
        found = db.find(name)
        if not found:
            raise InputError(f"{place}: '{name}' is no character (an id, name or alias, one a line)")
        out.update(ch.id for ch in found)
    return frozenset(out)


def is_new(ch: Character, known: frozenset[str] | None) -> bool:
    """New to the table: not on the storyteller's list (`known`), else not in the boxed editions."""
    return ch.id not in known if known is not None else not is_boxed(ch)


def chosen_characters(characters: Sequence[Character], choice: CharacterChoice, db) -> list[Character]:
    """The characters of `characters` (in their order) that `choice` keeps."""
    chosen = named_characters(characters, choice.only, db) if choice.only else list(characters)
    if choice.new_only:
        known = known_ids(choice.known, db) if choice.known else None
        chosen = [ch for ch in chosen if is_new(ch, known)]
    return chosen


def named_characters(characters: Sequence[Character], only: tuple[str, ...], db, option: str = "--only",
                     teams: bool = True) -> list[Character]:
    """The characters `only` names (comma-separated or repeated): with `teams`, a team keeps its
    characters; anything else is one character of `characters` (else InputError naming `option`)."""
    items = [part.strip() for value in only for part in value.split(",") if part.strip()]
    team_ids = {item for item in items if teams and item in TEAMS}
    ids: set[str] = set()
    on_script = {ch.id for ch in characters}
    for item in items:
        if item in team_ids:
            continue
        if item in on_script or normalize_id(item) in on_script:
            ids.add(item if item in on_script else normalize_id(item))
            continue
        found = [ch.id for ch in db.find(item) if ch.id in on_script]
        if not found:
            what = f"neither a team ({', '.join(TEAMS)}) nor a character" if teams else "not a character"
            raise InputError(f"{option} {item}: {what} of this script")
        ids.update(found)
    return [ch for ch in characters if ch.team in team_ids or ch.id in ids]
