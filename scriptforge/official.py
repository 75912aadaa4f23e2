"""Facts about the official characters that hold with no data pack loaded (data/official.yaml):
each released character's id and team in the official sheet order, and the official jinx pairs.

They let a script that names an official character scriptforge has no data for be told apart
from a misspelling, keep pack characters in the official order, and tell a jinx the official data
retired from one it still has.
"""

from dataclasses import dataclass
import difflib
from functools import cache, lru_cache

from scriptforge.datafiles import read_yaml, validate
from scriptforge.paths import DATA_DIR

PACK_UPDATE = "scriptforge pack update"


@dataclass(frozen=True, eq=False)
class OfficialFacts:
    teams: dict[str, str]  # id -> team, in sheet order (team by team)
    positions: dict[str, int]  # id -> 0-based place in that order
    jinxes: frozenset[frozenset[str]]

    def close(self, text: str, limit: int = 3) -> list[str]:
        """Official ids close to a misspelt id (normalised)."""
        return list(_close(self, text, limit))


@lru_cache(maxsize=4096)
def _close(facts: OfficialFacts, text: str, limit: int) -> tuple[str, ...]:
    """`OfficialFacts.close`, remembered: a corpus repeats its misspellings file after file."""
    return tuple(difflib.get_close_matches(text, list(facts.teams), n=limit, cutoff=0.75))


@cache
def official_facts() -> OfficialFacts:
    path = DATA_DIR / "official.yaml"
    data = read_yaml(path)
    validate(data, "official", path)
    teams = {char_id: team for team, ids in data["characters"].items() for char_id in ids}
    return OfficialFacts(teams=teams, positions={char_id: i for i, char_id in enumerate(teams)}, jinxes=frozenset(frozenset(pair) for pair in data["jinxes"]))
