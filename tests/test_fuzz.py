"""The fuzz suite: damaged and hostile user files through every command that reads them, in process.

Each case takes a valid document (a script, a homebrew YAML file, a .po file, an official data
file, an almanac document), damages it (hostile values in place of values: lone surrogates, NaN,
5,000-digit numbers, ANSI escapes, NUL, deep nesting; cut, flipped or inserted bytes) and runs a
command on it with CliRunner. Every case must end with an exit code in the documented set, no
traceback, every error a line of its own naming the file, no raw control character on the
terminal and, when the command fails, nothing written.

CI runs a short profile ($SCRIPTFORGE_FUZZ_EXAMPLES, 12 by default, times a weight per test);
benchmarks/fuzz_long.py runs the same tests with 10,000+ cases in all and prints the count.
"""

from collections import Counter
import hashlib
import os
from pathlib import Path
import re
import shutil
import tempfile

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from scriptforge.cli import main
from scriptforge.io.paths import DATA_DIR

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = int(os.environ.get("SCRIPTFORGE_FUZZ_EXAMPLES", "12"))
CASES: Counter = Counter()  # cases run per kind of file, and tracebacks seen (read by fuzz_long.py)


def fuzz(weight: float):
    """Hypothesis settings: EXAMPLES × weight cases (homebrew check and PO import cost the most)."""
    return settings(max_examples=max(3, round(EXAMPLES * weight)), deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))


# -- the valid documents each case starts from (written here, not copied from official files) ----

SCRIPTS = [(ROOT / "examples" / name).read_bytes()
           for name in ("fang-gu-zealot.json", "faith-trust-and-pixie-dust.json")] + [
    b'[{"id": "_meta", "name": "Fuzz", "author": "me"}, "imp", "monk", "baron", "drunk", "chef",\n'
    b' {"id": "hb", "name": "Homebrew", "team": "townsfolk", "ability": "Each night, learn [+1 Outsider].",\n'
    b'  "firstNight": 12.5, "otherNight": 3, "reminders": ["A"], "image": "icon.png",\n'
    b'  "jinxes": [{"id": "imp", "reason": "They cancel."}]}]\n',
]
HOMEBREW = [(ROOT / "examples" / "homebrew" / "pilgrim.yaml").read_bytes()]
PACK_SOURCES = [
    b'[{"id": "imp", "name": "Imp", "team": "demon", "edition": "tb", "ability": "Each night*, kill.",\n'
    b'  "reminders": ["Dead"], "setup": false, "otherNight": 24, "otherNightReminder": "Pick."},\n'
    b' {"id": "quietgeese", "name": "Quiet Geese", "team": "townsfolk", "edition": "custom",\n'
    b'  "ability": "You hear nothing. [+1 Outsider]", "setup": true, "firstNight": 3}]\n',
    b'{"firstNight": ["dusk", "minioninfo", "demoninfo", "dawn"], "otherNight": ["dusk", "imp", "dawn"]}\n',
    b'[{"id": "imp", "jinx": [{"id": "monk", "reason": "They cancel out."}]}]\n',
    b'{"roles": {"imp": {"name": "\xec\x9e\x84\xed\x94\x84", "ability": "\xeb\xa7\xa4\xec\x9d\xbc \xeb\xb0\xa4*"}},\n'
    b' "jinxes": {"imp-monk": "\xec\x83\x81\xec\x87\x84"}, "reminders": {"imp": ["Dead"]}}\n',
]
ALMANACS = [
    "My Fuzz Script\nFuzz · Someone\n\nTownsfolk\nMonk\nEach night*, choose a player (not yourself): "
    "they are safe from the Demon tonight.\n\"Fuzzed flavor.\"\nThe Monk protects.\nHow to Run\n- Wake the Monk.\n"
    "Demon\nImp\nEach night*, choose a player: they die.\n\"Flavor.\"\nThe Imp kills.\n".encode(),
]

# Values a hostile file puts where a value belongs (JSON and YAML spellings).
JSON_HOSTILE = ['"\\ud800"', '"x\\udc80"', "NaN", "Infinity", "-Infinity", "1e999", "1" + "0" * 5000, "-0.0",
                "1.5", "-1", "0", "true", "null", "{}", "[]", '"\\u001b[31mred\\u001b[0m"', '"a\\u0000b"',
                '"\\u009b2J\\u202e"', "[" * 200 + "]" * 200, '{"a": ' * 90 + "1" + "}" * 90,
                '"' + "x" * 30000 + '"', '"imp"', '"../../../etc/passwd"', '"file:///etc/passwd"',
                '"data:image/png;base64,AAAA"', '"http://example.invalid/x.png"', '{"imp": 1}', '[1, "a"]']
