"""Text output of the translator tools, for people: `l10n status`, `l10n diff` (side by side,
and against an official translation file) and `l10n terms` (and its JSON records)."""

from scriptforge.model.rule_sets import SCRIPTED_GAME, scripted
from scriptforge.l10n.diff import KINDS
from scriptforge.l10n.units import BUILT_IN, SHARED_UI
from scriptforge.l10n.usage import Usage
from scriptforge.model.languages import codes
from scriptforge.db.translations import NAME


def _layer_name(name: str) -> str:
    return {BUILT_IN: f"{BUILT_IN} (built-in)", NAME: f"{NAME} (your own)"}.get(name, f"{name} (pack)")


def layers_text(table: dict, order: tuple[str, ...]) -> list[str]:
    """Per language, how many of its texts each layer gives, the top layer (whose texts win) first."""
    lines = ["texts per layer (top layer first; glossary terms aside):"]
    for lang in (l for l in codes() if l in table):
        counts: dict[str, int] = {}
        for cell in table[lang].values():
            for name, count in cell.get("layers", {}).items():
                counts[name] = counts.get(name, 0) + count
        ranked = sorted(counts, key=lambda name: order.index(name) if name in order else len(order))
        lines.append(f"  {lang}: " + (", ".join(f"{_layer_name(n)} {counts[n]}" for n in ranked) or "no texts"))
    return lines


def status_text(table: dict, order: tuple[str, ...] = ()) -> str:
    langs = [l for l in codes() if l in table]
    widths = {l: max(15, len(l) + 12) for l in langs}  # "zh-Hans translated" is wider than the counts
    head = f"{'field':<22}" + "".join(f"{l + ' translated':>{widths[l]}}{'missing':>9}{'stale':>7}" for l in langs)
    lines = [head, "-" * len(head)]
    totals = {l: [0, 0, 0] for l in langs}
    for group in next(iter(table.values())):
        row = f"{group:<22}"
        for l in langs:
            cell = table[l][group]
            row += f"{cell['translated']:>{widths[l]}}{cell['missing']:>9}{cell['stale']:>7}"
            for i, k in enumerate(("translated", "missing", "stale")):
                totals[l][i] += cell[k]
        lines.append(row)
    lines.append("-" * len(head))
    lines.append(f"{'total':<22}" + "".join(f"{t[0]:>{widths[l]}}{t[1]:>9}{t[2]:>7}" for l, t in totals.items()))
    done = all(t[1] == 0 and t[2] == 0 for t in totals.values())
    upstream = {l: sum(cell.get("stale_official", 0) for cell in table[l].values()) for l in langs}
    lines.append("complete: nothing missing or stale" if done else
                 "; ".join(f"{l}: {t[1]} missing, {t[2]} stale"
                           + (f" ({upstream[l]} of them official: l10n check --include-official)" if upstream[l] else "")
                           for l, t in totals.items()))
    return "\n".join([*lines, *layers_text(table, order)])


def diff_text(rows: list[dict], source: str, target: str) -> str:
    """`l10n diff`: each character's (role's, step's) fields under its heading, both texts of each;
    where a text comes from another layer than the built-in data in any row (a pack is loaded, or
    your translations), each text names its layer: `ko (official): …`."""
    lines, current = [], object()
    layered = any(layer not in (None, BUILT_IN) for row in rows for layer in row.get("layers", {}).values())
    for row in rows:
        game = row.get("game", SCRIPTED_GAME)
        here = (game, row["character"])
        if here != current:
            current = here
            lines.append(_diff_heading(game, row["character"]))
        mark = {"missing": "  [MISSING]", "stale": "  [STALE]"}.get(row["state"], "")
        lines.append(f"  {row['field'] if row['character'] else row['key']}{mark}")
        for lang in (source, target):
            value = row[lang]
            if isinstance(value, list):
                value = " | ".join(value)
            layer = row.get("layers", {}).get(lang) if layered else None
            lines.append(f"    {lang}{f' ({layer})' if layer else ''}: {value if value is not None else '—'}")
        was = row.get("translated_from")
        if was:
            lines.append(f"    translated from: {' | '.join(was) if isinstance(was, list) else was}")
    return "\n".join(lines)


def _diff_heading(game: str, character: str | None) -> str:
    """The heading over one character's (role's, step's) rows, or over a game's other texts."""
    if scripted(game):
        return f"== {character}" if character else "== (night steps, labels, jinxes, UI)"
    if character:
        return f"== {game}.{character}"
    return f"== {game} ({'shared sheet words' if game == SHARED_UI else 'game texts'})"


_KIND_TITLES = {"missing": "missing in ours", "wording": "wording", "term": "term only (glossary variants)",
                "spacing": "spacing and punctuation only", "unknown-character": "not in our database"}


def against_text(rows: list[dict], path, lang: str) -> str:
    if not rows:
        return f"no differences ({lang}) with {path}"
    lines = []
    counts = {kind: sum(row["kind"] == kind for row in rows) for kind in KINDS}
    for kind in KINDS:
        if not counts[kind]:
            continue
        lines.append(f"== {_KIND_TITLES[kind]} ({counts[kind]})")
        for row in (r for r in rows if r["kind"] == kind):
            if kind == "unknown-character":
                lines.append(f"{row['id']}: not in our database")
                continue
            lines.append(f"{row['id']}.{row['field']}")
            lines.append(f"  ours:   {row['ours'] if row['ours'] is not None else '—'}")
            lines.append(f"  theirs: {row['theirs']}")
    summary = ", ".join(f"{counts[k]} {_KIND_TITLES[k].split(' (')[0]}" for k in KINDS if counts[k])
    lines.append(f"{len(rows)} difference(s): {summary}")
    return "\n".join(lines)


def usage_records(rows: list[Usage]) -> list[dict]:
    """`l10n terms --format json`: per glossary term, its official uses per spelling and kind, the
    conflicts with the glossary and the typos to report upstream."""
    return [{"term": r.term, "counts": {s: dict(c) for s, c in r.counts.items()},
             "conflicts": [dict(zip(("variant", "kind", "uses"), c)) for c in r.conflicts],
             "typos": [dict(zip(("variant", "kind", "uses", "where"), t)) for t in r.typos]} for r in rows]


def usage_text(rows: list[Usage]) -> str:
    """`l10n terms`: each term's official uses, then its conflicts and typos, a line each."""
    lines = []
    for row in rows:
        used = {s: c for s, c in row.counts.items() if c}
        if not used and not row.conflicts:
            continue
        lines.append(f"{row.term}: " + "; ".join(f"{s} " + ", ".join(f"{k} {n}" for k, n in sorted(c.items()))
                                                 for s, c in used.items()))
        for variant, kind, uses in row.conflicts:
            lines.append(f"  conflict: the official {kind} texts use '{variant}' {uses} time(s), the glossary "
                         f"calls it wrong there (add an exception to its wrong_in)")
        for variant, kind, uses, places in row.typos:
            lines.append(f"  typo to report upstream: '{variant}' in {', '.join(places)} (the official {kind} "
                         f"texts otherwise write '{row.term}')")
    return "\n".join(lines) or "no glossary term in these files"


def corrections_text(found, out) -> str:
    """`l10n export --format official`: what was written, and what the official layout left out."""
    lines = [f"{out}", f"{found.count} correction(s) in the official layout"]
    if found.left_out:
        lines.append(f"{len(found.left_out)} text(s) the official layout has no place for: "
                     + ", ".join(found.left_out[:8]) + (" …" if len(found.left_out) > 8 else ""))
    return "\n".join(lines)

