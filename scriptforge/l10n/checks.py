"""Translation checks, in the spirit of translate-toolkit's pofilter and Weblate's checks.

Each check is a small function registered with `@check(code, severity)`; its docstring's first
line is its summary (docs/l10n-checks.md documents every code; a test keeps both in step).
A check receives a `Context` and yields `Finding`s for the languages being checked.

The context holds the BotC database and/or the other games (Salem, Werewolf, Mafia). The generic
checks (missing, untranslated, term variants with each game's own glossary, name collisions,
whitespace, unbalanced) read every unit; the checks of BotC's own conventions (the night `*`, the
setup bracket, the parity of items, numbers, brackets and reminder labels between the languages,
the night register, the names against the BotC glossary and inside other texts) read the BotC units
only. What differs between languages (endings after a name, number words, what a typo of a name
looks like, the night register) is in `l10n/lang/`, one module per language code.
"""

from dataclasses import dataclass, replace
from pathlib import Path
import re
from typing import Callable, Iterable

from scriptforge.model.rule_sets import SCRIPTED_GAME, scripted
from scriptforge.l10n.lang import rules_for
from scriptforge.l10n.provenance import STALE, slot, source_of, state
from scriptforge.db.translations import NAME as USER_LAYER
from scriptforge.l10n.units import BUILT_IN, SHARED_UI, Unit, kind_of, selected_units, source_language, unit_languages
from scriptforge.model.languages import detect, present, writing_systems
from scriptforge.model.languages import get as get_language
from scriptforge.model.ids import name_key
from scriptforge.model.records import TEAMS
from scriptforge.io.paths import DATA_DIR
from scriptforge.model.findings import Finding, Selection, register, short


@dataclass(frozen=True)
class Check:
    """A registered translation check: its code, severity, function and summary
    (the first line of the function's docstring)."""

    code: str
    severity: str
    function: Callable
    summary: str


REGISTRY: dict[str, Check] = {}


def check(code: str, severity: str):
    """Register a check function under a stable code and severity."""
    def add(function):
        summary = (function.__doc__ or "").strip().splitlines()[0]
        register(code, severity, summary, "l10n")
        REGISTRY[code] = Check(code, severity, function, summary)
        return function

    return add


class Context:
    """What every check reads: the BotC database (None: not checked), the other games
    (id -> GameDatabase), their units and the languages being checked."""

    def __init__(self, db, langs=None, games=None):
        self.db = db
        self.games = dict(games or {})
        self.units = selected_units(db, self.games)
        self.langs = tuple(langs) if langs is not None else unit_languages(db, self.units)
        # lang -> glossary terms, per game: BotC's own, and the one the other games share
        # (data/games/<lang>/glossary.yaml), which also covers their shared sheet words
        self.glossaries = {SCRIPTED_GAME: db.glossary} if db is not None else {}
        for game_id, gdb in self.games.items():
            self.glossaries[game_id] = self.glossaries[SHARED_UI] = gdb.glossary

    def finding(self, code, lang, message, unit: Unit | None = None, *, character=None, field=None,
                game=None, severity=None, **data) -> Finding:
        if unit is not None:
            character = character or unit.character
            field = field or (unit.field if unit.character else unit.key)
            game = game or unit.game
        return Finding(code, severity or REGISTRY[code].severity, message, data=data, lang=lang, game=game or SCRIPTED_GAME,
                       character=character, field=field)

    def texts(self, lang, game=None):
        """(unit, item index or None, text) for every text of `lang` (of one `game` if given),
        list items one by one."""
        for unit in self.units:
            if game is not None and unit.game != game:
                continue
            value = unit.text(lang)
            if isinstance(value, tuple):
                for i, item in enumerate(value):
                    yield unit, i, item
            elif value is not None:
                yield unit, None, value


def _where(unit: Unit, index) -> str:
    label = unit.key if unit.character is None else unit.key
    return f"{label}[{index + 1}]" if index is not None else label


