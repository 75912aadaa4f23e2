"""The console command's start-up (scriptforge.io.startup): dataclasses' generated methods come from
the user cache once compiled, with the same classes; scriptforge as a library changes nothing."""

import os
from pathlib import Path
import subprocess
import sys

COUNTING = """
import sys
compiled = []
def hook(event, args):
    if event == "compile":  # from dataclasses, directly or through startup's exec
        caller = sys._getframe(1)
        above = caller.f_back
        if "dataclasses.py" in (caller.f_code.co_filename[-14:], above and above.f_code.co_filename[-14:]):
            compiled.append(args[1])
sys.addaudithook(hook)
sys.argv = ["scriptforge", *sys.argv[1:]]
import atexit
atexit.register(lambda: print("compiled", len(compiled), file=sys.stderr))
from scriptforge.__main__ import main
main()
"""


def _run(args: list[str], cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, "-c", COUNTING, *args], capture_output=True, text=True, env=env, timeout=300)


def test_the_second_run_compiles_no_dataclass_method_and_prints_the_same(tmp_path):
    args = ["show", "imp", "--format", "json"]
    first, second = _run(args, tmp_path), _run(args, tmp_path)
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert second.stdout == first.stdout and '"imp"' in first.stdout
    assert int(first.stderr.split("compiled")[-1]) > 50  # the model's, the database's, the languages'…
    assert second.stderr.split("compiled")[-1].strip() == "0"
    assert len(list((tmp_path / "scriptforge" / "dataclasses").glob("*.marshal"))) == 1


def test_classes_made_from_cached_code_behave_as_dataclasses_do(tmp_path):
    code = """
import dataclasses
from scriptforge.io import startup
startup.start()
@dataclasses.dataclass(frozen=True)
class Point:
    '''A point.'''
    x: int
    y: int = 2
p = Point(1)
try:
    p.x = 5
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
print(repr(p), p == Point(1, 2), p != Point(1, 3), hash(p) == hash(Point(1)), frozen)
"""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
            for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert run.stdout.split() == ["Point(x=1,", "y=2)", "True", "True", "True", "True"], run.stdout


def test_a_damaged_cache_is_started_again(tmp_path):
    assert _run(["show", "imp"], tmp_path).returncode == 0
    [cached] = (tmp_path / "scriptforge" / "dataclasses").glob("*.marshal")
    cached.write_bytes(cached.read_bytes()[:-100])
    again = _run(["show", "imp"], tmp_path)
    assert again.returncode == 0 and "Traceback" not in again.stderr
    assert int(again.stderr.split("compiled")[-1]) > 50
    assert _run(["show", "imp"], tmp_path).stderr.split("compiled")[-1].strip() == "0"


def test_scriptforge_as_a_library_leaves_dataclasses_and_the_collector_alone():
    code = """
import dataclasses, gc
before = gc.get_threshold()
import scriptforge
lazy = "scriptforge.db.database" not in __import__("sys").modules
from scriptforge import load_database, Database, ScriptforgeError
print(hasattr(dataclasses, "exec"), gc.get_threshold() == before, lazy, callable(load_database))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True", "True", "True"]
