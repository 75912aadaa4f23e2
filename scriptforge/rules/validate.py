"""The semantic findings on an analysed script: setup counts, companions, jinxes, the night
order (the reading, schema and length findings come before them, from `script` and
`script_schema`; `analysis` puts them together)."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from scriptforge.model.languages import official
from scriptforge.model.records import COUNT_KEYS, PLAYER_TEAMS, TEAMS
from scriptforge.model.findings import Finding, finding, short
from scriptforge.rules.jinxes import ScriptJinxes, outdated_jinxes, unknown_jinxes
from scriptforge.rules.night import missing_from_meta
from scriptforge.rules.setup import MAX_SELECTIONS, SetupRow
from scriptforge.rules.setup_selections import MAX_CLASS_STATES

if TYPE_CHECKING:
    from scriptforge.scripts.analysis import Analysis
    from scriptforge.model.records import SetupEffect
    from scriptforge.db.database import Database
    from scriptforge.scripts.script import Script




def script_findings(analysis: "Analysis") -> list[Finding]:
    """The rules' findings on one analysed script: night order, counts, companions, jinxes (what
    `Analysis.findings` holds after the reading, schema and length findings)."""
    script = analysis.script
    findings: list[Finding] = list(analysis.night.problems)
    findings += count_findings(script, analysis.setup, analysis.db)
    findings += advice_findings(script, analysis.db)
    findings += companion_findings(script)
    findings += jinx_findings(analysis.jinxes)
    findings += outdated_jinxes(script, analysis.db)
    findings += unknown_jinxes(script, analysis.db)
    findings += missing_from_meta(script, analysis.night, analysis.db)
    return findings


# -- counts and setup --------------------------------------------------------------------------


def team_counts(script: "Script") -> dict[str, int]:
    counts = {team: 0 for team in TEAMS}
    for ch in script.characters:
        counts[ch.team] = counts.get(ch.team, 0) + 1
    return counts


def _players_text(players: Sequence[object]) -> str:
    """"9", "9 and 12", "9, 12 and 15" (numbers or names)."""
    items = [str(p) for p in players]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _too_small(row: SetupRow, counts: dict[str, int]) -> bool:
    """Whether the base distribution alone needs more of some team than the script has."""
    return any((1 if team == "demon" else row.base[COUNT_KEYS[team]]) > counts[team] for team in PLAYER_TEAMS)


def _english_name(script: "Script", db: "Database", char_ids: str) -> str:
    """The English name; a kind of several characters ("a/b") is each name, joined by "/"."""
    names = []
    for char_id in char_ids.split("/"):
        ch = script.get(char_id) or db.characters.get(char_id)
        names.append(ch.name(official()) if ch else char_id)
    return "/".join(names)


def count_findings(script: "Script", table: Sequence[SetupRow], db: "Database") -> list[Finding]:
    """Team counts, and what the setup table says, count by count: a count no bag can fill
    (`team-too-small` when the base distribution alone is too big for the script, else
    `setup-impossible`), a setup character in no bag the script can fill (`setup-shortfall`), an
    option a setup character cannot take (`setup-forced-choice`). Every one comes from the
    table's own verdict (SetupRow.gaps, .unusable, .forced), so `setup` and `validate` agree."""
    # deferred: start-up time
    from scriptforge.model.describe import count_phrase, option_phrase

    counts = team_counts(script)
    out = [finding("team-counts", ", ".join(count_phrase(n, t, db, official()) for t, n in counts.items() if n)
                   or "no characters", None, **counts)]
    groups: dict[tuple[Any, ...], list[int]] = {}
    who: dict[tuple[Any, ...], set[str]] = {}
    lang = official()  # findings are in English
    for row in table:
        if not row.feasible:
            small = _too_small(row, counts)
            for gap in (row.gaps if small else row.gaps[:1]):
                key: tuple[Any, ...] = ("team-too-small" if small else "setup-impossible", gap.team, gap.needed,
                                        gap.available)
                groups.setdefault(key, []).append(row.players)
            continue
        for gap in row.unusable:
            key = ("setup-shortfall", gap.team, gap.needed, gap.available)
            if row.players not in groups.setdefault(key, []):
                groups[key].append(row.players)
            who.setdefault(key, set()).update(gap.characters)
        for forced in row.forced:
            key = ("setup-forced-choice", forced.character, forced.others, forced.allowed, forced.refused,
                   forced.gap.team, forced.gap.needed, forced.gap.available)
            if row.players not in groups.setdefault(key, []):
                groups[key].append(row.players)
    order = {c.id: i for i, c in enumerate(script.characters)}
    for key, players in groups.items():
        code = key[0]
        at = f"at {_players_text(players)} players"
        if code == "setup-forced-choice":
            _, char_id, others, allowed, refused, team, needed, available = key
            name = _english_name(script, db, char_id)
            if len(allowed) == 1:
                what = f"must {option_phrase(dict(allowed[0]), db, lang)}"
            else:
                what = f"cannot {option_phrase(dict(refused), db, lang)}"
            context = (f", with {_players_text([_english_name(script, db, o) for o in others])} in play"
                       if others else "")
            message = (f"{at}{context}, the {name} {what}: the bag would need {count_phrase(needed, team, db, lang)}, "
                       f"the script has {available}")
            out.append(finding(code, message, script.paths.get(char_id), character=char_id, players=players,
                               others=list(others), allowed=[dict(o) for o in allowed], refused=dict(refused),
                               team=team, needed=needed, available=available))
            continue
        _, team, needed, available = key
        data: dict[str, Any] = {"team": team, "players": players, "needed": needed, "available": available}
        need = count_phrase(needed, team, db, lang)
        verb = "is" if needed == 1 else "are"
        if code == "team-too-small":
            message = f"no bag can be filled {at}: {need} {verb} needed but the script has {available}"
        elif code == "setup-impossible":
            message = f"no bag can be filled {at}: at least {need} {verb} needed but the script has {available}"
        else:
            names = sorted(who[key], key=lambda i: order.get(i, len(order)))
            data["characters"] = names
            message = (f"{', '.join(names)} cannot be in play {at}: every such bag needs {need} "
                       f"but only {available} of the script's can be in it")
        out.append(finding(code, message, None, **data))
    summarised = [row.players for row in table if not row.detailed]
    if summarised and all(row.exact for row in table):
        out.append(finding("setup-summarised", f"the script's setup characters make too many selections to check "
                                               f"one by one (more than {MAX_SELECTIONS:,}): the setup table's ranges "
                                               f"and verdict are exact, but which setup character cannot be in play "
                                               f"and which options are forced is not checked" +
                           ("" if table[0].listable else "; the bags are not listed"), None,
                           players=summarised, limit=MAX_SELECTIONS, exact=True))
    elif summarised:
        out.append(finding("setup-summarised", f"the script's setup characters are too many to count exactly "
                                               f"(more than {MAX_CLASS_STATES:,} classes of selections): the setup "
                                               f"table's ranges are bounds every bag falls in, not every value need "
                                               f"be reachable, and whether each count can be filled is not checked; "
                                               f"the bags are not listed", None,
                           players=summarised, limit=MAX_CLASS_STATES, exact=False))
    return out + unmodelled_findings(script)