def _file(unit: Unit, lang: str, db=None) -> str:
    """The data file that holds a unit's `lang` text, relative to the project (data/...); for a
    text a data pack gives, the official translation it came from; for your own, your translations."""
    if db is not None and scripted(unit.game) and unit.key in db.pack_units.get(lang, ()):
        if db.unit_layers.get(lang, {}).get(unit.key) == USER_LAYER:
            return f"your translations ({slot(Path(USER_LAYER), lang, unit.key).path.as_posix()}, l10n import)"
        return f"the official {lang} translation (game/{lang}.json)"
    if unit.game == SHARED_UI:
        return f"data/games/{lang}/ui.yaml"
    if not scripted(unit.game):  # group: <game>.roles, <game>.steps or <game>.game
        return f"data/games/{unit.game}/{lang}/{unit.group.split('.', 1)[1]}.yaml"
    return slot(Path("data"), lang, unit.key).path.as_posix()


# -- completeness -----------------------------------------------------------------------------


@check("missing", "error")
def missing(ctx: Context) -> Iterable[Finding]:
    """A text the other language has and this one does not (an error in the built-in languages,
    which promise every text; info in a language only a pack brings, translated as far as it goes)."""
    built_in = present(DATA_DIR)
    for unit in ctx.units:
        for lang in ctx.langs:
            source = source_language(unit, lang, ctx.db)
            if unit.text(lang) is None and source is not None:
                yield ctx.finding("missing", lang, f"{unit.key}: no {lang} text ({source} has one)", unit,
                                  severity=None if lang in built_in else "info")


def _same_word_is_fine(text: str, lang: str, source: str) -> bool:
    """One word shared by two languages of one script ("Team", "Edition", "Imp" in German and
    English) is a cognate or a name, not a copy; placeholders alone ("{by} {author}") hold no word."""
    words = re.sub(r"\{[^}]*\}", " ", text).split()
    script = get_language(lang).writing_systems[0]  # the script the language is written in first
    return not words or (len(words) == 1 and script == get_language(source).writing_systems[0]
                         and writing_systems(text) <= {script})


@check("untranslated", "error")
def untranslated(ctx: Context) -> Iterable[Finding]:
    """A text identical to the other language's text (copied, not translated); one word the two
    languages share in one script is not reported."""
    for unit in ctx.units:
        for lang in ctx.langs:
            source = source_language(unit, lang, ctx.db)
            mine, theirs = unit.flat(lang), unit.flat(source) if source else None
            if source and mine and mine == theirs and writing_systems(mine) and source_of(ctx.db, unit, lang) != "-":
                if detect(mine, (lang, source)) != lang and not _same_word_is_fine(mine, lang, source):
                    yield ctx.finding("untranslated", lang, f"{unit.key}: same text as in "
                                      f"{source} ('{short(mine, 40)}')", unit)


@check("stale", "error")
def stale(ctx: Context) -> Iterable[Finding]:
    """The source text changed after this translation was made (or confirmed)."""
    for unit in ctx.units:
        for lang in ctx.langs:
            if state(ctx.db, unit, lang) == STALE:
                source = source_of(ctx.db, unit, lang)
                field = unit.key.split(".", 1)[1] if unit.character else unit.key
                yield ctx.finding(
                    "stale", lang, f"{unit.key}: the {source} text changed after this translation was "
                    f"made; update it, then run 'scriptforge l10n confirm {unit.character or unit.key.split('.')[0]}"
                    f" {field} --lang {lang}'", unit, source=source)


# -- markers -----------------------------------------------------------------------------------


@check("night-marker", "error")
def night_marker(ctx: Context) -> Iterable[Finding]:
    """The night '*' (each night*, 매일 밤*) is in one language's text and not (as often) in the other's."""
    for unit in ctx.units:
        # night texts and flavor are left out: there the official texts use '*' as markup (*KNOW*)
        if not scripted(unit.game) or len(unit.texts) < 2 or unit.group in (*_NIGHT_GROUPS, "flavor"):
            continue
        counts = {lang: (unit.flat(lang) or "").count("*") for lang in unit.texts}
        for lang in ctx.langs:
            other = source_language(unit, lang, ctx.db)
            if lang in counts and other in counts and counts[lang] < counts[other]:
                yield ctx.finding("night-marker", lang, f"{unit.key}: the {other} text has {counts[other]} "
                                  f"night '*' marker(s), this one {counts[lang]} (write 'each night*' / "
                                  f"'매일 밤*' where the ability skips the first night)", unit,
                                  count=counts[lang], other=counts[other])


