"""The system libraries WeasyPrint needs: found with one ``ldconfig -p`` listing, and the one
line a machine without Pango gets."""

import os
from pathlib import Path
import re
import sys

from scriptforge.io.errors import ScriptforgeError


class MissingLibrary(ScriptforgeError):
    """A system library WeasyPrint needs is not installed."""

    exit_code = 2


#: How to install Pango (>= 1.44, which WeasyPrint needs), per system.
PANGO_PACKAGES = {
    "debian": "apt-get install libpango-1.0-0 libpangoft2-1.0-0",
    "fedora": "dnf install pango",
    "alpine": "apk add pango",
    "arch": "pacman -S pango",
    "suse": "zypper install pango",
    "darwin": "brew install pango",
    "win32": "install GTK 3 with MSYS2 (pacman -S mingw-w64-x86_64-pango) and add its bin folder to PATH",
}


def pango_install_hint(detail: str) -> str:
    """The one line for a machine without Pango: what is missing and the command that installs it."""
    system = _system_family()
    how = PANGO_PACKAGES.get(system) or "install Pango 1.44 or later with your system's package manager"
    library = re.search(r"'([^']+)'", detail)
    missing = f" ({library.group(1)} not found)" if library else ""
    return (f"rendering needs the Pango text library, version 1.44 or later{missing}; "
            f"install it: {how} (see the README, Requirements)")


def _system_family() -> str:
    if sys.platform in ("darwin", "win32"):
        return sys.platform
    try:
        release = Path("/etc/os-release").read_text(encoding="utf-8", errors="replace").lower()
    except OSError:
        return ""
    ids = " ".join(re.findall(r"^id(?:_like)?=\"?([^\"\n]+)", release, re.MULTILINE))
    for family in ("debian", "ubuntu", "fedora", "rhel", "alpine", "arch", "suse"):
        if family in ids:
            return {"ubuntu": "debian", "rhel": "fedora"}.get(family, family)
    return ""


class ListedFindLibrary:
    """``ctypes.util.find_library`` answered from one ``ldconfig -p`` listing, made on first use
    (the original function if there is no listing)."""

    def __init__(self, original):
        self.original = original
        self.listing = None

    def __call__(self, name):
        if self.listing is None:
            self.listing = ldconfig_listing()
        if not self.listing:
            return self.original(name)
        match = re.search(r"\s(lib%s\.[^\s]+)\s" % re.escape(name), self.listing)
        return match.group(1) if match else None


def ldconfig_listing() -> str:
    # deferred: start-up time
    import subprocess

    for ldconfig in ("ldconfig", "/sbin/ldconfig"):
        try:
            return subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=False, timeout=10,
                                  env={**os.environ, "LC_ALL": "C", "LANG": "C"}).stdout
        except (OSError, subprocess.SubprocessError):
            continue
    return ""
