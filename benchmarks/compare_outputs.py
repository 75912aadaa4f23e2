"""Every output of the examples and of a 40-script corpus sample, recorded, then compared.

A refactor must leave what users see unchanged: this records, for the installed scriptforge (run it
with the interpreter of the tree to measure), the text and JSON of every analysis command, the
listing commands, the translator commands, the text of every PDF (sheets with --back --night, night
sheets, almanacs, the game sheets) and the SHA-256 of the PNG pages of the example sheets, one file
per output. `compare` prints which outputs differ (and how, in a few lines each).

    python benchmarks/compare_outputs.py record /tmp/before     # with the old tree installed
    python benchmarks/compare_outputs.py record /tmp/after      # with the new one
    python benchmarks/compare_outputs.py compare /tmp/before /tmp/after

Outputs are made in-process through click's CliRunner (one database load, not 900 start-ups), with
the official pack installed from ../shared/reference/official into a temporary XDG_DATA_HOME.
`--quick` takes the first 8 of the 40 corpus scripts (a quick check while working).
"""

import argparse
import difflib
import hashlib
import io
import os
from pathlib import Path
import sys
import tempfile

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import OFFICIAL, corpus_files  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
LANGS = ["ko", "en"]
ANALYSIS = ["validate", "setup", "jinxes", "night", "order"]
GAMES = ["salem", "werewolf", "mafia"]


def sample(count: int) -> list[Path]:
    """Every n-th corpus file, the same ones on every tree."""
    files = corpus_files()
    step = max(1, len(files) // count)
    return files[::step][:count]


def pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return "\n\f\n".join((page.extract_text() or "") for page in reader.pages)


class Recorder:
    def __init__(self, out: Path):
        from click.testing import CliRunner
        from scriptforge.cli import main

        self.out, self.main, self.runner = out, main, CliRunner()
        self.temporary: list[tuple[str, bytes]] = [(os.environ["XDG_DATA_HOME"], b"$DATA"),
                                                   (os.environ["XDG_CACHE_HOME"], b"$CACHE")]
        # so that two checkouts (a worktree beside main) compare equal
        shared = ROOT.parent / "shared"
        self.temporary += [(str(shared), b"$SHARED"), (str(shared.resolve()), b"$SHARED"), (str(ROOT), b"$ROOT")]
        out.mkdir(parents=True, exist_ok=True)

    def run(self, name: str, args: list[str]) -> bytes:
        result = self.runner.invoke(self.main, args, catch_exceptions=True)
        stdout = result.stdout_bytes
        stderr = result.stderr_bytes if result.stderr_bytes is not None else b""
        if result.exception and not isinstance(result.exception, SystemExit):
            stderr += f"\nEXCEPTION {type(result.exception).__name__}: {result.exception}".encode()
        self.save(name, b"exit %d\n--- stdout\n" % result.exit_code + stdout + b"\n--- stderr\n" + stderr)
        return stdout

    def save(self, name: str, data: bytes) -> None:
        for path, placeholder in self.temporary:  # the temporary folders differ from run to run
            data = data.replace(path.encode(), placeholder)
        (self.out / name).write_bytes(data)

    def render(self, name: str, args: list[str], fmt: str = "pdf") -> None:
        with tempfile.TemporaryDirectory() as tmp:
            self.temporary.append((tmp, b"$OUT"))
            target = Path(tmp) / ("out/" if fmt == "png" else f"out.{fmt}")
            self.run(name + ".log", [*args, "-o", str(target), "--format", fmt])
            if fmt == "pdf":
                if target.exists():
                    data = target.read_bytes()
                    self.save(name + ".txt", pdf_text(data).encode())
                    self.save(name + ".size", b"%d\n" % len(data))
            else:
                pngs = sorted(Path(tmp).rglob("*.png"))
                self.save(name + ".sha", "".join(
                    f"{p.name} {hashlib.sha256(p.read_bytes()).hexdigest()}\n" for p in pngs).encode())
            self.temporary.pop()


def record(out: Path, quick: bool) -> None:
    data_home = tempfile.mkdtemp(prefix="compare-data-")
    os.environ["XDG_DATA_HOME"] = data_home
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="compare-cache-")
    os.environ.pop("SCRIPTFORGE_PACKS", None)
    rec = Recorder(out)
    rec.run("pack-update", ["pack", "update", "--from", str(OFFICIAL), "--lang", "en"])
    # The listing, database and translator commands.
    for lang in LANGS:
        for fmt in ("text", "json"):
            rec.run(f"list-{lang}.{fmt}", ["list", "--lang", lang, "--format", fmt])
            for game in GAMES:
                rec.run(f"list-{game}-{lang}.{fmt}", ["list", "--game", game, "--lang", lang, "--format", fmt])
        for name in ("imp", "fang_gu", "수도승", "djinn", "zealot"):
            rec.run(f"show-{name}-{lang}", ["show", name, "--lang", lang])
            rec.run(f"show-{name}-{lang}.json", ["show", name, "--lang", lang, "--format", "json"])
        rec.run(f"search-poison-{lang}", ["search", "poison", "--lang", lang])
        rec.run(f"search-독-{lang}", ["search", "독", "--lang", lang])
    for fmt in ("text", "json"):
        rec.run(f"db-check.{fmt}", ["db", "check", "--format", fmt])
        rec.run(f"l10n-status.{fmt}", ["l10n", "status", "--format", fmt])
        rec.run(f"l10n-check.{fmt}", ["l10n", "check", "--format", fmt])
        rec.run(f"l10n-diff.{fmt}", ["l10n", "diff", "--format", fmt])
        rec.run(f"pack-list.{fmt}", ["pack", "list", "--format", fmt])
        for game in GAMES:
            rec.run(f"l10n-status-{game}.{fmt}", ["l10n", "status", "--game", game, "--format", fmt])
            rec.run(f"l10n-check-{game}.{fmt}", ["l10n", "check", "--game", game, "--format", fmt])
    rec.run("explain-list", ["explain", "--list"])
    for code in ("unknown-character", "setup-shortfall", "jinx-without-djinn"):
        rec.run(f"explain-{code}", ["explain", code])
    # Analysis commands: every example and the corpus sample, text and JSON, each language.
    scripts = [(f"ex-{p.stem}", p) for p in EXAMPLES]
    scripts += [(f"corpus-{p.parent.name if p.name == 'script.json' else p.stem}", p)
                for p in sample(40)[:8 if quick else 40]]
    for label, path in scripts:
        for command in ANALYSIS:
            for fmt in ("text", "json"):
                langs = [None] if command == "validate" else LANGS
                for lang in langs:
                    args = [command, str(path), "--format", fmt] + (["--lang", lang] if lang else [])
                    rec.run(f"{label}.{command}.{lang or 'all'}.{fmt}", args)
        rec.run(f"{label}.export", ["export", str(path), "--lang", "ko", "-o", "-"])
    # Printed outputs: PDF text for every script, PNG pages for the examples.
    for label, path in scripts:
        langs = LANGS + ["ko+en"] if label.startswith("ex-") else ["ko"]
        for lang in langs:
            rec.render(f"{label}.build.{lang}", ["build", str(path), "--lang", lang, "--back", "--night"])
        if label.startswith("ex-"):
            for lang in LANGS:
                rec.render(f"{label}.nightsheet.{lang}", ["nightsheet", str(path), "--lang", lang])
                rec.render(f"{label}.almanac.{lang}", ["almanac", str(path), "--lang", lang])
                rec.render(f"{label}.build-png.{lang}", ["build", str(path), "--lang", lang, "--dpi", "50"], "png")
    for game in GAMES:
        for lang in LANGS:
            rec.render(f"game-{game}.build.{lang}", ["build", "--game", game, "--lang", lang])
            rec.render(f"game-{game}.nightsheet.{lang}", ["nightsheet", "--game", game, "--lang", lang])
    print(f"recorded {len(list(out.iterdir()))} outputs in {out}")