def _bracket_effect(effect) -> dict:
    """The parts of a setup effect that a [...] bracket states."""
    if effect is None:
        return {}
    data = effect.as_dict()
    # the selection marks come from the official `special` list, which no bracket states
    return {k: v for k, v in data.items() if k not in ("demon_token", "bag_token", "selection")}


@check("setup-bracket", "error")
def setup_bracket(ctx: Context) -> Iterable[Finding]:
    """An ability's [...] setup bracket is missing, or its numbers differ from the setup effect in data/characters.yaml."""
    # deferred: start-up time
    from scriptforge.rules.brackets import read_brackets

    db = ctx.db
    if db is None:
        return
    for ch in db.characters.values():
        wanted = _bracket_effect(ch.setup)
        for lang in ctx.langs:
            t = ch.text(lang)
            if t is None:
                continue
            names = [t.name, *(x.name for x in ch.texts.values())]
            reading = read_brackets(rules_for(lang).counters_as_digits(t.ability), names,
                                    lambda n: (db.find(n) or [None])[0] and db.find(n)[0].id)
            # a bracket is missing where another language's text of the ability has one (the
            # official texts of the Fabled and Loric state their setup in words, in every language)
            others_have_one = any(_BRACKET.search(x.ability) for code, x in ch.texts.items() if code != lang)
            if wanted and not reading.brackets and others_have_one:
                yield ctx.finding("setup-bracket", lang, f"{ch.id}.ability: no [...] setup bracket; the setup "
                                  f"effect is {wanted}", character=ch.id, field="ability", expected=wanted)
            elif reading.brackets:
                found = _bracket_effect(reading.effect)
                if found != wanted:
                    yield ctx.finding("setup-bracket", lang, f"{ch.id}.ability: {' '.join(reading.brackets)} "
                                      f"reads as {found or 'nothing'}, but data/characters.yaml says "
                                      f"{wanted or 'no setup effect'}", character=ch.id, field="ability",
                                      expected=wanted, found=found)


_BRACKET = re.compile(r"\[[^\]]*\]")


# -- parity between the languages ------------------------------------------------------------------

#: Unit groups whose texts state rules exactly (numbers must agree between the languages).
_RULE_GROUPS = ("ability", "first_night_reminder", "other_night_reminder", "night_steps", "jinxes",
                "reminder_labels")
_NIGHT_GROUPS = ("first_night_reminder", "other_night_reminder", "night_steps")
def _pairs(ctx: Context, groups: tuple[str, ...] = ()) -> Iterable[tuple[Unit, str, str, str, str]]:
    """(unit, lang, other, text, other text) for every BotC unit with texts in both languages
    (list items joined), per checked language."""
    for unit in ctx.units:
        if not scripted(unit.game) or len(unit.texts) < 2 or (groups and unit.group not in groups):
            continue
        for lang in ctx.langs:
            other = source_language(unit, lang, ctx.db)
            if other is not None and unit.text(lang) is not None and unit.text(other) is not None:
                yield unit, lang, other, unit.flat(lang) or "", unit.flat(other) or ""


@check("item-count", "error")
def item_count(ctx: Context) -> Iterable[Finding]:
    """How-to-run or examples lists with a different number of items in the two languages."""
    for unit, lang, other, _, _ in _pairs(ctx, ("how_to_run", "examples")):
        mine, theirs = len(unit.text(lang)), len(unit.text(other))
        if mine < theirs:
            yield ctx.finding("item-count", lang, f"{unit.key}: {mine} item(s), the {other} text has {theirs}",
                              unit, count=mine, other=theirs)


@check("number-parity", "error")
def number_parity(ctx: Context) -> Iterable[Finding]:
    """An ability, night text, jinx or label states a number the other language's text does not."""
    for unit, lang, other, mine, theirs in _pairs(ctx, _RULE_GROUPS):
        extra = rules_for(lang).numbers(mine) - rules_for(other).numbers(theirs)
        if extra:
            listed = ", ".join(map(str, sorted(extra)))
            yield ctx.finding("number-parity", lang, f"{unit.key}: states {listed}, the {other} text does not",
                              unit, numbers=sorted(extra))


