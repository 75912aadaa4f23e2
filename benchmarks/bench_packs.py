"""The whole reference corpus with a pack made from the official data, in one process.

    python benchmarks/bench_packs.py [--format pdf|html] [--limit N]

Imports ../shared/reference/official/{roles,nightsheet,jinxes}.json into a temporary pack, loads
the database with it, then reads and validates every well-formed script of
../shared/reference/scripts/ and ../shared/reference/official/wc25/ and renders an English sheet
of each (one Renderer, so fonts and templates are set up once). Prints the time of each phase,
the number of "unknown-character" findings for official ids (should be 0) and render failures.
"""

import argparse
import json
from pathlib import Path
import sys
import tempfile
import time

from corpus import SHARED, corpus_files



def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--format", choices=["pdf", "html"], default="pdf")
    parser.add_argument("--limit", type=int, help="Only the first N scripts (for a quick look).")
    args = parser.parse_args()
    if not SHARED.is_dir():
        print(f"{SHARED} is not available", file=sys.stderr)
        return 1

    from scriptforge.db.loading import load_database
    from scriptforge.io.errors import InputError
    from scriptforge.model.ids import normalize_id
    from scriptforge.packs.install import import_pack
    from scriptforge.render.pdf import Renderer
    from scriptforge.scripts.analysis import analyse
    from scriptforge.render.views import make_view
    from scriptforge.scripts.analysis import validate_script
    from scriptforge.scripts.script import read_script

    official = SHARED / "official"
    files = corpus_files()
    files = files[: args.limit] if args.limit else files
    ids = {r["id"] for r in json.loads((official / "roles.json").read_text(encoding="utf-8"))}
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        pack, _ = import_pack([official / "roles.json", official / "nightsheet.json", official / "jinxes.json"],
                              out=Path(tmp) / "official")
        t1 = time.perf_counter()
        db = load_database(packs=[pack])
        t2 = time.perf_counter()
        scripts, skipped, unknown = [], 0, 0
        for file in files:
            try:
                script = read_script(file, db)
            except InputError:
                skipped += 1
                continue
            unknown += sum(1 for f in validate_script(script, db).findings
                           if f.code == "unknown-character" and normalize_id(str(f.data.get("id"))) in ids)
            scripts.append((file, script))
        t3 = time.perf_counter()
        renderer = Renderer()
        failures, pages = [], 0
        for file, script in scripts:
            try:
                rendered = renderer.render(make_view(analyse(script, db), "en", "a4"), args.format, base_dir=file.parent)
                pages += rendered.pages
            except Exception as exc:  # noqa: BLE001 - a benchmark reports, it does not stop
                failures.append(f"{file.name}: {exc}")
        t4 = time.perf_counter()
    n = len(scripts)
    print(f"pack import             {t1 - t0:7.2f} s")
    print(f"database load with pack {t2 - t1:7.2f} s")
    print(f"read + validate {n} scripts ({skipped} not well-formed skipped) {t3 - t2:7.2f} s  "
          f"unknown official characters: {unknown}")
    print(f"render {n} English sheets ({args.format}) {t4 - t3:7.2f} s  ({(t4 - t3) / max(n, 1):.3f} s/sheet, "
          f"{pages} pages, {len(failures)} failures)")
    print(f"whole batch (validate + render) {t4 - t2:7.2f} s")
    for failure in failures[:10]:
        print("  failed:", failure)
    return 1 if failures or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
