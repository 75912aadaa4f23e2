"""Token sheet benchmark: the cold time of `scriptforge tokens` for a 25-character script against
the cold time of its character sheet (`scriptforge build`), and the ratio.

The two commands run alternately (A, B, A, B …, each a fresh process) so both see the same load;
the ratio of the best CPU times (the child's user + system time, which says more than the wall
clock on a busy machine) and of the best wall times is printed. Target: tokens within 2× the sheet.
Then the tokens rendered warm in one process, split into view model, HTML, layout and PDF writing.

    python benchmarks/bench_tokens.py [--pairs 5] [--lang ko] [--script FILE]
"""

import argparse
from pathlib import Path
import tempfile

from coldrun import cold, load_average, machine_speed, warm_phases

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "faith-trust-and-pixie-dust.json"


def warm(script: Path, lang: str) -> dict[str, float]:
    from scriptforge.scripts.analysis import analyse
    from scriptforge.db.loading import load_database
    from scriptforge.db.pack_store import active_packs
    from scriptforge.render.tokens import tokens_view
    from scriptforge.render.views import keep_korean_words
    from scriptforge.scripts.script import read_script
    from scriptforge.scripts.tokens import token_set

    db = load_database(None, active_packs([]))

    def view_of():
        analysis = analyse(read_script(script, db), db)
        return keep_korean_words(tokens_view(analysis, token_set(analysis), lang, "a4"))

    return warm_phases(view_of, "tokens.html.j2", script.parent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--lang", default="ko")
    parser.add_argument("--script", type=Path, default=SCRIPT)
    args = parser.parse_args()
    script = args.script.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        commands = {"tokens": ["tokens", str(script), "--lang", args.lang, "-o", str(Path(tmp) / "tokens.pdf")],
                    "sheet": ["build", str(script), "--lang", args.lang, "-o", str(Path(tmp) / "sheet.pdf")]}
        best = {name: (float("inf"), float("inf")) for name in commands}
        for name, argv in commands.items():  # one untimed run of each fills the caches
            cold(argv, Path(tmp), 1)
        for _ in range(args.pairs):
            for name, argv in commands.items():
                t = cold(argv, Path(tmp), 1, warm_up=False)
                best[name] = (min(best[name][0], t.best), min(best[name][1], t.cpu))
        from pypdf import PdfReader

        pages = len(PdfReader(Path(tmp) / "tokens.pdf").pages)
    for name, (wall, cpu) in best.items():
        print(f"cold {name:<6} ({args.lang}, A4): best wall {wall:.2f} s, best CPU {cpu:.2f} s")
    wall = best["tokens"][0] / best["sheet"][0]
    cpu = best["tokens"][1] / best["sheet"][1]
    print(f"tokens / sheet: {cpu:.2f}x CPU, {wall:.2f}x wall ({pages} pages of tokens; {args.pairs} alternating pairs; "
          f"load average {load_average()}; {machine_speed()}; target <= 2x)")
    for step, seconds in warm(script, args.lang).items():
        print(f"  warm {step:<12} {seconds:6.2f} s")


if __name__ == "__main__":
    main()