@check("bracket-parity", "error")
def bracket_parity(ctx: Context) -> Iterable[Finding]:
    """A text has fewer [...] brackets than the other language's text."""
    for unit, lang, other, mine, theirs in _pairs(ctx):
        count, other_count = len(_BRACKET.findall(mine)), len(_BRACKET.findall(theirs))
        if count < other_count:
            yield ctx.finding("bracket-parity", lang, f"{unit.key}: {count} [...] bracket(s), the {other} text "
                              f"has {other_count}", unit, count=count, other=other_count)


def _labels_named(ctx: Context, text: str, lang: str) -> set[str]:
    """The reminder tokens a night text names: '중독' quoted in Korean, POISONED in capitals in English."""
    labels = ctx.db.reminder_labels.get(lang, {})
    rules = rules_for(lang)
    return {token for token, label in labels.items() if rules.names_label(label, text)}


@check("label-parity", "error")
def label_parity(ctx: Context) -> Iterable[Finding]:
    """A night text names a reminder token the other language's text does not ('중독' / POISONED)."""
    if ctx.db is None:
        return
    for unit, lang, other, mine, theirs in _pairs(ctx, _NIGHT_GROUPS):
        extra = _labels_named(ctx, mine, lang) - _labels_named(ctx, theirs, other)
        if extra:
            named = ", ".join(f"'{ctx.db.reminder_labels[lang][t]}' ({t})" for t in sorted(extra))
            yield ctx.finding("label-parity", lang, f"{unit.key}: names {named}, the {other} text does not",
                              unit, tokens=sorted(extra))


@check("night-register", "error")
def night_register(ctx: Context) -> Iterable[Finding]:
    """A Korean night reminder or step in the imperative (…하세요) instead of the official plain present (…합니다)."""
    for lang in ctx.langs:
        rules = rules_for(lang)
        for unit in ctx.units:
            text = unit.text(lang)
            if scripted(unit.game) and unit.group in _NIGHT_GROUPS and isinstance(text, str):
                found = rules.imperatives(text)
                if found:
                    yield ctx.finding("night-register", lang, f"{unit.key}: '{found[0]}' is the imperative; "
                                      f"{rules.register_hint}", unit)


# -- glossary and names --------------------------------------------------------------------------


@check("term-variant", "error")
def term_variant(ctx: Context) -> Iterable[Finding]:
    """A variant of a glossary term where the glossary says it is wrong (마을주민 for 주민 in a rule text, 설교자 for 전도사)."""
    # deferred: start-up time
    from scriptforge.model.glossary import terms_for, variant_pattern

    for game, glossary in ctx.glossaries.items():
        for lang in ctx.langs:
            terms = glossary.get(lang, [])
            patterns = {}
            for unit, index, text in ctx.texts(lang, game):
                kind = kind_of(unit)
                if kind not in patterns:
                    patterns[kind] = variant_pattern(terms_for(terms, kind))
                pattern, table = patterns[kind]
                if pattern is None:
                    continue
                for match in pattern.finditer(text):
                    variant = match.group(0)
                    file = _file(unit, lang, ctx.db)
                    yield ctx.finding("term-variant", lang, f"{file}: {_where(unit, index)}: '{variant}' is a "
                                      f"variant; write '{table[variant]}' (data/{lang}/glossary.yaml)", unit,
                                      variant=variant, term=table[variant], file=file)


@check("name-glossary", "error")
def name_glossary(ctx: Context) -> Iterable[Finding]:
    """A character's name or a reminder label differs from the glossary's term for it."""
    if ctx.db is None:
        return
    for lang in ctx.langs:
        for term in ctx.db.glossary.get(lang, []):
            ch = ctx.db.characters.get(term.get("character"))
            t = ch and ch.text(lang)
            if t and t.name != term["term"]:
                yield ctx.finding("name-glossary", lang, f"{ch.id}.name: '{t.name}', but data/{lang}/glossary.yaml "
                                  f"has '{term['term']}'", character=ch.id, field="name")
            token = term.get("reminder")
            label = token and ctx.db.reminder_labels.get(lang, {}).get(token)
            if token and (label is None or label not in term["term"]):
                yield ctx.finding("name-glossary", lang, f"reminder.{token}: the label is '{label or '-'}', but "
                                  f"data/{lang}/glossary.yaml names the token '{term['term']}'",
                                  field=f"reminder.{token}")


