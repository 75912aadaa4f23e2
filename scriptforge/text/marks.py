"""How the command line marks a text shown in another language than the one asked for: the
language's tag after it ("[EN]"), as the printed sheets tag it, and one line per tag used saying
what it means. JSON outputs say the same with a `fallback` field."""

from collections.abc import Iterable

from scriptforge.db.database import Database


def tag(code: str | None, lang: str) -> str:
    """" [EN]" after a text in `code` shown for `lang`; "" when it is in `lang` (or in none)."""
    return f" [{code.upper()}]" if code and code != lang else ""


def notes(db: Database, lang: str, codes: Iterable[str | None]) -> list[str]:
    """One line per language some shown text is in instead of `lang`, saying what its tag means."""
    return [db.fallback_note(lang, code) for code in dict.fromkeys(c for c in codes if c and c != lang)]


def with_notes(db: Database, lang: str, lines: list[str], codes: Iterable[str | None]) -> list[str]:
    """`lines` and, after a blank line, the notes of the tags they use (none: `lines` alone)."""
    explained = notes(db, lang, codes)
    return [*lines, "", *explained] if explained else lines
