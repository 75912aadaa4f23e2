"""Errors a user can cause. Each carries one line that names the file and the place."""

from collections.abc import Sequence


class ScriptforgeError(Exception):
    """A mistake in user input or data; the CLI prints it as one line and exits non-zero."""

    exit_code = 1

    def __init__(self, message: str, *, where: str | None = None):
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class DataError(ScriptforgeError):
    """A data file that cannot be read or does not match its schema."""

    code = "data-invalid"  # its finding code (scriptforge.model.findings)


class DataReferenceError(DataError):
    """Data files that do not fit together: a text for an unknown id, a token without a label."""

    code = "data-reference"


class NotFoundError(ScriptforgeError):
    """A name or id that matches no character."""


class InputError(ScriptforgeError):
    """An input document (script, almanac) that cannot be read."""

    exit_code = 2


class UnknownCharactersError(ScriptforgeError):
    """A script names characters scriptforge cannot use; one line per entry, each naming file and place."""


class WriteError(ScriptforgeError, OSError):
    """A file that cannot be written (read-only folder, full disk, a file where a folder should be,
    an output that is an input). Also an OSError, so a cache writer that ignores OSError ignores it."""

    exit_code = 2


def json_pointer(steps: Sequence[str | int]) -> str:
    """The JSON pointer (RFC 6901) to the node at `steps`: "" is the whole document, "/0/id" the
    first item's id; `~` and `/` in a key are written `~0` and `~1`."""
    return "".join("/" + str(s).replace("~", "~0").replace("/", "~1") for s in steps)


def place(steps: Sequence[str | int]) -> str:
    """Where in a document, for a message: its JSON pointer, or "(top level)" for the whole of it."""
    return json_pointer(steps) or "(top level)"