YAML_HOSTILE = [".nan", ".inf", "-.inf", '"\\ud800"', '"a\\0b"', "1" + "0" * 5000, "0x" + "f" * 2000, "1e999",
                "1.0e+400", '"\\e[31mred"', "~", "{a: 1", "'", "- - -", "*nosuchanchor", "!!binary AAAA",
                "!!python/object/apply:os.system ['true']", "[" * 200 + "]" * 200, "2024-01-01", "yes",
                "x" * 30000, "[1, 2]", "{}", '"\\x9b2J"']
TEXT_HOSTILE = ["\x1b[2J", "\x00", "\ud800", "\r", "Townsfolk", "How to Run", "\u202e", "x" * 30000, "\n\n\n",
                "msgid \"", "msgctxt \"imp.ability\"", "#, fuzzy", "\"\\u", "Demon"]

_JSON_VALUE = re.compile(rb'"(?:[^"\\\n]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null')
_YAML_VALUE = re.compile(rb"(?<=: )[^\n]+|(?<=- )[^\n]+")
_PO_VALUE = re.compile(rb'"(?:[^"\\\n]|\\.)*"')


@st.composite
def damaged(draw, seeds: list[bytes], values: re.Pattern, hostile: list[str]) -> bytes:
    """A seed document with one to four damages."""
    data = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["value", "value", "value", "insert", "cut", "flip", "truncate"]))
        if kind == "value":
            matches = list(values.finditer(data))
            if matches:
                m = draw(st.sampled_from(matches))
                token = draw(st.sampled_from(hostile) | st.text(max_size=8).map(lambda t: '"' + t + '"'))
                data = data[:m.start()] + token.encode("utf-8", "surrogatepass") + data[m.end():]
                continue
        at = draw(st.integers(0, len(data)))
        if kind == "insert":
            piece = draw(st.sampled_from(TEXT_HOSTILE) | st.text(max_size=6))
            data = data[:at] + piece.encode("utf-8", "surrogatepass") + data[at:]
        elif kind == "cut":
            data = data[:at] + data[at + draw(st.integers(1, 40)):]
        elif kind == "flip" and data:
            at = min(at, len(data) - 1)
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
        else:
            data = data[:at]
    return data


# -- running one case --------------------------------------------------------------------------

_session: dict = {}


def _data_copy() -> Path:
    """One writable copy of the shipped data for the session (l10n import writes into it)."""
    if "data" not in _session:
        _session["data"] = Path(tempfile.mkdtemp(prefix="scriptforge-fuzz-data-")) / "data"
        shutil.copytree(DATA_DIR, _session["data"])
    return _session["data"]


def _snapshot(*folders: Path) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest()
            for folder in folders if folder.exists() for p in sorted(folder.rglob("*")) if p.is_file()}


def run_case(kind: str, args: list[str], files: dict[str, bytes], *, writes_data: bool = False) -> None:
    """Run `scriptforge ARGS` with FILES written to a fresh folder ({dir} in ARGS is that folder)."""
    CASES[kind] += 1
    folder = Path(tempfile.mkdtemp(prefix="scriptforge-fuzz-"))
    try:
        for name, data in files.items():
            (folder / name).write_bytes(data)
        (folder / "icon.png").write_bytes(b"\x89PNG\r\n\x1a\n not really a png")
        args = [a.replace("{dir}", str(folder)) for a in args]
        data_dir = _data_copy()
        watched = [folder, data_dir] if writes_data else [folder]
        before = _snapshot(*watched)
        result = CliRunner().invoke(main, args, env={"SCRIPTFORGE_DATA": str(data_dir)})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            CASES["tracebacks"] += 1
            raise AssertionError(f"{args}: {result.exception!r}") from result.exception
        out, err = result.stdout, result.stderr
        assert result.exit_code in (0, 1, 2), (args, result.exit_code, err)
        assert "Traceback" not in out + err, (args, err)
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028-\u202e]", out + err), (args, out + err)
        lines = err.split("\n")[:-1] if err else []
        errors = [line for line in lines if line.startswith("Error: ")]
        assert all(line.startswith(("Error: ", "Warning: ")) for line in lines), (args, err)
        assert all(str(folder) in line for line in errors), (args, err)  # each names the file
        if result.exit_code != 0:
            assert errors or "FAILED" in out or '"ok": false' in out, (args, out, err)
            assert _snapshot(*watched) == before, f"{args}: files written although the command failed"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


