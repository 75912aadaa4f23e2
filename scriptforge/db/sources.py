"""Where a command's database comes from, as one value: the data folder, the packs and a homebrew folder.

The command line makes it from `--pack`, `--no-packs`, `--homebrew` and $SCRIPTFORGE_DATA
(``cli/common.data_options``) and gives it to what loads the database; nothing reads those options
from anywhere else.
"""

from dataclasses import dataclass
from pathlib import Path

from scriptforge.db.database import Database
from scriptforge.db.loading import load_database
from scriptforge.db.pack_store import active_packs


@dataclass(frozen=True)
class DataSources:
    """The data folder (None: the shipped one), the packs chosen by name or folder (`packs`),
    whether the installed official pack and $SCRIPTFORGE_PACKS come first (`defaults`; False:
    `--no-packs`), and a folder of homebrew YAML files (added by ``scripts.homebrew.with_homebrew``,
    a layer above)."""

    data_dir: str | None = None
    packs: tuple[str, ...] = ()
    defaults: bool = True
    homebrew: Path | None = None

    def chosen_packs(self) -> list[Path]:
        """The packs to load, in order (see ``pack_store.active_packs``)."""
        return active_packs(self.packs, defaults=self.defaults)

    def load(self) -> Database:
        """The database of the data folder and the packs (without the homebrew folder)."""
        return load_database(Path(self.data_dir) if self.data_dir else None, self.chosen_packs())
