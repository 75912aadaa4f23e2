"""The semantic findings on an analysed script: setup counts, companions, jinxes, the night
order (the reading, schema and length findings come before them, from `script` and
`script_schema`; `analysis` puts them together)."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from scriptforge.languages import official
from scriptforge.model import COUNT_KEYS, PLAYER_TEAMS, TEAMS
from scriptforge.findings import Finding, finding, short
from scriptforge.rules.jinxes import ScriptJinxes, outdated_jinxes
from scriptforge.rules.night import missing_from_meta
from scriptforge.rules.setup import SetupRow, Shortfall

if TYPE_CHECKING:
    from scriptforge.analysis import Analysis
    from scriptforge.database import Database
    from scriptforge.script import Script




def script_findings(analysis: "Analysis") -> list[Finding]:
    """The rules' findings on one analysed script: night order, counts, companions, jinxes (what
    `Analysis.findings` holds after the reading, schema and length findings)."""
    script = analysis.script
    findings: list[Finding] = list(analysis.night.problems)
    findings += count_findings(script, analysis.setup, analysis.db)
    findings += companion_findings(script)
    findings += jinx_findings(analysis.jinxes)
    findings += outdated_jinxes(script, analysis.db)
    findings += missing_from_meta(script, analysis.night, analysis.db)
    return findings


# -- counts and setup --------------------------------------------------------------------------


def team_counts(script: "Script") -> dict[str, int]:
    counts = {team: 0 for team in TEAMS}
    for ch in script.characters:
        counts[ch.team] = counts.get(ch.team, 0) + 1
    return counts


def _players_text(players: list[int]) -> str:
    items = [str(p) for p in players]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def count_findings(script: "Script", table: Sequence[SetupRow], db: "Database") -> list[Finding]:
    """Team counts, and what the setup table's bags (rules.setup) say the script cannot fill."""
    counts = team_counts(script)
    out = [finding("team-counts", ", ".join(f"{n} {t}" for t, n in counts.items() if n) or "no characters",
                   None, **counts)]
    groups: dict[tuple[str, str, int, int], list[int]] = {}  # (code, team, needed, available) -> players
    who: dict[tuple[str, str, int, int], set[str]] = {}
    for row in table:
        too_small = False
        for team in PLAYER_TEAMS:
            base = 1 if team == "demon" else row.base[COUNT_KEYS[team]]
            if base > counts[team]:
                groups.setdefault(("team-too-small", team, base, counts[team]), []).append(row.players)
                too_small = True
        if not row.feasible:
            if not too_small:  # the base fits every team, yet no bag does
                gap = min(row.shortfalls, default=None, key=lambda s: (
                    s.needed <= row.base[COUNT_KEYS[s.team]], s.needed - s.available, s.team))  # setup-made first
                team, needed, available = (gap.team, gap.needed, gap.available) if gap else ("demon", 1, counts["demon"])
                groups.setdefault(("setup-impossible", team, needed, available), []).append(row.players)
            continue
        for char_id, gap in _unusable(row).items():
            key: tuple[str, str, int, int] = ("setup-shortfall", gap.team, gap.needed, gap.available)
            if row.players not in groups.setdefault(key, []):
                groups[key].append(row.players)
            who.setdefault(key, set()).add(char_id)
    order = {c.id: i for i, c in enumerate(script.characters)}
    for key, players in groups.items():
        code, team, needed, available = key
        plural = db.team_name(team, official(), plural=needed != 1)  # findings are in English
        at = f"at {_players_text(players)} players"
        data: dict[str, Any] = {"team": team, "players": players, "needed": needed, "available": available}
        if code == "team-too-small":
            message = f"{needed} {plural} are needed {at} but the script has {available}"
        elif code == "setup-impossible":
            message = (f"no bag can be filled {at}: at least {needed} {plural} are needed but the script "
                       f"has {available}")
        else:
            names = sorted(who[key], key=lambda i: order.get(i, len(order)))
            data["characters"] = names
            message = (f"{', '.join(names)} cannot be in play {at}: every such bag needs {needed} {plural} "
                       f"but only {available} of the script's can be in it")
        out.append(finding(code, message, None, **data))
    return out + unmodelled_findings(script)


def _unusable(row: SetupRow) -> dict[str, Shortfall]:
    """The setup characters that are in no bag the script can fill at this count, each with the
    bag that came closest. Only shortages the setup characters make count: a bag short of what
    the base itself asks for is not their doing."""
    usable = {i for bag in row.bags for i in bag.in_play}
    out: dict[str, Shortfall] = {}
    for gap in row.shortfalls:
        if gap.needed <= row.base[COUNT_KEYS[gap.team]]:
            continue
        for char_id in gap.bag.in_play:
            seen = out.get(char_id)
            if char_id not in usable and (seen is None or (len(gap.bag.in_play), gap.needed - gap.available)
                                          < (len(seen.bag.in_play), seen.needed - seen.available)):
                out[char_id] = gap
    return out


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
    return [finding("jinx-without-djinn", f"the script has {len(pairs)} jinx(es) ({listed}) but no Djinn",
                    None, pairs=pairs)]


