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
from scriptforge.model.records import Character
from scriptforge.scripts.selection import BOXED_EDITIONS, CharacterChoice, chosen_characters, is_boxed, is_new, known_ids


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


def token_set(analysis: Analysis, choice: CharacterChoice = CharacterChoice(),
              in_play: "list[str] | None" = None) -> TokenSet:
    """The tokens of the analysed script, in sheet order, of the characters `choice` keeps (see
    scripts.selection); with `in_play` (a game's bag), only those characters' tokens."""
    characters = list(analysis.characters)
    boxed = {edition: [ch for ch in characters if is_boxed(ch) and ch.edition == edition] for edition in BOXED_EDITIONS}
    known = known_ids(choice.known, analysis.db) if choice.known else None
    new = [ch for ch in characters if is_new(ch, known)]
    chosen = chosen_characters(characters, choice, analysis.db)
    if in_play is not None:
        chosen = [ch for ch in chosen if ch.id in in_play]
    return TokenSet(characters=chosen, reminders=[r for ch in chosen for r in reminder_tokens(ch)],
                    boxed={e: chars for e, chars in boxed.items() if chars}, new=new, new_only=choice.new_only)
