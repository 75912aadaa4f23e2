"""Smoke pass over an installed scriptforge: every command's --help, then a real run of each.

    python tools/smoke.py --checkout CHECKOUT
    python tools/smoke.py --check-pdf sheet.pdf --script examples/x.json

(The second form checks a sheet the quick start printed: it has a page and its text holds the
script's title; pypdfium2, a dependency, reads it.)

Run it with the Python of the installation to check (the `scriptforge` command beside it is the
one run). Everything runs in a fresh temporary folder with its own user cache and data folders,
so neither the checkout nor the developer's packs or cache are seen. Any exit code outside a
command's expected ones, or a traceback on stdout or stderr, fails the pass (exit 1).

The commands come from the --help pages themselves; a command without a real run in RUNS below
fails the pass too, so a new command cannot go unsmoked.
"""

import argparse
import json
import os
from pathlib import Path
import re
import shutil
import subprocess
import sys
import tempfile

# Exit 1 is an answer, not a failure, for these: "nothing matches", "findings", "a term the
# official texts use differently".
ANSWERS_ONE = {("search",), ("l10n", "check"), ("l10n", "terms"), ("validate",), ("homebrew", "check")}
# Commands that change translations write into the data folder they load ($SCRIPTFORGE_DATA, else the
# shipped one: an editable install's is the checkout's): they get a copy.
WRITES_DATA = {("l10n", "confirm"), ("l10n", "import")}


ALMANAC = ("Smoke Script\nSmoke · CI\n\nTownsfolk\nMonk\nEach night*, choose a player (not yourself): they are "
           "safe from the Demon tonight.\n\"Flavor.\"\nThe Monk protects.\nHow to Run\n- Wake the Monk.\n"
           "Demon\nImp\nEach night*, choose a player: they die.\n\"Flavor.\"\nThe Imp kills.\n")


def prepare(checkout: Path, work: Path) -> None:
    """The inputs the runs read, in `work`: a copy of the example script, a homebrew file, official
    files (the small ones of tests/fixtures: no download), a translation file and an almanac."""
    shutil.copy(checkout / "examples" / "faith-trust-and-pixie-dust.json", work / "ex.json")
    shutil.copytree(checkout / "data", work / "data")
    shutil.copytree(checkout / "examples" / "homebrew", work / "homebrew")
    sources = checkout / "tests" / "fixtures" / "pack-format1" / "sources"
    (work / "official" / "game").mkdir(parents=True)
    for name in ("roles.json", "nightsheet.json", "jinxes.json"):
        shutil.copy(sources / name, work / "official" / name)
    shutil.copy(sources / "ko.json", work / "official" / "game" / "ko.json")
    (work / "almanac.txt").write_text(ALMANAC, encoding="utf-8")


def runs() -> dict[tuple[str, ...], list[list[str]]]:
    """The real invocations per command path, run in order in the work folder (see `prepare`)."""
    script = "ex.json"
    official = [f"official/{name}" for name in ("roles.json", "nightsheet.json", "jinxes.json")]
    return {
        ("list",): [["list"], ["list", "--lang", "ko"], ["list", "--game", "salem"]],
        ("show",): [["show", "no_dashii"], ["show", "릴몬스타", "--lang", "ko", "--format", "json"],
                    ["show", "--game", "werewolf", "seer"]],
        ("search",): [["search", "demon"], ["search", "악마", "--lang", "ko"]],
        ("validate",): [["validate", script], ["validate", "--format", "json", script]],
        ("setup",): [["setup", script], ["setup", script, "--lang", "ko"]],
        ("jinxes",): [["jinxes", script]],
        ("night",): [["night", script, "--lang", "ko"]],
        ("order",): [["order", script]],
        ("explain",): [["explain", "--list"], ["explain", "unknown-character"]],
        ("build",): [["build", script, "--lang", "ko", "-o", "sheet.pdf"],
                     ["build", script, "--back", "--night", "--format", "html", "-o", "sheet.html"],
                     ["build", script, "--lang", "en", "--format", "png", "-o", "sheet.png"],
                     ["build", "--game", "salem", "-o", "salem.pdf"]],
        ("nightsheet",): [["nightsheet", script, "--lang", "ko", "-o", "night.pdf"]],
        ("tokens",): [["tokens", script, "-o", "tokens.pdf"]],
        ("almanac",): [["almanac", script, "--lang", "ko", "-o", "almanac.pdf"]],
        ("kit",): [["kit", script, "--players", "7", "--lang", "ko", "-o", "kit.pdf"]],
        ("cards",): [["cards", "salem", "--players", "7", "--lang", "ko", "-o", "salem-cards.pdf"]],
        ("cache", "info"): [["cache", "info"]],
        ("cache", "clear"): [["cache", "clear"], ["show", "imp"]],
        ("watch",): [["watch", script, "--renders", "1", "-o", "watched.pdf"]],
        ("new",): [["new", "made.json", "imp", "chef", "--name", "Smoke"]],
        ("add",): [["add", "made.json", "clockmaker"]],
        ("remove",): [["remove", "made.json", "chef"]],
        ("meta",): [["meta", "made.json", "--author", "CI"]],
        ("export",): [["export", script, "-o", "exported.json"]],
        ("migrate",): [["migrate", script, "-o", "migrated.json"]],
        ("db", "check"): [["db", "check"]],
        ("homebrew", "check"): [["homebrew", "check", "homebrew"]],
        ("import", "almanac"): [["import", "almanac", "almanac.txt", "--lang", "en", "--out", "imported/en",
                                 "--script", "imported.json"]],
        ("l10n", "status"): [["l10n", "status"]],
        ("l10n", "check"): [["l10n", "check"]],
        ("l10n", "diff"): [["l10n", "diff", "clockmaker"]],
        ("l10n", "export"): [["l10n", "export", "--lang", "ko", "-o", "ko.po"]],
        ("l10n", "import"): [["l10n", "import", "ko.po"]],
        ("l10n", "confirm"): [["l10n", "confirm", "imp", "ability", "--lang", "ko"]],
        ("l10n", "terms"): [["l10n", "terms", "--official", "official"]],
        ("pack", "import"): [["pack", "import", *official, "--out", "packs/imported"]],
        ("pack", "diff"): [["pack", "diff", "packs/imported", "official"]],
        ("pack", "list"): [["pack", "list"]],
        ("pack", "update"): [["pack", "update", "--from", "official", "--lang", "ko"], ["pack", "list"],
                             ["show", "imp", "--lang", "ko"], ["build", script, "-o", "with-pack.pdf"]],
    }


