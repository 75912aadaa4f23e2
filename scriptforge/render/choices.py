"""The choices of the printing commands' options, each from its one table: papers, formats, text
sizes, columns, PNG resolutions, the picture download time.

Only tables, on purpose: the command line imports this module to build its options before any
command runs (``render/options.py`` holds the values made from them).
"""

from scriptforge.render.pages import PAPER

PAPERS = tuple(PAPER)
FORMATS = ("pdf", "html", "png")
#: --font-size: the text size against today's (9 pt at 100 %); the fitting shrinks from there.
FONT_SIZES = {"normal": 1.0, "large": 1.15}
COLUMNS = (1, 2)
#: The players a Teensyville layout is for (fewer than 7: no Minion and Demon info at night).
TEENSY_PLAYERS = (5, 6)
#: PNG output: pixels per inch of sheets and almanacs, and of tokens (cut lines need more).
PNG_DPI = 150
TOKEN_DPI = 300
FETCH_SECONDS = 5.0  # a remote picture (--allow-network): the whole download, per file