def _apostrophes(text: str) -> str:
    return text.replace("’", "'").replace("`", "'")


def _spellings(db) -> set[str]:
    """Every known spelling (names, aliases, glossary terms and variants) without spaces."""
    out: set[str] = set()
    for ch in db.characters.values():
        for t in ch.texts.values():
            out.update(_apostrophes(re.sub(r"\s+", "", n)) for n in (t.name, *t.aliases))
    for terms in db.glossary.values():
        for term in terms:
            out.update(_apostrophes(re.sub(r"\s+", "", n)) for n in (term["term"], *term.get("variants", ())))
    return out


@check("name-misspelt", "error")
def name_misspelt(ctx: Context) -> Iterable[Finding]:
    """A word one letter away from a character's name (미망임 for 미망인, Widdow for Widow) inside a text."""
    db = ctx.db
    if db is None:
        return
    known = _spellings(db)
    for lang in ctx.langs:
        names = []  # (words in the name, id, name)
        for ch in db.characters.values():
            t = ch.text(lang)
            if t:
                names.append((len(t.name.split()), ch.id, _apostrophes(t.name)))
        for term in db.glossary.get(lang, []):  # names of characters not yet written in `lang`
            if term.get("character") in db.characters:
                names.append((len(term["term"].split()), term["character"], _apostrophes(term["term"])))
        # names by their one-letter deletions (and the word count): a word one substitution,
        # insertion or deletion away from a name shares one of them, so each candidate meets a
        # few names, not all (with the official pack, 236 names × every word took ~3 s)
        rules = rules_for(lang)
        by_key: dict[tuple, dict[tuple[str, str], None]] = {}
        for words, char_id, name in names:
            for variant in _deletions(name.replace(" ", "")):
                by_key.setdefault((words, variant), {})[(char_id, name)] = None
        lower_words = rules.lower_words(text for _, _, text in ctx.texts(lang, SCRIPTED_GAME))
        typos: dict[tuple[int, str], list[tuple[str, str]]] = {}
        for unit, index, text in ctx.texts(lang, SCRIPTED_GAME):
            if (unit.field == "name" and unit.character) or unit.group in rules.typo_free_groups:
                continue
            seen = set()
            for n_words, candidate, forms in rules.candidates(_apostrophes(text), lower_words):
                if candidate in seen or not forms.isdisjoint(known) or not candidate:
                    continue
                key = (n_words, candidate)
                if key not in typos:  # a word recurs across texts: its near names are looked up once
                    near = {pair: None for variant in _deletions(candidate) for pair in by_key.get((n_words, variant), ())}
                    typos[key] = [(char_id, name) for char_id, name in near if rules.is_typo(candidate, name)]
                for char_id, name in typos[key]:
                    seen.add(candidate)
                    yield ctx.finding("name-misspelt", lang, f"{_where(unit, index)}: '{candidate}' looks like "
                                      f"a misspelling of {name} ({char_id})", unit, word=candidate,
                                      name=name, name_of=char_id)


def _deletions(word: str) -> set[str]:
    """The word and every form of it with one letter left out."""
    return {word, *(word[:i] + word[i + 1:] for i in range(len(word)))}


@check("name-collision", "error")
def name_collision(ctx: Context) -> Iterable[Finding]:
    """One name (or glossary spelling) used for two characters in one language."""
    if ctx.db is not None:
        yield from _botc_collisions(ctx)
    for gdb in ctx.games.values():
        yield from _game_collisions(ctx, gdb)