def commands(scriptforge: str, env: dict, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path under `prefix`, read from the --help pages (groups recursively)."""
    page = run([scriptforge, *prefix, "--help"], env)
    found = []
    if "Commands:" not in page:
        return [prefix]
    for line in page.split("Commands:", 1)[1].splitlines():
        name = re.match(r"^  (\S+)", line)
        if name:
            found += commands(scriptforge, env, (*prefix, name.group(1)))
    return found


class SmokeFailure(Exception):
    pass


def run(argv: list[str], env: dict, allowed=(0,), cwd: Path | None = None) -> str:
    result = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    shown = " ".join(argv[1:])
    if "Traceback (most recent call last)" in result.stdout + result.stderr:
        raise SmokeFailure(f"{shown}: a traceback\n{result.stderr[-3000:]}")
    if result.returncode not in allowed:
        raise SmokeFailure(f"{shown}: exit {result.returncode}\n{(result.stdout + result.stderr)[-3000:]}")
    return result.stdout


def check_pdf(pdf: Path, script: Path) -> int:
    import pypdfium2

    title = next(e["name"] for e in json.loads(script.read_text(encoding="utf-8"))
                 if isinstance(e, dict) and e.get("id") == "_meta")
    document = pypdfium2.PdfDocument(pdf)
    text = "".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    if len(document) < 1 or "".join(title.split()) not in "".join(text.split()):
        print(f"smoke: {pdf}: {len(document)} pages, the title {title!r} is not in its text", file=sys.stderr)
        return 1
    print(f"smoke: {pdf.name}: {len(document)} pages, titled {title}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, help="the checkout (its examples and test fixtures are read)")
    parser.add_argument("--check-pdf", type=Path, help="a sheet to check instead (with --script)")
    parser.add_argument("--script", type=Path, help="the script the --check-pdf sheet was printed from")
    args = parser.parse_args()
    if args.check_pdf:
        return check_pdf(args.check_pdf, args.script)
    if not args.checkout:
        parser.error("--checkout is required")
    scriptforge = shutil.which("scriptforge", path=str(Path(sys.executable).parent))
    if scriptforge is None:
        print(f"smoke: no scriptforge command beside {sys.executable}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="scriptforge-smoke-") as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        env = {k: v for k, v in os.environ.items() if k not in ("SCRIPTFORGE_PACKS", "SCRIPTFORGE_DATA")}
        env.update(XDG_CACHE_HOME=str(Path(tmp) / "cache"), XDG_DATA_HOME=str(Path(tmp) / "data"),
                   XDG_CONFIG_HOME=str(Path(tmp) / "config"))
        prepare(args.checkout.resolve(), work)
        table = runs()
        try:
            found = commands(scriptforge, env)
            count = 0
            for path in found:
                run([scriptforge, *path, "--help"], env, cwd=work)
                count += 1
            missing = [" ".join(p) for p in found if p not in table]
            unknown = [" ".join(p) for p in table if p not in found]
            if unknown:
                raise SmokeFailure(f"no such command (the smoke table is out of date): {', '.join(unknown)}")
            if missing:
                raise SmokeFailure(f"no real run in tools/smoke.py for: {', '.join(missing)}")
            for path, invocations in table.items():
                allowed = (0, 1) if path in ANSWERS_ONE else (0,)
                data = {"SCRIPTFORGE_DATA": str(work / "data")} if path in WRITES_DATA else {}
                for argv in invocations:
                    run([scriptforge, *argv], {**env, **data}, allowed, cwd=work)
                    count += 1
        except SmokeFailure as exc:
            print(f"smoke: FAILED: {exc}", file=sys.stderr)
            return 1
        print(f"smoke: {len(found)} commands, {count} runs passed (in {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
