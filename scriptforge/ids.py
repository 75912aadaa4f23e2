"""The one place ids are made: character ids, reminder-token ids and name keys.

A reminder token's id is made from its English label by the same rule as the official
translation files' `reminders` keys, so a translated label finds its token without a mapping.
"""

import re
import unicodedata

_NOT_ID = re.compile(r"[^a-z0-9]")
_NOT_NAME = re.compile(r"[\s'’`´\-_.·]")
NIGHT_STEPS = ("dusk", "minioninfo", "demoninfo", "dawn")


def normalize_id(text: str) -> str:
    """Official-id form: lowercase, every character outside [a-z0-9] dropped (`Lil' Monsta` -> `lilmonsta`)."""
    return _NOT_ID.sub("", text.lower())


def token_id(label: str) -> str:
    """A reminder token's id from its English label, the official translation files' key:
    "Red Herring" -> redherring, "3 Votes" -> 3votes. A label without a letter or digit ("?")
    gets its code points instead ("u3f"), so that every label has an id."""
    return normalize_id(label) or "u" + "".join(f"{ord(c):x}" for c in label.strip())


def name_key(text: str) -> str:
    """Lookup key for names in any script: NFC, casefolded, without spaces, apostrophes and dashes."""
    return _NOT_NAME.sub("", unicodedata.normalize("NFC", text).casefold())