SCRIPT_COMMANDS = [
    ["validate", "{dir}/s.json"], ["validate", "{dir}/s.json", "--format", "json"],
    ["validate", "{dir}/s.json", "--format", "jsonl"], ["setup", "{dir}/s.json"], ["jinxes", "{dir}/s.json"],
    ["night", "{dir}/s.json", "--players", "8"], ["order", "{dir}/s.json"], ["export", "{dir}/s.json", "--lang", "en"],
    ["add", "{dir}/s.json", "imp"], ["remove", "{dir}/s.json", "imp"], ["meta", "{dir}/s.json", "--name", "X"],
    ["build", "{dir}/s.json", "--format", "html", "-o", "{dir}/out.html"],
]


@fuzz(1.2)
@given(data=damaged(SCRIPTS, _JSON_VALUE, JSON_HOSTILE), command=st.sampled_from(SCRIPT_COMMANDS))
def test_fuzzed_scripts_through_every_script_command(data, command):
    run_case("script", command, {"s.json": data})


@fuzz(0.15)
@given(data=damaged(HOMEBREW, _YAML_VALUE, YAML_HOSTILE),
       command=st.sampled_from([["homebrew", "check", "{dir}/h.yaml"], ["add", "{dir}/s.json", "{dir}/h.yaml"],
                                ["validate", "--homebrew", "{dir}", "{dir}/s.json"]]))
def test_fuzzed_homebrew_yaml(data, command):
    run_case("homebrew", command, {"h.yaml": data, "s.json": SCRIPTS[0]})


def _po_seed() -> bytes:
    if "po" not in _session:
        folder = Path(tempfile.mkdtemp(prefix="scriptforge-fuzz-po-"))
        result = CliRunner().invoke(main, ["l10n", "export", "--lang", "ko", "-o", str(folder / "ko.po")],
                                    env={"SCRIPTFORGE_DATA": str(_data_copy())})
        assert result.exit_code == 0, result.output
        text = (folder / "ko.po").read_bytes()
        # a few entries are enough (and keep each case quick): the header and the first 40 entries
        _session["po"] = b"\n\n".join(text.split(b"\n\n")[:41]) + b"\n"
        shutil.rmtree(folder)
    return _session["po"]


@fuzz(0.3)
@given(data=st.data())
def test_fuzzed_po_files(data):
    po = data.draw(damaged([_po_seed()], _PO_VALUE, [f'"{t}"' for t in TEXT_HOSTILE] + JSON_HOSTILE))
    run_case("po", ["l10n", "import", "{dir}/ko.po", "--lang", "ko"], {"ko.po": po}, writes_data=True)


@fuzz(1)
@given(data=damaged(PACK_SOURCES, _JSON_VALUE, JSON_HOSTILE),
       command=st.sampled_from([["pack", "import", "{dir}/p.json", "--lang", "ko", "--out", "{dir}/pk"],
                                ["l10n", "diff", "--against", "{dir}/p.json"],
                                ["l10n", "diff", "--against", "{dir}/p.json", "--format", "json"]]))
def test_fuzzed_pack_sources_and_translation_files(data, command):
    run_case("pack", command, {"p.json": data})


@fuzz(0.8)
@given(data=damaged(ALMANACS, re.compile(rb"[^\n]+"), TEXT_HOSTILE))
def test_fuzzed_almanac_documents(data):
    run_case("almanac", ["import", "almanac", "{dir}/a.txt", "--lang", "en", "--out", "{dir}/out",
                         "--script", "{dir}/out.json"], {"a.txt": data})


FUZZ_TESTS = [test_fuzzed_scripts_through_every_script_command, test_fuzzed_homebrew_yaml, test_fuzzed_po_files,
              test_fuzzed_pack_sources_and_translation_files, test_fuzzed_almanac_documents]
