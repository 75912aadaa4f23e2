"""Cold runs for the benchmarks: `scriptforge ARGS` in a new process, timed from outside.

The children run as an installed scriptforge does: `pip install` byte-compiles the package, so
here bytecode is written once to a temporary PYTHONPYCACHEPREFIX (not into the checkout) and read
back by every later run, whatever PYTHONDONTWRITEBYTECODE the shell has. One untimed run first
fills that and the user caches a first run on a fresh install fills (fontconfig, compiled
templates, cffi declarations, the loaded database).
"""

import atexit
from dataclasses import dataclass
import os
from pathlib import Path
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CLI = [sys.executable, "-m", "scriptforge"]
_PYCACHE = tempfile.mkdtemp(prefix="scriptforge-bench-pycache-")
atexit.register(shutil.rmtree, _PYCACHE, True)


@dataclass
class Timing:
    best: float  # wall seconds
    median: float
    cpu: float  # best user + system seconds of the child
    peak_rss_kib: int


def environment() -> dict[str, str]:
    env = {**os.environ, "PYTHONPYCACHEPREFIX": _PYCACHE}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def cold(args: list[str], cwd: Path | None = None, runs: int = 5, *, command: list[str] | None = None,
         warm_up: bool = True) -> Timing:
    """Best/median wall time, best CPU time and peak memory of `runs` fresh processes."""
    argv = (command or CLI) + args
    env = environment()
    if warm_up:
        subprocess.run(argv, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    walls, cpus, peak = [], [], 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        peak = max(peak, after.ru_maxrss)
    return Timing(min(walls), statistics.median(walls), min(cpus), peak)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"


def machine_speed() -> str:
    """A fixed pure-Python workload, timed: figures taken at different times (this machine's speed
    varies up to fourfold from hour to hour) compare only alongside it."""
    start = time.perf_counter()
    total = 0
    for number in range(5_000_000):
        total += number
    return f"5M-step Python loop {time.perf_counter() - start:.2f} s"


def warm_phases(view_of, template: str, base_dir: Path) -> dict[str, float]:
    """Seconds of each phase of one warm render in this process: `view_of()` (read, analyse, make the
    view), the HTML of `template`, WeasyPrint's layout, the PDF's bytes. WeasyPrint's import and the
    font setup are done first and not timed."""
    import time

    from scriptforge.render.pdf import Renderer
    from scriptforge.render.writing import pdf_bytes

    renderer = Renderer()
    renderer.fonts.bundled  # noqa: B018 — imports WeasyPrint and sets up fontconfig, not timed
    times = {}
    start = time.perf_counter()
    view = view_of()
    times["view model"] = time.perf_counter() - start
    start = time.perf_counter()
    html = renderer.html(view, template)
    times["HTML"] = time.perf_counter() - start
    start = time.perf_counter()
    document = renderer.layout(html, base_dir, [])
    times["layout"] = time.perf_counter() - start
    start = time.perf_counter()
    pdf_bytes([document])
    times["PDF writing"] = time.perf_counter() - start
    return times
