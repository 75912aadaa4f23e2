"""Dump what `setup --format json --bags` and the setup findings of `validate` say for every corpus
script with the official pack, or compare two such dumps (to prove a change to the setup model
kept its answers).

    python benchmarks/compare_setup.py dump OUT.json      # one line per (script, player count)
    python benchmarks/compare_setup.py compare OLD.json NEW.json [--ignore-findings]

Reads ../shared/reference/scripts/*.json and the wc25 scripts with a temporary pack made from
../shared/reference/official/{roles,nightsheet,jinxes}.json. The bags of a row are kept as their
number and a sha256 of their sorted list (the 224-character script alone has 229,204), the rest
of the row as printed. Findings kept: the setup codes (team-too-small, setup-*).
"""

import argparse
import hashlib
import json
from pathlib import Path
import sys
import tempfile

from corpus import OFFICIAL, corpus_files

SETUP_CODES = ("team-too-small", "setup-")


def _row_record(row) -> dict:
    try:
        data = row.as_dict(bags=True)
    except TypeError:  # the model before `--bags`: as_dict always listed them
        data = row.as_dict()
    bags = data.pop("bags", [])
    for key in ("findings", "forced"):  # added later; not part of the old answer
        data.pop(key, None)
    listed = sorted(json.dumps(b, sort_keys=True) for b in bags)
    data["bags"] = {"count": len(listed), "sha256": hashlib.sha256("\n".join(listed).encode()).hexdigest()}
    return data


def dump(out: Path) -> int:
    from scriptforge.scripts.analysis import analyse
    from scriptforge.db.loading import load_database
    from scriptforge.io.errors import InputError
    from scriptforge.packs.install import import_pack
    from scriptforge.scripts.script import read_script

    records = []
    with tempfile.TemporaryDirectory() as tmp:
        pack, _ = import_pack([OFFICIAL / "roles.json", OFFICIAL / "nightsheet.json", OFFICIAL / "jinxes.json"],
                              out=Path(tmp) / "official")
        db = load_database(packs=[pack])
        for path in corpus_files():
            name = str(path.relative_to(OFFICIAL.parent))
            try:
                script = read_script(path, db)
            except InputError as exc:
                records.append({"file": name, "unreadable": str(exc)})
                continue
            analysis = analyse(script, db)
            for row in analysis.setup:
                records.append({"file": name, "row": _row_record(row)})
            findings = [f.as_dict() for f in analysis.findings if f.code.startswith(SETUP_CODES)]
            records.append({"file": name, "findings": findings})
    out.write_text("".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in records),
                   encoding="utf-8")
    print(f"{len(records)} records from {len(corpus_files())} files -> {out}")
    return 0


def compare(old: Path, new: Path, ignore_findings: bool) -> int:
    def load(path: Path) -> list[dict]:
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        return [r for r in lines if not (ignore_findings and "findings" in r)]

    a, b = load(old), load(new)
    differ = [(x, y) for x, y in zip(a, b) if x != y]
    print(f"{len(a)} / {len(b)} records, {len(differ)} differ")
    for x, y in differ[:10]:
        print("-", json.dumps(x, ensure_ascii=False)[:400])
        print("+", json.dumps(y, ensure_ascii=False)[:400])
    return 1 if differ or len(a) != len(b) else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    c = sub.add_parser("compare")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    c.add_argument("--ignore-findings", action="store_true", help="compare the table rows only")
    args = parser.parse_args()
    if args.command == "dump":
        return dump(args.out)
    return compare(args.old, args.new, args.ignore_findings)


if __name__ == "__main__":
    sys.exit(main())
