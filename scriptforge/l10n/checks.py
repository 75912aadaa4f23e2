"""Translation checks, in the spirit of translate-toolkit's pofilter and Weblate's checks.

Each check is a small function registered with `@check(code, severity)`; its docstring's first
line is its summary (docs/l10n-checks.md documents every code; a test keeps both in step).
A check receives a `Context` and yields `Finding`s for the languages being checked.

The context holds the BotC database and/or the other games (Salem, Werewolf, Mafia). The generic
checks (missing, untranslated, glossary variants, name collisions, whitespace, unbalanced) read
every unit; the checks of BotC's own conventions (the night `*`, the setup bracket, the names
against the BotC glossary and inside other texts) read the BotC units only.
"""

from dataclasses import dataclass
import re
from typing import Callable, Iterable

from scriptforge.l10n.provenance import STALE, state, source_of
from scriptforge.l10n.units import Unit, other_language, selected_units
from scriptforge.names import LANGUAGES, name_key
from scriptforge.rules.findings import Finding, Selection, register


@dataclass(frozen=True)
class Check:
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

    def __init__(self, db, langs=LANGUAGES, games=None):
        self.db = db
        self.games = dict(games or {})
        self.langs = tuple(langs)
        self.units = selected_units(db, self.games)
        # lang -> glossary terms, per game; no other game has a glossary today
        self.glossaries = {"botc": db.glossary} if db is not None else {}

    def finding(self, code, lang, message, unit: Unit | None = None, *, character=None, field=None,
                game=None, **data) -> Finding:
        if unit is not None:
            character = character or unit.character
            field = field or (unit.field if unit.character else unit.key)
            game = game or unit.game
        return Finding(code, REGISTRY[code].severity, message, data=data, lang=lang, game=game or "botc",
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


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- completeness -----------------------------------------------------------------------------


@check("missing", "error")
def missing(ctx: Context) -> Iterable[Finding]:
    """A text the other language has and this one does not."""
    for unit in ctx.units:
        for lang in ctx.langs:
            if unit.text(lang) is None and unit.text(other_language(lang)) is not None:
                yield ctx.finding("missing", lang, f"{unit.key}: no {lang} text "
                                  f"({other_language(lang)} has one)", unit)


_LETTER = re.compile(r"[A-Za-z가-힣]")


@check("untranslated", "error")
def untranslated(ctx: Context) -> Iterable[Finding]:
    """A text identical to the other language's text (copied, not translated)."""
    for unit in ctx.units:
        for lang in ctx.langs:
            mine, theirs = unit.flat(lang), unit.flat(other_language(lang))
            if mine and mine == theirs and _LETTER.search(mine) and source_of(ctx.db, unit, lang) != "-":
                if lang == "ko" and not re.search(r"[가-힣]", mine) or lang == "en" and re.search(r"[가-힣]", mine):
                    yield ctx.finding("untranslated", lang, f"{unit.key}: same text as in "
                                      f"{other_language(lang)} ('{_short(mine)}')", unit)


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
    """The night '*' (each night*, 매일 밤*) is in one language's ability and not the other's."""
    for unit in ctx.units:
        if unit.game != "botc" or unit.group != "ability" or len(unit.texts) < 2:
            continue
        counts = {lang: unit.text(lang).count("*") for lang in LANGUAGES}
        for lang in ctx.langs:
            other = other_language(lang)
            if counts[lang] < counts[other]:
                yield ctx.finding("night-marker", lang, f"{unit.key}: the {other} ability has {counts[other]} "
                                  f"night '*' marker(s), this one {counts[lang]} (write 'each night*' / "
                                  f"'매일 밤*' where the ability skips the first night)", unit,
                                  count=counts[lang], other=counts[other])


_KO_NUMERALS = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5}


def _normalise_counters(text: str) -> str:
    """Korean counters as digits with 명: '한 번' -> '1명', '2번' -> '2명', '두 명' -> '2명'."""
    text = re.sub(r"(한|두|세|네|다섯)\s*(명|번)", lambda m: f"{_KO_NUMERALS[m.group(1)]}명", text)
    return re.sub(r"(\d)\s*번", r"\1명", text)


def _bracket_effect(effect) -> dict:
    """The parts of a setup effect that a [...] bracket states."""
    if effect is None:
        return {}
    data = effect.as_dict()
    return {k: v for k, v in data.items() if k not in ("demon_token", "bag_token")}