def advice_findings(script: "Script", db: "Database") -> list[Finding]:
    """The script analysis of the official script tool (FACTS.md 9), as info: each team against
    the usual size for the script's kind (standard or Teensyville; data/setup.yaml), no
    character that changes the Outsider count, more characters than one sheet holds."""
    # deferred: start-up time
    from scriptforge.model.describe import count_phrase
    from scriptforge.rules.script_kind import is_teensyville

    advice = db.script_advice
    if not advice:
        return []
    counts = team_counts(script)
    kind = "teensyville" if is_teensyville(script.meta, script.characters) else "standard"
    lang = official()
    out = []
    for team in PLAYER_TEAMS:
        lo, hi = advice[kind][team]
        have = counts[team]
        if lo <= have <= hi:
            continue
        usual = str(lo) if lo == hi else f"{lo} or {hi}" if hi == lo + 1 else f"{lo} to {hi}"
        what = "more" if have > hi else "fewer"
        out.append(finding("team-advice", f"{count_phrase(have, team, db, lang)}: {what} than a {kind} script "
                                          f"usually has ({usual})", None,
                           team=team, count=have, usual=[lo, hi], kind=kind))
    if counts["outsider"] and not any(_moves_outsiders(ch.setup) for ch in script.characters
                                      if ch.team in (*PLAYER_TEAMS, "fabled", "loric")):
        out.append(finding("no-outsider-modification", "no character on the script changes the Outsider count: "
                                                       "the players can always work out how many Outsiders there are",
                           None))
    players = sum(counts[t] for t in PLAYER_TEAMS)
    if players > advice["one_sheet"]:
        out.append(finding("sheet-too-full", f"{players} characters: more than one sheet holds at full size "
                                             f"({advice['one_sheet']}); the sheet is printed smaller or on more pages",
                           None, characters=players, one_sheet=advice["one_sheet"]))
    return out


def _moves_outsiders(effect: "SetupEffect | None") -> bool:
    if effect is None:
        return False
    return (effect.choices("outsiders") != (0,) or effect.choices("townsfolk") != (0,)
            or effect.outsiders_any is not None or effect.no_evil or effect.majority or bool(effect.adds))


def unmodelled_findings(script: "Script") -> list[Finding]:
    """Setup effects the counts leave out (a clause already reported when the script was read is
    not reported again)."""
    told = {f.data.get("character") for f in script.problems if f.code == "setup-bracket-unknown"}
    out = []
    for ch in script.characters:
        if ch.setup is None or not ch.setup.unmodelled or ch.id in told:
            continue
        clauses = "; ".join(ch.setup.unmodelled)
        out.append(finding("setup-unmodelled", f"'{ch.id}': its setup effect is not counted ({short(clauses)}); "
                                               f"check the setup table by hand", script.paths.get(ch.id),
                           character=ch.id, clauses=list(ch.setup.unmodelled)))
    return out


def companion_findings(script: "Script") -> list[Finding]:
    out = []
    for ch in script.characters:
        if ch.setup is None:
            continue
        for added in ch.setup.adds:
            if not script.has(added):
                out.append(finding("companion-missing", f"'{ch.id}' adds '{added}' to the game, "
                                                        f"but '{added}' is not on the script",
                                   script.paths.get(ch.id), character=ch.id, missing=added))
    return out


def jinx_findings(jinxes: ScriptJinxes) -> list[Finding]:
    if not jinxes.djinn_needed:
        return []
    pairs = [list(j.characters) for j in jinxes.jinxes]
    listed = "; ".join(" × ".join(p) for p in pairs)
    what = "1 jinx" if len(pairs) == 1 else f"{len(pairs)} jinxes"
    return [finding("jinx-without-djinn", f"the script has {what} ({listed}) and no Djinn: the jinxes are its "
                                          f"rules all the same, as on the official scripts", None, pairs=pairs)]


