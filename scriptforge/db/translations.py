"""The user's translation layer: where `l10n import` writes when no data folder is named.

A folder in the data layout (`<lang>/characters/<id>.yaml`, `<lang>/reminders.yaml`, …) in the
user's data directory, loaded after every pack, so an edited text wins over the built-in data and
the official pack alike, and survives both an upgrade of scriptforge (which replaces the
installed data) and a `pack update`. Its files hold only the texts the user changed (a character
file may have its ability and nothing else): the loader checks them with the `required` fields
of their schemas lifted, since the layers below give the rest.
"""

from pathlib import Path

import platformdirs

from scriptforge.io.fileio import dump_yaml, write_files
from scriptforge.io.datafiles import read_yaml
from scriptforge.io.errors import DataError

NAME = "translations"
MANIFEST = {"name": NAME, "format": 1, "partial_texts": True}


def user_layer_dir() -> Path:
    return Path(platformdirs.user_data_dir("scriptforge")) / NAME


def user_layer() -> Path | None:
    """The user's translation layer, if there is one."""
    folder = user_layer_dir()
    return folder if (folder / "pack.yaml").is_file() else None


def ensure_user_layer() -> Path:
    """The user's translation layer, made (empty, with its manifest) if there is none yet."""
    folder = user_layer_dir()
    if not (folder / "pack.yaml").is_file():
        folder.mkdir(parents=True, exist_ok=True)
        header = "# scriptforge: your own translations and corrections, written by `scriptforge l10n import`.\n"
        write_files({folder / "pack.yaml": (header + dump_yaml(MANIFEST)).encode("utf-8")}, folder)
    return folder


def is_partial(folder: Path) -> bool:
    """Whether a layer holds partial texts (the user's translation layer)."""
    try:
        manifest = read_yaml(Path(folder) / "pack.yaml")
    except (DataError, OSError):
        return False
    return isinstance(manifest, dict) and manifest.get("partial_texts") is True
