"""The export round trip over the whole corpus: every script is exported (`--for app` and
`--for full`), the export read back, and what a user sees of the two compared — an error of
`validate` the original did not have, the `setup` table, the `night` order, the `jinxes` and the printed sheet (with
back page and night pages), in the language of the export. The sheet is compared as the view its template prints, which
holds every word and picture the page shows: the same view prints the same page.

Run:  scriptforge pack update --from DIR --lang en   (DIR: roles.json, nightsheet.json, jinxes.json)
      python benchmarks/round_trip.py [--target app|full] [-v]
Reads ../shared/reference/scripts/*.json and ../shared/reference/official/wc25/*/script.json.
Prints one line per difference with -v, the counts per target, and exits 1 when any is found.
Scripts that cannot be read, or name characters that cannot be used, are counted and skipped:
there is nothing of theirs to export. Each script is read, and what a user sees of the original
worked out, once for all the targets asked for.
"""

import argparse
from collections import Counter
import json
import sys

from corpus import SHARED, corpus_files

TARGETS = ("app", "full")


def export_lang(script, db) -> str:
    """The language a script is written in: that of its own texts (its objects), else English."""
    from scriptforge.model.languages import detect

    texts = [" ".join(str(v) for k, v in item.items() if k in ("name", "ability") and isinstance(v, str))
             for item in script.document if isinstance(item, dict) and item.get("id") != "_meta"]
    text = " ".join(t for t in texts if t)
    return detect(text, db.languages) if text else "en"


def seen(analysis, lang: str) -> dict[str, str]:
    """What a user sees of a script: validate's errors, setup, night, jinxes and the sheet's view."""
    from scriptforge.render.views import make_view
    from scriptforge.text.scripts import jinxes_text, night_text, setup_text

    sheet = repr(make_view(analysis, lang, "a4", back=True, night=True))
    errors = sorted({f"{f.code} {f.path if f.code == 'schema' else ''}".strip()
                     for f in analysis.findings if f.severity == "error"})
    return {"validate": "\n".join(errors),
            "setup": setup_text(analysis.setup, analysis.script.characters, analysis.db, lang),
            "night": night_text(analysis.night, analysis.db, lang),
            "jinxes": jinxes_text(analysis, lang),
            "sheet": sheet}


def round_trip(path, db, targets) -> tuple[str, dict[str, dict[str, tuple[str, str]]]] | None:
    """(the export's language, {target: {what: (before, after)} for each part of `seen` that
    differs}) for each of `targets` (TARGETS), or None when the script cannot be exported
    (unreadable, or characters it names cannot be used). The original's `seen` is worked out once:
    it is the same whatever the target, and so is the read-back of data two targets export alike."""
    from scriptforge.io.errors import InputError
    from scriptforge.scripts.analysis import analyse
    from scriptforge.scripts.export import export_script
    from scriptforge.scripts.script import LEFT_OUT, read_script, script_from_data

    try:
        script = read_script(path, db)
    except InputError:
        return None
    if any(p.code in LEFT_OUT for p in script.problems):
        return None
    lang = export_lang(script, db)
    before = seen(analyse(script, db), lang)
    found, read_back = {}, {}
    for target in targets:
        exported = export_script(analyse(script, db), lang, target)
        key = json.dumps(exported.data, sort_keys=True)  # targets that export the same data read back alike
        if key not in read_back:
            read_back[key] = seen(analyse(script_from_data(exported.data, db, str(path)), db), lang)
        after = read_back[key]
        differences = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
        gained = set(after["validate"].splitlines()) - set(before["validate"].splitlines())
        if gained:  # an error the original had and the export fixed (its schema violations) is no loss
            differences["validate"] = (before["validate"], after["validate"])
        else:
            differences.pop("validate", None)
        found[target] = differences
    return lang, found


def first_difference(a: str, b: str) -> str:
    at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"…{a[max(0, at - 60):at + 60]!r} ≠ …{b[max(0, at - 60):at + 60]!r}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=TARGETS, action="append")
    parser.add_argument("-v", "--verbose", action="store_true", help="a line per difference")
    args = parser.parse_args()
    files = corpus_files()
    if not files:
        print(f"no corpus under {SHARED}", file=sys.stderr)
        return 2
    from scriptforge.db.loading import load_database
    from scriptforge.db.pack_store import active_packs

    db = load_database(packs=active_packs())
    targets = list(dict.fromkeys(args.target or TARGETS))  # each once, in the order asked for
    counts: dict[str, Counter[str]] = {target: Counter() for target in targets}
    lines: dict[str, list[str]] = {target: [] for target in targets}
    scripts = skipped = 0
    for path in files:
        result = round_trip(path, db, targets)
        if result is None:
            skipped += 1
            continue
        scripts += 1
        lang, found = result
        for target, differences in found.items():
            for what, (before, after) in differences.items():
                counts[target][what] += 1
                lines[target].append(f"{target} {lang} {path.name}: {what}: {first_difference(before, after)}")
    total = 0
    for target in targets:
        if args.verbose:
            for line in lines[target]:
                print(line)
        total += sum(counts[target].values())
        parts = ", ".join(f"{what} {counts[target][what]}" for what in ("validate", "setup", "night", "jinxes", "sheet"))
        print(f"--for {target}: {scripts} scripts exported ({skipped} not exportable); differences: {parts}")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
