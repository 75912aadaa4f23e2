"""Normalising ids and names so that every spelling a user types finds its character."""

import re
import unicodedata

_NOT_ID = re.compile(r"[^a-z0-9]")
_NOT_NAME = re.compile(r"[\s'’`´\-_.·]")
NIGHT_STEPS = ("dusk", "minioninfo", "demoninfo", "dawn")


def normalize_id(text: str) -> str:
    """Official-id form: lowercase, every character outside [a-z0-9] dropped (`Lil' Monsta` -> `lilmonsta`)."""
    return _NOT_ID.sub("", text.lower())


def name_key(text: str) -> str:
    """Lookup key for names in any script: NFC, casefolded, without spaces, apostrophes and dashes."""
    return _NOT_NAME.sub("", unicodedata.normalize("NFC", text).casefold())
