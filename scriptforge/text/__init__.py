"""Library results in words for the CLI, one module per command family: `scripts` (validate, setup,
jinxes, night, order), `reference` (list, show, search, db check), `games` (list and show of the
other games), `findings` (the findings of validate and l10n check, explain), `l10n` (the
translator tools), `packs` (pack import, update, list, diff), `outputs` (the end of a printing
batch). Nothing below this package imports it."""
