"""The one finding type and the one registry of finding codes, for every part that reports.

A code belongs to a domain: ``script`` (``validate`` and the commands that read scripts),
``data`` (``db check``: the data files and packs) or ``l10n`` (``l10n check``; those are
registered by ``scriptforge.l10n.checks``). The docs page of
a domain (docs/findings.md, docs/l10n-checks.md) documents the same codes; tests keep each page
in step with the registry, and ``scriptforge explain CODE`` prints a code's entry.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scriptforge.io.errors import ScriptforgeError

SEVERITIES = ("error", "warning", "info")
DOMAINS = {"script": "findings.md", "data": "findings.md", "l10n": "l10n-checks.md"}  # pages in docs/


@dataclass(frozen=True)
class FindingCode:
    """A registered finding code: its severity, its one-line summary and the domain whose docs page documents it."""

    code: str
    severity: str
    summary: str
    domain: str = "script"


_CODES = [
    # reading the script
    FindingCode("invalid-entry", "error", "A script entry is neither a character id nor a usable object."),
    FindingCode("unknown-character", "error", "An id or name that matches no character in the database."),
    FindingCode("ambiguous-character", "error", "A name that matches several characters."),
    FindingCode("unknown-team", "error", "A character object whose team is missing or not one of the seven teams."),
    FindingCode("no-team", "warning", "An object with no team or the team 'token' is no character (a token or a note): left out."),
    FindingCode("official-not-loaded", "warning", "Official characters the script names, or comes close to, are not loaded (`pack update`)."),
    FindingCode("team-changed", "warning", "A script object gives an official character another team; sheet and setup follow the script."),
    FindingCode("homebrew-differs", "warning", "An embedded homebrew character differs from the YAML file it was added from; the YAML is used."),
    FindingCode("homebrew-source-missing", "warning", "The YAML file an embedded homebrew character was added from cannot be read; the embedded copy is used."),
    FindingCode("incomplete-character", "error", "A homebrew character object without a name or an ability."),
    FindingCode("team-spelling", "info", "The team 'traveler' (the spelling before 2025) is read as 'traveller'."),
    FindingCode("character-renamed", "info", "A homebrew object that is an official character under its own id gets its translations."),
    FindingCode("duplicate-character", "warning", "The same character is listed more than once."),
    FindingCode("duplicate-meta", "warning", "More than one _meta object; the first one is used."),
    FindingCode("character-override", "info", "A full object overrides an official character's texts for this script."),
    FindingCode("export-homebrew", "info", "An export writes character objects, so the official app treats the script as homebrew."),
    FindingCode("setup-bracket-unknown", "warning", "A [...] setup bracket whose wording scriptforge cannot read."),
    FindingCode("meta-night-unknown", "warning", "A _meta.firstNight/otherNight entry that is not on the script."),
    # validating
    FindingCode("schema-violation", "error", "The script does not match the official script JSON schema."),
    FindingCode("text-too-long", "error", "A name, ability or other text longer than the official limit."),
    FindingCode("team-counts", "info", "How many characters each team has (Travellers, Fabled and Loric apart)."),
    FindingCode("team-too-small", "warning", "A team has fewer characters than the base setup needs at some player counts."),
    FindingCode("setup-shortfall", "warning", "Some bags of the script's setup characters need more characters of a team than the script has."),
    FindingCode("setup-impossible", "error", "At some player count no legal bag can be filled from the script's characters."),
    FindingCode("setup-forced-choice", "info", "A setup character's option that no fillable bag allows at some player counts: the Storyteller must take another."),
    FindingCode("setup-summarised", "info", "So many setup characters that the table is counted by classes: ranges exact, per-character checks skipped."),
    FindingCode("setup-unmodelled", "warning", "A setup effect scriptforge cannot count; the setup table leaves it out."),
    FindingCode("team-advice", "info", "A team has more or fewer characters than a standard (or Teensyville) script usually has."),
    FindingCode("no-outsider-modification", "info", "No character on the script changes the Outsider count."),
    FindingCode("sheet-too-full", "info", "More player characters than one sheet holds at full size."),
    FindingCode("companion-missing", "error", "A setup character adds a character that is not on the script (Huntsman without Damsel)."),
    FindingCode("jinx-without-djinn", "info", "The script has jinxed pairs and no Djinn; the jinxes are its rules all the same."),
    FindingCode("jinx-unknown", "warning", "A jinx the script embeds names a character id no data defines; it is left out."),
    FindingCode("jinx-outdated", "warning", "A jinx the script embeds differs from the official one, or the official data retired it."),
    FindingCode("night-order-missing", "warning", "_meta.firstNight/otherNight leaves out a character who wakes that night, or puts dusk after dawn."),
    FindingCode("unreadable-input", "error", "The file is not a readable script (bad JSON, not an array, empty, a refused value)."),
    # the data files (db check)
    FindingCode("data-invalid", "error", "A data file that cannot be read or does not match its schema.", "data"),
    FindingCode("data-reference", "error", "Data files that do not fit together (a text for an unknown id, …).",
                "data"),
]

REGISTRY: dict[str, FindingCode] = {c.code: c for c in _CODES}


def register(code: str, severity: str, summary: str, domain: str) -> FindingCode:
    """Add a code to the registry (each code once, in one domain)."""
    if severity not in SEVERITIES or domain not in DOMAINS or code in REGISTRY:
        raise ValueError(f"cannot register finding code {code!r} ({severity}, {domain})")
    REGISTRY[code] = FindingCode(code, severity, summary, domain)
    return REGISTRY[code]


@dataclass(frozen=True)
class Finding:
    """One thing a check found. Where it is: `path` (a JSON pointer into a script) for script
    findings; `lang`, `game`, `character` and `field` (the text's unit) for translation findings."""

    code: str
    severity: str
    message: str
    path: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    lang: str | None = None
    game: str | None = None
    character: str | None = None
    field: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "severity": self.severity}
        if self.lang is not None:
            out.update(lang=self.lang, game=self.game, character=self.character, field=self.field)
        out["message"] = self.message
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


