"""The user cache: cache info, cache clear."""

import click

from scriptforge.cli.common import echo, fail_cleanly, format_option, print_json
from scriptforge.io import cache as user_cache
from scriptforge.text.cache import cleared_line, info_json, info_lines


@click.group("cache")
def cache_group():
    """What scriptforge keeps to be fast: rebuilt whenever it is missing or damaged."""


@cache_group.command("info")
@format_option
@fail_cleanly
def cache_info(fmt):
    """Where the cache is, and the entries and size of each kind.

    \b
    Example:
        scriptforge cache info
    """
    root, kinds = user_cache.info()
    if fmt == "json":
        print_json(info_json(root, kinds, user_cache.KINDS))
    else:
        for line in info_lines(root, kinds, user_cache.KINDS):
            echo(line)


@cache_group.command("clear")
@fail_cleanly
def cache_clear():
    """Remove every entry; the next commands make them again (slower once, same output).

    \b
    Example:
        scriptforge cache clear
    """
    files, held = user_cache.clear()
    echo(cleared_line(user_cache.home(), files, held))
