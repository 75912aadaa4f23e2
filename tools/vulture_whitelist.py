"""What `vulture scriptforge tools/vulture_whitelist.py` would call unused but is used.

Vulture matches names only, so each is written as an attribute of `_`. Delete a line when its
code goes; add one only for code that something outside vulture's view calls.
"""

_ = object()

# click: commands reached through their group, parameters click passes (the callback signature)
_.list_command, _.show, _.db_check, _.import_almanac, _.nightsheet, _.homebrew_check, _.explain
_.l10n_status, _.l10n_diff, _.l10n_check, _.l10n_confirm, _.l10n_export, _.l10n_import
_.pack_import, _.pack_list, _.pack_diff, _.pack_update, _.export_command, _.watch, _.migrate, _.l10n_terms
_.debug, _.param, _.cache_info, _.cache_clear
# jinja2.BytecodeCache methods Jinja calls (templating._CachedBytecode)
_.load_bytecode, _.dump_bytecode
# click.ParamType methods click calls (LanguageChoice)
_.get_metavar, _.convert, _.shell_complete

# l10n checks registered by their @check decorator
_.untranslated, _.stale, _.night_marker, _.setup_bracket, _.name_glossary
_.name_misspelt, _.name_collision, _.whitespace, _.unbalanced, _.official_word
_.item_count, _.number_parity, _.bracket_parity, _.label_parity, _.night_register, _.term_variant

# dataclass fields and properties read by templates or through getattr
_.how_to_run, _.examples, _.is_list, _.numbered, _.is_role
_.first_night_reminder, _.other_night_reminder, _.seating, _.sheet_scale, _.sheet_only
# almanac.html.j2: a kit's almanac pages alone, and the pages the closing night order links to
_.pages_only, _.page_ids
# token sheets (tokens.html.j2): the marks' shapes, the picture's box, the community-content notice
_.shapes, _.icon_box, _.art_notice, _.margin
# what the print check (benchmarks/print_check.py) asks of a name: whether it fits the name column whole
_.fits_whole
# a registry field the language data carries (schema-checked) that no code reads yet

# WeasyPrint's API: a URLFetcher method, document metadata, HTML attributes it reads, the HTML
# methods it asks for the user-agent stylesheets (SheetHTML)
_.fetch, _.created, _.modified, _.generator, _.media_type, _.__name__, _._ua_stylesheets, _._ua_counter_style

# the package's attributes imported on first use (PEP 562)
_.__getattr__


# library functions the tests use
_.witch_count, _.sequence, _.load_games, _.validate_data, _.imported_fast, _.is_teensyville, _.inactive_patches, _.variants_left

# the whole script on the page: the footer's CSS strings, the title and night-page labels the
# templates read; the completeness check the print-check benchmark runs
_.left_css, _.right_css, _.page_css, _.players_label, _.title_shown, _.sheet_items

# Jinja calls the bytecode cache's hooks (render/templating._CachedBytecode)
_.load_bytecode, _.dump_bytecode

# read by the templates: a team or the jinx list going on over a page (_macros.html.j2) and its
# rows anchored, the token cover's text size
_.continued, _.jinx_parts, _.row_anchors, _.cover_scale