def count(findings: Iterable[Finding], severity: str) -> int:
    return sum(f.severity == severity for f in findings)


# -- choosing and printing -------------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """`--select` / `--ignore`: a selector is a code or a code prefix ending at a hyphen, as in
    ruff (`setup` selects `setup-shortfall`, `setup-impossible`, …). Nothing selected: all."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @classmethod
    def of(cls, select: Sequence[str] = (), ignore: Sequence[str] = (), domain: str | None = None) -> "Selection":
        """Selectors split at commas and checked: each must match a code (of `domain`, if given)."""
        def split(values: Sequence[str]) -> tuple[str, ...]:
            return tuple(v.strip() for value in values for v in value.split(",") if v.strip())

        chosen = cls(split(select), split(ignore))
        codes = [c.code for c in REGISTRY.values() if domain is None or c.domain == domain]
        unknown = [s for s in (*chosen.select, *chosen.ignore) if not any(_matches(s, c) for c in codes)]
        if unknown:
            raise ScriptforgeError(f"unknown finding code(s): {', '.join(unknown)}; "
                                   f"'scriptforge explain --list' lists them")
        return chosen

    def wants(self, code: str) -> bool:
        if self.select and not any(_matches(s, code) for s in self.select):
            return False
        return not any(_matches(s, code) for s in self.ignore)

    def apply(self, findings: Iterable[Finding]) -> list[Finding]:
        return [f for f in findings if self.wants(f.code)]


def _matches(selector: str, code: str) -> bool:
    return code == selector or code.startswith(selector + "-")


def short(value: object, limit: int = 60) -> str:
    """A value for a message: repr-like, cut to `limit` characters."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