def compare(before: Path, after: Path, context: int) -> int:
    names = sorted({p.name for p in before.iterdir()} | {p.name for p in after.iterdir()})
    differ = 0
    for name in names:
        a, b = before / name, after / name
        if not a.exists() or not b.exists():
            print(f"{name}: only {'after' if b.exists() else 'before'}")
            differ += 1
            continue
        old, new = a.read_bytes(), b.read_bytes()
        if old == new:
            continue
        differ += 1
        if name.endswith(".size"):
            print(f"{name}: {old.decode().strip()} -> {new.decode().strip()} bytes")
            continue
        print(f"{name}: differs")
        lines = list(difflib.unified_diff(old.decode(errors="replace").splitlines(),
                                          new.decode(errors="replace").splitlines(), lineterm="", n=0))
        for line in lines[2:2 + context]:
            print("    " + line)
        if len(lines) > 2 + context:
            print(f"    … {len(lines) - 2 - context} more diff lines")
    print(f"{len(names)} outputs, {differ} differ")
    return 1 if differ else 0


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="action", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    rec.add_argument("--quick", action="store_true")
    cmp = sub.add_parser("compare")
    cmp.add_argument("before", type=Path)
    cmp.add_argument("after", type=Path)
    cmp.add_argument("--lines", type=int, default=8, help="diff lines shown per output")
    return parser.parse_args()


if __name__ == "__main__":
    args = parse()
    if args.action == "record":
        record(args.out, args.quick)
    else:
        sys.exit(compare(args.before, args.after, args.lines))
