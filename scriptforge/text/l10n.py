"""Text output of the translator tools, for people."""

from scriptforge.languages import codes


def _layer_name(name: str) -> str:
    from scriptforge.l10n.units import BUILT_IN
    from scriptforge.translations import NAME

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
    lines.append("complete: nothing missing or stale" if done else
                 "; ".join(f"{l}: {t[1]} missing, {t[2]} stale" for l, t in totals.items()))
    return "\n".join([*lines, *layers_text(table, order)])
