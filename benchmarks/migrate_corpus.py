"""`migrate` over the community Korean scripts of the corpus (../shared/reference/scripts/ko-*.json):
how many objects stay overrides and why, how many community terms are left, how many migrated
scripts validate, and how many the official app would still see as homebrew (any object left).

Run:  scriptforge pack update --from DIR --lang en   (DIR: roles.json, nightsheet.json, jinxes.json)
      python benchmarks/migrate_corpus.py [-v]
With --no-packs the same without the official pack (objects keep their names; nothing becomes an id
that the data cannot check).
"""

import argparse
from collections import Counter
import sys

from corpus import SHARED


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="a line per object kept")
    parser.add_argument("--no-packs", action="store_true")
    args = parser.parse_args()
    files = sorted((SHARED / "scripts").glob("ko-*.json"))
    if not files:
        print(f"no corpus under {SHARED}", file=sys.stderr)
        return 2
    from scriptforge.db.loading import load_database
    from scriptforge.db.pack_store import active_packs
    from scriptforge.io.userfiles import read_json
    from scriptforge.model.findings import has_errors
    from scriptforge.scripts.analysis import validate_data
    from scriptforge.scripts.migrate import migrate_script, terms_left

    db = load_database(packs=() if args.no_packs else active_packs())
    reasons: Counter[str] = Counter()
    valid = homebrew = terms = before_terms = kept = 0
    for path in files:
        data = read_json(path)
        result = migrate_script(data, db, path.stem)
        for entry_id, reason in result.kept:
            kept += 1
            reasons[reason.split(":")[0]] += 1
            if args.verbose:
                print(f"{path.name}: {entry_id}: {reason}")
        before_terms += sum(terms_left(data, db).values())
        left = terms_left(result.after, db)
        terms += sum(left.values())
        if args.verbose and left:
            print(f"{path.name}: terms left: {dict(left)}")
        report = validate_data(result.after, db, str(path))
        if has_errors(report.findings):
            print(f"{path.name}: does not validate: "
                  f"{sorted({f.code for f in report.findings if f.severity == 'error'})}")
        else:
            valid += 1
        homebrew += any(isinstance(e, dict) and e.get("id") != "_meta" and len(e) > 1 for e in result.after)
    print(f"{len(files)} community Korean scripts: {kept} objects kept as overrides "
          f"({', '.join(f'{r} {n}' for r, n in reasons.most_common()) or 'none'}); community terms "
          f"{before_terms} before, {terms} left; {valid} validate after migrate; {homebrew} still homebrew "
          f"to the official app")
    return 0


if __name__ == "__main__":
    sys.exit(main())
