"""The one registry of finding codes: code, severity and a one-line summary each.

docs/findings.md documents the same codes; a test keeps the two in step.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True)
class FindingCode:
    code: str
    severity: str
    summary: str


_CODES = [
    # reading the script
    FindingCode("invalid-entry", "error", "A script entry is neither a character id nor a usable object."),
    FindingCode("unknown-character", "error", "An id or name that matches no character in the database."),
    FindingCode("ambiguous-character", "error", "A name that matches several characters."),
    FindingCode("duplicate-character", "warning", "The same character is listed more than once."),
    FindingCode("duplicate-meta", "warning", "More than one _meta object; the first one is used."),
    FindingCode("character-override", "info", "A full object overrides an official character's texts for this script."),
    FindingCode("setup-bracket-unknown", "warning", "A [...] setup bracket whose wording scriptforge cannot read."),
    FindingCode("meta-night-unknown", "warning", "A _meta.firstNight/otherNight entry that is not on the script."),
    # validating
    FindingCode("schema-violation", "error", "The script does not match the official script JSON schema."),
    FindingCode("text-too-long", "error", "A name, ability or other text longer than the official limit."),
    FindingCode("team-counts", "info", "How many characters each team has (Travellers, Fabled and Loric apart)."),
    FindingCode("team-too-small", "warning", "A team has fewer characters than the base setup needs at some player counts."),
    FindingCode("setup-shortfall", "warning", "Setup characters can demand more characters of a team than the script has."),
    FindingCode("setup-impossible", "error", "Even the kindest setup choices need more characters of a team than the script has."),
    FindingCode("companion-missing", "error", "A setup character adds a character that is not on the script (Huntsman without Damsel)."),
    FindingCode("jinx-without-djinn", "warning", "The script has jinxed pairs but no Djinn to carry the jinxes."),
    FindingCode("unreadable-input", "error", "The file is not a readable script (bad JSON, not an array, empty)."),
]

REGISTRY: dict[str, FindingCode] = {c.code: c for c in _CODES}


@dataclass(frozen=True)
class Finding:
    code: str
    severity: str
    message: str
    path: str | None = None  # JSON pointer into the script
    data: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "severity": self.severity, "message": self.message}
        if self.path is not None:
            out["path"] = self.path
        if self.data:
            out["data"] = self.data
        return out


def finding(code: str, message: str, path: str | None = None, **data: Any) -> Finding:
    """A finding with the severity the registry gives its code (an unknown code is a bug)."""
    return Finding(code=code, severity=REGISTRY[code].severity, message=message, path=path, data=data)


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)


def short(value: object, limit: int = 60) -> str:
    """A value for a message: repr-like, cut to `limit` characters."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
