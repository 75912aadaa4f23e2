"""fontconfig sees only the bundled fonts: fast start, the same output on every machine.

fontconfig reads ``FONTCONFIG_FILE`` whenever a configuration is made (at ``import weasyprint``
and in each ``FontConfiguration()``). `only_bundled_fonts` points it, while active, at a file in
the user cache (`io.cache`, kind "fontconfig") naming the bundled fonts folder and a font cache
beside it; the file is checked byte for byte before each use and written again when it differs,
so a damaged one is never read. Without a usable cache it is written to a temporary folder of
the process instead (slower, the same output).
"""

import atexit
import functools
import hashlib
import os
from pathlib import Path
import sys

from scriptforge.io import cache
from scriptforge.io.paths import FONTS_DIR

PLAIN_SWITCH = "SCRIPTFORGE_PLAIN_WEASYPRINT"  # WeasyPrint as it comes (render.weasy), fontconfig too
SYSTEM_FONTS_SWITCH = "SCRIPTFORGE_SYSTEM_FONTS"  # any value but "" or "0": fontconfig always sees the system's fonts

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
    """A fonts.conf that only knows the bundled fonts folder: in the user cache, or where that
    cannot be used, in a private temporary folder of this process (slower: fontconfig scans the
    fonts again; the same output)."""
    base = cache.folder("fontconfig")
    text = _TEMPLATE.format(fonts=_xml(str(FONTS_DIR.resolve())), cache=_xml(str((base or _private()) / "cache")))
    name = "fonts-" + hashlib.sha256(text.encode()).hexdigest()[:12] + ".conf"
    if base is not None:
        path = cache.plain_file("fontconfig", name, text.encode("utf-8"))
        if path is not None:
            return path
    path = _private() / name
    try:
        if not path.is_file():
            path.write_text(text, encoding="utf-8")
    except OSError:  # not even a temporary folder: fontconfig's own configuration then
        return None
    return path


@functools.cache
def _private() -> Path:
    # deferred: start-up time (shutil loads zlib, bz2 and lzma; only an unusable cache needs them)
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="scriptforge-fontconfig-"))  # mode 0700, this user's
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def system_fonts_switch() -> bool:
    """Whether ``SCRIPTFORGE_SYSTEM_FONTS`` asks that fontconfig never be kept to the bundled
    fonts (any value but "" or "0", as `PLAIN_SWITCH`): to compare a page with what the system's
    fonts would make of it."""
    return os.environ.get(SYSTEM_FONTS_SWITCH, "0") not in ("", "0")


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class only_bundled_fonts:
    """While active, a new fontconfig configuration sees only the bundled fonts (the variable is
    restored afterwards, so nothing else in the process is affected). Off under
    ``SCRIPTFORGE_SYSTEM_FONTS`` and with WeasyPrint as it comes (`PLAIN_SWITCH`)."""

    def __init__(self, active: bool = True):
        self.active = active and sys.platform.startswith("linux") and not system_fonts_switch() \
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
