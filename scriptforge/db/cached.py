"""Loaded databases kept in the user cache: the data folders opened before a load (`open_roots`), and
what a loader checked kept as one checksummed cache entry (`load_cached`), named by the content of
the code, the schemas and the YAML (`cache_name`; a moved folder keeps its entry). The character
database (`scriptforge.db.loading`) and every other rule set (`scriptforge.db.games`) load through here."""

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
import pickle
from typing import TypeVar

from scriptforge.io.errors import DataError
from scriptforge.model.languages import REGISTRY_PATH
from scriptforge.io import cache
from scriptforge.io.fileio import files_digest, finish_journal, protect_data
from scriptforge.io.paths import DATA_DIR, PACKAGE_DIR, SCHEMAS_DIR


def open_roots(roots: Sequence[Path]) -> None:
    """Before a database or a game is loaded from `roots` (data folders): mark each as data, which
    no output of this command may replace, and finish a change to it that was interrupted."""
    for root in roots:
        protect_data(root)
        try:
            finish_journal(root)
        except OSError as exc:
            raise DataError(f"cannot finish a change that was interrupted: {exc.strerror or exc}",
                            where=str(root)) from None


T = TypeVar("T")


def load_cached(kind: str, loader: Path, roots: list[Path], expected: type[T],
                check: Callable[[], tuple[T | None, list[DataError]]], hint: str = "") -> T:
    """What `check` loads, kept in the user cache (`io.cache`: kind "database", named by
    `cache_name`) under the hash of the loader module, the code shaping the records, the language
    registry, the schemas and every YAML file under `roots`, by content: the same bytes always get
    the same verdict, so only a change pays for parsing and validating again. The first problem
    `check` finds is raised as a DataError (`hint` after the count of the others). The BotC
    database and every other rule set load through here."""
    name = cache_name(kind, loader, roots)
    kept = cache.read("database", name)  # None when missing, damaged or not the user's own
    try:
        made_in, found = (None, None) if kept is None else pickle.loads(kept)
        if isinstance(found, expected):
            return _moved(found, Path(str(made_in)), roots[0])
    except Exception:  # a checksummed pickle of another version of the code: load it properly (and replace it)
        pass
    checked, problems = check()
    if problems or checked is None:
        more = f" (and {len(problems) - 1} more problems{hint})" if len(problems) > 1 else ""
        raise DataError(str(problems[0]) + more)
    _keep(name, roots[0], checked)
    return checked


def cache_name(kind: str, loader: Path, roots: Sequence[Path]) -> str:
    """The cache entry's name for what `loader` loads from `roots` (see `load_cached`): named by
    content, so the same files moved elsewhere keep their entry (a FIFO named *.yaml is never read)."""
    code = ("db/database.py", "db/loading.py", "db/layer_merges.py", "db/cached.py", "model/records.py",
            "io/datafiles.py", "model/ids.py", "model/languages.py", "db/pack_sources.py", "db/pack_store.py",
            "io/userfiles.py")
    files = [loader, *(PACKAGE_DIR / m for m in code), REGISTRY_PATH, *sorted(SCHEMAS_DIR.glob("*.json"))]
    files += [path for root in roots for path in sorted(root.rglob("*.yaml"))]
    return f"{kind}-{files_digest(files, [*roots, PACKAGE_DIR, DATA_DIR])[:32]}"


def _keep(name: str, root: Path, loaded: object) -> None:
    cache.write("database", name, pickle.dumps((str(root), loaded), protocol=pickle.HIGHEST_PROTOCOL))


def _moved(loaded: T, made_in: Path, root: Path) -> T:
    """`loaded` (made from files under `made_in`) with its data folder where those files are now."""
    data_dir = getattr(loaded, "data_dir", None)
    if made_in == root or not isinstance(data_dir, Path) or not data_dir.is_relative_to(made_in):
        return loaded
    return replace(loaded, data_dir=root / data_dir.relative_to(made_in))  # type: ignore[type-var]