def _botc_collisions(ctx: Context) -> Iterable[Finding]:
    for lang in ctx.langs:
        owners: dict[str, dict[str, str]] = {}
        for ch in ctx.db.characters.values():
            t = ch.text(lang)
            if t:
                owners.setdefault(name_key(t.name), {})[ch.id] = t.name
        for term in ctx.db.glossary.get(lang, []):
            if term.get("character"):
                for spelling in (term["term"], *term.get("variants", ())):
                    owners.setdefault(name_key(spelling), {}).setdefault(term["character"], spelling)
        for key, ids in owners.items():
            if len(ids) > 1:
                spelled = ", ".join(f"{i} ('{n}')" for i, n in ids.items())
                yield ctx.finding("name-collision", lang, f"one name for {len(ids)} characters: {spelled}",
                                  character=next(iter(ids)), field="name", characters=list(ids))


def _game_collisions(ctx: Context, gdb) -> Iterable[Finding]:
    """Within one other game: a name or alias of one role, card or token that is another's."""
    for lang in ctx.langs:
        owners: dict[str, dict[str, str]] = {}
        for role in gdb.roles.values():
            t = role.texts.get(lang)
            if t:
                for spelling in (t.name, *t.aliases):
                    owners.setdefault(name_key(spelling), {}).setdefault(role.id, spelling)
        for key, ids in owners.items():
            if len(ids) > 1:
                spelled = ", ".join(f"{i} ('{n}')" for i, n in ids.items())
                yield ctx.finding("name-collision", lang, f"{gdb.id}: one name for {len(ids)} roles or cards: "
                                  f"{spelled}", character=next(iter(ids)), field="name", game=gdb.id,
                                  characters=list(ids))


# -- whitespace and punctuation --------------------------------------------------------------------


@check("whitespace", "warning")
def whitespace(ctx: Context) -> Iterable[Finding]:
    """Leading or trailing spaces, or two spaces in a row."""
    for lang in ctx.langs:
        for unit, index, text in ctx.texts(lang):
            if _official_text(ctx, unit, lang):
                continue  # no output shows it (a page folds spaces) and it is upstream's to keep
            problems = []
            if text != text.strip():
                problems.append("leading or trailing whitespace")
            if re.search(r"\S  +\S", text):
                problems.append("double space")
            if problems:
                yield ctx.finding("whitespace", lang, f"{_where(unit, index)}: {' and '.join(problems)}", unit)


def _official_text(ctx: Context, unit: Unit, lang: str) -> bool:
    """Whether a unit's `lang` text is an official pack's as it came (not your correction of it)."""
    db = ctx.db
    return db is not None and scripted(unit.game) and unit.key in db.pack_units.get(lang, ()) \
        and db.unit_layers.get(lang, {}).get(unit.key) != USER_LAYER


_BRACKETS = (("(", ")"), ("[", "]"), ("{", "}"), ("「", "」"), ("『", "』"), ("《", "》"), ("<", ">"))


# "1) a player …, or 2) …" numbers the choices and opens nothing ("(0, 1, or 2)" is a bracket)
_LIST_MARK = re.compile(r"(?:(?<=\s)|^)\d{1,2}\)(?=\s)")


def _unbalanced(text: str, quotes: tuple[tuple[str, str], ...]) -> list[str]:
    out = []
    if text.count(")") > text.count("("):
        text = _LIST_MARK.sub("", text)
    closing_marks = {closing for _, closing in quotes}
    # a language's own quotes (German „…“: its closing mark is English's opening one), then the
    # brackets none of them uses as a quote
    pairs = [*quotes, *((a, b) for a, b in _BRACKETS if a not in closing_marks and b not in closing_marks)]
    for opening, closing in pairs:
        if opening not in text and closing not in text:
            continue
        depth = 0
        for char in text:
            if char == opening:
                depth += 1
            elif char == closing:
                depth -= 1
                if depth < 0:
                    break
        if depth:
            out.append(opening + closing)
    if text.count('"') % 2:
        out.append('"')
    return out


@check("unbalanced", "error")
def unbalanced(ctx: Context) -> Iterable[Finding]:
    """An opening quote or bracket without its closing one, or the reverse."""
    for lang in ctx.langs:
        quotes = get_language(lang).quotes
        for unit, index, text in ctx.texts(lang):
            pairs = _unbalanced(text, quotes)
            if pairs:
                yield ctx.finding("unbalanced", lang, f"{_where(unit, index)}: unbalanced {' '.join(pairs)}",
                                  unit, pairs=pairs)


