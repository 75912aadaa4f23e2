"""Facts in words, in any language (for sheets, almanacs and the terminal alike): a setup-table
cell, and a setup effect as a phrase ("+1 Outsider, adds the Damsel" /
"외지인 +1명, 처녀 추가"). The words are the `setup` section of data/<lang>/ui.yaml (falling back
along the language registry), so a language brings its own word order with no code change. The
other games' role conditions ("from night 2", "1× per game") come from their own
data/games/<lang>/ui.yaml `conditions`.
"""

from collections.abc import Callable
import re
from typing import TYPE_CHECKING

from scriptforge.model.records import COUNT_KEYS, SetupEffect

if TYPE_CHECKING:
    from scriptforge.db.database import Database
    from scriptforge.db.games import GameDatabase, Role
    from scriptforge.model.records import Character

_TEAM_OF = {key: team for team, key in COUNT_KEYS.items()}


def setup_description(effect: SetupEffect, db: "Database", lang: str, own_name: str,
                      name_of: Callable[[str], str]) -> str:
    """Every field of `effect` in words, in `lang`; `own_name` is the character's name (for extra
    copies of it), `name_of` turns another character's id into its name (for "adds the Damsel")."""
    def word(key: str) -> str:
        return str(db.word(lang, "setup", key) or key)

    def team(key: str, plural: bool = False) -> str:
        return db.team_name(_TEAM_OF.get(key, key), lang, plural=plural)

    def span(value: tuple[int, int], ends_only: bool = False) -> str:
        lo, hi = value
        if lo == hi:
            return f"{lo:+d}"
        if ends_only:  # the Storyteller picks one end: "-1 or +1"
            return f"{lo:+d} {word('either')} {hi:+d}"
        return word("span_adjacent" if hi - lo == 1 else "span").format(lo=f"{lo:+d}", hi=f"{hi:+d}")

    parts = []
    for key, value in effect.counts.items():
        many = max(abs(value[0]), abs(value[1])) != 1
        parts.append(word("count_many" if many else "count_one").format(
            count=span(value, key in effect.ends_only), team=team(key), teams=team(key, plural=True)))
    if effect.outsiders_any is not None:
        parts.append(word("some_outsiders").format(n=effect.outsiders_any) if effect.outsiders_any
                     else word("any_outsiders"))
    for flag in ("no_evil", "seating", "duplicate_good"):
        if getattr(effect, flag):
            parts.append(word(flag))
    marks = set(effect.selection)
    if "good-duplicate" in marks and not effect.duplicate_good:
        parts.append(word("duplicate_good"))
    if "evil-duplicate" in marks:
        parts.append(word("evil_duplicate"))
    if "bag-duplicate" in marks and not effect.extra_copies and not effect.majority:
        parts.append(word("bag_duplicate"))
    if "bag-disabled" in marks and not effect.bag_token and effect.demon_token:
        parts.append(word("bag_disabled"))
    if effect.majority:
        parts.append(word("majority").format(name=own_name))
    if not effect.demon_token:
        parts.append(word("no_demon_token"))
    if effect.extra_copies:
        parts.append(word("extra_copies").format(count=span(effect.extra_copies), name=own_name))
        if effect.extra_copies_drunk:
            parts.append(word("extra_copies_drunk").format(count=effect.extra_copies_drunk))
    for added in effect.adds:
        parts.append(word("adds").format(name=name_of(added)))
    if effect.evil_townsfolk:
        parts.append(word("evil_townsfolk").format(count=effect.evil_townsfolk, team=team("townsfolk")))
    if effect.bag_token:
        token = db.word(lang, "alignments", effect.bag_token) or team(COUNT_KEYS.get(effect.bag_token, effect.bag_token))
        parts.append(word("bag_token").format(team=token))
    if effect.unmodelled:
        parts.append(word("no_bracket"))
    return ", ".join(parts)


def count_phrase(count: int, team: str, db: "Database", lang: str) -> str:
    """"1 Outsider" / "6 Outsiders" / "외지인 6명": a number of characters of a team, in `lang`."""
    form = str(db.word(lang, "setup", "count_one" if count == 1 else "count_many"))
    return form.format(count=count, team=db.team_name(team, lang), teams=db.team_name(team, lang, plural=True))


