"""One script's analysis: every rule applied once, for every consumer.

`analyse(script, db)` is the single place where the rules engine runs for a script: sheet order,
jinxes (and whether the Djinn is needed), night order with its steps, the setup table and the
validate findings. Views, `validate`, the script editor, `export` and the almanac all take an
`Analysis`; none of them calls the rules itself. Each part is computed on first use and kept, so
a command pays only for what it shows (a sheet without a back page never counts setups).

The analysis is language-neutral: texts are picked per language by whoever prints it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from scriptforge.database import Database
from scriptforge.model import Character
from scriptforge.rules.findings import Finding
from scriptforge.rules.jinxes import ScriptJinxes, script_jinxes
from scriptforge.rules.night import NightOrder, night_order
from scriptforge.rules.order import sheet_order
from scriptforge.rules.setup import SetupRow, setup_table
from scriptforge.script import Script


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
        return tuple(setup_table(self.script.characters, self.db))

    @cached_property
    def findings(self) -> tuple[Finding, ...]:
        """Everything `validate` reports: reading problems, schema, lengths, night, setup, jinxes."""
        from scriptforge.rules.validate import script_findings

        return tuple(script_findings(self))

    @property
    def images(self) -> dict[str, str]:
        """Character id -> the script's own image for it (a URL, or a path from the script's folder)."""
        return self.script.images


def analyse(script: Script, db: Database, *, players: int | None = None, keep_order: bool = False) -> Analysis:
    return Analysis(script, db, players=players, keep_order=keep_order)