# -- the official interface words ------------------------------------------------------------------

#: The concepts an official interface file (script/<code>.json) and our ui.yaml both name.
OFFICIAL_CONCEPTS = (*(("teams", team, form) for team in TEAMS for form in ("name", "plural")),
                     ("labels", "first_night"), ("labels", "other_nights"))


@check("official-word", "error")
def official_word(ctx: Context) -> Iterable[Finding]:
    """An interface word we ship (a team name, a night title) that is not the official interface file's word."""
    if ctx.db is None:
        return
    for lang in ctx.langs:
        official_words, shipped = ctx.db.official_ui.get(lang), ctx.db.shipped_ui.get(lang)
        if not official_words or not shipped:
            continue
        ours_first = lang in present(DATA_DIR)  # our own ui.yaml is printed before the official words
        where = f"data/{lang}/ui.yaml" if ours_first else f"data/interface/{lang}.yaml"
        for path in OFFICIAL_CONCEPTS:
            theirs, ours = _at(official_words, path), _at(shipped, path)
            if isinstance(theirs, str) and isinstance(ours, str) and theirs.strip() != ours.strip():
                key = "ui." + ".".join(path)
                printed = "ours is printed" if ours_first else "the official word is printed"
                yield ctx.finding("official-word", lang, f"{key}: {where} says '{ours}', the official interface "
                                  f"file says '{theirs}' ({printed})", field=key,
                                  severity="info" if ours_first else None, shipped=ours, official_word=theirs)


def _at(tree: object, path: tuple[str, ...]) -> object:
    for step in path:
        tree = tree.get(step) if isinstance(tree, dict) else None
    return tree


# -- running ---------------------------------------------------------------------------------------


def run_checks(db, langs=None, ignore=(), select=None, games=None, include_official: bool = False) -> list[Finding]:
    """Every finding of the selected checks (all by default, minus `ignore`) for `langs`.

    `db` is the BotC database (None: not checked); `games` maps other games' ids to their
    `GameDatabase` (default: none). Selectors are codes or code prefixes (see `Selection`).
    A finding on an official text (one a data pack gives, or a text the official translation
    lacks) is no error of ours: it is left out, or with `include_official` kept after ours as
    `info` with `data.official` set (to report upstream; the official files are not "fixed" here).
    A text of your translation layer is yours, even where a pack gives one too. `data.layer`
    names the layer of a text that is not the built-in data's.
    """
    chosen = Selection.of(select or (), ignore, domain="l10n")
    ctx = Context(db, langs, games)
    ours, theirs = [], []
    for code, registered in REGISTRY.items():
        if chosen.wants(code):
            for found in registered.function(ctx):
                layer = layer_of_finding(db, found)
                if layer:
                    found = replace(found, data={**found.data, "layer": layer})
                if layer != USER_LAYER and is_official(db, found):  # your own correction is checked as ours
                    theirs.append(replace(found, severity="info", data={**found.data, "official": True}))
                else:
                    ours.append(found)
    return ours + theirs if include_official else ours


def layer_of_finding(db, found: Finding) -> str | None:
    """The layer the text of a finding comes from, where it is not the built-in data (a pack's
    name, or "translations" for the user's own): JSON's `data.layer`."""
    if db is None or not (found.game is None or scripted(found.game)) or found.lang is None:
        return None

    key = f"{found.character}.{found.field}" if found.character else found.field
    layer = db.unit_layers.get(found.lang, {}).get(key or "")
    return layer if layer != BUILT_IN else None


def is_official(db, found: Finding) -> bool:
    """Whether a finding is about an official text: one a data pack gives in that language, or a
    text missing in that language whose source is official (a gap of the official translation)."""
    if db is None or not (found.game is None or scripted(found.game)) or found.lang is None or not db.pack_units:
        return False
    key = f"{found.character}.{found.field}" if found.character else found.field
    if key in db.pack_units.get(found.lang, ()):
        return True
    return found.code == "missing" and any(key in units for units in db.pack_units.values())