def option_phrase(option: dict[str, int], db: "Database", lang: str) -> str:
    """One option of a setup effect as what the Storyteller does ("add no Outsider", "remove
    1 Outsider", "외지인 1명 추가"), from {count key: delta}; several keys are joined."""
    parts = []
    for key, delta in option.items():
        team = _TEAM_OF.get(key, key)
        if not delta:
            continue
        form = str(db.word(lang, "setup", "option_add" if delta > 0 else "option_remove"))
        parts.append(form.format(what=count_phrase(abs(delta), team, db, lang)))
    if not parts:
        team = _TEAM_OF.get(next(iter(option), "outsiders"), "outsider")
        parts.append(str(db.word(lang, "setup", "option_none")).format(team=db.team_name(team, lang)))
    return joined(parts, db, lang)


def joined(items: list[str], db: "Database", lang: str) -> str:
    """"A", "A and B", "A and B and C" with the `and` template of ui.yaml (Korean: "A, B")."""
    form = str(db.word(lang, "setup", "and"))
    out = items[0] if items else ""
    for item in items[1:]:
        out = form.format(first=out, second=item)
    return out


def effect_text(ch: "Character", db: "Database", lang: str, names: dict[str, str] | None = None) -> str | None:
    """The setup effect in words, e.g. "-1 Outsider" / "외지인 -1명"; None for no effect."""
    if ch.setup is None:
        return None
    names = names or {}
    return setup_description(
        ch.setup, db, lang, names.get(ch.id) or ch.name(lang),
        lambda other: names.get(other) or (db.characters[other].name(lang) if other in db.characters else other),
    ) or None


def setup_cell(base: int, span: tuple[int, int]) -> str:
    """A setup-table cell: the base count, and beside it the range when the bags change it."""
    lo, hi = span
    return str(base) if lo == hi == base else f"{base} ({lo}–{hi})" if lo != hi else f"{base} ({lo})"


def role_conditions(gdb: "GameDatabase", role: "Role", lang: str) -> list[str]:
    """A role of another game's conditions as short phrases, each once: '2 players', 'from night
    2', '1× per game'."""
    words = gdb.ui[lang]["conditions"]
    out = []
    if role.count:
        out.append(words["count"].format(n=role.count))
    for a in role.abilities:
        if a.from_night and a.from_night > 1:
            out.append(words["from_night"].format(n=a.from_night))
        if a.on_night:
            out.append(words["on_night"].format(n=a.on_night))
        if a.uses:
            out.append(words[f"uses_{a.per}"].format(n=a.uses))
    return list(dict.fromkeys(out))


def ability_conditions(gdb: "GameDatabase", role: "Role", lang: str) -> list[str]:
    """Each conditioned ability of a role of another game as 'name: condition, condition'
    ('investigation: from night 2'), after the role's player count."""
    words = gdb.ui[lang]["conditions"]
    names = gdb.texts[lang].get("abilities", {})
    out = []
    for a in role.abilities:
        parts = []
        if a.from_night:
            parts.append(words["from_night"].format(n=a.from_night))
        if a.on_night:
            parts.append(words["on_night"].format(n=a.on_night))
        if a.uses:
            parts.append(words[f"uses_{a.per}"].format(n=a.uses))
        if parts:
            out.append(f"{names.get(a.id, a.id)}: {', '.join(parts)}")
    if role.count:
        out.insert(0, words["count"].format(n=role.count))
    return out


# An overview that opens by quoting the ability: the quote ends at the first closing quote mark
# after a sentence end (."  ]”  .)") — quotes inside it ("mad") are kept.
_OPENING_QUOTE = re.compile(r'^(\s*)(["“])(.+?[.!?\])。])(["”])(?=\s|$)', re.S)


def quote_ability(overview: str, ability: str) -> str:
    """`overview` with its opening quotation of the ability replaced by `ability` (the text the
    page or the terminal prints above it, which may be the official wording: the seeds quote
    their own, older one), the rest of the prose untouched."""
    match = _OPENING_QUOTE.match(overview)
    if not match or not ability:
        return overview
    lead, opening, _, closing = match.groups()
    return f"{lead}{opening}{ability}{closing}{overview[match.end():]}"

