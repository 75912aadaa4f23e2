"""Facts about the official characters that hold with no data pack loaded (data/official.yaml):
each released character's id and team in the official sheet order, and the official jinx pairs.

They let a script that names an official character scriptforge has no data for be told apart
from a misspelling, keep pack characters in the official order, and tell a jinx the official data
retired from one it still has.
"""

from dataclasses import dataclass
from functools import cache, lru_cache
import json
from pathlib import Path
from typing import Any

from scriptforge.io.datafiles import read_yaml, schema_path, validate
from scriptforge.io import cache as user_cache
from scriptforge.io.fileio import files_digest
from scriptforge.io.paths import DATA_DIR, PACKAGE_DIR

PACK_UPDATE = "scriptforge pack update"


@dataclass(frozen=True, eq=False)
class OfficialFacts:
    """What data/official.yaml says: each official id's team and place in the
    official sheet order, and the official jinx pairs."""

    teams: dict[str, str]  # id -> team, in sheet order (team by team)
    positions: dict[str, int]  # id -> 0-based place in that order
    jinxes: frozenset[frozenset[str]]

    def close(self, text: str, limit: int = 3) -> list[str]:
        """Official ids close to a misspelt id (normalised)."""
        return list(_close(self, text, limit))


@lru_cache(maxsize=4096)
def _close(facts: OfficialFacts, text: str, limit: int) -> tuple[str, ...]:
    """`OfficialFacts.close`, remembered: a corpus repeats its misspellings file after file."""
    # deferred: start-up time (only a misspelt id needs it)
    import difflib

    return tuple(difflib.get_close_matches(text, list(facts.teams), n=limit, cutoff=0.75))


@cache
def official_facts() -> OfficialFacts:
    data = _checked(DATA_DIR / "official.yaml")
    teams = {char_id: team for team, ids in data["characters"].items() for char_id in ids}
    return OfficialFacts(teams=teams, positions={char_id: i for i, char_id in enumerate(teams)}, jinxes=frozenset(frozenset(pair) for pair in data["jinxes"]))


def _checked(path: Path) -> Any:
    """The file read and checked against its schema, kept in the user cache as JSON under the
    hash of its bytes, its schema's and the reading code's: the same bytes get the same verdict,
    and most commands that need these facts would otherwise spend more on importing and running
    the YAML reader than on anything else they do with them."""
    code = ("db/official.py", "io/datafiles.py", "io/userfiles.py")
    sources = (path, schema_path("official"), *(PACKAGE_DIR / m for m in code))
    name = files_digest(sources, [DATA_DIR, PACKAGE_DIR])[:32]
    text = user_cache.read_text("official", name)
    if text is not None:
        return json.loads(text)
    data = read_yaml(path)
    validate(data, "official", path)
    user_cache.write_text("official", name, json.dumps(data, ensure_ascii=False))
    return data
