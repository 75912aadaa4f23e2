"""One script's analysis: every rule applied once, for every consumer.

`analyse(script, db)` is the single place where the rules engine runs for a script: sheet order,
jinxes (and whether the Djinn is needed), night order with its steps, the setup table and the
validate findings. Views, `validate`, the script editor, `export` and the almanac all take an
`Analysis`; none of them calls the rules itself. Each part is computed on first use and kept, so
a command pays only for what it shows (a sheet without a back page never counts setups).

The analysis is language-neutral: texts are picked per language by whoever prints it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scriptforge.db.database import Database
from scriptforge.model.records import Character
from scriptforge.io.errors import InputError
from scriptforge.model.findings import Finding, Selection, finding, has_errors
from scriptforge.rules.jinxes import ScriptJinxes, script_jinxes
from scriptforge.rules.night import NightOrder, missing_from_meta, night_order
from scriptforge.rules.order import sheet_order
from scriptforge.scripts.script import Script, read_script, script_from_data
from scriptforge.scripts.schema import length_findings, schema_findings

# The setup model and the script checks are imported where they are asked for: a sheet without
# a back page, built without findings, uses neither.
if TYPE_CHECKING:
    from scriptforge.rules.setup import SetupRow


@dataclass
class Analysis:
    """What the rules make of one script (see the module docstring)."""

    script: Script
    db: Database
    players: int | None = None  # the night order's player count (None: all steps)
    keep_order: bool = False  # the author's order instead of the sheet order

    @cached_property
    def characters(self) -> tuple[Character, ...]:
        """The script's characters in sheet order (or the author's, with keep_order)."""
        return tuple(sheet_order(self.script, keep_order=self.keep_order))

    @cached_property
    def jinxes(self) -> ScriptJinxes:
        return script_jinxes(self.script, self.db)

    @cached_property
    def night(self) -> NightOrder:
        return night_order(self.script, self.db, self.players)

    @cached_property
    def setup(self) -> tuple[SetupRow, ...]:
        """The 5–15 player setup table."""
        # deferred: start-up time
        from scriptforge.rules.setup import setup_table

        return tuple(setup_table(self.script.characters, self.db))

    @cached_property
    def findings(self) -> tuple[Finding, ...]:
        """Everything `validate` reports: reading problems, schema, lengths, night, setup, jinxes."""
        # deferred: start-up time
        from scriptforge.rules.validate import script_findings

        document = self.script.document
        return (*self.script.problems, *schema_findings(document), *length_findings(document),
                *script_findings(self))

    def night_order_warnings(self) -> list[str]:
        """What is wrong with the script's own night order (_meta.firstNight/otherNight), one line
        each, as `validate` says it (meta-night-unknown, night-order-missing): a printed night
        order that follows it says so."""
        found = (*self.night.problems, *missing_from_meta(self.script, self.night, self.db))
        return [f"{f.path}: {f.message} ({f.code})" for f in found]

    @property
    def images(self) -> dict[str, str]:
        """Character id -> the script's own image for it (a URL, or a path from the script's folder)."""
        return self.script.images


def analyse(script: Script, db: Database, *, players: int | None = None, keep_order: bool = False) -> Analysis:
    return Analysis(script, db, players=players, keep_order=keep_order)


# -- validate: reports on script files ----------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """What `validate` says of one script file: its findings, and its analysis where the file could be read."""

    source: str
    findings: tuple[Finding, ...]
    analysis: Analysis | None = None  # when the file could be read
    unreadable: bool = False  # not a script at all (exit code 2)

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "findings": [{"file": self.source, **f.as_dict()} for f in self.findings]}

    def selected(self, chosen: Selection) -> Report:
        """The report with only the findings `chosen` wants (--select / --ignore)."""
        return Report(self.source, tuple(chosen.apply(self.findings)), self.analysis, self.unreadable)


def validate_file(source: str | Path, db: Database) -> Report:
    """Read and check one script file ("-" for stdin); InputError if it is not a script at all."""
    return validate_script(read_script(source, db), db)


def validate_data(data: object, db: Database, source: str = "<data>") -> Report:
    """Check already-parsed JSON; InputError if it is not a non-empty array."""
    return validate_script(script_from_data(data, db, source), db)


def validate_script(script: Script, db: Database) -> Report:
    analysis = analyse(script, db)
    return Report(script.source, analysis.findings, analysis)


def input_error_report(source: str, error: InputError) -> Report:
    """A Report for a file that could not be read at all (exit code 2)."""
    return Report(source, (finding("unreadable-input", str(error), None),), unreadable=True)


def validate_files(sources: Iterable[str | Path], db: Database,
                   chosen: Selection | None = None, jobs: int = 1) -> Iterator[Report]:
    """One Report per file, as each is checked (an unreadable file gets an unreadable-input report),
    so that a caller can print it and let it go: checking 10,000 files holds one at a time. A
    folder stands for its *.json files (sorted). `chosen` (--select / --ignore) applies to the
    findings of the files that could be read. With ``jobs`` > 1 the files are checked by that many
    forked processes (scriptforge.io.batch.forked_map), in order, and the reports carry no analysis."""
    # deferred: start-up time
    from scriptforge.io import collector
    from scriptforge.io.batch import forked_map

    # The loaded database stays out of the collector's passes, and it does not run while a file is
    # checked (io.collector); what a file left in cycles goes when the next one starts allocating.
    collector.leave_alone()

    def one(source: str | Path) -> Report:
        try:
            with collector.paused():
                report = validate_file(source, db)
        except InputError as exc:
            error = InputError("the folder holds no .json script files", where=str(source)) \
                if Path(source).is_dir() else exc
            return input_error_report(str(source), error)
        report = report.selected(chosen) if chosen is not None else report
        return replace(report, analysis=None) if jobs > 1 else report

    return forked_map(one, _expanded(sources), jobs)


def _expanded(sources: Iterable[str | Path]) -> Iterator[str | Path]:
    """The files named: a folder's *.json files sorted by name (itself, when it holds none, so
    that it is reported as unreadable), anything else as given."""
    for source in sources:
        path = Path(source)
        if str(source) != "-" and path.is_dir():
            found: list[str | Path] = sorted(p for p in path.glob("*.json") if p.is_file())
            yield from found or [source]
        else:
            yield source