@check("setup-bracket", "error")
def setup_bracket(ctx: Context) -> Iterable[Finding]:
    """An ability's [...] setup bracket is missing, or its numbers differ from the setup effect in data/characters.yaml."""
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
            reading = read_brackets(_normalise_counters(t.ability), names,
                                    lambda n: (db.find(n) or [None])[0] and db.find(n)[0].id)
            if wanted and not reading.brackets:
                yield ctx.finding("setup-bracket", lang, f"{ch.id}.ability: no [...] setup bracket; the setup "
                                  f"effect is {wanted}", character=ch.id, field="ability", expected=wanted)
            elif reading.brackets:
                found = _bracket_effect(reading.effect)
                if found != wanted:
                    yield ctx.finding("setup-bracket", lang, f"{ch.id}.ability: {' '.join(reading.brackets)} "
                                      f"reads as {found or 'nothing'}, but data/characters.yaml says "
                                      f"{wanted or 'no setup effect'}", character=ch.id, field="ability",
                                      expected=wanted, found=found)


# -- glossary and names --------------------------------------------------------------------------


@check("glossary-variant", "error")
def glossary_variant(ctx: Context) -> Iterable[Finding]:
    """A variant spelling of a glossary term (설교자 for 전도사, 해질녘 for 황혼, 등록 for 위장)."""
    from scriptforge.glossary import variant_pattern

    for game, glossary in ctx.glossaries.items():
        yield from _variants(ctx, game, glossary, variant_pattern)


def _variants(ctx: Context, game: str, glossary: dict, variant_pattern) -> Iterable[Finding]:
    for lang in ctx.langs:
        pattern, table = variant_pattern(glossary.get(lang, []))
        if pattern is None:
            continue
        for unit, index, text in ctx.texts(lang, game):
            for match in pattern.finditer(text):
                variant = match.group(0)
                yield ctx.finding("glossary-variant", lang, f"{_where(unit, index)}: '{variant}' is a variant; "
                                  f"write '{table[variant]}'", unit, variant=variant, term=table[variant])


@check("name-glossary", "error")
def name_glossary(ctx: Context) -> Iterable[Finding]:
    """A character's name differs from the glossary's term for that character."""
    if ctx.db is None:
        return
    for lang in ctx.langs:
        for term in ctx.db.glossary.get(lang, []):
            ch = ctx.db.characters.get(term.get("character"))
            t = ch and ch.text(lang)
            if t and t.name != term["term"]:
                yield ctx.finding("name-glossary", lang, f"{ch.id}.name: '{t.name}', but data/{lang}/glossary.yaml "
                                  f"has '{term['term']}'", character=ch.id, field="name")


# Korean particles and endings that may follow a name (longest first).
_KO_SUFFIXES = sorted("""은 는 이 가 을 를 의 에 와 과 도 만 로 으로 에게 에게서 께서 한테 에서 까지 부터 처럼 보다
이나 나 이며 며 이든 든 이고 고 이라 라 이라고 라고 이라는 라는 이라면 라면 이다 다 입니다 이었 였 이에요 예요
인 임 들 들이 들은 들을 들의 들에게""".split(), key=len, reverse=True)
_HANGUL_WORD = re.compile(r"[가-힣]+")
_EN_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")


def _stems(word: str) -> set[str]:
    out = {word}
    for suffix in _KO_SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix):
            out.add(word[: -len(suffix)])
    return out


