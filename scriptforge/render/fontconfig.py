"""fontconfig sees only the bundled fonts: fast start, the same output on every machine.

fontconfig reads ``FONTCONFIG_FILE`` whenever a configuration is made (at ``import weasyprint``
and in each ``FontConfiguration()``). `only_bundled_fonts` points it, while active, at a file in
the user cache (`io.cache`, kind "fontconfig") naming the bundled fonts folder and a font cache
beside it; the file is checked byte for byte before each use and written again when it differs,
so a damaged one is never read. Without a usable cache fontconfig's own configuration is used
and the bundled fonts come in through ``@font-face`` (slower, same output).
"""

import hashlib
import os
import sys
from pathlib import Path

from scriptforge.io import cache
from scriptforge.io.paths import FONTS_DIR

PLAIN_SWITCH = "SCRIPTFORGE_PLAIN_WEASYPRINT"  # WeasyPrint as it comes (render.weasy), fontconfig too

_TEMPLATE = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<!-- Written by scriptforge: fontconfig sees only the bundled fonts (fast start, same output on
     every machine). -->
<fontconfig>
  <dir>{fonts}</dir>
  <cachedir>{cache}</cachedir>
</fontconfig>
"""


def fontconfig_file() -> Path | None:
    """A fonts.conf that only knows the bundled fonts folder, or None (no usable cache)."""
    base = cache.folder("fontconfig")
    if base is None:
        return None
    text = _TEMPLATE.format(fonts=_xml(str(FONTS_DIR.resolve())), cache=_xml(str(base / "cache")))
    name = "fonts-" + hashlib.sha256(text.encode()).hexdigest()[:12] + ".conf"
    return cache.plain_file("fontconfig", name, text.encode("utf-8"))


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class only_bundled_fonts:
    """While active, a new fontconfig configuration sees only the bundled fonts (the variable is
    restored afterwards, so nothing else in the process is affected). Off under
    ``SCRIPTFORGE_SYSTEM_FONTS`` and with WeasyPrint as it comes (`PLAIN_SWITCH`)."""

    def __init__(self, active: bool = True):
        self.active = active and sys.platform.startswith("linux") and "SCRIPTFORGE_SYSTEM_FONTS" not in os.environ \
            and os.environ.get(PLAIN_SWITCH, "0") in ("", "0")

    def __enter__(self):
        self.saved = os.environ.get("FONTCONFIG_FILE")
        config = fontconfig_file() if self.active else None
        if config is not None:
            os.environ["FONTCONFIG_FILE"] = str(config)
        self.applied = config is not None
        return self

    def __exit__(self, *exc):
        if self.saved is None:
            os.environ.pop("FONTCONFIG_FILE", None)
        else:
            os.environ["FONTCONFIG_FILE"] = self.saved
        return False
