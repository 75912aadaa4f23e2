"""Library results in words for the CLI, one module per command family: `scripts` (validate, setup,
jinxes, night, order), `reference` (list, show, search, db check), `l10n` (the translator tools).
Nothing below this package imports it."""
