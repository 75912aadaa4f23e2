"""Which characters of the official texts no bundled font can draw, per language of the registry.

    python benchmarks/glyph_coverage.py [--translations DIR] [--no-project-data]

Every character (code point) of the official texts of each registry language is put through
the renderer's own glyph check (`render.typefaces.missing_glyphs`: spaces and controls never
count). A language whose letters the bundled fonts cannot set at all (the registry's `letters`,
as `require_printable` asks: Japanese, Chinese, Thai) is printed with a system font by design, so
what it lacks is shown but not counted; for every other language a character missing here prints
as a box on a machine without a font that has it.

The texts read:

- English: ``../shared/reference/official/roles.json`` (every text of every character: name,
  ability, flavor, night reminders, reminder tokens), ``jinxes.json`` (the jinx texts) and the
  official World Cup scripts ``wc25/*/script.json`` (their own character objects);
- the other languages: the official translation files, ``game/<code>.json`` of the official
  translation repository (layout in ``../shared/reference/FACTS.md``, section 8), where
  ``--translations DIR`` names a checkout (``DIR/game/<code>.json`` or ``DIR/<code>.json``); they
  are not in ``../shared``, so without it a language has no official text to measure here;
- and, in a row of its own, the texts scriptforge ships for the language (``data/<code>/``),
  unless ``--no-project-data``.

The missing characters are split into letters and marks (of another script: a font for that
script is the fix, not ours to draw) and punctuation, symbols and numbers (small marks a font
of our own can draw); each is listed with where it occurs, except in a language printed with a
system font (only counted there). Exit 0 always: this is a measurement.
"""

import argparse
from collections import defaultdict
import json
from pathlib import Path
import sys
import unicodedata
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import OFFICIAL, SHARED  # noqa: E402
from scriptforge.io.paths import DATA_DIR  # noqa: E402
from scriptforge.model import languages  # noqa: E402
from scriptforge.render.typefaces import font_coverage, missing_glyphs  # noqa: E402


def strings(value: Any, where: str) -> Iterator[tuple[str, str]]:
    """Every string in a JSON or YAML value, with where it is (``hindu.flavor``)."""
    if isinstance(value, str):
        yield where, value
    elif isinstance(value, dict):
        label = value.get("id") if isinstance(value.get("id"), str) else None
        for key, item in value.items():
            yield from strings(item, f"{label or where}.{key}".lstrip("."))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from strings(item, f"{where}[{index}]")


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def official_texts(code: str, translations: Path | None) -> dict[str, list[tuple[str, str]]]:
    """The official texts of language `code`: {source file: [(where, text)]}."""
    found: dict[str, list[tuple[str, str]]] = {}
    if code == languages.official():
        for name in ("roles.json", "jinxes.json"):
            if (OFFICIAL / name).is_file():
                found[name] = list(strings(read_json(OFFICIAL / name), ""))
        for path in sorted((OFFICIAL / "wc25").glob("*/script.json")):
            found[f"wc25/{path.parent.name}"] = list(strings(read_json(path), ""))
        return found
    if translations is not None:
        file_code = languages.get(code).translation_file
        for path in (translations / "game" / f"{file_code}.json", translations / f"{file_code}.json"):
            if path.is_file():
                found[str(path)] = list(strings(read_json(path), ""))
                break
    return found


def project_texts(code: str) -> dict[str, list[tuple[str, str]]]:
    """The texts scriptforge ships for `code` (data/<code>/**/*.yaml): {file: [(where, text)]}."""
    # deferred: only this row needs YAML
    import yaml

    return {f"data/{path.relative_to(DATA_DIR)}": list(strings(yaml.safe_load(path.read_text(encoding="utf-8")), ""))
            for path in sorted((DATA_DIR / code).rglob("*.yaml"))}


def is_letter(char: str) -> bool:
    return unicodedata.category(char)[0] in "LM"


def describe(char: str) -> str:
    return f"U+{ord(char):04X} {char}  {unicodedata.category(char)}  {unicodedata.name(char, '?')}"


def measure(sources: dict[str, list[tuple[str, str]]]) -> tuple[int, dict[str, list[str]]]:
    """(distinct code points in the texts, {missing character: where it occurs (first few)})."""
    seen: set[str] = set()
    where: dict[str, list[str]] = defaultdict(list)
    for source, texts in sources.items():
        for place, text in texts:
            seen.update(text)
            for char in missing_glyphs(text):
                if len(where[char]) < 3:
                    where[char].append(f"{source} {place}")
    return len(seen), dict(where)


def report(label: str, sources: dict[str, list[tuple[str, str]]], counted: bool) -> int:
    """Print one row; the number of missing code points it counts (0 where not `counted`)."""
    if not sources:
        print(f"  {label}: no texts at hand")
        return 0
    texts = sum(len(t) for t in sources.values())
    points, missing = measure(sources)
    letters = sorted(c for c in missing if is_letter(c))
    marks = sorted(c for c in missing if not is_letter(c))
    note = "" if counted else " (not counted: this language prints with a system font)"
    print(f"  {label}: {texts} texts in {len(sources)} files, {points} distinct code points, "
          f"{len(missing)} missing from the bundled fonts ({len(marks)} punctuation/symbols, "
          f"{len(letters)} letters/marks){note}")
    for char in marks + letters if counted else ():
        print(f"    {describe(char)}   [{'; '.join(missing[char])}]")
    return len(missing) if counted else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--translations", type=Path, metavar="DIR",
                        help="a checkout of the official translation repository (DIR/game/<code>.json)")
    parser.add_argument("--no-project-data", action="store_true", help="only the official texts")
    args = parser.parse_args()
    if not OFFICIAL.is_dir():
        print(f"no official data under {SHARED}", file=sys.stderr)
        return 2
    coverage = font_coverage()
    print(f"bundled fonts: {len(coverage)} code points (scriptforge/fonts/coverage.txt)")
    totals: dict[str, int] = {}
    for code in languages.codes():
        language = languages.get(code)
        by_system = bool(languages.unprintable_letters(code, coverage))
        scope = "system fonts (out of scope)" if by_system else "bundled fonts"
        print(f"{code} ({language.name}), printed with the {scope}:")
        totals[code] = report("official", official_texts(code, args.translations), not by_system)
        if not args.no_project_data:
            totals[code] += report("shipped", project_texts(code), not by_system)
    counted = {code: n for code, n in totals.items() if n}
    print(f"missing code points in languages printed with the bundled fonts: {sum(counted.values())}"
          + (f" ({', '.join(f'{code} {n}' for code, n in counted.items())})" if counted else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
