"""The system libraries WeasyPrint needs: the one line a machine without Pango gets."""

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
