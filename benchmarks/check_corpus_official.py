"""The whole reference corpus with the installed official pack: how many well-formed scripts
validate with no unknown-character finding, and whether any sheet, night sheet, almanac (HTML)
or `night` text output shows a raw official mark (`:reminder:`, `*TOKEN*`).

Run:  scriptforge pack update --from DIR --lang en   (DIR: roles.json, nightsheet.json, jinxes.json)
      python benchmarks/check_corpus_official.py [--lang en|ko] [--no-render]
Reads ../shared/reference/scripts/*.json and ../shared/reference/official/wc25/*/script.json.
Exit 1 when a raw mark is found.
"""

import argparse
import re
import sys
import time

from corpus import SHARED, corpus_files

RAW = re.compile(r":reminder:|(?:^|\s)\*\w")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=["en", "ko"], default="en")
    parser.add_argument("--no-render", action="store_true", help="only count the unknown characters")
    args = parser.parse_args()
    files = corpus_files()
    if not files:
        print(f"no corpus under {SHARED}", file=sys.stderr)
        return 2
    from scriptforge.scripts.analysis import analyse
    from scriptforge.db.loading import load_database
    from scriptforge.io.errors import InputError
    from scriptforge.db.pack_store import active_packs
    from scriptforge.render.almanac import almanac_view
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.views import make_view
    from scriptforge.rules.night import night_order
    from scriptforge.text.scripts import night_text
    from scriptforge.scripts.analysis import validate_script
    from scriptforge.scripts.script import read_script

    packs = active_packs()
    db = load_database(packs=packs)
    print(f"packs: {', '.join(map(str, packs)) or 'none'}; {len(db.characters)} characters")
    renderer = Renderer()
    start = time.perf_counter()
    readable = clean = raw = 0
    for file in files:
        try:
            script = read_script(file, db)
        except InputError:
            continue
        readable += 1
        unknown = [f for f in validate_script(script, db).findings if f.code == "unknown-character"]
        if unknown:
            print(f"{file.name}: {unknown[0].message}")
        else:
            clean += 1
        if args.no_render:
            continue
        pages = [renderer.render(make_view(analyse(script, db), args.lang, "a4", back=True, night=True), "html"),
                 renderer.render_document(almanac_view(analyse(script, db), args.lang, "a4"), "almanac.html.j2", "html")]
        texts = [re.sub(r"<[^>]+>", " ", p.files[0][1].decode("utf-8").split("<body", 1)[-1]) for p in pages]
        texts.append(night_text(night_order(script, db), args.lang))
        for text in texts:
            match = RAW.search(text)
            if match:
                raw += 1
                print(f"{file.name}: raw mark: …{text[max(0, match.start() - 40):match.end() + 20]}…")
                break
    print(f"{len(files)} files, {readable} well-formed scripts, {clean} with no unknown-character finding, "
          f"{raw} with a raw mark ({time.perf_counter() - start:.1f} s)")
    return 1 if raw else 0


if __name__ == "__main__":
    sys.exit(main())
