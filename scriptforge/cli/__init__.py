"""The command line: parse options, call the library, print. No logic lives here.

One module per family of commands (`reference`, `scripts`, `printing`, `editing`, `l10n`,
`packs`, `games`, `cache`), what they share in `common`; this module puts them under the `scriptforge` group."""

import click

from scriptforge import __version__
from scriptforge.cli import cache, editing, games, l10n, packs, printing, reference, scripts
from scriptforge.cli.common import OneLineErrors, pack_options
from scriptforge.io import collector
from scriptforge.io.fileio import new_command


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="scriptforge")
@click.option("--debug", is_flag=True, help="Show a traceback instead of a one-line error.")
@pack_options
def main(debug, packs, no_packs):
    """scriptforge: Blood on the Clocktower characters and scripts, in Korean and English."""
    new_command()  # no output may replace what *this* command reads (see fileio.refuse_to_overwrite)
    # --pack and --no-packs given here come before the command's own (cli.common.sources)


for command in (reference.list_command, reference.show, reference.search, reference.db, reference.explain,
                scripts.validate, scripts.setup, scripts.jinxes, scripts.night, scripts.order,
                printing.build, printing.nightsheet, printing.tokens, printing.watch, printing.almanac, printing.kit,
                editing.new, editing.add, editing.remove, editing.meta, editing.homebrew_group, editing.migrate,
                editing.export_command, l10n.l10n, packs.import_group, packs.pack, games.cards, cache.cache_group):
    main.add_command(command)


def run() -> None:
    """The ``scriptforge`` console command: `main`, then a quicker interpreter exit
    (``io.collector.leave_alone``)."""
    try:
        main(prog_name="scriptforge")
    finally:
        collector.leave_alone()