def _jamo(syllable: str) -> tuple[int, int, int] | None:
    code = ord(syllable) - 0xAC00
    return (code // 588, code % 588 // 28, code % 28) if 0 <= code < 11172 else None


def _ko_typo(candidate: str, name: str) -> bool:
    """Same length, one syllable different by one jamo (미망임 / 미망인), outside a one-syllable word."""
    compact = name.replace(" ", "")
    if len(compact) < 3 or len(candidate) != len(compact):
        return False
    diffs = [i for i, (x, y) in enumerate(zip(candidate, compact)) if x != y]
    if len(diffs) != 1:
        return False
    i = diffs[0]
    a, b = _jamo(candidate[i]), _jamo(compact[i])
    if a is None or b is None or sum(x != y for x, y in zip(a, b)) != 1:
        return False
    pos = 0
    for word in name.split():
        if pos <= i < pos + len(word):
            return len(word) > 1
        pos += len(word)
    return True


def _en_typo(candidate: str, name: str) -> bool:
    """Levenshtein distance 1, same first letter, at least four letters."""
    a, b = candidate, name
    if len(a) < 4 or a == b or a[0] != b[0] or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    if len(a) > len(b):
        a, b = b, a
    return any(b[:i] + b[i + 1:] == a for i in range(len(b)))


def _apostrophes(text: str) -> str:
    return text.replace("’", "'").replace("`", "'")


def _spellings(db) -> set[str]:
    """Every known spelling (names, aliases, glossary terms and variants) without spaces."""
    out = set()
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
        lower_words = set()
        if lang == "en":
            for _, _, text in ctx.texts(lang, "botc"):
                lower_words.update(w.lower() for w in _EN_WORD.findall(text) if w[0].islower())
        for unit, index, text in ctx.texts(lang, "botc"):
            if unit.field == "name" and unit.character:
                continue
            seen = set()
            for n_words, candidate, forms in _candidates(_apostrophes(text), lang, lower_words):
                if candidate in seen or not forms.isdisjoint(known):
                    continue
                for words, char_id, name in names:
                    if words != n_words:
                        continue
                    if _ko_typo(candidate, name) if lang == "ko" else _en_typo(candidate, name.replace(" ", "")):
                        seen.add(candidate)
                        yield ctx.finding("name-misspelt", lang, f"{_where(unit, index)}: '{candidate}' looks like "
                                          f"a misspelling of {name} ({char_id})", unit, word=candidate,
                                          name=name, name_of=char_id)


def _candidates(text: str, lang: str, lower_words: set):
    """(number of words, word(s) joined without spaces) that could be a name."""
    if lang == "ko":
        words = _HANGUL_WORD.findall(text)
        for i, word in enumerate(words):
            for stem in _stems(word):
                yield 1, stem, {stem}
            if i + 1 < len(words):
                for stem in _stems(words[i + 1]):
                    yield 2, word + stem, {word + stem}
        return
    matches = list(_EN_WORD.finditer(text))
    for i, match in enumerate(matches):
        word = match.group(0)
        if not word[0].isupper():
            continue
        # A capital after a sentence end is no sign of a name ("Drink up" is not the Drunk).
        sentence_start = not text[: match.start()].strip() or text[: match.start()].rstrip()[-1] in ".!?:\"“"
        for n in (1, 2, 3):
            group = [m.group(0) for m in matches[i:i + n]]
            if len(group) < n:
                break
            joined = "".join(group)
            # A plural or possessive of a known name is that name, not a misspelling of it.
            forms = {joined, re.sub(r"'s$|s'?$", "", joined)}
            if n == 1 and (sentence_start or joined.lower() in lower_words):
                continue
            for form in forms:
                yield n, form, forms


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
            problems = []
            if text != text.strip():
                problems.append("leading or trailing whitespace")
            if re.search(r"\S  +\S", text):
                problems.append("double space")
            if problems:
                yield ctx.finding("whitespace", lang, f"{_where(unit, index)}: {' and '.join(problems)}", unit)


_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"), ("“", "”"), ("「", "」"), ("『", "』"), ("《", "》"), ("<", ">"))


def _unbalanced(text: str) -> list[str]:
    out = []
    for opening, closing in _PAIRS:
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
        for unit, index, text in ctx.texts(lang):
            pairs = _unbalanced(text)
            if pairs:
                yield ctx.finding("unbalanced", lang, f"{_where(unit, index)}: unbalanced {' '.join(pairs)}",
                                  unit, pairs=pairs)


# -- running ---------------------------------------------------------------------------------------


def run_checks(db, langs=LANGUAGES, ignore=(), select=None, games=None) -> list[Finding]:
    """Every finding of the selected checks (all by default, minus `ignore`) for `langs`.

    `db` is the BotC database (None: not checked); `games` maps other games' ids to their
    `GameDatabase` (default: none). Selectors are codes or code prefixes (see `Selection`).
    """
    chosen = Selection.of(select or (), ignore, domain="l10n")
    ctx = Context(db, langs, games)
    findings = []
    for code, registered in REGISTRY.items():
        if chosen.wants(code):
            findings.extend(registered.function(ctx))
    return findings
