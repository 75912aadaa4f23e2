"""Text output of the translator tools, for people."""

from scriptforge.languages import codes


def status_text(table: dict) -> str:
    langs = [l for l in codes() if l in table]
    head = f"{'field':<22}" + "".join(f"{l + ' translated':>15}{'missing':>9}{'stale':>7}" for l in langs)
    lines = [head, "-" * len(head)]
    totals = {l: [0, 0, 0] for l in langs}
    for group in next(iter(table.values())):
        row = f"{group:<22}"
        for l in langs:
            cell = table[l][group]
            row += f"{cell['translated']:>15}{cell['missing']:>9}{cell['stale']:>7}"
            for i, k in enumerate(("translated", "missing", "stale")):
                totals[l][i] += cell[k]
        lines.append(row)
    lines.append("-" * len(head))
    lines.append(f"{'total':<22}" + "".join(f"{t[0]:>15}{t[1]:>9}{t[2]:>7}" for t in totals.values()))
    done = all(t[1] == 0 and t[2] == 0 for t in totals.values())
    lines.append("complete: nothing missing or stale" if done else
                 "; ".join(f"{l}: {t[1]} missing, {t[2]} stale" for l, t in totals.items()))
    return "\n".join(lines)
