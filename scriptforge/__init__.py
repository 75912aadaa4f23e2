"""scriptforge: a bilingual Blood on the Clocktower character database and script builder."""

__version__ = "0.1.0"
__all__ = ["Database", "load_database", "ScriptforgeError", "__version__"]


def __getattr__(name: str):
    """`Database`, `load_database` and `ScriptforgeError`, imported on first use (a command that
    needs no database, ``cache info``, loads none of it)."""
    if name == "Database":
        # deferred: start-up time
        from scriptforge.db.database import Database

        return Database
    if name == "load_database":
        # deferred: start-up time
        from scriptforge.db.loading import load_database

        return load_database
    if name == "ScriptforgeError":
        # deferred: start-up time
        from scriptforge.io.errors import ScriptforgeError

        return ScriptforgeError
    raise AttributeError(f"module 'scriptforge' has no attribute {name!r}")
