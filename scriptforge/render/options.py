"""How a printing command prints: one frozen value, given to the library whole.

`PrintOptions` is the page's layout (the official script tool's print settings); `PrintSettings`
is everything else every printing command shares — language, paper, format, PNG resolution,
pictures, the network and the fonts — with the layout inside it. The CLI makes one `PrintSettings`
from its options (``cli/printing.print_settings_options``) and passes it; the choices of those
options come from the tables of ``render/choices.py`` (`PAPERS`, `FORMATS`, `FONT_SIZES`,
`COLUMNS`), so a command cannot offer a paper or a format the renderer lacks.
"""

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

from scriptforge.model.languages import default
from scriptforge.render.choices import FETCH_SECONDS, TEENSY_PLAYERS

if TYPE_CHECKING:
    from scriptforge.scripts.script import Script

@dataclass(frozen=True)
class PrintOptions:
    """How a script is laid out on paper (the official script tool's print settings); the
    defaults are scriptforge's own look.

    - ``columns``: the character rows in 1 or 2 columns;
    - ``compact``: tighter rows, smaller badges and headings (more fits at full text size);
    - ``font_size``: a key of FONT_SIZES;
    - ``player_table``: the 5–15 player-count table on the back page and the almanac's last page;
    - ``players``: the player count the night order is for (below 7: no Minion or Demon info);
    - ``teensy``: the Teensyville layout (player table for 5–6 players, nights without Minion and
      Demon info, the script type named under the title); None: decided by the script
      (``rules.script_kind.is_teensyville``).
    """

    columns: int = 1
    compact: bool = False
    font_size: str = "normal"
    player_table: bool = True
    players: int | None = None
    teensy: bool | None = None

    def for_script(self, script: "Script") -> "PrintOptions":
        """These options with `teensy` decided for `script` where it was left open."""
        if self.teensy is not None:
            return self
        # deferred: start-up time (the command line imports this module for its option tables)
        from scriptforge.rules.script_kind import is_teensyville

        return replace(self, teensy=is_teensyville(script.meta, script.characters))

    @property
    def night_players(self) -> int | None:
        """The player count the night order is computed for: `players`, else a Teensyville
        game's (6: no Minion or Demon info), else None (every step)."""
        if self.players is not None:
            return self.players
        return max(TEENSY_PLAYERS) if self.teensy else None

    def changed(self) -> list[str]:
        """The options set away from their defaults, as the command line spells them (--columns)."""
        return [f"--{f.name.replace('_', '-')}" for f in fields(self)
                if getattr(self, f.name) != getattr(PrintOptions(), f.name)]


@dataclass(frozen=True)
class PrintSettings:
    """What every printing command shares: the page's language and paper, the output format
    (None: from the output file's suffix), the PNG resolution (None: the output's own default),
    the pictures (``icons_dir``, remote ones only with ``allow_network`` and within
    ``fetch_seconds``), the fonts (``system_fonts``: True, False or None for where the bundled
    fonts lack letters) and the layout."""

    lang: str = field(default_factory=lambda: default("sheet"))
    paper: str = "a4"
    fmt: str | None = None
    dpi: int | None = None
    icons_dir: Path | None = None
    allow_network: bool = False
    fetch_seconds: float = FETCH_SECONDS
    system_fonts: bool | None = None
    layout: PrintOptions = field(default_factory=PrintOptions)
