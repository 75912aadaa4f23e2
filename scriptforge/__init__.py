"""scriptforge: a bilingual Blood on the Clocktower character database and script builder."""

__version__ = "0.1.0"
__all__ = ["Database", "load_database", "ScriptforgeError", "__version__"]


def __getattr__(name: str):
    """`Database`, `load_database` and `ScriptforgeError`, imported on first use (a command that
    needs no database, ``cache info``, loads none of it)."""
    if name in ("Database", "load_database"):
        # deferred: start-up time
        from scriptforge.db import database
        return getattr(database, name)
    if name == "ScriptforgeError":
        # deferred: start-up time
        from scriptforge.io.errors import ScriptforgeError

        return ScriptforgeError
    raise AttributeError(f"module 'scriptforge' has no attribute {name!r}")
