"""The tokens a script needs: what `scriptforge tokens` prints and its cover page counts.

Language-neutral (texts are picked by the view, ``render/tokens.py``):

- a **character token** for every character of the script, Travellers, Fabled and Loric included;
- a **reminder token** for every entry of each character's ``reminders`` list, repeats included
  (the official data lists a token as often as the box has it: the Preacher's three "No Ability"),
  then one for each entry of its ``remindersGlobal`` list (available while the character is not
  in play: "Is The Drunk");
- which characters are in the three editions of the boxed game (``BOXED_EDITIONS``, by the
  ``edition`` of the data) and which are new, so ``--new-only`` prints only what the box lacks.

``--only`` keeps characters by team or by id (or any name the database resolves); the reminder
tokens follow their characters.
"""

from dataclasses import dataclass, field

from scriptforge.scripts.analysis import Analysis
from scriptforge.io.errors import InputError
from scriptforge.model.records import TEAMS, Character
from scriptforge.model.ids import normalize_id

#: The editions of the boxed game, in the box's order (the `edition` ids of the official data).
BOXED_EDITIONS = ("tb", "bmr", "snv")


@dataclass(frozen=True)
class ReminderToken:
    """One reminder token: its character, its token id, and whether it is global (from `remindersGlobal`)."""

    owner: Character
    token: str  # the token id (a label of a homebrew character)
    is_global: bool = False


@dataclass
class TokenSet:
    """The tokens a script needs (see the module docstring): the character tokens, the reminder
    tokens, and which characters are in a boxed edition."""

    characters: list[Character]  # in sheet order
    reminders: list[ReminderToken]
    boxed: dict[str, list[Character]] = field(default_factory=dict)  # edition -> the script's characters in it
    new: list[Character] = field(default_factory=list)  # the script's characters in no boxed edition
    new_only: bool = False

    def count(self, kind: str) -> int:
        """Tokens of one kind: "character", "reminder" (of the characters' lists), "global"."""
        if kind == "character":
            return len(self.characters)
        return sum(1 for r in self.reminders if r.is_global == (kind == "global"))


def reminder_tokens(ch: Character) -> list[ReminderToken]:
    """A character's reminder tokens, as many of each as its data lists, then its global ones."""
    return [ReminderToken(ch, t) for t in ch.reminders] + [ReminderToken(ch, t, True) for t in ch.reminders_global]


def is_boxed(ch: Character) -> bool:
    return not ch.homebrew and ch.edition in BOXED_EDITIONS


def token_set(analysis: Analysis, only: tuple[str, ...] = (), new_only: bool = False) -> TokenSet:
    """The tokens of the analysed script, in sheet order; `only` (teams, ids or names) and
    `new_only` (leave out the boxed editions' characters) choose characters."""
    characters = list(analysis.characters)
    boxed = {edition: [ch for ch in characters if is_boxed(ch) and ch.edition == edition] for edition in BOXED_EDITIONS}
    new = [ch for ch in characters if not is_boxed(ch)]
    chosen = _chosen(characters, only, analysis) if only else characters
    if new_only:
        chosen = [ch for ch in chosen if not is_boxed(ch)]
    return TokenSet(characters=chosen, reminders=[r for ch in chosen for r in reminder_tokens(ch)],
                    boxed={e: chars for e, chars in boxed.items() if chars}, new=new, new_only=new_only)


def _chosen(characters: list[Character], only: tuple[str, ...], analysis: Analysis) -> list[Character]:
    """The characters `only` names: a team keeps its characters, anything else one character."""
    items = [part.strip() for value in only for part in value.split(",") if part.strip()]
    teams = {item for item in items if item in TEAMS}
    ids: set[str] = set()
    on_script = {ch.id for ch in characters}
    for item in items:
        if item in teams:
            continue
        if item in on_script or normalize_id(item) in on_script:
            ids.add(item if item in on_script else normalize_id(item))
            continue
        found = [ch.id for ch in analysis.db.find(item) if ch.id in on_script]
        if not found:
            raise InputError(f"--only {item}: neither a team ({', '.join(TEAMS)}) nor a character of this script")
        ids.update(found)
    return [ch for ch in characters if ch.team in teams or ch.id in ids]
