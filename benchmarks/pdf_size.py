"""The PDF of `build --night` of the example, against stock WeasyPrint's PDF of the same HTML.

Run:  python benchmarks/pdf_size.py

"ours" is scriptforge's PDF (the sheet, as `build --night` makes it, in each language); "stock" is
the same HTML and sheet.css through plain ``weasyprint.HTML(...).write_pdf()`` in a process with
``SCRIPTFORGE_PLAIN_WEASYPRINT=1`` (WeasyPrint as it comes: its own HTML class, user-agent
stylesheet, subsetting and compression; the bundled fonts through ``@font-face``). The HTML given
to stock WeasyPrint leaves out the elements and ids scriptforge measures pages with
(``pages.FIT_ANCHOR``), which scriptforge's PDF leaves out of its named destinations. Uses the
installed packs (the figures in the README are with the official pack, ``pack update --from
../shared/reference/official --lang en``).
"""

import os
from pathlib import Path
import subprocess
import sys

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "faith-trust-and-pixie-dust.json"
LANGS = ("en", "ko")

CODE = """
import os, re, sys
from pathlib import Path
from scriptforge.scripts.analysis import analyse
from scriptforge.db.loading import load_database
from scriptforge.packs import active_packs
from scriptforge.render.pdf import Renderer
from scriptforge.render.views import make_view
from scriptforge.scripts.script import read_script

example, lang = Path(sys.argv[1]), sys.argv[2]
db = load_database(None, active_packs([]))
renderer = Renderer()
view = make_view(analyse(read_script(example, db), db), lang, "a4", night=True)
if os.environ.get("SCRIPTFORGE_PLAIN_WEASYPRINT"):
    import weasyprint

    prepared, _ = renderer._prepare(view, example.parent, [])
    html = renderer.html(prepared)
    html = re.sub(r'\\s*<div id="fit-[^"]*"></div>', "", re.sub(r' id="fit-[^"]*"', "", html))
    pdf = weasyprint.HTML(string=html, base_url=example.parent.as_uri() + "/").write_pdf(
        stylesheets=[weasyprint.CSS(string=renderer.templates.css)])
else:
    pdf = renderer.render(view, "pdf", example.parent).files[0][1]
print(len(pdf))
"""


def size(lang: str, plain: bool) -> int:
    env = {**os.environ}
    env.pop("SCRIPTFORGE_PLAIN_WEASYPRINT", None)
    if plain:
        env["SCRIPTFORGE_PLAIN_WEASYPRINT"] = "1"
    done = subprocess.run([sys.executable, "-c", CODE, str(EXAMPLE), lang], env=env, capture_output=True, text=True,
                          check=True, cwd=ROOT.parent)
    return int(done.stdout.split()[-1])


def main() -> None:
    for lang in LANGS:
        ours, stock = size(lang, plain=False), size(lang, plain=True)
        print(f"{lang}: ours {ours:,} B, stock WeasyPrint {stock:,} B ({(ours - stock) / stock:+.2%})")


if __name__ == "__main__":
    main()
